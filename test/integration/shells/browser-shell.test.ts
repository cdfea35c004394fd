import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { splitAnswers } from '../../../app/ipc/batch.js';
import { CHANNEL_NAMES } from '../../../app/ipc/channels.js';
import type { EventName, EventPayload } from '../../../app/ipc/contract.js';
import type { SystemStatus } from '../../../app/domain/site.js';
import { supersedes } from '../../../app/domain/site-rules.js';
import { FleetState } from '../../../main/core/fleet-state.js';
import type { Handlers } from '../../../main/ipc/handlers.js';
import { startBrowserShell, type BrowserShell } from '../../../main/shells/browser-shell.js';
import type { OfflineCache } from '../../../main/store/offline-cache.js';
import { httpApi } from '../../../renderer/lib/api.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP, so Host and Origin can be set as an attacker would. */
function raw(port: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...init.headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('browser shell', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fd-shell-'));
  const token = 'T'.repeat(32);
  let shell: BrowserShell;
  let emit: (<E extends EventName>(event: E, payload: EventPayload<E>) => void) | undefined;
  const handlers = Object.fromEntries(CHANNEL_NAMES.map((c) => [c, async (r: unknown) => (c === 'sites:list' ? [] : { echo: r })])) as unknown as Handlers;

  beforeAll(async () => {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Fleetdeck</title><script type="module" src="./assets/app.js"></script>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'app.js.map'), '{"version":3,"sourcesContent":["secret sources"]}');
    writeFileSync(join(tmpdir(), 'fd-outside.txt'), 'outside');
    shell = await startBrowserShell({ handlers, rendererDir: dir, token, subscribe: (e) => ((emit = e), () => (emit = undefined)) });
  });
  afterAll(async () => {
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ipc = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
    raw(shell.port, `/ipc/${channel}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-fleetdeck-token': token, ...headers }, body: JSON.stringify(body) });

  it('prints a loopback URL carrying the token', () => {
    expect(shell.url).toBe(`http://127.0.0.1:${shell.port}/?token=${token}`);
  });

  it('refuses calls and events without the token in its header, or with a wrong one', async () => {
    const noToken = await raw(shell.port, '/ipc/app:info', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(noToken.status).toBe(401);
    expect((await ipc('app:info', {}, { 'x-fleetdeck-token': 'x'.repeat(32) })).status).toBe(401);
    expect((await raw(shell.port, '/events')).status).toBe(401);
    expect((await raw(shell.port, '/events', { headers: { 'x-fleetdeck-token': 'x'.repeat(32) } })).status).toBe(401);
  });

  it('accepts the token for calls and events only as a header: not in the URL, not as a cookie', async () => {
    const body = '{}';
    const inUrl = await raw(shell.port, `/ipc/app:info?token=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(inUrl.status).toBe(401);
    const asCookie = await raw(shell.port, '/ipc/app:info', { method: 'POST', headers: { 'content-type': 'application/json', cookie: `fleetdeck_token=${token}` }, body });
    expect(asCookie.status).toBe(401);
    expect((await raw(shell.port, `/events?token=${token}`)).status).toBe(401);
    expect((await raw(shell.port, '/events', { headers: { cookie: `fleetdeck_token=${token}` } })).status).toBe(401);
  });

  it('opens the page only with the token, sets no cookie, and tells a reload how to reopen', async () => {
    const page = await raw(shell.port, `/?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'; script-src 'self'/);
    // A cookie is sent to every port of 127.0.0.1: any other local server would receive the token.
    expect(page.headers['set-cookie']).toBeUndefined();
    expect((await raw(shell.port, '/?token=wrong')).status).toBe(401);
    for (const path of ['/', '/index.html']) {
      const reload = await raw(shell.port, path);
      expect(reload.status, path).toBe(401);
      expect(reload.headers['content-type']).toMatch(/text\/html/);
      expect(reload.body).toMatch(/Open the address Fleetdeck printed when it started/);
      expect(reload.body).not.toContain(token);
    }
    // The bundle's assets hold no secret and load without it (scripts cannot send a header).
    const asset = await raw(shell.port, '/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['set-cookie']).toBeUndefined();
  });

  it('serves the assets whole from memory, index.html as it is now, and a file written after a miss', async () => {
    const asset = await raw(shell.port, '/assets/app.js');
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['content-length']).toBe(String('console.log(1)'.length));
    // Hashed names: kept by the browser (and its code cache); the page that names them is not.
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await raw(shell.port, `/?token=${token}`)).headers['cache-control']).toBe('no-store');
    const head = await raw(shell.port, '/assets/app.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    // A rebuild writes a new index.html (new chunk names): the next page gets it.
    const before = (await raw(shell.port, `/?token=${token}`)).body;
    writeFileSync(join(dir, 'index.html'), before.replace('app.js', 'app2.js'));
    expect((await raw(shell.port, `/?token=${token}`)).body).toContain('app2.js');
    writeFileSync(join(dir, 'index.html'), before);
    // A miss is not remembered: the file, once written, is served.
    expect((await raw(shell.port, '/assets/late.js')).status).toBe(404);
    writeFileSync(join(dir, 'assets', 'late.js'), 'console.log(2)');
    expect((await raw(shell.port, '/assets/late.js')).body).toBe('console.log(2)');
    // A folder is not a file.
    expect((await raw(shell.port, '/assets/')).status).toBe(404);
  });

  it('never serves a source map', async () => {
    const map = await raw(shell.port, '/assets/app.js.map');
    expect(map.status).toBe(404);
    expect(map.body).not.toContain('sourcesContent');
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of ['/../fd-outside.txt', '/%2e%2e/fd-outside.txt', '/assets/../../fd-outside.txt']) {
      const r = await raw(shell.port, `${path}?token=${token}`);
      expect(r.status, path).not.toBe(200);
      expect(r.body).not.toContain('outside');
    }
  });

  it('runs the handlers of the contract and refuses unknown channels, bad JSON and other content types', async () => {
    const ok = await ipc('fleet:status', { site: 'paris' });
    expect(JSON.parse(ok.body)).toEqual({ ok: true, value: { echo: { site: 'paris' } } });
    expect(JSON.parse((await ipc('fs:read', {})).body)).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(JSON.parse((await ipc('op:call', { site: 1 })).body)).toMatchObject({ ok: false, error: { code: 'validation' } });
    const malformed = await raw(shell.port, '/ipc/app:info', { method: 'POST', headers: { 'content-type': 'application/json', 'x-fleetdeck-token': token }, body: '{nope' });
    expect(JSON.parse(malformed.body)).toMatchObject({ ok: false, error: { code: 'validation' } });
    const form = await raw(shell.port, '/ipc/app:info', { method: 'POST', headers: { 'content-type': 'text/plain', 'x-fleetdeck-token': token }, body: '{}' });
    expect(form.status).toBe(415);
  });

  it('answers a batch of calls with each envelope as a single call gives it, behind the same checks', async () => {
    const batch = (body: string, headers: Record<string, string> = {}) =>
      raw(shell.port, '/ipc/batch', { method: 'POST', headers: { 'content-type': 'application/json', 'x-fleetdeck-token': token, ...headers }, body });
    const calls = [
      ['fleet:status', { site: 'paris' }],
      ['fs:read', {}],
      ['op:call', { site: 1 }],
      ['sites:list', {}],
    ] as const;
    const answer = await batch(JSON.stringify(calls));
    expect(answer.status).toBe(200);
    const singles = await Promise.all(calls.map(([channel, request]) => ipc(channel, request)));
    expect(splitAnswers(answer.body, calls.length)).toEqual(singles.map((s) => s.body));
    // The same walls as a single call: the token in its header, JSON, POST, this origin.
    expect((await batch('[["app:info",{}]]', { 'x-fleetdeck-token': 'x'.repeat(32) })).status).toBe(401);
    expect((await batch('[["app:info",{}]]', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await batch('[["app:info",{}]]', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await raw(shell.port, '/ipc/batch', { headers: { 'x-fleetdeck-token': token } })).status).toBe(405);
    // What is not a batch is refused whole, not half answered.
    for (const body of ['{nope', '[]', '{"app:info":{}}', JSON.stringify(Array.from({ length: 17 }, () => ['app:info', {}]))]) {
      expect((await batch(body)).status, body).toBe(400);
    }
  });

  it('streams events to a client that sends the token as a header', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: shell.port, path: '/events', headers: { host: `127.0.0.1:${shell.port}`, 'x-fleetdeck-token': token } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          if (text.includes(': connected')) emit?.('fleet:notifications', { siteId: 'paris', system: 'a', count: 3 });
          if (text.includes('event: fleet:notifications')) {
            req.destroy();
            resolve(text);
          }
        });
      });
      req.on('error', (e) => (String(e).includes('socket hang up') ? undefined : reject(e)));
      req.end();
    });
    expect(received).toContain('data: {"siteId":"paris","system":"a","count":3}');
  });

  it("sends a stream opened after a page's fleet:status answer the status of each system that changed since, then the live ones", async () => {
    const status = (system: string, state: 'ok' | 'refreshing' | 'unreachable') => ({ siteId: 'nice', system, state }) as EventPayload<'fleet:status'>;
    emit?.('fleet:status', status('x', 'ok'));
    const client = httpApi(new URL(`http://127.0.0.1:${shell.port}/`), token);
    await client.invoke('fleet:status', {});
    // Sent after main answered, before the page listens (~120 ms at start): its frame is still mounting.
    emit?.('fleet:status', status('y', 'refreshing'));
    emit?.('fleet:status', status('x', 'unreachable'));
    const got: unknown[] = [];
    const off = client.on('fleet:status', (p) => got.push(p));
    try {
      await vi.waitFor(() => expect(got).toHaveLength(2));
      expect(got).toEqual([status('y', 'refreshing'), status('x', 'unreachable')]);
      // Then live, and nothing from before the answer.
      emit?.('fleet:status', status('z', 'ok'));
      await vi.waitFor(() => expect(got).toHaveLength(3));
      expect(got[2]).toEqual(status('z', 'ok'));
    } finally {
      off();
    }
  });

  it('replays nothing to a stream that says nothing of where it stands', async () => {
    emit?.('fleet:status', { siteId: 'nice', system: 'w', state: 'ok' } as EventPayload<'fleet:status'>);
    const seq = Number((await ipc('app:info', {})).headers['x-fleetdeck-status-seq']);
    expect(seq).toBeGreaterThan(0);
    const first = (headers: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: shell.port, path: '/events', headers: { host: `127.0.0.1:${shell.port}`, 'x-fleetdeck-token': token, ...headers } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
            if (text.includes(': connected\n\n')) {
              // The replay is written with the greeting, in the same turn: a live event marks the end.
              emit?.('fleet:notifications', { siteId: 'nice', system: 'w', count: 1 });
            }
            if (text.includes('event: fleet:notifications')) {
              req.destroy();
              resolve(text);
            }
          });
        });
        req.on('error', (e) => (String(e).includes('socket hang up') ? undefined : reject(e)));
        req.end();
      });
    expect(await first({})).not.toContain('event: fleet:status');
    expect(await first({ 'last-event-id': String(seq) })).not.toContain('event: fleet:status');
    expect(await first({ 'last-event-id': String(seq - 1) })).toContain(`id: ${seq}\nevent: fleet:status\ndata: {"siteId":"nice","system":"w","state":"ok"}`);
  });

  it("serves the renderer's own HTTP transport: calls and the event stream with the token in memory", async () => {
    const client = httpApi(new URL(`http://127.0.0.1:${shell.port}/`), token);
    expect(await client.invoke('fleet:status', { site: 'lyon' })).toEqual({ echo: { site: 'lyon' } });
    const got = new Promise<unknown>((resolve) => {
      const off = client.on('fleet:notifications', (payload) => {
        off();
        resolve(payload);
      });
    });
    // Emitted until the stream is connected (it opens on the first subscription, in the background).
    const timer = setInterval(() => emit?.('fleet:notifications', { siteId: 'lyon', system: 'b', count: 1 }), 50);
    try {
      expect(await got).toEqual({ siteId: 'lyon', system: 'b', count: 1 });
    } finally {
      clearInterval(timer);
    }
    const stale = httpApi(new URL(`http://127.0.0.1:${shell.port}/`), 'x'.repeat(32));
    await expect(stale.invoke('app:info', {})).rejects.toMatchObject({ code: 'access-token', message: expect.stringMatching(/open the address Fleetdeck printed/) });
  });

  it("carries main's status sequence on the answer's statuses and the stream's: the window keeps each system's newest, whatever the order it applies them in", async () => {
    // Main's fleet state behind its own shell: the handler's snapshot and the events as the runtime wires them.
    const state = new FleetState({ systems: () => [], get: () => undefined } as unknown as OfflineCache);
    const own = await startBrowserShell({
      handlers: { ...handlers, 'fleet:status': async () => [{ siteId: 'nice', systems: state.status('nice') }] } as Handlers,
      rendererDir: dir,
      token,
      subscribe: (send) => state.on((e) => (e.type === 'status' ? send('fleet:status', e.status) : undefined)),
    });
    try {
      state.setStatus({ siteId: 'nice', system: 'x', state: 'refreshing' });
      state.setStatus({ siteId: 'nice', system: 'y', state: 'ok' });
      const client = httpApi(new URL(`http://127.0.0.1:${own.port}/`), token);
      const snapshot = (await client.invoke('fleet:status', {})).flatMap((site) => site.systems);
      // Sent after the answer, before the page listens: replayed when the stream opens.
      state.setStatus({ siteId: 'nice', system: 'x', state: 'ok', lastSuccessAt: 't2' });
      const got: SystemStatus[] = [];
      const off = client.on('fleet:status', (p) => got.push(p));
      try {
        await vi.waitFor(() => expect(got).toHaveLength(1));
        state.setStatus({ siteId: 'nice', system: 'y', state: 'refreshing' });
        await vi.waitFor(() => expect(got).toHaveLength(2));
      } finally {
        off();
      }
      expect(snapshot.map((s) => `${s.system}:${s.state}:${s.seq}`)).toEqual(['x:refreshing:1', 'y:ok:2']);
      expect(got.map((s) => `${s.system}:${s.state}:${s.seq}`)).toEqual(['x:ok:3', 'y:refreshing:4']);
      // The store's rule, applied with the snapshot first or last: the same statuses shown.
      const shown = (order: SystemStatus[]): string[] => {
        const kept = new Map<string, SystemStatus>();
        for (const s of order) if (supersedes(s, kept.get(s.system))) kept.set(s.system, s);
        return [...kept.values()].map((s) => `${s.system}:${s.state}`).sort();
      };
      expect(shown([...snapshot, ...got])).toEqual(['x:ok', 'y:refreshing']);
      expect(shown([...got, ...snapshot])).toEqual(['x:ok', 'y:refreshing']);
    } finally {
      await own.close();
    }
  });
});
