import { app, BrowserWindow, dialog, net, Notification, protocol, session, shell } from 'electron';
import { join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchCore, parseLaunchArgs, rendererDir, resolveScope, type Launched } from '../shells/launch.js';
import type { EventPayload } from '../../app/ipc/contract.js';
import { CONTENT_SECURITY_POLICY } from '../shells/csp.js';
import { ensureDataDir } from '../store/data-dir.js';
import { alertNotifier } from './alert-notifications.js';
import { registerIpc, sendEvent } from './ipc-registration.js';
import { electronSaveFile } from './save-file.js';
import { hardenContents, hardenSession, windowOptions, windowTitle } from './window.js';

/**
 * The Electron shell: one hardened window on the app's own protocol, the core in this process,
 * IPC registered once. Launched per site with `--site NAME`: each site has its own single-instance
 * lock, keyed on the site's id (Electron's lock follows the userData folder, so it is set per
 * site before asking).
 */
// codeCache: V8 keeps the bundle's compiled code in the window's profile, as it does for http(s), so a
// window opened again compiles less of its scripts before the first frame (needs `standard`).
protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);

async function start(): Promise<void> {
  const args = parseLaunchArgs(process.argv.slice(app.isPackaged ? 1 : 2));
  const scope = resolveScope(args);
  const instanceDir = join(args.dataDir, 'instances', scope.instanceKey);
  // Both private (0700): a plain recursive mkdir would create the data directory 0755 first.
  ensureDataDir(args.dataDir);
  ensureDataDir(instanceDir);
  app.setPath('userData', instanceDir);
  if (!app.requestSingleInstanceLock({ instance: scope.instanceKey })) {
    app.quit();
    return;
  }
  app.enableSandbox();
  // The core's code (loaded by launchCore, below) loads while Electron gets ready, not after.
  void import('../runtime.js').catch(() => undefined);
  await app.whenReady();
  const core: Launched = await launchCore(args, (m) => process.stderr.write(`fleetdeck: ${m}\n`), { saveFile: electronSaveFile(dialog) }, scope);
  hardenSession(session.defaultSession);
  serveRenderer();
  const unregister = registerIpc(core.runtime.handlers);
  app.on('web-contents-created', (_e, contents) => hardenContents(contents, shell));

  const preload = fileURLToPath(new URL('../../preload/preload.cjs', import.meta.url));
  const win = new BrowserWindow(windowOptions(preload, windowTitle(args.site, Boolean(core.demo))));
  win.once('ready-to-show', () => win.show());
  const notifyAlerts = alertNotifier({
    Notification,
    enabled: () => core.runtime.alerts.notify,
    open: (siteId, system) => {
      if (win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      sendEvent(win.webContents, 'alerts:open', { siteId, system });
    },
  });
  const stopEvents = core.subscribe((event, payload) => {
    sendEvent(win.webContents, event, payload);
    if (event === 'alerts:changed') notifyAlerts(payload as EventPayload<'alerts:changed'>);
  });
  // A hidden PDF window can keep the app running after this one is gone: stop sending to it.
  win.on('closed', stopEvents);
  app.on('second-instance', () => {
    if (win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  // Quit only once the core has closed: the database is closed and a demo's data dir removed.
  let coreClosed = false;
  app.on('will-quit', (event) => {
    if (coreClosed) return;
    event.preventDefault();
    stopEvents();
    unregister();
    core
      .close()
      .catch((err: unknown) => process.stderr.write(`fleetdeck: closing: ${err instanceof Error ? err.message : String(err)}\n`))
      .finally(() => {
        coreClosed = true;
        app.quit();
      });
  });
  await win.loadURL('app://fleetdeck/index.html');
  void core.refresh().catch(() => undefined);
}

/** Serves out/renderer on app://fleetdeck/ with the CSP; nothing outside that folder. */
function serveRenderer(): void {
  const root = resolve(rendererDir());
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'fleetdeck') return new Response('not found', { status: 404 });
    const file = normalize(join(root, decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname)));
    if (!file.startsWith(root + sep)) return new Response('forbidden', { status: 403 });
    const res = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(res.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    return new Response(res.body, { status: res.status, headers });
  });
}

start().catch(async (err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`fleetdeck: ${message}\n`);
  // Launched from a desktop menu there is no terminal: the reason must be seen. (Before ready,
  // Linux only prints the dialog's text to stderr.)
  await app.whenReady().catch(() => undefined);
  dialog.showErrorBox('Fleetdeck could not start', message);
  app.exit(1);
});
