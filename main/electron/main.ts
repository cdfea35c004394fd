import { app, BrowserWindow, net, protocol, session, shell } from 'electron';
import { join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchCore, parseLaunchArgs, rendererDir, type Launched } from '../shells/launch.js';
import { CONTENT_SECURITY_POLICY } from '../shells/csp.js';
import { ensureDataDir } from '../store/data-dir.js';
import { registerIpc, sendEvent } from './ipc-registration.js';
import { electronPrintToPdf } from './pdf.js';
import { hardenContents, hardenSession, windowOptions, windowTitle } from './window.js';

/**
 * The Electron shell: one hardened window on the app's own protocol, the core in this process,
 * IPC registered once. Launched per site with `--site NAME`: each site has its own single-instance
 * lock (Electron's lock follows the userData folder, so it is set per site before asking).
 */
protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

async function start(): Promise<void> {
  const args = parseLaunchArgs(process.argv.slice(app.isPackaged ? 1 : 2));
  const instanceDir = join(args.dataDir, 'instances', args.site ? encodeURIComponent(args.site) : '_fleet');
  // Both private (0700): a plain recursive mkdir would create the data directory 0755 first.
  ensureDataDir(args.dataDir);
  ensureDataDir(instanceDir);
  app.setPath('userData', instanceDir);
  if (!app.requestSingleInstanceLock({ site: args.site ?? null })) {
    app.quit();
    return;
  }
  app.enableSandbox();
  await app.whenReady();
  const core: Launched = await launchCore(args, (m) => process.stderr.write(`fleetdeck: ${m}\n`), { printToPdf: electronPrintToPdf(BrowserWindow) });
  hardenSession(session.defaultSession);
  serveRenderer();
  const unregister = registerIpc(core.runtime.handlers);
  app.on('web-contents-created', (_e, contents) => hardenContents(contents, shell));

  const preload = fileURLToPath(new URL('../../preload/preload.cjs', import.meta.url));
  const win = new BrowserWindow(windowOptions(preload, windowTitle(args.site, Boolean(core.demo))));
  win.once('ready-to-show', () => win.show());
  const stopEvents = core.runtime.fleet.on((e) => {
    if (e.type === 'status') sendEvent(win.webContents, 'fleet:status', e.status);
    else sendEvent(win.webContents, 'fleet:notifications', { siteId: e.siteId, system: e.system, count: e.count });
  });
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => {
    stopEvents();
    unregister();
    void core.close();
  });
  await win.loadURL('app://fleetdeck/index.html');
  void core.runtime.fleet.refresh({ force: true }).catch(() => undefined);
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

start().catch((err: unknown) => {
  process.stderr.write(`fleetdeck: ${(err as Error).message}\n`);
  app.exit(1);
});
