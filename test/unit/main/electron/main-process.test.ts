import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const appListeners = new Map<string, (...args: unknown[]) => void>();
const windows: Array<{ options: { webPreferences?: Record<string, unknown> }; loadURL: ReturnType<typeof vi.fn>; loadFile: ReturnType<typeof vi.fn> }> = [];
let appHandler: ((request: Request) => Promise<Response>) | undefined;
const fetched: string[] = [];

vi.mock('electron', () => {
  class BrowserWindow {
    readonly webContents = { send: vi.fn(), isDestroyed: () => false };
    readonly loadURL = vi.fn(async (url: string) => void calls.push(`loadURL ${url}`));
    readonly loadFile = vi.fn(async (file: string) => void calls.push(`loadFile ${file}`));
    constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
      calls.push('new BrowserWindow');
      windows.push(this);
    }
    once(): void {}
    show(): void {}
    isMinimized(): boolean {
      return false;
    }
    restore(): void {}
    focus(): void {}
  }
  return {
    app: {
      isPackaged: false,
      setPath: (name: string) => void calls.push(`setPath ${name}`),
      requestSingleInstanceLock: () => (calls.push('requestSingleInstanceLock'), true),
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
    ipcMain: { handle: (channel: string) => void calls.push(`ipcMain.handle ${channel}`), removeHandler: vi.fn() },
  };
});

vi.mock('../../../../main/shells/launch.js', () => ({
  parseLaunchArgs: () => ({ demo: false, dataDir: join(work, 'data'), site: undefined }),
  launchCore: async () => {
    calls.push('launchCore');
    return { runtime: { handlers: {}, fleet: { on: () => () => undefined, refresh: async () => [] } }, demo: undefined, close: async () => undefined };
  },
  rendererDir: () => rendererRoot,
}));

describe('Electron main process entry', () => {
  beforeAll(async () => {
    mkdirSync(rendererRoot, { recursive: true });
    writeFileSync(join(rendererRoot, 'index.html'), '<!doctype html>');
    await import('../../../../main/electron/main.js');
    const deadline = Date.now() + 5000;
    while (!calls.some((c) => c.startsWith('loadURL')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const indexOf = (prefix: string): number => calls.findIndex((c) => c.startsWith(prefix));

  it('registers app:// as a secure standard scheme without bypassing the CSP', () => {
    const registered = calls.find((c) => c.startsWith('registerSchemesAsPrivileged'));
    const schemes = JSON.parse(registered!.slice('registerSchemesAsPrivileged '.length)) as Array<{ scheme: string; privileges: Record<string, boolean> }>;
    expect(schemes).toHaveLength(1);
    expect(schemes[0]).toMatchObject({ scheme: 'app', privileges: { standard: true, secure: true } });
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
});

describe('Electron sources (static)', () => {
  const dir = join(repo, 'main/electron');
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') }));

  it('never loads a remote origin: the window loads app://fleetdeck, the PDF printer a data: URL, no loadFile, no remote URL but the allow-listed links', () => {
    const loads = sources.flatMap((s) => [...s.text.matchAll(/\.(loadURL|loadFile)\(\s*(['"`])([^'"`]*)/g)].map((m) => ({ file: s.file, method: m[1], target: m[3] ?? '' })));
    expect(loads.map((l) => l.file).sort()).toEqual(['main.ts', 'pdf.ts']);
    for (const l of loads) {
      expect(l.method, `${l.file}`).toBe('loadURL');
      expect(l.target, `${l.file} loads ${l.target}`).toMatch(/^(app:\/\/fleetdeck\/|data:text\/html;)/);
    }
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
