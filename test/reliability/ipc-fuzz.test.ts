import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, type ChannelName } from '../../app/ipc/channels.js';
import { dispatch } from '../../main/ipc/handlers.js';
import { openRuntime, type Runtime } from '../../main/runtime.js';
import { startBrowserShell, type BrowserShell } from '../../main/shells/browser-shell.js';
import { startSimulator, type SimulatorHandle } from '../../simulator/index.js';
import { mulberry32, tempDir } from './support.js';

/**
 * IPC fuzz: seeded random and malformed payloads on every channel of the contract, through
 * `dispatch` (what the Electron registration calls) and through the browser shell's HTTP endpoint.
 * Every answer must be a well-formed `{ ok, value | error: { code, message } }`; nothing may crash,
 * reject unhandled, pollute a prototype or leave the server unable to answer.
 */

const SEED = 0x5eed_f022;
const TOKEN = 'F'.repeat(40);
/** Messages that betray a handler crashing on input it did not expect, rather than refusing it. */
const CRASH = /Cannot read propert|Cannot set propert|is not a function|is not iterable|undefined is not|null is not|Maximum call stack|Converting circular|Do not know how to serialize|Invalid array length|out of memory/i;
const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];

type Rand = () => number;

interface Answer {
  ok: boolean;
  value?: unknown;
  error?: { code: unknown; message: unknown };
}

function pick<T>(rand: Rand, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

function randomString(rand: Rand, max = 40): string {
  const alphabets = ['abcdefghijklmnopqrstuvwxyz0123456789', ' \t\n\r\\"\'`${}<>&%/.:;', '\u0000\u0001\u007f\u200b\u202e\ud800\udfff', 'äöü漢字🙂\uFEFF'];
  const alphabet = pick(rand, alphabets);
  let s = '';
  const n = Math.floor(rand() * max);
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)] ?? '';
  return s;
}

/** Deeply nested arrays or objects (JSON parsers and recursive walkers meet their limits here). */
function nested(depth: number, asObject: boolean): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = asObject ? { a: v } : [v];
  return v;
}

/** An object whose own keys include prototype-pollution names (as JSON.parse would produce them). */
function polluted(rand: Rand): Record<string, unknown> {
  const key = pick(rand, POLLUTION_KEYS);
  return JSON.parse(`{${JSON.stringify(key)}: {"polluted": true, "isAdmin": true}, "constructor": {"prototype": {"polluted": true}}}`) as Record<string, unknown>;
}

/**
 * A random value. `json` limits it to what survives JSON (the HTTP transport); otherwise it may hold
 * anything Electron's structured clone can deliver (undefined, NaN, BigInt, Date, Map, cycles…).
 */
function garbage(rand: Rand, json: boolean, depth = 0): unknown {
  const kinds = ['null', 'bool', 'int', 'float', 'string', 'huge', 'array', 'object', 'polluted', 'nested', ...(json ? [] : ['undefined', 'nan', 'bigint', 'date', 'map', 'cycle', 'typed'])];
  switch (pick(rand, kinds)) {
    case 'null':
      return null;
    case 'bool':
      return rand() < 0.5;
    case 'int':
      return pick(rand, [0, -1, 1, 2 ** 31, -(2 ** 53), Number.MAX_SAFE_INTEGER, 1e308, Math.floor(rand() * 1e6)]);
    case 'float':
      return pick(rand, [0.5, -0.000001, 3.14159, 1e-308]);
    case 'string':
      return randomString(rand);
    case 'huge':
      return pick(rand, ['x', '\u{1F642}', '%', '\\']).repeat(json ? 300_000 : 1_500_000);
    case 'array':
      return depth > 3 ? [] : Array.from({ length: Math.floor(rand() * 5) }, () => garbage(rand, json, depth + 1));
    case 'object': {
      if (depth > 3) return {};
      const o: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(rand() * 5); i++) o[rand() < 0.3 ? pick(rand, POLLUTION_KEYS.slice(1)) : randomString(rand, 12)] = garbage(rand, json, depth + 1);
      return o;
    }
    case 'polluted':
      return polluted(rand);
    case 'nested':
      return nested(pick(rand, json ? [50, 1_000] : [50, 1_000, 5_000]), rand() < 0.5);
    case 'undefined':
      return undefined;
    case 'nan':
      return pick(rand, [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0]);
    case 'bigint':
      return BigInt(Math.floor(rand() * 1e9)) ** 3n;
    case 'date':
      return new Date(rand() < 0.5 ? Number.NaN : 1e12);
    case 'map':
      return new Map([[randomString(rand), garbage(rand, json, depth + 1)]]);
    case 'cycle': {
      const o: Record<string, unknown> = { Name: 'cycle' };
      o.self = o;
      o.list = [o];
      return o;
    }
    default:
      return new Uint8Array(16);
  }
}

/** One valid-looking request per channel, so mutations reach past the first check into the handlers. */
function templates(siteId: string, system: string, exportDir: string): Record<ChannelName, Array<Record<string, unknown>>> {
  return {
    'app:info': [{}],
    'sites:list': [{}],
    'sites:probe': [{ baseUrl: 'https://127.0.0.1:1' }],
    'sites:add': [{ name: 'fuzz-site', baseUrl: 'http://127.0.0.1:1', username: 'fuzz', password: 'fuzz-password', tags: ['fuzz'] }],
    'sites:edit': [{ site: 'no-such-site', patch: { tags: ['fuzz'], maxInFlight: 2 } }],
    'sites:remove': [{ site: 'no-such-site' }],
    'sites:trust': [{ site: siteId, sha256: 'ab'.repeat(32) }],
    'sites:pause': [{ site: 'no-such-site', paused: true }],
    'sites:export': [{}, { sites: [siteId] }],
    'sites:preview': [{ fileName: 'fuzz.json', text: '{"format":"fleetdeck-site-list","version":1,"sites":[]}', replace: true }],
    'sites:import': [{ fileName: 'fuzz.json', text: '{"format":"fleetdeck-site-list","version":1,"sites":[]}' }],
    'session:login': [{ site: 'no-such-site', password: 'x', code: '123456' }],
    'session:logout': [{ site: 'no-such-site' }],
    'fleet:status': [{ site: siteId }],
    'fleet:refresh': [{ sites: [siteId], systems: [system], force: true }],
    'op:call': [
      { site: siteId, system, operation: 'GET /hosts/list', query: { name: 'x' } },
      { site: siteId, system, operation: 'POST /hosts/create', body: { Name: 'fuzz-host', Iqn: 'iqn.2026-01.io.fleetdeck:fuzz' } },
      { site: siteId, system, operation: 'GET /resources/list', query: { resourceType: 'Drive' }, headers: { async: true } },
      { site: siteId, system, operation: 'GET /Version', callId: 'fuzz-call' },
    ],
    'op:cancel': [{ callId: 'fuzz-call' }],
    'bulk:start': [{ operation: 'POST /hosts/create', targets: [{ site: siteId, system }], body: { Name: 'fuzz-bulk', Iqn: 'iqn.2026-01.io.fleetdeck:fuzz-bulk' }, maxInFlight: 2, stopOnFailure: true }],
    'bulk:list': [{}],
    'bulk:retry': [{ id: 'no-such-bulk' }],
    'bulk:cancel': [{ id: 'no-such-bulk' }],
    'cache:read': [{ site: siteId, system, operation: 'GET /Version', query: {} }],
    'search:query': [{ query: system, limit: 20 }, { query: 'iqn. 50:01', limit: 1000 }],
    'health:briefs': [{}, { since: 0 }],
    'health:summaries': [{}, { since: 0 }],
    'log:list': [{ site: siteId, since: '2020-01-01T00:00:00Z', limit: 10 }],
    'log:verify': [{}],
    'forward:status': [{}],
    'forward:set': [{ setting: { target: 'tcp://127.0.0.1:1' } }, { setting: null }],
    'log:query': [{ site: siteId, system, operation: 'hosts/create', results: ['ok', 'unknown'], since: '2020-01-01T00:00:00Z', until: '2100-01-01T00:00:00Z', offset: 0, limit: 50 }],
    'log:export': [
      { site: siteId, operation: 'hosts', format: 'csv' },
      { results: ['refused'], since: '2020-01-01T00:00:00Z', format: 'json' },
    ],
    'reports:list': [{}],
    'reports:generate': [{ kind: 'inventory', sites: [siteId], offline: true }],
    'reports:open': [{ id: 999_999 }],
    'reports:diff': [{ from: 999_998, to: 999_999 }],
    'reports:export': [{ id: 999_999, formats: ['json'] }],
    'alerts:list': [{ state: 'active', site: siteId, system, rule: 'drive', level: 'critical', limit: 10 }],
    'alerts:ack': [{ ids: [999_999] }],
    'alerts:snooze': [{ ids: [999_999], until: '2099-01-01T00:00:00Z' }],
    'alertrules:get': [{}],
    'alertrules:set': [{ scope: { level: 'system', siteId, system }, override: { 'pool-used': { percent: 80 } } }],
    'alerts:notify': [{ notify: true }],
    'table:export': [{ format: 'csv', title: 'fuzz', columns: ['a', 'b'], rows: [['=1', 2]] }, { file: `${exportDir}/fuzz-table.csv`, format: 'csv', title: 'fuzz', columns: ['a'], rows: [] }],
    'notices:dismiss': [{ notice: 'site-import' }],
    'compliance:evaluate': [{}, { site: siteId }],
    'compliance:history': [{ site: siteId, system }],
    'compliance:waive': [{ check: 'users-two-step', site: siteId, system, reason: 'fuzz', until: '2099-01-01T00:00:00Z' }],
    'compliance:unwaive': [{ check: 'users-two-step', site: siteId, system }],
    'compliance:fixplan': [{ check: 'support-tunnel-off' }],
    'demo:whatif': [{ action: 'fail-drive', site: siteId, system }, { action: 'stop-site', site: siteId }],
  };
}

/** A mutation of a template: a field replaced, removed or polluted, or the whole payload replaced. */
function mutate(rand: Rand, template: Record<string, unknown>, json: boolean): unknown {
  const out: Record<string, unknown> = { ...template };
  const keys = Object.keys(out);
  switch (Math.floor(rand() * 7)) {
    case 0:
    case 1: {
      if (keys.length) out[pick(rand, keys)] = garbage(rand, json);
      return out;
    }
    case 2: {
      if (keys.length) delete out[pick(rand, keys)];
      return out;
    }
    case 3:
      return Object.assign(polluted(rand), out);
    case 4: {
      // A nested field of the template (patch, query, body) with garbage inside.
      const inner = keys.find((k) => typeof out[k] === 'object' && out[k] !== null && !Array.isArray(out[k]));
      if (inner) out[inner] = { ...(out[inner] as Record<string, unknown>), [pick(rand, [...POLLUTION_KEYS, randomString(rand, 8)])]: garbage(rand, json) };
      return out;
    }
    case 5:
      return [out];
    default:
      return garbage(rand, json);
  }
}

/** True when a value is plain JSON data (what the browser shell can deliver): no cycle, BigInt, Map, undefined, NaN. */
function isJsonData(root: unknown): boolean {
  // Iterative: the fuzz nests thousands deep.
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value) || Object.is(value, -0)) return false;
      continue;
    }
    if (typeof value !== 'object' || seen.has(value)) return false;
    seen.add(value);
    const proto = Object.getPrototypeOf(value) as unknown;
    if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
    stack.push(...Object.values(value));
  }
  return true;
}

interface HttpReply {
  status: number;
  body: string;
}

function post(port: number, path: string, body: string, headers: Record<string, string> = {}, method = 'POST'): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      // A fresh connection per request: a refused request's unread body must not poison the next one.
      { host: '127.0.0.1', port, path, method, agent: false, headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'x-fleetdeck-token': TOKEN, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('IPC fuzz on every channel (dispatch and the browser shell)', () => {
  let sim: SimulatorHandle;
  let rt: Runtime;
  let shell: BrowserShell;
  let siteId = '';
  let system = '';
  const data = tempDir('fd-fuzz-');
  const rejections: unknown[] = [];
  const exceptions: unknown[] = [];
  const onRejection = (reason: unknown): void => void rejections.push(reason);
  const onException = (err: unknown): void => void exceptions.push(err);
  const codes = new Map<string, number>();
  /** Runtime errors caused by values only Electron's structured clone can carry (cycles, BigInt…): reported, see below. */
  const cloneOnlyCrashes = new Set<string>();
  /** Refusals coded `internal` (no more specific code): there must be none. */
  const internal = new Set<string>();

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
    sim = await startSimulator({ sites: 1, systems: 1, seed: 'reliability-fuzz', controlServer: false });
    rt = await openRuntime({ dataDir: join(data.dir, 'data'), memorySecrets: true, timeoutMs: 2000 });
    const m = sim.manifest.sites[0]!;
    siteId = (await rt.fleet.addSite({ name: m.name, baseUrl: m.baseUrl, username: m.username, password: m.password })).id;
    for (const s of await rt.fleet.refresh({ force: true })) expect(s.state).toBe('ok');
    system = rt.fleet.systemsOf(siteId)[0]!;
    const renderer = join(data.dir, 'renderer');
    mkdirSync(renderer);
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Fleetdeck</title>');
    shell = await startBrowserShell({ handlers: rt.handlers, rendererDir: renderer, token: TOKEN, subscribe: () => () => undefined });
  }, 60_000);

  afterAll(async () => {
    await shell.close();
    await rt.close();
    await sim.close();
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
    data.remove();
  });

  /**
   * Every answer is well formed; a refusal carries a stable code and a short message. With `strict`
   * the message must also not be a JavaScript runtime error: a handler crashed on the input rather
   * than refusing it.
   */
  function expectWellFormed(answer: Answer, what: string, strict = true): void {
    expect(typeof answer.ok, what).toBe('boolean');
    if (answer.ok) return;
    expect(typeof answer.error?.code, what).toBe('string');
    expect(typeof answer.error?.message, what).toBe('string');
    const message = answer.error?.message as string;
    expect(message.length, what).toBeLessThanOrEqual(2000);
    if (strict) expect(message, `${what}: a handler crashed instead of refusing`).not.toMatch(CRASH);
    else if (CRASH.test(message)) cloneOnlyCrashes.add(`${what.split(' #')[0]}: ${message.split('\n')[0]}`);
    const code = answer.error?.code as string;
    codes.set(code, (codes.get(code) ?? 0) + 1);
    if (code === 'internal') internal.add(`${what.split(' #')[0]}: ${message.split('\n')[0]?.slice(0, 120)}`);
  }

  it('dispatch answers every random payload on every channel with a value or a coded error', async () => {
    const rand = mulberry32(SEED);
    const t = templates(siteId, system, join(data.dir, 'export-direct'));
    for (const channel of CHANNEL_NAMES) {
      for (let i = 0; i < 40; i++) {
        const payload = mutate(rand, pick(rand, t[channel]), false);
        const answer = (await dispatch(rt.handlers, channel, payload)) as Answer;
        // JSON data must be refused cleanly; values JSON cannot express must at least not crash main.
        expectWellFormed(answer, `${channel} #${i}`, isJsonData(payload));
      }
    }
    for (const channel of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'fs:read', '', 'app:info ', 'APP:INFO', 'a'.repeat(100_000)]) {
      const answer = (await dispatch(rt.handlers, channel, {})) as Answer;
      expect(answer.ok, channel.slice(0, 20)).toBe(false);
      expect(answer.error?.code).toBe('unknown-channel');
      expect(String(answer.error?.message).length).toBeLessThan(200);
    }
    console.info(`fuzz error codes: ${JSON.stringify(Object.fromEntries(codes))}`);
    // A mistake in the request is the caller's to correct and is coded as such; `internal` would
    // mean a handler failed in a way nobody anticipated.
    expect([...internal], 'answers coded internal').toEqual([]);
    if (cloneOnlyCrashes.size) console.info(`not JSON, refused with a runtime error rather than a validation error:\n  ${[...cloneOnlyCrashes].join('\n  ')}`);
  }, 60_000);

  it('the browser shell answers every random body on every channel with JSON, and malformed requests without failing', async () => {
    const rand = mulberry32(SEED ^ 0xffff);
    const t = templates(siteId, system, join(data.dir, 'export-http'));
    for (const channel of CHANNEL_NAMES) {
      for (let i = 0; i < 25; i++) {
        const body = JSON.stringify(mutate(rand, pick(rand, t[channel]), true)) ?? '';
        const reply = await post(shell.port, `/ipc/${channel}`, body).catch((e: unknown) => {
          throw new Error(`${channel} #${i} (${body.length} bytes): ${String(e)}`);
        });
        expect(reply.status, `${channel} #${i}: ${reply.body.slice(0, 300)}`).toBe(200);
        expectWellFormed(JSON.parse(reply.body) as Answer, `http ${channel} #${i}`);
      }
    }
    // Malformed JSON and JSON that is not an object.
    const deep = `{"site":${JSON.stringify(siteId)},"system":${JSON.stringify(system)},"operation":"POST /hosts/create","body":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    for (const text of ['{', '[1,', '{"site":', '\u0000', 'nul', '"text"', '123', 'null', '[]', '{"__proto__":{"polluted":true}}', 'true', '1e999', deep]) {
      const reply = await post(shell.port, '/ipc/op:call', text);
      expect(reply.status, text.slice(0, 20)).toBe(200);
      const answer = JSON.parse(reply.body) as Answer;
      expect(answer.ok, text.slice(0, 20)).toBe(false);
      expectWellFormed(answer, `malformed ${text.slice(0, 20)}`);
    }
    // Unknown channels, including names that exist on every object and escapes that do not decode.
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '..%2Fapp:info', 'app:info%2F..', '%00', '%E0%A4%A', '%', 'a'.repeat(8_000)]) {
      const reply = await post(shell.port, `/ipc/${name}`, '{}');
      expect(reply.status, name.slice(0, 20)).toBe(200);
      const answer = JSON.parse(reply.body) as Answer;
      expect(answer.error?.code, name.slice(0, 20)).toBe('unknown-channel');
    }
    // Wrong method and content type are refused before any handler runs.
    expect((await post(shell.port, '/ipc/app:info', '{}', {}, 'GET')).status).toBe(405);
    expect((await post(shell.port, '/ipc/app:info', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    // A body over the 2 MiB cap is cut off (the connection closes), and the server goes on.
    const tooBig: HttpReply | Error = await post(shell.port, '/ipc/op:call', JSON.stringify({ site: siteId, body: 'x'.repeat(3 * 1024 * 1024) })).catch((e: unknown) =>
      e instanceof Error ? e : new Error(String(e)),
    );
    if (!(tooBig instanceof Error)) expect(JSON.parse(tooBig.body) as Answer).toMatchObject({ ok: false });
    // A static path that does not decode is refused, not a server error.
    expect((await post(shell.port, `/%E0%A4%A?token=${TOKEN}`, '', {}, 'GET')).status).toBe(400);
    expect([...internal], 'answers coded internal').toEqual([]);
  }, 60_000);

  it('afterwards: no prototype polluted, no unhandled rejection, and both transports still answer', async () => {
    const probe: Record<string, unknown> = {};
    expect(probe.polluted).toBeUndefined();
    expect(probe.isAdmin).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Array.prototype).not.toHaveProperty('polluted');
    // Give any stray promise its turn to reject (unhandled rejections are reported after the
    // microtasks of a turn) before looking.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(rejections).toEqual([]);
    expect(exceptions).toEqual([]);
    const direct = (await dispatch(rt.handlers, 'app:info', {})) as Answer;
    expect(direct.ok).toBe(true);
    const http = JSON.parse((await post(shell.port, '/ipc/app:info', '{}')).body) as Answer;
    expect(http).toMatchObject({ ok: true, value: { simulated: false } });
    expect(((await dispatch(rt.handlers, 'log:verify', {})) as Answer).value).toMatchObject({ ok: true });
    const status = (await dispatch(rt.handlers, 'fleet:status', { site: siteId })) as Answer;
    expect(status.ok).toBe(true);
  });
});
