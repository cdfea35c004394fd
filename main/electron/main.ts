import { app, BrowserWindow, dialog, Menu, net, Notification, protocol, session, shell, type MessageBoxOptions } from 'electron';
import { join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchCore, parseLaunchArgs, rendererDir, resolveScope, type Launched } from '../shells/launch.js';
import type { EventPayload } from '../../app/ipc/contract.js';
import { CONTENT_SECURITY_POLICY } from '../shells/csp.js';
import { boundHeapGrowth } from '../heap.js';
import { describeAccount } from '../secrets/accounts.js';
import { ensureDataDir } from '../store/data-dir.js';
import { alertNotifier } from './alert-notifications.js';
import { HELP_URL } from './app-identity.js';
import { childProcessGoneReporter, watchWindow } from './crash-recovery.js';
import { registerIpc, sendEvent } from './ipc-registration.js';
import { appMenuTemplate } from './menu.js';
import { unsandboxedReason } from './sandbox-check.js';
import { electronSaveFile } from './save-file.js';
import { claimInstance, WindowFront } from './single-instance.js';
import { electronUpdaterAdapter, startUpdates, updatePolicyOf } from './updater.js';
import { hardenContents, hardenSession, openAllowedExternal, windowOptions, windowTitle } from './window.js';

/**
 * The Electron shell: one hardened window on the app's own protocol, the core in this process,
 * IPC registered once. Launched per site with `--site NAME`: each site has its own single-instance
 * lock, keyed on the site's id (Electron's lock follows the userData folder, so it is set per
 * site before asking).
 */

const APP_URL = 'app://fleetdeck/index.html';
const log = (m: string): void => void process.stderr.write(`fleetdeck: ${m}\n`);
// codeCache: V8 keeps the bundle's compiled code in the window's profile, as it does for http(s), so a
// window opened again compiles less of its scripts before the first frame (needs `standard`).
protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);

async function start(): Promise<void> {
  boundHeapGrowth();
  const args = parseLaunchArgs(process.argv.slice(app.isPackaged ? 1 : 2));
  const scope = resolveScope(args);
  const instanceDir = join(args.dataDir, 'instances', scope.instanceKey);
  // Both private (0700): a plain recursive mkdir would create the data directory 0755 first.
  ensureDataDir(args.dataDir);
  ensureDataDir(instanceDir);
  app.setPath('userData', instanceDir);
  const front = new WindowFront<BrowserWindow>();
  if (!claimInstance(app, scope.instanceKey, process.platform, front)) {
    app.quit();
    return;
  }
  const unsandboxed = unsandboxedReason(process.argv, process.env, (name) => app.commandLine.hasSwitch(name));
  if (unsandboxed) throw new Error(`Fleetdeck does not run without Chromium's sandbox, and ${unsandboxed}`);
  app.enableSandbox();
  /** A message in the window (or alone, before it exists) that does not block the app. */
  const tell = (options: MessageBoxOptions): void => {
    const parent = front.window;
    void (parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options)).catch(() => undefined);
  };
  const reportGone = childProcessGoneReporter({ dialog, log }, () => front.window);
  app.on('child-process-gone', (_e, details) => reportGone(details));
  // The core's code (loaded by launchCore, below) loads while Electron gets ready, not after.
  void import('../runtime.js').catch(() => undefined);
  await app.whenReady();
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate({ platform: process.platform, appName: app.name, devTools: !app.isPackaged, openHelp: () => openAllowedExternal(shell, HELP_URL) })));
  const core: Launched = await launchCore(
    args,
    log,
    {
      saveFile: electronSaveFile(dialog),
      onSecretInMemory: (account, bytes, limit) =>
        tell({
          type: 'warning',
          title: 'Fleetdeck',
          message: 'A secret is kept in memory for this run only',
          detail: `Windows Credential Manager holds at most ${limit} bytes per secret, and ${describeAccount(account)} is ${bytes}. Fleetdeck keeps it in memory, never on disk, and asks for it again at the next start.`,
          buttons: ['OK'],
        }),
    },
    scope,
  );
  hardenSession(session.defaultSession);
  serveRenderer();
  const unregister = registerIpc(core.runtime.handlers);
  app.on('web-contents-created', (_e, contents) => hardenContents(contents, shell));

  const preload = fileURLToPath(new URL('../../preload/preload.cjs', import.meta.url));
  const win = new BrowserWindow(windowOptions(preload, windowTitle(args.site, Boolean(core.demo)), !app.isPackaged));
  win.once('ready-to-show', () => win.show());
  front.attach(win);
  watchWindow(win, { dialog, url: APP_URL, log });
  const notifyAlerts = alertNotifier({
    Notification,
    enabled: () => core.runtime.alerts.notify,
    open: (siteId, system) => {
      if (win.isDestroyed()) return;
      front.raise();
      sendEvent(win.webContents, 'alerts:open', { siteId, system });
    },
  });
  const stopEvents = core.subscribe((event, payload) => {
    sendEvent(win.webContents, event, payload);
    if (event === 'alerts:changed') notifyAlerts(payload as EventPayload<'alerts:changed'>);
  });
  // A hidden PDF window can keep the app running after this one is gone: stop sending to it.
  win.on('closed', stopEvents);
  app.on('window-all-closed', () => app.quit());
  let stopUpdates = (): void => undefined;
  // Quit only once the core has closed: the database is closed and a demo's data dir removed.
  let coreClosed = false;
  app.on('will-quit', (event) => {
    if (coreClosed) return;
    event.preventDefault();
    stopUpdates();
    stopEvents();
    unregister();
    core
      .close()
      .catch((err: unknown) => log(`closing: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        coreClosed = true;
        app.quit();
      });
  });
  await win.loadURL(APP_URL);
  void core.refresh().catch(() => undefined);
  if (app.isPackaged) {
    stopUpdates = await updates(core, win).catch((err: unknown) => {
      log(`updates: ${err instanceof Error ? err.message : String(err)}`);
      return stopUpdates;
    });
  }
}

/**
 * Updates from the feed the machine policy names, if any; installed only when the admin agrees and
 * no write or bulk change runs. macOS is left out: its updater installs only signed apps.
 * @returns the stop function.
 */
async function updates(core: Launched, win: BrowserWindow): Promise<() => void> {
  if (process.platform === 'darwin') return () => undefined;
  // The machine policy main read at start (one reader for the feed and everything else it sets).
  const policy = updatePolicyOf(core.runtime.policy.state);
  if (policy.problem) log(`updates: ${policy.problem}`);
  if (!policy.url) return () => undefined;
  const { default: electronUpdater } = await import('electron-updater');
  return startUpdates({
    updater: electronUpdaterAdapter(electronUpdater.autoUpdater),
    url: policy.url,
    busy: () => core.runtime.fleet.writesInFlight > 0 || core.runtime.bulk.running > 0,
    confirm: async (version) => {
      const options: MessageBoxOptions = {
        type: 'question',
        title: 'Fleetdeck',
        message: `Fleetdeck ${version} is ready to install`,
        detail: 'Fleetdeck closes, installs it and starts again. No change to a system is running now.',
        buttons: ['Restart and install', 'Later'],
        defaultId: 1,
        cancelId: 1,
      };
      const answer = win.isDestroyed() ? await dialog.showMessageBox(options) : await dialog.showMessageBox(win, options);
      return answer.response === 0;
    },
    log,
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  });
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
  log(message);
  // Launched from a desktop menu there is no terminal: the reason must be seen. (Before ready,
  // Linux only prints the dialog's text to stderr.)
  await app.whenReady().catch(() => undefined);
  dialog.showErrorBox('Fleetdeck could not start', message);
  app.exit(1);
});
