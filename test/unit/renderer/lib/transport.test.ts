import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { joinAnswers } from '../../../../app/ipc/batch.js';
import { CHANNEL_NAMES } from '../../../../app/ipc/channels.js';
import type { Channel, FleetdeckApi } from '../../../../app/ipc/contract.js';
import { InputError } from '../../../../app/errors.js';
import type { Handlers } from '../../../../main/ipc/handlers.js';
import { RawJson } from '../../../../main/ipc/raw-json.js';
import { startBrowserShell, type BrowserShell } from '../../../../main/shells/browser-shell.js';
import { decodeAnswer, fromTransport, httpTransport, IpcCallError } from '../../../../renderer/lib/api.js';

// The preload and IPC registration import `electron`, which cannot run here: only the surface they use.
vi.mock('electron', () => ({ contextBridge: { exposeInMainWorld: () => undefined }, ipcRenderer: {}, ipcMain: {} }));
const { registerIpc } = await import('../../../../main/electron/ipc-registration.js');
const { buildApi } = await import('../../../../main/electron/preload.js');

/**
 * One transport: the Electron path (IPC registration → structured clone → preload) and the browser
 * shell's path (HTTP) carry the same envelope text, and the renderer decodes both with one decoder.
 * Each case runs on both and must come out the same.
 */

const CACHED = '{"Data":[{"Name":"vol \\"1\\"","Size":10}],"Nested":{"a":[1,2,{"b":null}]}}';
const handlers = Object.fromEntries(
  CHANNEL_NAMES.map((c) => [
    c,
    async (): Promise<unknown> => {
      if (c === 'app:info') return { version: '1.2.3', simulated: false, keychain: 'memory' };
      if (c === 'cache:read') return { value: new RawJson(CACHED), at: '2026-11-01T10:00:00.000Z', stale: true };
      if (c === 'sites:remove') throw new InputError('site "paris" has unsaved changes');
      throw new Error(`unexpected ${c}`);
    },
  ]),
) as unknown as Handlers;

/** The Electron path in-process: main's registered handler, Electron's structured clone, the preload. */
function electronApi(): FleetdeckApi {
  const registered = new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>();
  registerIpc(handlers, { handle: (channel: string, fn: (event: unknown, payload: unknown) => Promise<unknown>) => void registered.set(channel, fn), removeHandler: () => undefined } as never);
  const frame = { url: 'app://fleetdeck/index.html' };
  const ipcRenderer = {
    invoke: async (channel: string, payload: unknown) => structuredClone(await registered.get(channel)!({ sender: { mainFrame: frame }, senderFrame: frame }, structuredClone(payload))),
    on: () => undefined,
    removeListener: () => undefined,
  };
  return fromTransport(buildApi(ipcRenderer as never));
}

let shell: BrowserShell;
const rendererDir = mkdtempSync(join(tmpdir(), 'fd-transport-'));
beforeAll(async () => {
  shell = await startBrowserShell({ handlers, rendererDir, subscribe: () => () => undefined });
});
afterAll(async () => {
  await shell.close();
  rmSync(rendererDir, { recursive: true, force: true });
});

const paths: Array<[string, () => FleetdeckApi]> = [
  ['Electron IPC', electronApi],
  ['browser shell HTTP', () => fromTransport(httpTransport(new URL(shell.url), new URL(shell.url).searchParams.get('token') ?? ''))],
];

/** What a call gives the renderer: its value, or the error's class, code and message. */
async function outcome(api: FleetdeckApi, channel: string, request: unknown): Promise<unknown> {
  try {
    return { value: await api.invoke(channel as Channel, request as never) };
  } catch (err) {
    return { error: err instanceof IpcCallError ? { code: err.code, message: err.message } : String(err) };
  }
}

const cases: Array<[string, string, unknown, unknown]> = [
  ['an answer', 'app:info', {}, { value: { version: '1.2.3', simulated: false, keychain: 'memory' } }],
  ['a cached answer sent as its stored text', 'cache:read', { site: 's', system: 'a', operation: 'GET /Version' }, { value: { value: JSON.parse(CACHED) as unknown, at: '2026-11-01T10:00:00.000Z', stale: true } }],
  ['a refusal with its code', 'sites:remove', { site: 'paris' }, { error: { code: 'validation', message: 'site "paris" has unsaved changes' } }],
  ['an invalid request, refused before the handler', 'op:call', { site: 42 }, { error: { code: 'validation', message: expect.stringContaining('site') as unknown } }],
  ['an unknown channel', 'fs:read', {}, { error: { code: 'unknown-channel', message: expect.stringContaining('fs:read') as unknown } }],
];

describe.each(paths)('over %s', (_name, make) => {
  it.each(cases)('decodes %s', async (_what, channel, request, expected) => {
    expect(await outcome(make(), channel, request)).toEqual(expected);
  });
});

describe('the browser shell batch', () => {
  it('answers several calls in one request, each exactly as it would alone', async () => {
    const token = new URL(shell.url).searchParams.get('token') ?? '';
    const requests: string[] = [];
    const counting: typeof fetch = (input, init) => {
      requests.push(new URL(String(input)).pathname);
      return fetch(input, init);
    };
    const api = fromTransport(httpTransport(new URL(shell.url), token, counting));
    const settled = (p: Promise<unknown>): Promise<unknown> =>
      p.then(
        (value) => ({ value }),
        (err: unknown) => ({ error: err instanceof IpcCallError ? { code: err.code, message: err.message } : String(err) }),
      );
    const batched = await Promise.all(api.invokeAll!(cases.map(([, channel, request]) => [channel, request])).map(settled));
    expect(requests).toEqual(['/ipc/batch']);
    expect(batched).toEqual(cases.map(([, , , expected]) => expected));
  });

  it('fails every call of a batch the shell refused, with the refusal', async () => {
    const api = fromTransport(httpTransport(new URL(shell.url), 'x'.repeat(32)));
    const calls = api.invokeAll!([
      ['app:info', {}],
      ['sites:list', {}],
    ]);
    for (const call of calls) await expect(call).rejects.toMatchObject({ name: 'IpcCallError', code: 'access-token' });
  });

  it('calls an answer that is not a batch of as many envelopes a protocol error, for every call', async () => {
    const answer = (body: string): typeof fetch => () => Promise.resolve(new Response(body, { status: 200 }));
    for (const body of ['{"ok":true,"value":1}', '[21]\n{"ok":true,"value":1}', '[21,5]\n{"ok":true,"value":1}']) {
      const calls = fromTransport(httpTransport(new URL(shell.url), 't', answer(body))).invokeAll!([
        ['app:info', {}],
        ['sites:list', {}],
      ]);
      for (const call of calls) await expect(call, body).rejects.toMatchObject({ name: 'IpcCallError', code: 'protocol' });
    }
  });
});

describe('the browser shell event stream', () => {
  /** A fake shell: `fleet:status` answered when released, with the status point it began at; the stream never ends. */
  function fakeShell(seq: string, status = '{"ok":true,"value":[]}') {
    const streams: Array<Record<string, string>> = [];
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const fetchImpl: typeof fetch = async (input, init) => {
      const path = new URL(String(input)).pathname;
      if (path === '/events') {
        streams.push({ ...(init?.headers as Record<string, string>) });
        return new Response(new ReadableStream({ start: () => undefined }), { status: 200 });
      }
      await released;
      const body = path === '/ipc/batch' ? joinAnswers([status, '{"ok":true,"value":{}}']) : status;
      return new Response(body, { status: 200, headers: { 'x-fleetdeck-status-seq': seq } });
    };
    return { streams, release, transport: httpTransport(new URL('http://127.0.0.1:1/'), 't', fetchImpl) };
  }

  it.each([
    ['a single call', (t: ReturnType<typeof httpTransport>) => t.call('fleet:status', {})],
    ['the first reads batch', (t: ReturnType<typeof httpTransport>) => Promise.all(t.callAll([['fleet:status', {}], ['app:info', {}]]))],
  ])('opens only once a fleet:status read in flight is answered, from the point that answer stood at (%s)', async (_what, read) => {
    const shell = fakeShell('41');
    const answered = read(shell.transport);
    const off = shell.transport.on('fleet:status', () => undefined);
    await new Promise((r) => setTimeout(r, 0));
    expect(shell.streams).toEqual([]);
    shell.release();
    await answered;
    await vi.waitFor(() => expect(shell.streams).toHaveLength(1));
    expect(shell.streams[0]).toMatchObject({ 'last-event-id': '41' });
    off();
  });

  it('opens after the frame those answers make is painted, or a while later in a page that paints none', async () => {
    const frames: Array<() => void> = [];
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => frames.push(run));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const painted = fakeShell('7');
      const hidden = fakeShell('8');
      const offs = [painted, hidden].map((shell) => {
        void shell.transport.call('fleet:status', {});
        const off = shell.transport.on('fleet:status', () => undefined);
        shell.release();
        return off;
      });
      await vi.advanceTimersByTimeAsync(0);
      // Answered: each waits for a frame, not in the task the answer came in.
      expect(frames).toHaveLength(2);
      expect([painted.streams, hidden.streams]).toEqual([[], []]);
      // The first one's frame is painted; a task later, its stream opens.
      frames[0]!();
      await vi.advanceTimersByTimeAsync(0);
      expect(painted.streams).toEqual([expect.objectContaining({ 'last-event-id': '7' })]);
      // The other's page paints no frame (a background tab): it opens anyway, a little later.
      expect(hidden.streams).toEqual([]);
      await vi.advanceTimersByTimeAsync(100);
      expect(hidden.streams).toEqual([expect.objectContaining({ 'last-event-id': '8' })]);
      for (const off of offs) off();
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });

  it('waits for a painted frame when it is asked for after the answers are in, and reconnects without waiting', async () => {
    const frames: Array<() => void> = [];
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => frames.push(run));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const shell = fakeShell('9');
      const answered = shell.transport.call('fleet:status', {});
      shell.release();
      await answered;
      await vi.advanceTimersByTimeAsync(0);
      // The frame's listeners ask in its mount, in the task that shows the answers: not painted yet.
      const off = shell.transport.on('fleet:status', () => undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(shell.streams).toEqual([]);
      expect(frames).toHaveLength(1);
      frames[0]!();
      await vi.advanceTimersByTimeAsync(0);
      expect(shell.streams).toEqual([expect.objectContaining({ 'last-event-id': '9' })]);
      // Listening again later (the last listener left, a new one came) opens at once.
      off();
      const again = shell.transport.on('fleet:status', () => undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(shell.streams).toHaveLength(2);
      expect(frames).toHaveLength(1);
      again();
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });

  it('opens from nowhere after a fleet:status read main refused: there is no answer to replay from', async () => {
    const shell = fakeShell('41', '{"ok":false,"error":{"code":"store","message":"the cache could not be read"}}');
    const answered = shell.transport.call('fleet:status', {});
    const off = shell.transport.on('fleet:status', () => undefined);
    shell.release();
    await answered;
    await vi.waitFor(() => expect(shell.streams).toHaveLength(1));
    expect(shell.streams[0]).not.toHaveProperty('last-event-id');
    off();
  });

  it('opens at once, from nowhere, when no status was read', async () => {
    const shell = fakeShell('41');
    const off = shell.transport.on('fleet:status', () => undefined);
    await vi.waitFor(() => expect(shell.streams).toHaveLength(1));
    expect(shell.streams[0]).not.toHaveProperty('last-event-id');
    off();
  });
});

describe('both paths', () => {
  it('give the renderer exactly the same for every case', async () => {
    for (const [, channel, request] of cases) {
      const [electron, browser] = await Promise.all(paths.map(([, make]) => outcome(make(), channel, request)));
      expect(electron, channel).toEqual(browser);
    }
  });
});

describe('decodeAnswer', () => {
  it('calls anything but an envelope a protocol error, never a value', () => {
    expect(decodeAnswer('{"ok":true,"value":null}')).toBeNull();
    for (const text of ['not json', '{"value":1}', '{"ok":false}', '{"ok":false,"error":{"code":1,"message":"m"}}', '[]', 'null']) {
      expect(() => decodeAnswer(text), text).toThrow(expect.objectContaining({ name: 'IpcCallError', code: 'protocol' }) as Error);
    }
  });

  it('rejects with an IpcCallError when the transport itself fails', async () => {
    const api = fromTransport({ call: () => Promise.reject(new Error("Error invoking remote method 'fleetdeck:app:info': reply was never sent")), on: () => () => undefined });
    await expect(api.invoke('app:info', {})).rejects.toMatchObject({ name: 'IpcCallError', code: 'internal', message: expect.stringContaining('reply was never sent') as unknown });
  });
});
