import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES, IPC_PREFIX, EVENT_PREFIX } from '../../../../app/ipc/channels.js';
import type { Handlers } from '../../../../main/ipc/handlers.js';

// A mocked `electron`: the runtime binary cannot run on these machines, so the shell's wiring is
// asserted against the API surface it uses.
const exposed: Record<string, unknown> = {};
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
  ipcRenderer: { invoke: vi.fn(async () => 'ok'), on: vi.fn(), removeListener: vi.fn() },
  ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
}));

const { windowOptions, hardenContents, hardenSession, windowTitle, isAllowedExternal } = await import('../../../../main/electron/window.js');
const { registerIpc, isTrustedSender, sendEvent } = await import('../../../../main/electron/ipc-registration.js');
const { RawJson } = await import('../../../../main/ipc/raw-json.js');
const { buildApi } = await import('../../../../main/electron/preload.js');
const { CONTENT_SECURITY_POLICY } = await import('../../../../main/shells/csp.js');

class FakeContents extends EventEmitter {
  openHandler: ((d: { url: string }) => { action: string }) | undefined;
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }): void {
    this.openHandler = h;
  }
}

function navigate(contents: FakeContents, event: string, url: string): boolean {
  let prevented = false;
  contents.emit(event, { preventDefault: () => (prevented = true) }, url);
  return prevented;
}

describe('Electron window settings', () => {
  it('isolates and sandboxes the page with no Node integration', () => {
    const o = windowOptions('/app/preload.cjs', 'Fleetdeck');
    expect(o.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    // Developer tools only when the entry asks, which it does only unpackaged.
    expect(o.webPreferences?.devTools).toBe(false);
    expect(windowOptions('/app/preload.cjs', 'Fleetdeck', true).webPreferences?.devTools).toBe(true);
  });

  it('denies navigation away from the app and every new window; allow-listed links go to the system browser', () => {
    const contents = new FakeContents();
    const shell = { openExternal: vi.fn(async () => undefined) };
    hardenContents(contents as never, shell);
    expect(navigate(contents, 'will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate(contents, 'will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate(contents, 'will-redirect', 'http://127.0.0.1:1/')).toBe(true);
    expect(navigate(contents, 'will-navigate', 'app://fleetdeck/index.html')).toBe(false);
    expect(contents.openHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(contents.openHandler?.({ url: 'https://docs.fleetdeck.io/sites' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledWith('https://docs.fleetdeck.io/sites');
    expect(isAllowedExternal('https://docs.fleetdeck.io.evil.example/')).toBe(false);
    let webviewPrevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (webviewPrevented = true) });
    expect(webviewPrevented).toBe(true);
  });

  it('denies every permission and sets the strict CSP on every response', () => {
    let requestHandler: ((c: unknown, p: string, cb: (ok: boolean) => void) => void) | undefined;
    let checkHandler: (() => boolean) | undefined;
    let headersHandler: ((d: { responseHeaders: Record<string, string[]> }, cb: (r: unknown) => void) => void) | undefined;
    const session = {
      setPermissionRequestHandler: (h: typeof requestHandler) => (requestHandler = h),
      setPermissionCheckHandler: (h: typeof checkHandler) => (checkHandler = h),
      webRequest: { onHeadersReceived: (h: typeof headersHandler) => (headersHandler = h) },
    };
    hardenSession(session as never);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const cb = vi.fn();
      requestHandler?.({}, permission, cb);
      expect(cb).toHaveBeenCalledWith(false);
    }
    expect(checkHandler?.()).toBe(false);
    const cb = vi.fn();
    headersHandler?.({ responseHeaders: { 'X-Other': ['1'] } }, cb);
    expect(cb).toHaveBeenCalledWith({ responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    expect(CONTENT_SECURITY_POLICY).toMatch(/default-src 'self'/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self'(;|$)/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval/);
  });

  it('titles a site-scoped window with the site name', () => {
    expect(windowTitle('Paris DC', false)).toBe('Paris DC — Fleetdeck');
    expect(windowTitle(undefined, true)).toMatch(/simulated/);
  });
});

describe('IPC registration', () => {
  const calls: string[] = [];
  const handlers = Object.fromEntries(
    CHANNEL_NAMES.map((c) => [
      c,
      async (r: unknown) => {
        calls.push(c);
        if (c === 'cache:read') return { value: new RawJson('{"Data":[1]}'), at: 't', stale: false };
        return c === 'app:info' ? { version: '1', simulated: false, keychain: 'memory' } : r;
      },
    ]),
  ) as unknown as Handlers;
  const registered = new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>();
  const ipcMain = {
    handle: (channel: string, fn: (event: unknown, payload: unknown) => Promise<unknown>) => {
      if (registered.has(channel)) throw new Error(`second handler for ${channel}`);
      registered.set(channel, fn);
    },
    removeHandler: (channel: string) => registered.delete(channel),
  };
  const mainFrame = { url: 'app://fleetdeck/index.html' };
  const trusted = { sender: { mainFrame }, senderFrame: mainFrame };

  beforeEach(() => {
    registered.clear();
    calls.length = 0;
  });

  it('registers exactly one handler per contract channel and removes them all', () => {
    const unregister = registerIpc(handlers, ipcMain as never);
    expect([...registered.keys()].sort()).toEqual(CHANNEL_NAMES.map((c) => IPC_PREFIX + c).sort());
    unregister();
    expect(registered.size).toBe(0);
  });

  it('answers the app frame and refuses foreign senders and sub-frames', async () => {
    registerIpc(handlers, ipcMain as never);
    const call = registered.get(`${IPC_PREFIX}app:info`);
    expect(JSON.parse((await call?.(trusted, {})) as string)).toMatchObject({ ok: true, value: { version: '1' } });
    const forbidden = { ok: false, error: { code: 'forbidden', message: 'this frame may not call Fleetdeck' } };
    const remote = { url: 'https://evil.example/' };
    expect(JSON.parse((await call?.({ sender: { mainFrame: remote }, senderFrame: remote }, {})) as string)).toEqual(forbidden);
    const sub = { url: 'app://fleetdeck/index.html' };
    expect(JSON.parse((await call?.({ sender: { mainFrame }, senderFrame: sub }, {})) as string)).toEqual(forbidden);
    expect(JSON.parse((await call?.({ sender: { mainFrame: null }, senderFrame: null }, {})) as string)).toEqual(forbidden);
    expect(calls).toEqual(['app:info']);
    expect(isTrustedSender({ sender: { mainFrame: { url: 'app://fleetdeck.evil/x' } }, senderFrame: null } as never)).toBe(false);
  });

  it('answers the envelope as JSON text, a cached answer spliced in as stored (one string to clone, not a tree)', async () => {
    registerIpc(handlers, ipcMain as never);
    const call = registered.get(`${IPC_PREFIX}cache:read`);
    const text = await call?.(trusted, { site: 's', system: 'a', operation: 'GET /Version' });
    expect(typeof text).toBe('string');
    expect(text).toContain('"value":{"Data":[1]}');
    expect(JSON.parse(text as string)).toEqual({ ok: true, value: { value: { Data: [1] }, at: 't', stale: false } });
  });

  it('refuses bad payloads with a validation error, before the handler runs', async () => {
    registerIpc(handlers, ipcMain as never);
    const call = registered.get(`${IPC_PREFIX}op:call`);
    expect(JSON.parse((await call?.(trusted, { site: 42 })) as string)).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(JSON.parse((await call?.(trusted, 'not an object')) as string)).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(calls).toEqual([]);
  });

  it('pushes events on the event prefix, not to destroyed windows', () => {
    const contents = { send: vi.fn(), isDestroyed: () => false };
    sendEvent(contents, 'fleet:notifications', { siteId: 's', system: 'a', count: 2 });
    expect(contents.send).toHaveBeenCalledWith(`${EVENT_PREFIX}fleet:notifications`, { siteId: 's', system: 'a', count: 2 });
    const gone = { send: vi.fn(), isDestroyed: () => true };
    sendEvent(gone, 'fleet:notifications', { siteId: 's', system: 'a', count: 2 });
    expect(gone.send).not.toHaveBeenCalled();
  });
});

describe('preload', () => {
  it('exposes one frozen transport with a binding for every contract channel and nothing else', async () => {
    const renderer = { invoke: vi.fn(async () => '{"ok":true,"value":1}'), on: vi.fn(), removeListener: vi.fn() };
    const api = buildApi(renderer as never);
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api).sort()).toEqual(['call', 'on']);
    for (const c of CHANNEL_NAMES) expect(await api.call(c, {})).toBe('{"ok":true,"value":1}');
    expect(renderer.invoke.mock.calls.map((c) => (c as unknown[])[0])).toEqual(CHANNEL_NAMES.map((c) => IPC_PREFIX + c));
    // Refused in the envelope, as main refuses: nothing is sent for an unknown channel.
    expect(JSON.parse(await api.call('fs:read', {}))).toEqual({ ok: false, error: { code: 'unknown-channel', message: 'unknown channel "fs:read"' } });
    expect(renderer.invoke).toHaveBeenCalledTimes(CHANNEL_NAMES.length);
    expect(() => api.on('anything', () => undefined)).toThrow(/unknown event/);
    const listener = vi.fn();
    const off = api.on('fleet:status', listener);
    const wrapped = renderer.on.mock.calls[0]?.[1] as (e: unknown, p: unknown) => void;
    wrapped({ sender: 'electron internals' }, { state: 'ok' });
    expect(listener).toHaveBeenCalledWith({ state: 'ok' });
    off();
    expect(renderer.removeListener).toHaveBeenCalledWith(`${EVENT_PREFIX}fleet:status`, wrapped);
  });

  it('sends the first reads at once and hands each answer to the page once; a failed early read is asked again', async () => {
    const answers = new Map<string, string>([
      [`${IPC_PREFIX}app:info`, '{"ok":true,"value":{"version":"1"}}'],
      [`${IPC_PREFIX}sites:list`, '{"ok":false,"error":{"code":"forbidden","message":"this frame may not call Fleetdeck"}}'],
    ]);
    const renderer = { invoke: vi.fn(async (channel: string) => answers.get(channel) ?? '{"ok":true,"value":[]}'), on: vi.fn(), removeListener: vi.fn() };
    const api = buildApi(renderer as never, ['app:info', 'sites:list', 'not:a-channel']);
    // Sent as the transport is built, before the page has called anything; an unknown name is not sent.
    expect(renderer.invoke.mock.calls).toEqual([
      [`${IPC_PREFIX}app:info`, {}],
      [`${IPC_PREFIX}sites:list`, {}],
    ]);
    expect(await api.call('app:info', {})).toBe('{"ok":true,"value":{"version":"1"}}');
    expect(renderer.invoke).toHaveBeenCalledTimes(2);
    // Once: the next read of it asks main again.
    answers.set(`${IPC_PREFIX}app:info`, '{"ok":true,"value":{"version":"2"}}');
    expect(await api.call('app:info', {})).toBe('{"ok":true,"value":{"version":"2"}}');
    expect(renderer.invoke).toHaveBeenCalledTimes(3);
    // The early read was refused (the frame was not trusted yet): the page's call asks again and gets main's answer now.
    answers.set(`${IPC_PREFIX}sites:list`, '{"ok":true,"value":[]}');
    expect(await api.call('sites:list', {})).toBe('{"ok":true,"value":[]}');
    expect(renderer.invoke).toHaveBeenCalledTimes(4);
  });

  it("hands the page's first status listener each system's last status main sent before it listened, then the live ones", async () => {
    const page = new EventEmitter();
    const renderer = {
      invoke: vi.fn(async () => '{"ok":true,"value":[]}'),
      on: (channel: string, l: (...a: unknown[]) => void) => page.on(channel, l),
      removeListener: (channel: string, l: (...a: unknown[]) => void) => page.removeListener(channel, l),
    };
    const api = buildApi(renderer as never, ['fleet:status']);
    const status = (system: string, state: string) => ({ siteId: 's', system, state });
    // Sent by main after its early fleet:status answer, before the page listens (its frame is still mounting).
    page.emit(`${EVENT_PREFIX}fleet:status`, {}, status('x', 'refreshing'));
    page.emit(`${EVENT_PREFIX}fleet:status`, {}, status('y', 'ok'));
    page.emit(`${EVENT_PREFIX}fleet:status`, {}, status('x', 'unreachable'));
    const got: unknown[] = [];
    api.on('fleet:status', (p) => got.push(p));
    await Promise.resolve();
    // Each system's last status, in the order they came; then those sent once the page listened.
    expect(got).toEqual([status('y', 'ok'), status('x', 'unreachable')]);
    page.emit(`${EVENT_PREFIX}fleet:status`, {}, status('z', 'ok'));
    expect(got).toEqual([status('y', 'ok'), status('x', 'unreachable'), status('z', 'ok')]);
    // Heard once: the page's own listener is the only one left, and a second listener gets only live statuses.
    expect(page.listenerCount(`${EVENT_PREFIX}fleet:status`)).toBe(1);
    const later: unknown[] = [];
    api.on('fleet:status', (p) => later.push(p));
    await Promise.resolve();
    expect(later).toEqual([]);
  });

  it('keeps no statuses in a window that sends no early status read', () => {
    const on = vi.fn();
    buildApi({ invoke: vi.fn(async () => '{"ok":true,"value":[]}'), on, removeListener: vi.fn() } as never, ['app:info']);
    expect(on).not.toHaveBeenCalled();
  });

  it('does not hand an early answer to a read with a request of its own', async () => {
    const renderer = { invoke: vi.fn(async (_c: string, request: unknown) => JSON.stringify({ ok: true, value: request })), on: vi.fn(), removeListener: vi.fn() };
    const api = buildApi(renderer as never, ['health:briefs']);
    expect(await api.call('health:briefs', { since: 3 })).toBe('{"ok":true,"value":{"since":3}}');
    expect(await api.call('health:briefs', {})).toBe('{"ok":true,"value":{}}');
    expect(renderer.invoke).toHaveBeenCalledTimes(2);
  });

  it('is exposed to the page as window.fleetdeck when context isolation is on', async () => {
    vi.resetModules();
    Object.defineProperty(process, 'contextIsolated', { value: true, configurable: true });
    await import('../../../../main/electron/preload.js');
    expect(Object.isFrozen(exposed.fleetdeck)).toBe(true);
    Object.defineProperty(process, 'contextIsolated', { value: undefined, configurable: true });
  });
});
