import { createHash } from 'node:crypto';
import { closeSync, openSync, realpathSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CodedError } from '../../app/errors.js';
import { terminalField } from '../../app/safe-text.js';

/**
 * The monitor lock of a data directory: at most one `fleetdeck monitor` polls it. The lock is a
 * listening local socket, so the operating system releases it when its process ends however it
 * ends (SIGKILL, a crash, a power cut): on Windows a named pipe, which vanishes with its process;
 * elsewhere a Unix socket file in the data directory (0700, so no other user can take its name),
 * whose file outlives a killed process but refuses every connection, which is how a stale one is
 * told from a live one. Whoever connects reads one JSON line saying who holds it; once the holder
 * {@link MonitorLock.serve}s requests, a client may then send one JSON line and read one back (the
 * admin's commands that act on the running monitor, such as a login with a two-factor code). Only
 * the directory's owner reaches the socket, as only it can write to the directory.
 *
 * A stale socket file is replaced under a second, exclusive-create file (`monitor.lock.takeover`)
 * and only after its refusal is seen again under it, so two monitors starting together over a
 * stale lock cannot both take it.
 */

/** Who holds a monitor lock, as the holder says it when asked. */
export interface LockHolder {
  pid: number;
  host: string;
  user: string;
  /** When the holder took the lock (ISO). */
  since: string;
  version: string;
}

/** Another monitor holds the data directory's lock. */
export class MonitorRunningError extends CodedError {
  override readonly name = 'MonitorRunningError';
  constructor(
    readonly holder: LockHolder | undefined,
    dataDir: string,
  ) {
    super('monitor-running', `another monitor already polls ${dataDir}${holder ? `: ${describeHolder(holder)}` : ''}; stop it first, or give this one another --data-dir`);
  }
}

/** "process 123 of admin on host-a, since 2026-…, Fleetdeck 0.1.0", every field made one safe line. */
export function describeHolder(h: LockHolder): string {
  return terminalField(`process ${h.pid} of ${h.user} on ${h.host}, since ${h.since}, Fleetdeck ${h.version}`);
}

/** A lock taken; {@link release} gives it back (and removes the socket file). */
export interface MonitorLock {
  readonly address: string;
  /**
   * Answers the requests sent over the lock from now on, one per connection (see {@link askMonitor}):
   * `handle`'s result is sent back as one JSON line; a failure as `{ ok: false, message }`.
   */
  serve(handle: (request: unknown) => Promise<unknown>): void;
  release(): Promise<void>;
}

/** The longest request line taken over the lock. */
const MAX_REQUEST_BYTES = 64 * 1024;

/** The longest Unix socket path every POSIX system accepts (macOS: 104 bytes with its terminator). */
const MAX_SOCKET_PATH = 103;
/** A takeover file older than this was left by a process killed in the middle of one. */
const TAKEOVER_STALE_MS = 10_000;
/** How long a holder may take to say who it is. */
const ASK_TIMEOUT_MS = 2_000;

/**
 * The lock's address for a data directory: a named pipe keyed by the directory's real path on
 * Windows, `<dataDir>/monitor.lock` elsewhere.
 * @throws Error when that path is too long for a Unix socket (named, with what to do).
 */
export function lockAddress(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') {
    let real = dataDir;
    try {
      real = realpathSync(dataDir);
    } catch {
      // Not created yet: its given path names it.
    }
    return `\\\\.\\pipe\\fleetdeck-monitor-${createHash('sha256').update(real.toLowerCase()).digest('hex').slice(0, 32)}`;
  }
  const path = join(dataDir, 'monitor.lock');
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(`the data directory's path is too long for the monitor's lock (${path} is over ${MAX_SOCKET_PATH} bytes, a Unix socket's limit): use a shorter --data-dir`);
  }
  return path;
}

/** What a connection to the lock found: a live holder (with what it said), or no one listening. */
type Probe = { live: true; holder: LockHolder | undefined } | { live: false };

/** Connects to the lock's address and reads who holds it; `live: false` when nothing listens there. */
export function probeLock(address: string): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = createConnection(address);
    let text = '';
    let connected = false;
    const done = (p: Probe): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(p);
    };
    const timer = setTimeout(() => done({ live: connected, ...(connected ? { holder: undefined } : {}) } as Probe), ASK_TIMEOUT_MS);
    socket.setEncoding('utf8');
    socket.on('connect', () => (connected = true));
    socket.on('data', (chunk: string) => {
      text += chunk;
      // The holder's line is all a probe reads: a holder that serves requests waits for one after it.
      if (text.includes('\n')) done({ live: true, holder: parseHolder(text) });
      else if (text.length > 4096) done({ live: true, holder: undefined });
    });
    socket.on('end', () => done({ live: true, holder: parseHolder(text) }));
    socket.on('error', () => done(connected ? { live: true, holder: parseHolder(text) } : { live: false }));
  });
}

/** Who holds the data directory's monitor lock now, or undefined when no monitor runs on it. */
export async function monitorHolder(dataDir: string): Promise<LockHolder | undefined | 'unknown'> {
  let address: string;
  try {
    address = lockAddress(dataDir);
  } catch {
    return undefined;
  }
  const p = await probeLock(address);
  return p.live ? (p.holder ?? 'unknown') : undefined;
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const v = JSON.parse(text.split('\n', 1)[0] ?? '') as Partial<LockHolder>;
    if (typeof v.pid !== 'number' || typeof v.host !== 'string' || typeof v.user !== 'string' || typeof v.since !== 'string' || typeof v.version !== 'string') return undefined;
    return { pid: v.pid, host: v.host, user: v.user, since: v.since, version: v.version };
  } catch {
    return undefined;
  }
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(address);
  });
}

export interface AcquireOptions {
  dataDir: string;
  user: string;
  version: string;
  now?: () => Date;
  platform?: NodeJS.Platform;
}

/**
 * Takes the data directory's monitor lock (the directory must exist).
 * @throws MonitorRunningError when a live monitor holds it (naming that monitor).
 */
export async function acquireMonitorLock(o: AcquireOptions): Promise<MonitorLock> {
  const address = lockAddress(o.dataDir, o.platform);
  const holder: LockHolder = { pid: process.pid, host: hostname(), user: o.user, since: (o.now ?? (() => new Date()))().toISOString(), version: o.version };
  const line = `${JSON.stringify(holder)}\n`;
  let handler: ((request: unknown) => Promise<unknown>) | undefined;
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    // What a client sends to a holder not serving requests is read and dropped: unread, its socket would never close.
    if (!handler) return void socket.end(line).resume();
    socket.write(line);
    serveOne(socket, handler);
  });
  const windows = (o.platform ?? process.platform) === 'win32';
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await listen(server, address);
      return { address, serve: (h) => void (handler = h), release: () => release(server, address, windows) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
    const probe = await probeLock(address);
    if (probe.live) throw new MonitorRunningError(probe.holder, o.dataDir);
    if (windows) continue;
    // Stale: the socket file of a process that is gone. Replaced under the takeover file only.
    if (await takeOver(o.dataDir, address)) continue;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`could not take the monitor lock ${address}: it kept changing hands`);
}

/** Removes a stale socket file while holding the takeover file; false when another process is taking over now. */
async function takeOver(dataDir: string, address: string): Promise<boolean> {
  const takeover = join(dataDir, 'monitor.lock.takeover');
  let fd: number;
  try {
    fd = openSync(takeover, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    try {
      if (Date.now() - statSync(takeover).mtimeMs > TAKEOVER_STALE_MS) unlinkSync(takeover);
    } catch {
      // Gone meanwhile: the next attempt sees.
    }
    return false;
  }
  try {
    writeSync(fd, String(process.pid));
    // Seen refused again now that no one else can be replacing it: still stale.
    if (!(await probeLock(address)).live) {
      try {
        unlinkSync(address);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    return true;
  } finally {
    closeSync(fd);
    unlinkSync(takeover);
  }
}

/** Reads one request line from `socket` (within {@link ASK_TIMEOUT_MS} of connecting), answers it with one line and ends. */
function serveOne(socket: Socket, handle: (request: unknown) => Promise<unknown>): void {
  let text = '';
  let answered = false;
  const timer = setTimeout(() => socket.end(), ASK_TIMEOUT_MS);
  const finish = (answer: unknown): void => {
    if (!socket.destroyed) socket.end(`${JSON.stringify(answer)}\n`);
  };
  socket.setEncoding('utf8');
  socket.on('end', () => {
    clearTimeout(timer);
    if (!answered) socket.end();
  });
  socket.on('close', () => clearTimeout(timer));
  socket.on('data', (chunk: string) => {
    if (answered) return;
    text += chunk;
    const nl = text.indexOf('\n');
    if (nl < 0 && text.length <= MAX_REQUEST_BYTES) return;
    answered = true;
    clearTimeout(timer);
    if (nl < 0) return finish({ ok: false, message: `a request over the monitor lock is one JSON line of at most ${MAX_REQUEST_BYTES} bytes` });
    let request: unknown;
    try {
      request = JSON.parse(text.slice(0, nl));
    } catch {
      return finish({ ok: false, message: 'the request is not JSON' });
    }
    handle(request).then(finish, (err: unknown) => finish({ ok: false, message: err instanceof Error ? err.message : String(err) }));
  });
}

/** What the running monitor answered, and who it is. */
export interface MonitorAnswer {
  holder: LockHolder | undefined;
  answer: unknown;
}

/** The monitor does not answer requests over its lock (none runs, or one that does not serve them, or it did not answer in time). */
export class MonitorNotAnsweringError extends Error {}

/**
 * Sends one request to the monitor running on the data directory and reads its answer; undefined
 * when no monitor runs there.
 * @throws MonitorNotAnsweringError when one runs but does not answer within `timeoutMs`
 */
export async function askMonitor(dataDir: string, request: unknown, timeoutMs: number): Promise<MonitorAnswer | undefined> {
  let address: string;
  try {
    address = lockAddress(dataDir);
  } catch {
    return undefined;
  }
  return new Promise((resolve, reject) => {
    const socket = createConnection(address);
    let text = '';
    let connected = false;
    let settled = false;
    const done = (err: Error | undefined, value?: MonitorAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(value);
    };
    const timer = setTimeout(() => done(new MonitorNotAnsweringError(`the monitor did not answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      text += chunk;
      const lines = text.split('\n');
      if (lines.length < 3) return;
      try {
        done(undefined, { holder: parseHolder(lines[0] ?? ''), answer: JSON.parse(lines[1] ?? '') as unknown });
      } catch {
        done(new MonitorNotAnsweringError('the monitor answered something that is not JSON'));
      }
    });
    const ended = (): void => {
      if (!connected) return done(undefined, undefined);
      done(new MonitorNotAnsweringError(`the monitor (${text ? (parseHolder(text) ? describeHolder(parseHolder(text) as LockHolder) : 'unknown') : 'unknown'}) took no request: it may be starting, or of an earlier version`));
    };
    socket.on('end', ended);
    socket.on('error', ended);
  });
}

function release(server: Server, address: string, windows: boolean): Promise<void> {
  return new Promise((resolve) => {
    // Node removes a Unix socket's file when its server closes; removed here too in case it did not.
    server.close(() => {
      if (!windows) {
        try {
          unlinkSync(address);
        } catch {
          // Already gone.
        }
      }
      resolve();
    });
  });
}
