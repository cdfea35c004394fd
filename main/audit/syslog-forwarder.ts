import net from 'node:net';
import { hostname } from 'node:os';
import tls, { type TLSSocket } from 'node:tls';
import { parseForwardTarget, type ForwardSetting, type ForwardStatus } from '../../app/domain/syslog-forward.js';
import { pinMismatch } from '../client/tls.js';
import { ownerAlive, type SyslogOutbox } from '../store/syslog-outbox.js';
import { octetFrame, syslogHostname, syslogMessage } from './syslog-message.js';

/**
 * Sends the action log's outbox to a syslog collector, in seq order, at least once.
 *
 * TCP syslog has no application acknowledgement, so "confirmed" is defined here, honestly: a
 * record is confirmed once its bytes were handed to the connection (the write drained) and the
 * connection then stayed open, with no error and no close from the collector, for
 * `confirmAfterMs`. Only then does it leave the outbox. On any error, close or reconnect, every
 * record not yet confirmed is sent again from the first one: duplicates are possible, gaps and
 * reordering are not. A collector that accepts a record and loses it afterwards (an in-memory queue
 * at a crash) is beyond what TCP can tell; its own disk queue covers that.
 *
 * One process forwards per data directory: a lease in the outbox's database, renewed while
 * sending, taken over when its holder stops or dies. Memory is bounded: the outbox is read in
 * batches of `batchSize`.
 */
export interface SyslogForwarderOptions {
  outbox: SyslogOutbox;
  /** The setting in force, read again when `settingStamp` changes (throws: forwarding paused, the error shown). */
  setting: () => { setting: ForwardSetting | undefined; managed: boolean };
  /** Changes whenever the setting may have changed (the settings file's stamp). */
  settingStamp?: () => string;
  /** Wakes the sender at once after a record is appended in this process. */
  onAppend?: (listener: () => void) => () => void;
  clock?: () => Date;
  host?: string;
  batchSize?: number;
  confirmAfterMs?: number;
  /** How often the outbox and the setting are checked when nothing woke the sender. */
  pollMs?: number;
  leaseMs?: number;
  connectTimeoutMs?: number;
  /** First and longest wait between connection attempts (doubling, with jitter). */
  backoff?: { initialMs: number; maxMs: number };
}

type State = ForwardStatus['state'];

/** An open connection and what ended it, if anything did. */
interface Link {
  socket: net.Socket;
  failed?: Error | undefined;
}

export class SyslogForwarder {
  private readonly o: Required<Omit<SyslogForwarderOptions, 'onAppend' | 'settingStamp'>> & Pick<SyslogForwarderOptions, 'onAppend' | 'settingStamp'>;
  private state: State = 'off';
  private stopped = false;
  private running: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private unlisten: (() => void) | undefined;
  private stamp: string | undefined;
  private current: { setting: ForwardSetting | undefined; managed: boolean } = { setting: undefined, managed: false };
  private settingError: string | undefined;
  private link: Link | undefined;
  private readonly procId = process.pid;
  private logId = '';
  private leased = false;

  constructor(options: SyslogForwarderOptions) {
    this.o = {
      clock: () => new Date(),
      host: syslogHostname(hostname()),
      batchSize: 500,
      confirmAfterMs: 2000,
      pollMs: 1000,
      leaseMs: 10_000,
      connectTimeoutMs: 10_000,
      backoff: { initialMs: 500, maxMs: 30_000 },
      ...options,
    };
  }

  /** Starts forwarding in the background (until {@link stop}). */
  start(): void {
    if (this.running) return;
    this.logId = this.o.outbox.logId();
    this.unlisten = this.o.onAppend?.(() => this.wake());
    this.running = this.run().catch((err: unknown) => {
      this.recordError(`the forwarder stopped: ${(err as Error).message}`);
    });
  }

  /** Stops: closes the connection (unconfirmed records stay queued for the next start) and gives the lease up. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
    this.link?.socket.destroy();
    this.wake();
    await this.running;
    this.running = undefined;
  }

  /** Wakes the sender now (a record was appended, or the setting changed). */
  wake(): void {
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  }

  /**
   * Resolves once every queued record is confirmed (true), or false when `timeoutMs` passes or the
   * forwarder stops first.
   */
  async flushed(timeoutMs: number): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (!this.stopped && Date.now() < end) {
      if (this.o.outbox.pending() === 0) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return this.o.outbox.pending() === 0;
  }

  /** The state to show: target, confirmed seq, queue length, last error. */
  status(): ForwardStatus {
    const s = this.o.outbox.state();
    // The setting as it is now (a change is shown at once; the sender picks it up within a poll).
    let current = this.current;
    let settingError = this.settingError;
    try {
      current = this.o.setting();
      settingError = undefined;
    } catch (err) {
      settingError = (err as Error).message;
    }
    const changed = JSON.stringify(current.setting ?? null) !== JSON.stringify(this.current.setting ?? null);
    const state = settingError ? 'off' : changed ? (current.setting ? 'connecting' : 'off') : this.state;
    return statusOf(current, state, this.logId || this.o.outbox.logId(), s, this.o.outbox.pending(), settingError);
  }

  private now(): Date {
    return this.o.clock();
  }

  /** Re-reads the setting when its stamp changed; true when it changed. */
  private refreshSetting(): boolean {
    const stamp = this.o.settingStamp?.() ?? '';
    if (stamp === this.stamp) return false;
    this.stamp = stamp;
    const before = JSON.stringify(this.current.setting ?? null);
    try {
      this.current = this.o.setting();
      this.settingError = undefined;
    } catch (err) {
      this.current = { setting: undefined, managed: false };
      this.settingError = (err as Error).message;
      this.recordError(this.settingError);
    }
    return JSON.stringify(this.current.setting ?? null) !== before;
  }

  private async run(): Promise<void> {
    let backoff = this.o.backoff.initialMs;
    try {
      while (!this.stopped) {
        this.refreshSetting();
        const setting = this.current.setting;
        if (!setting) {
          this.state = 'off';
          this.releaseLease();
          await this.sleep(this.o.pollMs);
          continue;
        }
        if (!this.holdLease()) {
          this.state = 'standby';
          await this.sleep(Math.min(this.o.pollMs * 3, this.o.leaseMs / 2));
          continue;
        }
        this.state = 'connecting';
        let link: Link;
        try {
          link = await this.connect(setting);
        } catch (err) {
          this.recordError(describe(err, setting.target));
          await this.sleep(jitter(backoff));
          backoff = Math.min(backoff * 2, this.o.backoff.maxMs);
          continue;
        }
        this.link = link;
        let confirmedAny = false;
        try {
          confirmedAny = await this.pump(link);
        } catch (err) {
          link.failed ??= err as Error;
        } finally {
          link.socket.destroy();
          this.link = undefined;
        }
        if (this.stopped) break;
        if (link.failed) this.recordError(describe(link.failed, setting.target));
        // A collector that accepts and drops every connection is retried with growing waits too.
        if (confirmedAny) backoff = this.o.backoff.initialMs;
        if (link.failed) {
          this.state = 'connecting';
          await this.sleep(jitter(backoff));
          backoff = Math.min(backoff * 2, this.o.backoff.maxMs);
        }
      }
    } finally {
      this.releaseLease();
      this.state = 'off';
    }
  }

  /** Takes or renews the lease; false while another live process holds it. */
  private holdLease(): boolean {
    const now = this.now();
    this.leased = this.o.outbox.lease(now, new Date(now.getTime() + this.o.leaseMs)) === this.o.outbox.owner;
    return this.leased;
  }

  private releaseLease(): void {
    if (!this.leased) return;
    this.leased = false;
    try {
      this.o.outbox.release();
    } catch {
      // Closing: the lease expires on its own.
    }
  }

  /**
   * Sends on one connection until it fails, the setting changes or the forwarder stops: from the
   * first unconfirmed record, batch after batch, confirming each batch once it has settled.
   * Returns whether anything was confirmed on it.
   */
  private async pump(link: Link): Promise<boolean> {
    const { outbox } = this.o;
    let cursor = 0;
    let confirmedAny = false;
    let leaseRenewedAt = Date.now();
    /** Batches written and drained, awaiting their settle time: last seq, when drained. */
    const written: Array<{ seq: number; at: number }> = [];
    while (!this.stopped && !link.failed) {
      if (this.refreshSetting()) return confirmedAny;
      if (Date.now() - leaseRenewedAt > this.o.leaseMs / 3) {
        if (!this.holdLease()) return confirmedAny;
        leaseRenewedAt = Date.now();
      }
      const settledBefore = Date.now() - this.o.confirmAfterMs;
      let settled: number | undefined;
      while (written.length > 0 && (written[0] as { at: number }).at <= settledBefore) settled = written.shift()?.seq;
      if (settled !== undefined && !link.failed) {
        outbox.confirm(settled, this.now().toISOString());
        confirmedAny = true;
      }
      const rows = outbox.batch(cursor, this.o.batchSize);
      if (rows.length > 0) {
        this.state = 'sending';
        const data = Buffer.concat(rows.map((r) => octetFrame(syslogMessage(r, this.logId, this.o.host, this.procId))));
        await writeDrained(link, data);
        if (link.failed) break;
        cursor = (rows[rows.length - 1] as { seq: number }).seq;
        written.push({ seq: cursor, at: Date.now() });
        continue;
      }
      this.state = written.length > 0 ? 'sending' : 'idle';
      const untilSettled = written.length > 0 ? Math.max(10, (written[0] as { at: number }).at + this.o.confirmAfterMs - Date.now()) : this.o.pollMs;
      await this.sleep(Math.min(untilSettled, this.o.pollMs));
    }
    return confirmedAny;
  }

  private connect(setting: ForwardSetting): Promise<Link> {
    const target = parseForwardTarget(setting.target);
    const timeoutMs = this.o.connectTimeoutMs;
    return new Promise((resolve, reject) => {
      let socket: net.Socket;
      const onReady = (): void => {
        if (target.protocol === 'tls' && setting.pinSha256) {
          const mismatch = pinMismatch(socket as TLSSocket, setting.pinSha256, "the collector's certificate");
          if (mismatch) {
            socket.destroy();
            reject(mismatch);
            return;
          }
        }
        socket.setTimeout(0);
        socket.setKeepAlive(true, 10_000);
        socket.setNoDelay(true);
        const link: Link = { socket };
        const fail = (err: Error): void => {
          link.failed ??= err;
          this.wake();
        };
        socket.removeAllListeners('error');
        socket.on('error', fail);
        socket.on('end', () => fail(new Error('the collector closed the connection')));
        socket.on('close', () => fail(new Error('the connection closed')));
        // The collector sends nothing; reading keeps the close and reset of the connection visible.
        socket.on('data', () => undefined);
        resolve(link);
      };
      if (target.protocol === 'tls') {
        socket = tls.connect({
          host: target.host,
          port: target.port,
          servername: net.isIP(target.host) ? undefined : target.host,
          // A pin is the trust itself (checked on connect); otherwise the given CA or the system's roots.
          rejectUnauthorized: !setting.pinSha256,
          ...(setting.ca ? { ca: setting.ca } : {}),
          timeout: timeoutMs,
        });
        socket.once('secureConnect', onReady);
      } else {
        socket = net.connect({ host: target.host, port: target.port, timeout: timeoutMs });
        socket.once('connect', onReady);
      }
      socket.once('timeout', () => {
        socket.destroy();
        reject(new Error(`no connection within ${timeoutMs} ms`));
      });
      socket.once('error', (err) => {
        socket.destroy();
        reject(err);
      });
    });
  }

  private recordError(message: string): void {
    try {
      this.o.outbox.recordError(message, this.now().toISOString());
    } catch {
      // The log's database is closing or failing: the action log itself reports that.
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = undefined;
        resolve();
      }, ms);
      // Waiting alone keeps no process alive: the app, a monitor or `log forward --flush` does.
      timer.unref();
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Writes `data` and waits until it is handed to the kernel, or the connection fails. */
function writeDrained(link: Link, data: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (link.failed) return resolve();
    link.socket.write(data, (err) => {
      if (err) link.failed ??= err;
      resolve();
    });
  });
}

function jitter(ms: number): number {
  return Math.round(ms * (0.75 + Math.random() * 0.5));
}

/** A delivery error as shown: the target and what happened (no secret is part of either). */
function describe(err: unknown, target: string): string {
  const e = err as NodeJS.ErrnoException;
  const code = e.code && !e.message.includes(e.code) ? ` (${e.code})` : '';
  return `${target}: ${e.message}${code}`;
}

/**
 * The status as a process that does not forward sees it (a CLI command): from the stored state and
 * the lease, `sending` or `idle` while a live process holds the lease, else `not-running`.
 */
export function storedStatus(outbox: SyslogOutbox, current: { setting: ForwardSetting | undefined; managed: boolean }, now: Date = new Date()): ForwardStatus {
  const s = outbox.state();
  const queued = outbox.pending();
  const live = s.leaseOwner !== undefined && s.leaseUntil !== undefined && Date.parse(s.leaseUntil) > now.getTime() && ownerAlive(s.leaseOwner);
  return statusOf(current, live ? (queued > 0 ? 'sending' : 'idle') : 'not-running', outbox.logId(), s, queued);
}

/** The status shown from the stored state, the setting in force and the sender's state. */
export function statusOf(
  current: { setting: ForwardSetting | undefined; managed: boolean },
  state: State,
  logId: string,
  s: ReturnType<SyslogOutbox['state']>,
  queued: number,
  settingError?: string | undefined,
): ForwardStatus {
  const setting = current.setting;
  const trust = !setting ? undefined : setting.target.startsWith('tcp:') ? 'none' : setting.pinSha256 ? 'pinned' : setting.ca ? 'ca' : 'system';
  return {
    ...(setting ? { target: setting.target } : {}),
    ...(trust ? { trust } : {}),
    ...(setting?.pinSha256 ? { pinSha256: setting.pinSha256 } : {}),
    managed: current.managed,
    state: setting ? state : 'off',
    logId,
    ackedSeq: s.ackedSeq,
    ...(s.ackedAt ? { ackedAt: s.ackedAt } : {}),
    queued,
    ...(settingError ? { lastError: settingError, lastErrorAt: s.lastErrorAt } : s.lastError ? { lastError: s.lastError, lastErrorAt: s.lastErrorAt } : {}),
  };
}
