import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../../main/shells/csp.js';
import { EXTERNAL_LINK_ALLOW_LIST } from '../../../../main/electron/window.js';

/**
 * The Electron entry (main/electron/main.ts) run against a recording `electron` mock: the runtime
 * binary cannot run on these machines, so the order and arguments of what the entry asks Electron
 * to do are the behaviour under test. A static check of the sources covers what no mock can see
 * (no remote origin is ever loaded).
 */

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'fd-electron-main-'));
const rendererRoot = join(work, 'renderer');

/** Everything the entry asked of Electron, in order. */
const calls: string[] = [];
/** Settles when the entry first loads a page into a window: the end of its start-up. */
let pageLoaded: () => void = () => undefined;
const firstLoad = new Promise<void>((resolve) => (pageLoaded = resolve));
const appListeners = new Map<string, (...args: unknown[]) => void>();
const windows: Array<{
  options: { webPreferences?: Record<string, unknown> };
  loadURL: ReturnType<typeof vi.fn>;
  loadFile: ReturnType<typeof vi.fn>;
  webContents: { send: ReturnType<typeof vi.fn>; on: ReturnType<typeof vi.fn> };
  listeners: Map<string, () => void>;
}> = [];
/** The core the mocked launch hands the entry: its event sink, whether it was closed. */
const core = { sink: undefined as ((event: string, payload: unknown) => void) | undefined, subscribed: 0, unsubscribed: 0, closeStarted: 0, finishClose: (): void => undefined, refreshed: 0 };
let appHandler: ((request: Request) => Promise<Response>) | undefined;
/** Desktop notifications the entry showed, with their click listener; the alert setting main reads. */
const notifications: Array<{ options: { title: string; body: string }; shown: boolean; listeners: Map<string, () => void> }> = [];
const alertSettings = { notify: true };
const fetched: string[] = [];
type MenuTemplate = Array<{ label?: string; role?: string; submenu?: Array<{ label?: string; role?: string }> }>;
/** What the entry handed the core besides its arguments (the save dialog, the oversize-secret note). */
let launchExtra: { onSecretInMemory?: (account: string, bytes: number, limit: number) => void } = {};
/** The application menu the entry set. */
let appMenu: MenuTemplate = [];

vi.mock('electron', () => {
  class BrowserWindow {
    readonly webContents = { send: vi.fn(), isDestroyed: () => false, on: vi.fn(), forcefullyCrashRenderer: vi.fn() };
    readonly listeners = new Map<string, () => void>();
    readonly loadURL = vi.fn(async (url: string) => {
      calls.push(`loadURL ${url}`);
      pageLoaded();
    });
    readonly loadFile = vi.fn(async (file: string) => void calls.push(`loadFile ${file}`));
    constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
      calls.push('new BrowserWindow');
      windows.push(this);
    }
    once(): void {}
    on(event: string, listener: () => void): void {
      this.listeners.set(event, listener);
    }
    isDestroyed(): boolean {
      return false;
    }
    show(): void {}
    isMinimized(): boolean {
      return false;
    }
    restore(): void {}
    focus(): void {
      calls.push('focus');
    }
  }
  class Notification {
    static isSupported(): boolean {
      return true;
    }
    shown = false;
    readonly listeners = new Map<string, () => void>();
    constructor(readonly options: { title: string; body: string }) {
      notifications.push(this);
    }
    on(event: string, listener: () => void): void {
      this.listeners.set(event, listener);
    }
    show(): void {
      this.shown = true;
    }
    close(): void {}
  }
  return {
    Notification,
    app: {
      isPackaged: false,
      name: 'Fleetdeck',
      commandLine: { hasSwitch: (name: string) => (calls.push(`hasSwitch ${name}`), false) },
      setAppUserModelId: (id: string) => void calls.push(`setAppUserModelId ${id}`),
      setPath: (name: string, path: string) => void calls.push(`setPath ${name} ${path}`),
      requestSingleInstanceLock: (data: unknown) => (calls.push(`requestSingleInstanceLock ${JSON.stringify(data)}`), true),
      enableSandbox: () => void calls.push('enableSandbox'),
      whenReady: async () => void calls.push('whenReady'),
      quit: () => void calls.push('quit'),
      exit: (code: number) => void calls.push(`exit ${code}`),
      on: (event: string, listener: (...args: unknown[]) => void) => {
        calls.push(`on ${event}`);
        appListeners.set(event, listener);
      },
    },
    BrowserWindow,
    Menu: {
      buildFromTemplate: (template: MenuTemplate) => ({ template }),
      setApplicationMenu: (menu: { template: MenuTemplate }) => {
        calls.push('Menu.setApplicationMenu');
        appMenu = menu.template;
      },
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown) => void calls.push(`registerSchemesAsPrivileged ${JSON.stringify(schemes)}`),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => {
        calls.push(`protocol.handle ${scheme}`);
        appHandler = handler;
      },
    },
    net: {
      fetch: async (url: string) => {
        fetched.push(url);
        return new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } });
      },
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: () => void calls.push('setPermissionRequestHandler'),
        setPermissionCheckHandler: () => void calls.push('setPermissionCheckHandler'),
        webRequest: { onHeadersReceived: () => void calls.push('onHeadersReceived') },
      },
    },
    shell: { openExternal: vi.fn() },
    dialog: { showErrorBox: (title: string) => void calls.push(`showErrorBox ${title}`), showMessageBox: vi.fn(async () => ({ response: 0 })) },
    ipcMain: { handle: (channel: string) => void calls.push(`ipcMain.handle ${channel}`), removeHandler: vi.fn() },
  };
});

vi.mock('../../../../main/shells/launch.js', () => ({
  parseLaunchArgs: () => ({ demo: false, dataDir: join(work, 'data'), site: 'Paris' }),
  resolveScope: () => ({ demo: false, siteId: 'paris', instanceKey: 'site-paris' }),
  launchCore: async (_args: unknown, _warn: unknown, extra: typeof launchExtra) => {
    calls.push('launchCore');
    launchExtra = extra;
    return {
      runtime: { handlers: {}, alerts: alertSettings },
      demo: undefined,
      scopedSiteId: 'paris',
      subscribe: (emit: (event: string, payload: unknown) => void) => {
        core.sink = emit;
        core.subscribed++;
        return () => void core.unsubscribed++;
      },
      refresh: async () => void core.refreshed++,
      close: () => {
        core.closeStarted++;
        return new Promise<void>((resolve) => (core.finishClose = resolve));
      },
    };
  },
  rendererDir: () => rendererRoot,
}));

describe('Electron main process entry', () => {
  beforeAll(async () => {
    mkdirSync(rendererRoot, { recursive: true });
    writeFileSync(join(rendererRoot, 'index.html'), '<!doctype html>');
    await import('../../../../main/electron/main.js');
    // The entry starts up asynchronously (whenReady, launch): wait for its first page load, not for a time.
    await firstLoad;
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const indexOf = (prefix: string): number => calls.findIndex((c) => c.startsWith(prefix));

  it('registers app:// as a secure standard scheme with V8 code cache, without bypassing the CSP', () => {
    const registered = calls.find((c) => c.startsWith('registerSchemesAsPrivileged'));
    const schemes = JSON.parse(registered!.slice('registerSchemesAsPrivileged '.length)) as Array<{ scheme: string; privileges: Record<string, boolean> }>;
    expect(schemes).toHaveLength(1);
    // codeCache works only on a standard scheme (Electron >= 28): a window opened again reuses the compiled bundle.
    expect(schemes[0]).toMatchObject({ scheme: 'app', privileges: { standard: true, secure: true, codeCache: true } });
    expect(schemes[0]!.privileges.bypassCSP).not.toBe(true);
    expect(schemes[0]!.privileges.corsEnabled).not.toBe(true);
  });

  it('enables the sandbox for every renderer before the app is ready, and hardens before any window exists', () => {
    expect(indexOf('enableSandbox')).toBeGreaterThanOrEqual(0);
    expect(indexOf('enableSandbox')).toBeLessThan(indexOf('whenReady'));
    for (const step of ['setPermissionRequestHandler', 'setPermissionCheckHandler', 'onHeadersReceived', 'protocol.handle app', 'on web-contents-created']) {
      expect(indexOf(step), step).toBeGreaterThan(indexOf('whenReady'));
      // A window created before its guards would run unguarded for its first navigation.
      expect(indexOf(step), step).toBeLessThan(indexOf('new BrowserWindow'));
    }
    expect(calls.filter((c) => c.startsWith('ipcMain.handle')).length).toBeGreaterThan(0);
  });

  it('opens one sandboxed, isolated window with a local preload, and loads only app://fleetdeck/', () => {
    expect(windows).toHaveLength(1);
    const prefs = windows[0]!.options.webPreferences ?? {};
    expect(prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true });
    expect(String(prefs.preload)).toMatch(/[\\/]preload[\\/]preload\.cjs$/);
    expect(String(prefs.preload)).not.toMatch(/^[a-z]+:\/\//);
    expect(windows[0]!.loadURL.mock.calls).toEqual([['app://fleetdeck/index.html']]);
    expect(windows[0]!.loadFile).not.toHaveBeenCalled();
  });

  it('hardens every web contents created later (new windows, devtools, frames)', () => {
    const listener = appListeners.get('web-contents-created');
    const contents = { on: vi.fn(), setWindowOpenHandler: vi.fn() };
    listener?.({}, contents);
    expect(contents.setWindowOpenHandler).toHaveBeenCalled();
    expect(contents.on.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining(['will-navigate', 'will-redirect', 'will-attach-webview']));
  });

  it('registers second-instance with the lock, before the core starts; refuses to start unsandboxed before anything else', () => {
    expect(calls).toContain('on second-instance');
    expect(indexOf('on second-instance')).toBe(indexOf('requestSingleInstanceLock') + 1);
    expect(indexOf('on second-instance')).toBeLessThan(indexOf('launchCore'));
    expect(indexOf('on second-instance')).toBeLessThan(indexOf('whenReady'));
    // Not on Linux: only Windows files notifications under an AppUserModelID.
    expect(indexOf('setAppUserModelId')).toBe(-1);
    expect(indexOf('hasSwitch no-sandbox')).toBeGreaterThan(indexOf('requestSingleInstanceLock'));
    expect(indexOf('hasSwitch no-sandbox')).toBeLessThan(indexOf('enableSandbox'));
    // A second launch raises the window the first one opened.
    const focuses = calls.filter((c) => c === 'focus').length;
    appListeners.get('second-instance')?.();
    expect(calls.filter((c) => c === 'focus').length).toBe(focuses + 1);
  });

  it("sets its own menu before the window: no Reload, no Electron help link; DevTools in this unpackaged run only", () => {
    expect(indexOf('Menu.setApplicationMenu')).toBeGreaterThan(indexOf('whenReady'));
    expect(indexOf('Menu.setApplicationMenu')).toBeLessThan(indexOf('new BrowserWindow'));
    const roles = appMenu.flatMap((m) => [m.role, ...(m.submenu ?? []).map((i) => i.role)]).filter(Boolean);
    expect(roles).not.toContain('reload');
    expect(roles).not.toContain('forceReload');
    expect(roles).toContain('toggleDevTools');
    expect(windows[0]!.options.webPreferences?.devTools).toBe(true);
  });

  it("watches the window's page: a crash or a hang is handled", () => {
    const win = windows[0]!;
    expect(win.webContents.on.mock.calls.map((c) => c[0])).toContain('render-process-gone');
    expect([...win.listeners.keys()]).toEqual(expect.arrayContaining(['unresponsive', 'responsive']));
    expect(calls).toContain('on child-process-gone');
  });

  it('shows a note in the window when a secret is too long for the keychain and is kept in memory', async () => {
    const { dialog } = await import('electron');
    const shown = vi.mocked(dialog.showMessageBox);
    shown.mockClear();
    launchExtra.onSecretInMemory?.('site/paris/system/tundra-01/token', 3100, 2560);
    expect(shown).toHaveBeenCalledTimes(1);
    const [parent, options] = shown.mock.calls[0] as unknown as [unknown, { message: string; detail: string }];
    expect(parent).toBe(windows[0]);
    expect(options.message).toBe('A secret is kept in memory for this run only');
    expect(options.detail).toMatch(/at most 2560 bytes per secret, and the session token of system tundra-01 \(site paris\) is 3100/);
  });

  it('keys the single-instance lock and profile folder on the site id, inside a private data dir', () => {
    const dataDir = join(work, 'data');
    expect(calls).toContain(`setPath userData ${join(dataDir, 'instances', 'site-paris')}`);
    expect(calls).toContain('requestSingleInstanceLock {"instance":"site-paris"}');
    expect(indexOf('setPath userData')).toBeLessThan(indexOf('requestSingleInstanceLock'));
    // Created here first: the instance folder inside must not leave the data dir 0755.
    if (process.platform !== 'win32') expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('shows one desktop notification per system and level while the setting is on, cleaned of control, bidi and markup; a click focuses the window and opens the system', () => {
    const win = windows[0]!;
    const alert = (id: number, system = 'tundra-01') => ({ id, rule: 'drive', siteId: 'paris', system, subject: `n1/d${id}`, level: 'critical', message: `drive ${id} failed`, state: 'open', raisedAt: 't', lastSeenAt: 't' });
    core.sink?.('alerts:changed', { siteId: 'paris', system: 'tundra-01', raised: [alert(1), alert(2)], cleared: [], openCount: 2 });
    expect(notifications.map((n) => [n.options.title, n.options.body, n.shown])).toEqual([['Fleetdeck critical: tundra-01', '2 new critical alerts: drive 1 failed (and 1 more)', true]]);
    // An evaluation that only cleared alerts says nothing; nor does one while the setting is off.
    core.sink?.('alerts:changed', { siteId: 'paris', system: 'tundra-01', raised: [], cleared: [alert(1)], openCount: 1 });
    alertSettings.notify = false;
    core.sink?.('alerts:changed', { siteId: 'paris', system: 'tundra-01', raised: [alert(3)], cleared: [], openCount: 2 });
    alertSettings.notify = true;
    expect(notifications).toHaveLength(1);
    // One refresh of a system reporting 3,000 failed drives, named to spoof another line: one notification, one line, no bidi or markup.
    const spoof = 'sysB\u202E\nFleetdeck ok: <b>all healthy</b>';
    core.sink?.('alerts:changed', { siteId: 'paris', system: spoof, raised: Array.from({ length: 3000 }, (_, i) => alert(10 + i, spoof)), cleared: [], openCount: 3000 });
    expect(notifications).toHaveLength(2);
    expect(notifications[1]!.options).toEqual({ title: 'Fleetdeck critical: sysB Fleetdeck ok: ball healthy/b', body: '3,000 new critical alerts: drive 10 failed (and 2,999 more)' });
    win.webContents.send.mockClear();
    const focusesBefore = calls.filter((c) => c === 'focus').length;
    notifications[0]!.listeners.get('click')?.();
    expect(calls.filter((c) => c === 'focus').length).toBe(focusesBefore + 1);
    expect(win.webContents.send).toHaveBeenCalledWith('fleetdeck-event:alerts:open', { siteId: 'paris', system: 'tundra-01' });
    win.webContents.send.mockClear();
  });

  it("refreshes the window's own scope once loaded, and sends its events to the window until it is closed", () => {
    expect(core.refreshed).toBe(1);
    expect(indexOf('loadURL')).toBeLessThan(calls.length);
    const win = windows[0]!;
    core.sink?.('fleet:status', { siteId: 'paris', system: 'a', state: 'ok' });
    expect(win.webContents.send).toHaveBeenCalledTimes(1);
    // Something else (a dialog) can keep the app alive after the main window closed: no more sends.
    win.listeners.get('closed')?.();
    expect(core.unsubscribed).toBe(1);
  });

  it('quits only after the core has closed (database closed, demo data dir removed)', async () => {
    const willQuit = appListeners.get('will-quit')!;
    let prevented = false;
    willQuit({ preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    expect(core.closeStarted).toBe(1);
    const quitsBefore = calls.filter((c) => c === 'quit').length;
    await Promise.resolve();
    expect(calls.filter((c) => c === 'quit').length).toBe(quitsBefore);
    core.finishClose();
    await vi.waitFor(() => expect(calls.filter((c) => c === 'quit').length).toBe(quitsBefore + 1));
    // The quit that follows goes through: the core is not closed twice.
    let preventedAgain = false;
    willQuit({ preventDefault: () => (preventedAgain = true) });
    expect(preventedAgain).toBe(false);
    expect(core.closeStarted).toBe(1);
  });

  it('serves only the renderer folder on app://fleetdeck, with the CSP on every answer', async () => {
    const get = (url: string): Promise<Response> => appHandler!(new Request(url));
    const page = await get('app://fleetdeck/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(fetched.at(-1)).toBe(`file://${join(rendererRoot, 'index.html')}`);
    const before = fetched.length;
    expect((await get('app://evil.example/index.html')).status).toBe(404);
    expect((await get('app://fleetdeck/..%2f..%2f..%2fetc%2fpasswd')).status).toBe(403);
    // Dot segments resolve inside the URL; what is left is looked up inside the folder only.
    await get('app://fleetdeck/%2e%2e/%2e%2e/etc/passwd');
    // Nothing outside the folder was even read.
    expect(fetched.slice(before).every((u) => u.startsWith(`file://${rendererRoot}/`))).toBe(true);
  });

  it('serves the script chunks a view loads on first use from the assets folder, with the CSP', async () => {
    // A chunk's import is relative to the importing chunk (vite.config.ts, base './').
    const chunk = await appHandler!(new Request(new URL('./CompareView-x1.js', 'app://fleetdeck/assets/frame-f1.js').href));
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(fetched.at(-1)).toBe(`file://${join(rendererRoot, 'assets', 'CompareView-x1.js')}`);
    // The policy lets the page load its own scripts, dynamic imports and module preloads alike, and nothing from elsewhere.
    expect(CONTENT_SECURITY_POLICY).toMatch(/(^|; )script-src 'self'(;|$)/);
  });
});

describe('Electron sources (static)', () => {
  const dir = join(repo, 'main/electron');
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') }));

  it('never loads a remote origin: the window loads app://fleetdeck and nothing else (no data: URL), no remote URL but the allow-listed links', () => {
    const loads = sources.flatMap((s) => [...s.text.matchAll(/\.(loadURL|loadFile)\(([^)]*)\)/g)].map((m) => ({ file: s.file, call: `${m[1]}(${m[2]})` })));
    // The window's page, and the same page again after a crash (the URL main hands the recovery).
    expect(loads.map((l) => `${l.file}: ${l.call}`).sort()).toEqual(['crash-recovery.ts: loadURL(d.url)', 'main.ts: loadURL(APP_URL)']);
    const main = sources.find((s) => s.file === 'main.ts')!.text;
    expect(main).toContain("const APP_URL = 'app://fleetdeck/index.html';");
    expect(main).toMatch(/watchWindow\(win, \{ dialog, url: APP_URL, log \}\)/);
    // Chromium refuses URLs over 2 MiB: a large report must never travel as a data: URL.
    for (const s of sources) expect(s.text, s.file).not.toMatch(/data:text\/html/);
    const remote = sources.flatMap((s) => [...s.text.matchAll(/\b(?:https?|wss?|ftp):\/\/[^\s'"`]*/g)].map((m) => m[0]));
    for (const url of remote) expect(EXTERNAL_LINK_ALLOW_LIST, `remote URL ${url} in main/electron`).toContain(url);
  });

  it('the one CSP allows nothing remote, no eval, no plugins, no framing, no base or form targets', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split(';').map((d) => d.trim().split(/\s+/) as [string, ...string[]]).map(([name, ...values]) => [name, values]));
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    for (const name of ['object-src', 'base-uri', 'frame-ancestors', 'form-action']) expect(directives.get(name), name).toEqual(["'none'"]);
    const sources = [...directives.values()].flat();
    expect(sources.filter((v) => /^(https?|wss?):|^\*$|unsafe-eval|wasm-unsafe-eval|strict-dynamic/.test(v))).toEqual([]);
  });

  it('weakens no web preference and trusts no certificate behind the pinning', () => {
    const all = sources.map((s) => s.text).join('\n');
    for (const unsafe of [
      /nodeIntegration:\s*true/,
      /contextIsolation:\s*false/,
      /sandbox:\s*false/,
      /webSecurity:\s*false/,
      /allowRunningInsecureContent:\s*true/,
      /webviewTag:\s*true/,
      /experimentalFeatures:\s*true/,
      /enableBlinkFeatures/,
      /bypassCSP:\s*true/,
      /ignore-certificate-errors/,
      /setCertificateVerifyProc/,
      /['"]certificate-error['"]/,
      /disable-web-security/,
    ]) {
      expect(all, String(unsafe)).not.toMatch(unsafe);
    }
    // Only the window module opens external links, and only through the allow-list check.
    const opens = sources.filter((s) => /openExternal\(/.test(s.text)).map((s) => s.file);
    expect(opens).toEqual(['window.ts']);
    expect(sources.find((s) => s.file === 'window.ts')!.text).toMatch(/if \(isAllowedExternal\(url\)\) void shell\.openExternal\(url\)/);
  });
});
