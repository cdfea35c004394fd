import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../main/client/index.js';

/** Deterministic PRNG (mulberry32), so a failing fuzz or fault run can be replayed from its seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One HTTP request the client sent, recorded when its single network exchange ended. */
export interface TimedRequest {
  origin: string;
  op: string;
  /** Wall time it took: printed for the reader, never asserted (the machine is shared). */
  ms: number;
  error?: string;
}

/** The records of {@link timeRequests}, the requests still running, and a way to wait for one. */
export interface RequestProbe {
  records: TimedRequest[];
  /** Requests sent and not yet ended. */
  readonly running: number;
  /** Resolves with the first record from now on that matches. */
  next(match: (r: TimedRequest) => boolean): Promise<TimedRequest>;
  restore: () => void;
}

type Send = (this: ApiClient, op: { key: string }, ...rest: unknown[]) => Promise<unknown>;

/**
 * Times every HTTP request of every ApiClient (the private `send`: one network exchange, after the
 * in-flight caps let it go, before any retry). A probe, not a mock: the request still runs as is.
 * Returns the records and a function that restores the original method.
 */
export function timeRequests(): RequestProbe {
  const proto = ApiClient.prototype as unknown as { send: Send };
  const original = proto.send;
  const records: TimedRequest[] = [];
  const waiting: Array<{ match: (r: TimedRequest) => boolean; resolve: (r: TimedRequest) => void }> = [];
  let running = 0;
  const record = (r: TimedRequest): void => {
    records.push(r);
    for (const w of waiting.filter((x) => x.match(r))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(r);
    }
  };
  proto.send = async function timed(this: ApiClient, op: { key: string }, ...rest: unknown[]): Promise<unknown> {
    const started = performance.now();
    running++;
    try {
      const value = await original.call(this, op, ...rest);
      record({ origin: this.baseUrl.origin, op: op.key, ms: performance.now() - started });
      return value;
    } catch (err) {
      record({ origin: this.baseUrl.origin, op: op.key, ms: performance.now() - started, error: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      running--;
    }
  };
  return {
    records,
    get running() {
      return running;
    },
    next: (match) => new Promise((resolve) => waiting.push({ match, resolve })),
    restore: () => {
      proto.send = original;
    },
  };
}

/** The client's connections, as undici opened them, and which of them it has seen closed. */
export interface SocketProbe {
  /** Connections to `origin` whose close the client has not yet handled. */
  open(origin: string): number;
  restore: () => void;
}

/**
 * Watches every connection undici opens (its `undici:client:connected` diagnostics channel) and
 * marks each when it emits 'close'. undici's own close listener was added before ours and runs in
 * the same emit, so a connection seen closed here is one the client will not send on again: the
 * condition to wait for after a server drops its keep-alive sockets, instead of a fixed time.
 */
export function watchSockets(): SocketProbe {
  const sockets = new Map<{ closed: boolean }, string>();
  const onConnected = (message: unknown): void => {
    const { connectParams, socket } = message as { connectParams: { protocol: string; host: string }; socket: NodeJS.EventEmitter };
    const entry = { closed: false };
    sockets.set(entry, `${connectParams.protocol}//${connectParams.host}`);
    socket.once('close', () => (entry.closed = true));
  };
  subscribe('undici:client:connected', onConnected);
  return {
    open: (origin) => [...sockets].filter(([entry, o]) => o === origin && !entry.closed).length,
    restore: () => unsubscribe('undici:client:connected', onConnected),
  };
}

/** A fresh temporary directory and its removal. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every file under a folder with its bytes. */
export function filesUnder(dir: string): Array<{ path: string; bytes: Buffer }> {
  const out: Array<{ path: string; bytes: Buffer }> = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push({ path: p, bytes: readFileSync(p) });
  }
  return out;
}

export { until } from '../support/until.js';
