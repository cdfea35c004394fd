/**
 * Why this run would have no Chromium sandbox, or undefined when it has one. The AppImage's AppRun
 * adds `--no-sandbox` by itself when the kernel refuses unprivileged user namespaces (Ubuntu 23.10+
 * without the AppArmor profile); a page of this app then runs with the rights of the admin's
 * session, next to site passwords. The app refuses to start that way rather than run unnoticed.
 */
export function unsandboxedReason(argv: readonly string[], env: NodeJS.ProcessEnv, hasSwitch: (name: string) => boolean): string | undefined {
  const switched = ['no-sandbox', 'disable-gpu-sandbox', 'disable-seccomp-filter-sandbox'].find((name) => hasSwitch(name) || argv.includes(`--${name}`));
  if (switched) {
    return env.APPIMAGE
      ? `it was started with --${switched}: the AppImage turns the sandbox off when this system refuses it user namespaces (Ubuntu 23.10 and later, without Fleetdeck's AppArmor profile). Install the .deb, or extract the AppImage to /opt/fleetdeck-appimage and install its AppArmor profile (README, "Packaging").`
      : `it was started with --${switched}. Start it without that switch.`;
  }
  if (env.ELECTRON_DISABLE_SANDBOX) return 'ELECTRON_DISABLE_SANDBOX is set in its environment. Start it without that variable.';
  return undefined;
}
