import type { BrowserWindow, BrowserWindowConstructorOptions, Session, Shell, WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../shells/csp.js';
import { APP_ORIGIN } from './ipc-registration.js';

/** External links the app may open in the system browser (documentation, support). */
export const EXTERNAL_LINK_ALLOW_LIST: readonly string[] = ['https://www.fleetdeck.io/', 'https://docs.fleetdeck.io/'];

/**
 * The window's hardened settings: isolated, sandboxed, no Node in the page; the developer tools
 * only when `devTools` (an unpackaged, development run).
 */
export function windowOptions(preloadPath: string, title: string, devTools = false): BrowserWindowConstructorOptions {
  return {
    title,
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    show: false,
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: preloadPath,
      devTools,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
    },
  };
}

export function isAllowedExternal(url: string): boolean {
  return EXTERNAL_LINK_ALLOW_LIST.some((prefix) => url.startsWith(prefix));
}

/**
 * Locks a window's contents down: no navigation away from the app, no new windows (allowed
 * external links go to the system browser), no permissions, CSP on every response.
 */
export function hardenContents(contents: WebContents, shell: Pick<Shell, 'openExternal'>): void {
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openAllowedExternal(shell, url);
    return { action: 'deny' };
  });
}

/** Opens a link in the system browser when it is on the allow-list; any other is dropped. */
export function openAllowedExternal(shell: Pick<Shell, 'openExternal'>, url: string): void {
  if (isAllowedExternal(url)) void shell.openExternal(url);
}

/** Denies every permission request and check, and sets the CSP on every response of the session. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

/** Title of a window: scoped to a site when launched with `--site NAME`. */
export function windowTitle(site: string | undefined, simulated: boolean): string {
  return `${site ? `${site} — ` : ''}Fleetdeck${simulated ? ' (simulated demo fleet)' : ''}`;
}

export type { BrowserWindow };
