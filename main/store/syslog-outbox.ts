import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Database, Statement } from './driver.js';
import { recordOfRow, type ActionRow, type HashedRecord } from './action-log.js';

/** The forwarder's stored state (shared by every process on the data directory). */
export interface OutboxState {
  /** Highest seq the collector confirmed (0: none yet). */
  ackedSeq: number;
  ackedAt?: string | undefined;
  lastError?: string | undefined;
  lastErrorAt?: string | undefined;
  /** The process holding the forwarding lease, while it holds it. */
  leaseOwner?: string | undefined;
  leaseUntil?: string | undefined;
}

interface StateRow {
  acked_seq: number;
  acked_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
}

/**
 * The syslog outbox inside the action log's database: the seq of every record not yet confirmed
 * by the collector, queued by a trigger in the very transaction that appends the record (see
 * LOG_MIGRATIONS). Rows leave only through {@link confirm}, so an unconfirmed record survives any
 * crash of the sender. Reads go in batches: memory stays bounded however long the queue.
 */
export class SyslogOutbox {
  /** This process's name in the lease: pid, host and a random part (pids are reused). */
  readonly owner = `${process.pid}@${hostname()}/${randomBytes(4).toString('hex')}`;
  private readonly stmts: ReturnType<typeof prepare>;

  constructor(private readonly db: Database) {
    this.stmts = prepare(db);
  }

  /** The log's identity on a collector (random, made with the outbox; a new log gets a new one). */
  logId(): string {
    return this.stmts.logId.get()?.value ?? '';
  }

  /** Up to `limit` queued records with seq above `afterSeq`, in seq order. */
  batch(afterSeq: number, limit: number): HashedRecord[] {
    return this.stmts.batch.all(afterSeq, limit).map(recordOfRow);
  }

  /** How many records wait for confirmation. */
  pending(): number {
    return this.stmts.pending.get()?.n ?? 0;
  }

  /** Seq of the first queued record after `afterSeq`, if any (a cheap check for new records). */
  firstAfter(afterSeq: number): number | undefined {
    return this.stmts.firstAfter.get(afterSeq)?.seq ?? undefined;
  }

  /** Marks every queued record up to `seq` confirmed: removed from the queue, the state advanced. */
  confirm(seq: number, at: string): void {
    this.db.transaction(() => {
      this.stmts.trim.run(seq);
      this.stmts.acked.run(seq, at, seq);
    }).immediate();
  }

  /** Records the last delivery error (text without secrets: the forwarder's own sentences). */
  recordError(message: string | undefined, at: string | undefined): void {
    this.stmts.error.run(message ?? null, at ?? null);
  }

  state(): OutboxState {
    const r = this.stmts.state.get();
    if (!r) return { ackedSeq: 0 };
    return {
      ackedSeq: r.acked_seq,
      ...(r.acked_at ? { ackedAt: r.acked_at } : {}),
      ...(r.last_error ? { lastError: r.last_error } : {}),
      ...(r.last_error_at ? { lastErrorAt: r.last_error_at } : {}),
      ...(r.lease_owner ? { leaseOwner: r.lease_owner } : {}),
      ...(r.lease_until ? { leaseUntil: r.lease_until } : {}),
    };
  }

  /**
   * Takes or renews the forwarding lease until `until`, unless another process holds one not yet
   * expired whose holder is alive. Returns the holder after the call (this process when taken).
   */
  lease(now: Date, until: Date, isAlive: (owner: string) => boolean = ownerAlive): string {
    return this.db.transaction((): string => {
      const r = this.stmts.state.get();
      const held = r?.lease_owner && r.lease_owner !== this.owner && r.lease_until && Date.parse(r.lease_until) > now.getTime() && isAlive(r.lease_owner);
      if (held) return r.lease_owner as string;
      this.stmts.lease.run(this.owner, until.toISOString());
      return this.owner;
    }).immediate();
  }

  /** Gives the lease up (when this process holds it), so another process can forward at once. */
  release(): void {
    this.stmts.release.run(this.owner);
  }
}

/** Whether a lease owner on this host is still running (owners on other hosts are trusted until expiry). */
export function ownerAlive(owner: string): boolean {
  const m = /^(\d+)@(.*)\/[0-9a-f]+$/.exec(owner);
  if (!m || m[2] !== hostname()) return true;
  try {
    process.kill(Number(m[1]), 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function prepare(db: Database): {
  logId: Statement<[], { value: string }>;
  batch: Statement<[number, number], ActionRow>;
  pending: Statement<[], { n: number }>;
  firstAfter: Statement<[number], { seq: number | null }>;
  trim: Statement<[number]>;
  acked: Statement<[number, string, number]>;
  error: Statement<[string | null, string | null]>;
  state: Statement<[], StateRow>;
  lease: Statement<[string, string]>;
  release: Statement<[string]>;
} {
  return {
    logId: db.prepare("SELECT value FROM log_meta WHERE key = 'log-id'"),
    batch: db.prepare('SELECT a.* FROM syslog_outbox o JOIN action_log a ON a.seq = o.seq WHERE o.seq > ? ORDER BY o.seq LIMIT ?'),
    pending: db.prepare('SELECT COUNT(*) AS n FROM syslog_outbox'),
    firstAfter: db.prepare('SELECT MIN(seq) AS seq FROM syslog_outbox WHERE seq > ?'),
    trim: db.prepare('DELETE FROM syslog_outbox WHERE seq <= ?'),
    acked: db.prepare('UPDATE syslog_forward SET acked_seq = MAX(acked_seq, ?), acked_at = ? WHERE id = 1 AND acked_seq <= ?'),
    error: db.prepare('UPDATE syslog_forward SET last_error = ?, last_error_at = ? WHERE id = 1'),
    state: db.prepare('SELECT acked_seq, acked_at, last_error, last_error_at, lease_owner, lease_until FROM syslog_forward WHERE id = 1'),
    lease: db.prepare('UPDATE syslog_forward SET lease_owner = ?, lease_until = ? WHERE id = 1'),
    release: db.prepare('UPDATE syslog_forward SET lease_owner = NULL, lease_until = NULL WHERE id = 1 AND lease_owner = ?'),
  };
}
