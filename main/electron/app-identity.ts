/**
 * The app's identity as the OS sees it. APP_ID is electron-builder's `appId` (checked by
 * test/unit/packaging/packaged-app.test.ts): Windows files notifications and taskbar entries under
 * the AppUserModelID the installer gave the shortcut, which is this.
 */
export const APP_ID = 'io.fleetdeck.desktop';

/** The documentation the Help menu opens (one of the allow-listed external links). */
export const HELP_URL = 'https://docs.fleetdeck.io/';
