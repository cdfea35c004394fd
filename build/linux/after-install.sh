#!/bin/bash
# deb post-install (electron-builder `deb.afterInstall`; ${...} are electron-builder's macros).
# Replaces electron-builder's default so that /usr/bin/${executable} is the `fleetdeck` CLI launcher
# (resources/bin/fleetdeck, the CLI on the app's own runtime) rather than the window; the desktop
# entry starts the window from /opt directly. The rest does what the default does: the sandbox
# helper's mode and the AppArmor profile Ubuntu 23.10+ needs for Electron's sandbox.
app='/opt/${sanitizedProductName}'
ln -sf "$app/resources/bin/fleetdeck" '/usr/bin/${executable}'

# The SUID sandbox helper is needed only where unprivileged user namespaces are unavailable.
if [[ -L /proc/self/ns/user ]] && unshare --user true 2>/dev/null; then
  chmod 0755 "$app/chrome-sandbox" || true
else
  chmod 4755 "$app/chrome-sandbox" || true
fi

command -v update-desktop-database >/dev/null && update-desktop-database /usr/share/applications || true

# AppArmor (Ubuntu 23.10+ restricts unprivileged user namespaces): install the profile shipped in
# resources/, if this AppArmor can parse it (older releases without abi 4.0 do not need it).
if apparmor_status --enabled >/dev/null 2>&1 && apparmor_parser --skip-kernel-load "$app/resources/apparmor-profile" >/dev/null 2>&1; then
  cp -f "$app/resources/apparmor-profile" '/etc/apparmor.d/${executable}'
  if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
    apparmor_parser --replace --write-cache --skip-read-cache '/etc/apparmor.d/${executable}' || true
  fi
fi

# The monitor's service account (fleetdeck-monitor.service runs as it): no login, no home of its own
# beyond the data directory systemd creates. The service is installed, not enabled: it needs sites first.
if ! getent passwd fleetdeck >/dev/null; then
  useradd --system --user-group --home-dir /var/lib/fleetdeck --no-create-home --shell /usr/sbin/nologin fleetdeck || true
fi
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
exit 0
