#!/bin/bash
# deb post-remove (electron-builder `deb.afterRemove`): undoes after-install.sh.
if [ -L '/usr/bin/${executable}' ]; then rm -f '/usr/bin/${executable}'; fi
if [ -f '/etc/apparmor.d/${executable}' ]; then
  if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; } && command -v apparmor_parser >/dev/null; then
    apparmor_parser --remove '/etc/apparmor.d/${executable}' 2>/dev/null || true
  fi
  rm -f '/etc/apparmor.d/${executable}'
fi
# The monitor's unit went with the package; its data (/var/lib/fleetdeck) and account stay.
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
exit 0
