import { createHash } from 'node:crypto';
import { redact } from '../../app/redact.js';
import type { Database } from './database.js';

/** `prevHash` of the first record. */
export const GENESIS_HASH = '0'.repeat(64);

/** Names the serialization inside every hash, so a future format cannot be confused with this one. */
const HASH_FORMAT = 'fleetdeck-action-log/1';

export type ActionResult = 'ok' | 'error';

/** One write the app performed, as handed to {@link ActionLog.append}. */
export interface ActionInput {
  /** When the write happened, a Date or an ISO string (default: now). */
  at?: Date | string | undefined;
  /** The site account that performed it. */
  user: string;
  siteId: string;
  system: string;
  /** Operation key, `METHOD /path`. */
  operation: string;
  /** Parameters sent (query and body); redacted before they are stored. */
  params: unknown;
  result: ActionResult;
  /** Server answer or error text; redacted before it is stored. */
  message: string;
  /** Literal secret values (a typed password, a token) to mask wherever they appear in params or message. */
  extraSecrets?: readonly string[] | undefined;
}

/** A stored record of the action log. */
export interface ActionRecord {
  /** Position in the chain, 1-based, without gaps. */
  seq: number;
  /** ISO time. */
  at: string;
  user: string;
  siteId: string;
  system: string;
  operation: string;
  /** Redacted parameters (the raw text if the stored JSON no longer parses). */
  params: unknown;
  result: ActionResult;
  message: string;
  /** Hash of the previous record; {@link GENESIS_HASH} for the first. */
  prevHash: string;
  /** SHA-256 (lowercase hex) of this record's canonical serialization, see {@link hashAction}. */
  hash: string;
}

/** The fields a record's hash covers, exactly as stored. */
export interface HashedFields {
  seq: number;
  at: string;
  user: string;
  siteId: string;
  system: string;
  operation: string;
  /** The stored params JSON text. */
  paramsJson: string;
  result: string;
  message: string;
  prevHash: string;
}

/**
 * SHA-256 (lowercase hex) over the canonical serialization of a record: the JSON array
 * `["fleetdeck-action-log/1", seq, at, user, siteId, system, operation, paramsJson, result, message, prevHash]`.
 * A JSON array keeps field boundaries unambiguous whatever the fields contain. Exported so the
 * chain can be checked by tools outside the app.
 */
export function hashAction(f: HashedFields): string {
  const text = JSON.stringify([HASH_FORMAT, f.seq, f.at, f.user, f.siteId, f.system, f.operation, f.paramsJson, f.result, f.message, f.prevHash]);
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export interface ActionLogQuery {
  siteId?: string | undefined;
  /** Inclusive lower bound on `at`. */
  since?: Date | string | undefined;
  /** Exclusive upper bound on `at`. */
  until?: Date | string | undefined;
  /** At most this many records: the newest ones matching. */
  limit?: number | undefined;
  /** Order by seq descending (default ascending, oldest first). */
  newestFirst?: boolean | undefined;
}

export interface VerifyProblem {
  /** The record concerned; 0 when the problem concerns the log as a whole. */
  seq: number;
  reason: string;
}

export interface VerifyResult {
  ok: boolean;
  /** Records read. */
  count: number;
  problems: VerifyProblem[];
}

export interface ActionLogOptions {
  /** Connection from `openDatabase`. */
  db: Database;
  /** Source of "now"; injected so tests control times. */
  clock?: () => Date;
}

interface Row {
  seq: number;
  at: string;
  user: string;
  site_id: string;
  system: string;
  operation: string;
  params: string;
  result: string;
  message: string;
  prev_hash: string;
  hash: string;
}

const SYNCHRONOUS_FULL = 2;

/**
 * Every write the app performs, append-only and hash-chained: each record carries the SHA-256 of
 * the previous one, so an edited, deleted, inserted or reordered record breaks the chain that
 * {@link verify} walks. SQL triggers refuse UPDATE and DELETE; the chain still catches edits made
 * after dropping them or by editing the file's bytes. It cannot catch a forger who rewrites every
 * later record and the head consistently (that needs a key held outside the data directory).
 */
export class ActionLog {
  private readonly db: Database;
  private readonly clock: () => Date;
  private readonly stmts: Statements;

  constructor(options: ActionLogOptions) {
    this.db = options.db;
    this.clock = options.clock ?? (() => new Date());
    this.stmts = prepareStatements(this.db);
  }

  /**
   * Appends a record and returns it as stored. Params and message are passed through `redact()`.
   * Durable on return: the commit runs with `synchronous = FULL` (the WAL is fsynced), whatever the
   * connection's setting for cache writes. Safe with other processes appending to the same file:
   * reading the head and inserting happen in one IMMEDIATE transaction, so the chain cannot fork.
   *
   * @throws TypeError for a result other than 'ok'/'error' or an invalid `at`; SQLITE_BUSY when
   *   another process holds the write lock longer than the busy timeout.
   */
  append(input: ActionInput): ActionRecord {
    if (input.result !== 'ok' && input.result !== 'error') throw new TypeError(`action result must be 'ok' or 'error', got ${String(input.result)}`);
    const secrets = input.extraSecrets ?? [];
    const paramsJson = canonicalJson(redact(input.params, secrets));
    const message = redact(String(input.message), secrets);
    const at = isoTime(input.at ?? this.clock());

    const insert = this.db.transaction((): ActionRecord => {
      // Chain from the head, not the last row: a truncated tail then leaves a visible gap. Number
      // past both, so rows added behind the app's back never block logging (verify flags them).
      const head = this.stmts.head.get();
      const last = this.stmts.lastRow.get();
      const seq = Math.max(head?.seq ?? 0, last?.seq ?? 0) + 1;
      const prevHash = (head ?? last)?.hash ?? GENESIS_HASH;
      const fields: HashedFields = { seq, at, user: input.user, siteId: input.siteId, system: input.system, operation: input.operation, paramsJson, result: input.result, message, prevHash };
      const hash = hashAction(fields);
      this.stmts.insert.run(seq, at, input.user, input.siteId, input.system, input.operation, paramsJson, input.result, message, prevHash, hash);
      this.stmts.setHead.run(seq, hash);
      return toRecord({ seq, at, user: input.user, site_id: input.siteId, system: input.system, operation: input.operation, params: paramsJson, result: input.result, message, prev_hash: prevHash, hash });
    });

    const previous = Number(this.db.pragma('synchronous', { simple: true }));
    if (previous !== SYNCHRONOUS_FULL) this.db.pragma('synchronous = FULL');
    try {
      return insert.immediate();
    } finally {
      if (previous !== SYNCHRONOUS_FULL) this.db.pragma(`synchronous = ${previous}`);
    }
  }

  /** Records matching a filter, oldest first unless `newestFirst`. `limit` keeps the newest matching ones. */
  list(query: ActionLogQuery = {}): ActionRecord[] {
    const where: string[] = [];
    const args: Array<string | number> = [];
    if (query.siteId !== undefined) {
      where.push('site_id = ?');
      args.push(query.siteId);
    }
    if (query.since !== undefined) {
      where.push('at >= ?');
      args.push(isoTime(query.since));
    }
    if (query.until !== undefined) {
      where.push('at < ?');
      args.push(isoTime(query.until));
    }
    let sql = `SELECT * FROM action_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC`;
    if (query.limit !== undefined) {
      if (!Number.isInteger(query.limit) || query.limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${query.limit}`);
      sql += ' LIMIT ?';
      args.push(query.limit);
    }
    const rows = this.db.prepare<Array<string | number>, Row>(sql).all(...args).map(toRecord);
    return query.newestFirst ? rows : rows.reverse();
  }

  /** Number of records stored. */
  count(): number {
    return this.stmts.count.get()?.n ?? 0;
  }

  /**
   * Walks the whole chain and reports every record whose content no longer matches its hash
   * (edited), whose `prevHash` is not the previous record's hash (reordered or inserted), every gap
   * in seq (deleted), and a head that disagrees with the last record (truncated or appended
   * outside the app). A database too damaged to read is reported as a problem, not thrown.
   */
  verify(): VerifyResult {
    const problems: VerifyProblem[] = [];
    let count = 0;
    let expectedSeq = 1;
    let prevHash = GENESIS_HASH;
    try {
      // One read transaction: a consistent snapshot even while other processes append.
      this.db.transaction(() => {
        for (const row of this.stmts.all.iterate()) {
          count++;
          const gap = row.seq !== expectedSeq;
          if (gap) problems.push({ seq: expectedSeq, reason: missingText(expectedSeq, row.seq - 1) });
          const expected = hashAction({ seq: row.seq, at: String(row.at), user: String(row.user), siteId: String(row.site_id), system: String(row.system), operation: String(row.operation), paramsJson: String(row.params), result: String(row.result), message: String(row.message), prevHash: String(row.prev_hash) });
          if (expected !== row.hash) problems.push({ seq: row.seq, reason: 'record content does not match its hash: it was edited' });
          // After a gap the broken link is already explained by the missing records.
          else if (!gap && row.prev_hash !== prevHash) problems.push({ seq: row.seq, reason: 'prevHash does not match the previous record: records were inserted, reordered or replaced' });
          expectedSeq = row.seq + 1;
          prevHash = row.hash;
        }
        const head = this.stmts.head.get();
        const lastSeq = expectedSeq - 1;
        if (!head) {
          if (lastSeq > 0) problems.push({ seq: 0, reason: 'the head record of the chain is missing' });
        } else if (head.seq > lastSeq) {
          problems.push({ seq: lastSeq + 1, reason: `${missingText(lastSeq + 1, head.seq)} at the end: the log was truncated` });
        } else if (head.seq < lastSeq) {
          problems.push({ seq: head.seq + 1, reason: `records after seq ${head.seq} were added outside the app` });
        } else if (head.hash !== prevHash) {
          problems.push({ seq: lastSeq, reason: 'the last record does not match the head of the chain: it was replaced' });
        }
      })();
    } catch (err) {
      problems.push({ seq: 0, reason: `the log could not be read: ${err instanceof Error ? err.message : String(err)}` });
    }
    return { ok: problems.length === 0, count, problems };
  }
}

function missingText(from: number, to: number): string {
  return from === to ? `record ${from} is missing` : `records ${from}–${to} are missing`;
}

function isoTime(t: Date | string): string {
  const d = typeof t === 'string' ? new Date(t) : t;
  if (Number.isNaN(d.getTime())) throw new TypeError(`not a valid time: ${String(t)}`);
  return d.toISOString();
}

/** JSON with object keys sorted at every depth: equal params always give the same text. */
function canonicalJson(value: unknown): string {
  const text: unknown = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
  // undefined params (nothing sent) are stored as null.
  return typeof text === 'string' ? text : 'null';
}

function toRecord(row: Row): ActionRecord {
  let params: unknown;
  try {
    params = JSON.parse(row.params) as unknown;
  } catch {
    params = row.params;
  }
  return {
    seq: row.seq,
    at: row.at,
    user: row.user,
    siteId: row.site_id,
    system: row.system,
    operation: row.operation,
    params,
    result: row.result as ActionResult,
    message: row.message,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

type Statements = ReturnType<typeof prepareStatements>;

function prepareStatements(db: Database) {
  return {
    head: db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM action_log_head WHERE id = 1'),
    lastRow: db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM action_log ORDER BY seq DESC LIMIT 1'),
    setHead: db.prepare<[number, string]>('INSERT INTO action_log_head (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash'),
    insert: db.prepare<[number, string, string, string, string, string, string, string, string, string, string]>(
      'INSERT INTO action_log (seq, at, user, site_id, system, operation, params, result, message, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    all: db.prepare<[], Row>('SELECT * FROM action_log ORDER BY seq'),
    count: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM action_log'),
  };
}
