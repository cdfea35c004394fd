import { createHash } from 'node:crypto';
import { ACTION_RESULTS, WRITE_RESULTS as WRITE_RESULT_LIST, type ActionLogFilter, type ActionLogVerification, type ActionRecord, type ActionResult, type WriteResult } from '../../app/domain/action.js';
import type { Redacted } from '../../app/redact.js';
import type { Database } from './driver.js';
import { StoreError, failureOf, remedy, storeError } from './store-error.js';

/** `prevHash` of the first record. */
export const GENESIS_HASH = '0'.repeat(64);

/** Names the serialization inside every hash, so formats cannot be confused with one another. */
const HASH_FORMAT_1 = 'fleetdeck-action-log/1';
const HASH_FORMAT_2 = 'fleetdeck-action-log/2';

export type { ActionRecord, ActionResult, WriteResult } from '../../app/domain/action.js';
const WRITE_RESULTS: ReadonlySet<string> = new Set<string>(WRITE_RESULT_LIST);

/** What a write without a recorded outcome says in the log. */
export const NO_OUTCOME_MESSAGE = 'no outcome was recorded: Fleetdeck stopped or lost the answer while this write was in flight, so it may or may not have happened; check the system before retrying';

/** A write about to be sent, as handed to {@link ActionLog.begin}. */
export interface WriteIntent {
  /** When the write is sent, a Date or an ISO string (default: now). */
  at?: Date | string | undefined;
  /** The site account that performs it. */
  user: string;
  siteId: string;
  system: string;
  /** Operation key, `METHOD /path`. */
  operation: string;
  /**
   * Parameters to send (query and body), already through `redact` with the literal secret values
   * of the request (a typed password, a token): the log stores them as given, and the type refuses
   * parameters that were never redacted.
   */
  params: Redacted<unknown>;
}

/** How a write ended, as handed to {@link ActionLog.complete}. */
export interface WriteOutcome {
  at?: Date | string | undefined;
  result: WriteResult;
  /** Server answer or error text, already through `redact` (with the request's secret values): stored as given. */
  message: Redacted<string>;
}

/** A whole write in one call ({@link ActionLog.append}): its intent and its outcome. */
export interface ActionInput extends WriteIntent {
  result: WriteResult;
  message: Redacted<string>;
}


/** A write whose intent is recorded: what {@link ActionLog.complete} needs to record its outcome (`seq`, `hash` of the intent). */
export type PendingWrite = Omit<ActionRecord, 'result' | 'message' | 'completedAt'>;

/** The fields a record's hash covers, exactly as stored. */
export interface HashedFields {
  /** 1: a write recorded after the fact (earlier Fleetdecks); 2: intents, outcomes, restarts. Default 1. */
  format?: 1 | 2 | undefined;
  seq: number;
  /** Format 2: `intent`, `outcome` or `restart`. */
  kind?: string | undefined;
  at: string;
  user: string;
  siteId: string;
  system: string;
  operation: string;
  /** The stored params JSON text. */
  paramsJson: string;
  result: string;
  message: string;
  /** Format 2 outcomes: the intent they complete. */
  intentSeq?: number | null | undefined;
  prevHash: string;
}

/**
 * SHA-256 (lowercase hex) over the canonical serialization of a record, a JSON array (which keeps
 * field boundaries unambiguous whatever the fields contain). Format 1:
 * `["fleetdeck-action-log/1", seq, at, user, siteId, system, operation, paramsJson, result, message, prevHash]`;
 * format 2: `["fleetdeck-action-log/2", seq, kind, at, user, siteId, system, operation, paramsJson,
 * result, message, intentSeq or null, prevHash]`. Exported so tools outside the app can check the chain.
 */
export function hashAction(f: HashedFields): string {
  const fields =
    f.format === 2
      ? [HASH_FORMAT_2, f.seq, f.kind ?? '', f.at, f.user, f.siteId, f.system, f.operation, f.paramsJson, f.result, f.message, f.intentSeq ?? null, f.prevHash]
      : [HASH_FORMAT_1, f.seq, f.at, f.user, f.siteId, f.system, f.operation, f.paramsJson, f.result, f.message, f.prevHash];
  return createHash('sha256').update(JSON.stringify(fields), 'utf8').digest('hex');
}

export interface ActionLogQuery extends Omit<ActionLogFilter, 'since' | 'until'> {
  /** Inclusive lower bound on `at`. */
  since?: Date | string | undefined;
  /** Exclusive upper bound on `at`. */
  until?: Date | string | undefined;
  /** At most this many writes: the newest ones matching. */
  limit?: number | undefined;
  /** Order by seq descending (default ascending, oldest first). */
  newestFirst?: boolean | undefined;
}

/** The result a listed write shows, in SQL over an intent `i` joined with its outcome `o` (as {@link toRecord} reads it). */
const RESULT_SQL = "CASE WHEN i.kind = 'intent' THEN COALESCE(o.result, 'unknown') WHEN i.result = 'error' THEN 'error' ELSE 'ok' END";

/**
 * A filter as a SQL condition over an intent `i` joined with its outcome `o`, every value a bound
 * parameter (never spliced into the text): what an admin types cannot change the query. A log
 * restart is kept whatever the site filter, since it explains a break in every site's history.
 * @throws TypeError for a time that does not parse
 */
export function actionFilterSql(filter: ActionLogQuery): { where: string; args: Array<string | number> } {
  const where: string[] = ["i.kind <> 'outcome'"];
  const args: Array<string | number> = [];
  if (filter.siteId !== undefined) {
    where.push("(i.site_id = ? OR i.kind = 'restart')");
    args.push(filter.siteId);
  }
  if (filter.system !== undefined) {
    where.push('i.system = ?');
    args.push(filter.system);
  }
  if (filter.operation !== undefined) {
    // LIKE is case-insensitive for ASCII in SQLite; the typed % and _ are matched literally.
    where.push("i.operation LIKE ? ESCAPE '\\'");
    args.push(`%${filter.operation.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (filter.results !== undefined) {
    const results = filter.results.filter((r) => (ACTION_RESULTS as readonly string[]).includes(r));
    if (results.length !== filter.results.length) throw new TypeError(`results must be among ${ACTION_RESULTS.join(', ')}`);
    where.push(`${RESULT_SQL} IN (${results.map(() => '?').join(', ') || 'NULL'})`);
    args.push(...results);
  }
  if (filter.since !== undefined) {
    where.push('i.at >= ?');
    args.push(isoTime(filter.since));
  }
  if (filter.until !== undefined) {
    where.push('i.at < ?');
    args.push(isoTime(filter.until));
  }
  return { where: where.join(' AND '), args };
}

/** The intents (and records of other kinds) with the outcome each one has, if any. */
const LISTED_FROM = 'FROM action_log i LEFT JOIN action_log o ON o.intent_seq = i.seq';

/** A problem of the chain: `seq` 0 when it concerns the log as a whole. Records read count intents and outcomes one each. */
export type VerifyResult = ActionLogVerification;
export type VerifyProblem = ActionLogVerification['problems'][number];

export interface ActionLogOptions {
  /** Connection from `openLogDatabase`; omitted when `problem` says why there is none. */
  db?: Database | undefined;
  /** Why the log cannot be used in this run: every write is refused with it, `verify` reports it. */
  problem?: StoreError | undefined;
  /** The log's file, for messages. */
  file?: string | undefined;
  /** Source of "now"; injected so tests control times. */
  clock?: () => Date;
}

/** One row of the action log's `actions` table, as stored. */
export interface ActionRow {
  seq: number;
  format: number;
  kind: string;
  at: string;
  user: string;
  site_id: string;
  system: string;
  operation: string;
  params: string;
  result: string;
  message: string;
  intent_seq: number | null;
  prev_hash: string;
  hash: string;
}

interface ListedRow extends ActionRow {
  done_at: string | null;
  done_result: string | null;
  done_message: string | null;
}

type NewRow = Omit<ActionRow, 'seq' | 'format' | 'prev_hash' | 'hash'>;

const SYNCHRONOUS_FULL = 2;

/**
 * The message of a log that cannot be used, by cause: named, with what to do. Writes stay refused
 * until the admin acts; reading commands keep working.
 */
export function unusableLog(err: unknown, file: string): StoreError {
  const failure = failureOf(err);
  const detail = err instanceof Error ? err.message : String(err);
  const startNew = `restore it from a backup, or run "fleetdeck log start-new" to keep the damaged file aside and start a new log whose first record names it`;
  const message =
    failure === 'damaged'
      ? `${file} (the action log) is damaged: ${detail}. Writes to systems are refused until this is resolved: ${startNew}`
      : failure === 'missing'
        ? `${file} (the action log) is missing although this data directory was used before: it was moved or deleted. Writes to systems are refused until this is resolved: ${startNew.replace('keep the damaged file aside and ', '')}`
        : `cannot use ${file} (the action log): ${detail}. Writes to systems are refused until it can be written: ${remedy(failure, file)}`;
  return new StoreError(message, file, failure, { cause: err });
}

/**
 * Every write the app performs, append-only and hash-chained: each record carries the SHA-256 of
 * the previous one, so an edited, deleted, inserted or reordered record breaks the chain that
 * {@link verify} walks. A write is recorded twice: its intent before it is sent ({@link begin};
 * if that fails, the write must not be sent) and its outcome after ({@link complete}). SQL
 * triggers refuse UPDATE and DELETE; the chain still catches edits made after dropping them or by
 * editing the file's bytes. It cannot catch a forger who rewrites every later record and the head
 * consistently (that needs a key held outside the data directory).
 */
export class ActionLog {
  /**
   * Asked before any record is added: throws to refuse it (the machine policy's read-only mode, so
   * nothing is recorded, and no write is sent, on an auditor's workstation).
   */
  guard: ((what: string) => void) | undefined;
  /** The log's file ('' when not known). */
  readonly file: string;
  private readonly db: Database | undefined;
  private readonly clock: () => Date;
  private readonly stmts: Statements | undefined;
  private problem: StoreError | undefined;
  private closed = false;
  private readonly appended = new Set<() => void>();

  constructor(options: ActionLogOptions) {
    this.file = options.file ?? options.problem?.file ?? '';
    this.clock = options.clock ?? (() => new Date());
    this.db = options.db;
    this.problem = options.problem;
    if (!this.db && !this.problem) throw new TypeError('an ActionLog needs a database or the problem that prevents one');
    this.stmts = this.db && !this.problem ? prepareStatements(this.db) : undefined;
  }

  /** Closes the log's connection (if it has one). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db?.close();
  }

  /**
   * Calls `listener` after each record this process appends (the syslog forwarder wakes on it;
   * records other processes append are found by its polling). Returns the function that removes it.
   */
  onAppend(listener: () => void): () => void {
    this.appended.add(listener);
    return () => this.appended.delete(listener);
  }

  /** Why writes are refused in this run (the log file is damaged, missing or not writable), if they are. */
  get unusable(): StoreError | undefined {
    return this.problem;
  }

  /**
   * Records that a write is about to be sent, durably (committed with `synchronous = FULL`), and
   * returns the intent to complete. Params come redacted (their type says so). Safe with other processes appending to the
   * same file: reading the head and inserting happen in one IMMEDIATE transaction.
   * @throws StoreError naming the file and what to do when the record cannot be written (then the
   *   write must not be sent); TypeError for an invalid `at`.
   */
  begin(intent: WriteIntent): PendingWrite {
    const params: unknown = intent.params;
    const at = isoTime(intent.at ?? this.clock());
    const row = this.appendRow(
      { kind: 'intent', at, user: intent.user, site_id: intent.siteId, system: intent.system, operation: intent.operation, params: canonicalJson(params), result: 'pending', message: '', intent_seq: null },
      'record the write in',
    );
    return { seq: row.seq, at, user: intent.user, siteId: intent.siteId, system: intent.system, operation: intent.operation, params: parseParams(row.params), hash: row.hash, prevHash: row.prev_hash };
  }

  /**
   * Records how a begun write ended and returns the write as listed. The message comes redacted.
   * @throws TypeError for a result other than ok/refused/unknown; StoreError when it cannot be
   *   written (the write then stays listed with an unknown outcome).
   */
  complete(pending: PendingWrite, outcome: WriteOutcome): ActionRecord {
    if (!WRITE_RESULTS.has(outcome.result)) throw new TypeError(`write result must be 'ok', 'refused' or 'unknown', got ${String(outcome.result)}`);
    const message = String(outcome.message);
    const at = isoTime(outcome.at ?? this.clock());
    this.appendRow(
      { kind: 'outcome', at, user: pending.user, site_id: pending.siteId, system: pending.system, operation: pending.operation, params: 'null', result: outcome.result, message, intent_seq: pending.seq },
      'record the outcome of the write in',
    );
    const { seq, at: sentAt, user, siteId, system, operation, params, hash, prevHash } = pending;
    return { seq, at: sentAt, user, siteId, system, operation, params, result: outcome.result, message, completedAt: at, prevHash, hash };
  }

  /** Records a whole write (intent, then outcome) and returns it as listed. @throws as {@link begin} and {@link complete}. */
  append(input: ActionInput): ActionRecord {
    if (!WRITE_RESULTS.has(input.result)) throw new TypeError(`write result must be 'ok', 'refused' or 'unknown', got ${String(input.result)}`);
    const pending = this.begin(input);
    return this.complete(pending, { at: pending.at, result: input.result, message: input.message });
  }

  /**
   * Opens a new log after the previous file was damaged or lost: its first record names the file
   * kept aside (and its SHA-256), so the break is part of the chain.
   * @throws StoreError as {@link begin}
   */
  recordRestart(input: { user: string; reason: string; previousFile?: string | undefined; previousSha256?: string | undefined }): ActionRecord {
    const params = canonicalJson({ previousFile: input.previousFile ?? null, previousSha256: input.previousSha256 ?? null });
    const at = isoTime(this.clock());
    const row = this.appendRow({ kind: 'restart', at, user: input.user, site_id: '', system: '', operation: 'fleetdeck log start-new', params, result: 'ok', message: input.reason, intent_seq: null }, 'write the first record of');
    return toRecord({ ...row, done_at: null, done_result: null, done_message: null });
  }

  /**
   * Records a change made in Fleetdeck itself, sent to no system (an alert rule edited): kind
   * `local`, in the chain like every other record, its params redacted. `siteId`/`system` name
   * what it applies to ('' for the whole fleet).
   * @throws StoreError as {@link begin}
   */
  recordLocal(input: { user: string; siteId?: string | undefined; system?: string | undefined; operation: string; params: Redacted<unknown>; message: Redacted<string> }): ActionRecord {
    const at = isoTime(this.clock());
    const row = this.appendRow(
      { kind: 'local', at, user: input.user, site_id: input.siteId ?? '', system: input.system ?? '', operation: input.operation, params: canonicalJson(input.params), result: 'ok', message: input.message, intent_seq: null },
      'record the change in',
    );
    return toRecord({ ...row, done_at: null, done_result: null, done_message: null });
  }

  /**
   * Writes matching a filter, oldest first unless `newestFirst`, each with its outcome; `limit`
   * keeps the newest matching ones. A log restart is listed whatever the site filter.
   * @throws StoreError when the log cannot be read
   */
  list(query: ActionLogQuery = {}): Redacted<ActionRecord[]> {
    const { where, args } = actionFilterSql(query);
    let sql = `SELECT i.*, o.at AS done_at, o.result AS done_result, o.message AS done_message ${LISTED_FROM} WHERE ${where} ORDER BY i.seq DESC`;
    if (query.limit !== undefined) {
      if (!Number.isInteger(query.limit) || query.limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${query.limit}`);
      sql += ' LIMIT ?';
      args.push(query.limit);
    }
    const rows = this.read('read', (db) => db.prepare<Array<string | number>, ListedRow>(sql).all(...args)).map(toRecord);
    return stored(query.newestFirst ? rows : rows.reverse());
  }

  /**
   * One page of the writes matching a filter, newest first, and how many match in all: filtering,
   * counting and paging happen in SQL, so a window never holds more than a page of a large log.
   * @throws RangeError for a negative offset or a limit outside 1–10,000; StoreError as {@link list}
   */
  page(filter: ActionLogQuery, page: { offset: number; limit: number }): { total: number; offset: number; records: Redacted<ActionRecord[]>; at: string } {
    if (!Number.isInteger(page.offset) || page.offset < 0) throw new RangeError(`offset must be a non-negative integer, got ${page.offset}`);
    if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > 10_000) throw new RangeError(`limit must be an integer from 1 to 10000, got ${page.limit}`);
    const { where, args } = actionFilterSql({ ...filter, limit: undefined, newestFirst: undefined });
    const at = isoTime(this.clock());
    return this.read('read', (db) =>
      // One read transaction: the count and the page describe the same log even while others append.
      db.transaction(() => {
        const total = db.prepare<Array<string | number>, { n: number }>(`SELECT COUNT(*) AS n ${LISTED_FROM} WHERE ${where}`).get(...args)?.n ?? 0;
        const rows = db
          .prepare<Array<string | number>, ListedRow>(`SELECT i.*, o.at AS done_at, o.result AS done_result, o.message AS done_message ${LISTED_FROM} WHERE ${where} ORDER BY i.seq DESC LIMIT ? OFFSET ?`)
          .all(...args, page.limit, page.offset);
        return { total, offset: page.offset, records: stored(rows.map(toRecord)), at };
      })(),
    );
  }

  /**
   * The seq of the chain's last record (0 when empty): it moves with every record appended, in
   * this process or another, so a reader can tell cheaply whether what it read is still current.
   * @throws StoreError as {@link list}
   */
  headSeq(): number {
    return this.read('read', () => this.stmts?.head.get()?.seq ?? 0);
  }

  /** Number of writes recorded (an intent and its outcome count once). @throws StoreError as {@link list} */
  count(): number {
    return this.read('read', () => this.stmts?.count.get()?.n ?? 0);
  }

  /**
   * Walks the whole chain and reports every record whose content no longer matches its hash
   * (edited), whose `prevHash` is not the previous record's hash (reordered or inserted), every gap
   * in seq (deleted), an outcome that completes no earlier intent, and a head that disagrees with the
   * last record (truncated or appended outside the app). A log too damaged to read, missing or not
   * openable is reported as a problem naming the file and what to do, not thrown. With `siteId`
   * (a window scoped to one site), also counts that site's records: the chain is still walked whole.
   */
  verify(siteId?: string): VerifyResult {
    const site = siteId === undefined ? undefined : { id: siteId, count: 0 };
    const scoped = site ? { site } : {};
    if (this.problem || !this.db || !this.stmts) return { ok: false, count: 0, writes: 0, problems: [{ seq: 0, reason: this.problem?.message ?? 'the action log is not open' }], ...scoped };
    const stmts = this.stmts;
    const problems: VerifyProblem[] = [];
    let count = 0;
    let writes = 0;
    let expectedSeq = 1;
    let prevHash = GENESIS_HASH;
    const intents = new Map<number, string>();
    try {
      // One read transaction: a consistent snapshot even while other processes append.
      this.db.transaction(() => {
        for (const row of stmts.all.iterate()) {
          count++;
          if (site && row.site_id === site.id) site.count++;
          const gap = row.seq !== expectedSeq;
          if (gap) problems.push({ seq: expectedSeq, reason: missingText(expectedSeq, row.seq - 1) });
          const at = typeof row.at === 'string' ? { at: row.at } : {};
          if (hashOfRow(row) !== row.hash) problems.push({ seq: row.seq, reason: 'record content does not match its hash: it was edited', ...at });
          // After a gap the broken link is already explained by the missing records.
          else if (!gap && row.prev_hash !== prevHash) problems.push({ seq: row.seq, reason: 'prevHash does not match the previous record: records were inserted, reordered or replaced', ...at });
          const identity = JSON.stringify([row.user, row.site_id, row.system, row.operation]);
          if (row.kind === 'intent') intents.set(row.seq, identity);
          // A record of the first format (`write`) is a whole write in one.
          else if (row.kind === 'write') writes++;
          else if (row.kind === 'outcome' && (row.intent_seq === null || intents.get(row.intent_seq) !== identity)) {
            problems.push({ seq: row.seq, reason: `outcome of a write that has no intent (seq ${String(row.intent_seq)}) before it`, ...at });
          }
          expectedSeq = row.seq + 1;
          prevHash = row.hash;
        }
        const head = stmts.head.get();
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
      problems.push({ seq: 0, reason: this.failed(err, 'read').message });
    }
    return { ok: problems.length === 0, count, writes: writes + intents.size, problems, ...scoped };
  }

  private appendRow(row: NewRow, what: string): ActionRow {
    this.guard?.(`${row.operation || 'a record'}: adding to the action log`);
    const db = this.db;
    const stmts = this.stmts;
    if (this.problem || !db || !stmts) throw this.problem ?? new StoreError('the action log is not open', this.file, 'io');
    const insert = db.transaction((): ActionRow => {
      // Chain from the head, not the last row: a truncated tail then leaves a visible gap. Number
      // past both, so rows added behind the app's back never block logging (verify flags them).
      const head = stmts.head.get();
      const last = stmts.lastRow.get();
      const seq = Math.max(head?.seq ?? 0, last?.seq ?? 0) + 1;
      const prevHash = (head ?? last)?.hash ?? GENESIS_HASH;
      const full: ActionRow = { ...row, seq, format: 2, prev_hash: prevHash, hash: '' };
      full.hash = hashOfRow(full);
      stmts.insert.run(full.seq, full.format, full.kind, full.at, full.user, full.site_id, full.system, full.operation, full.params, full.result, full.message, full.intent_seq, full.prev_hash, full.hash);
      stmts.setHead.run(seq, full.hash);
      return full;
    });
    try {
      const previous = Number(db.pragma('synchronous', { simple: true }));
      if (previous !== SYNCHRONOUS_FULL) db.pragma('synchronous = FULL');
      let appended: ActionRow;
      try {
        appended = insert.immediate();
      } finally {
        if (previous !== SYNCHRONOUS_FULL) db.pragma(`synchronous = ${previous}`);
      }
      for (const listener of this.appended) listener();
      return appended;
    } catch (err) {
      if (err instanceof TypeError || err instanceof RangeError) throw err;
      const e = this.failed(err, what);
      throw row.kind === 'intent' ? new StoreError(`${e.message} (the write was not sent)`, e.file, e.reason, { cause: err }) : e;
    }
  }

  private read<T>(what: string, task: (db: Database) => T): T {
    if (this.problem || !this.db) throw this.problem ?? new StoreError('the action log is not open', this.file, 'io');
    try {
      return task(this.db);
    } catch (err) {
      if (err instanceof RangeError || err instanceof TypeError) throw err;
      throw this.failed(err, what);
    }
  }

  /** The StoreError for a failure; damage found while running refuses writes for the rest of the run. */
  private failed(err: unknown, what: string): StoreError {
    if (failureOf(err) === 'damaged') {
      this.problem ??= unusableLog(err, this.file);
      return this.problem;
    }
    return storeError(err, this.file, what, 'the action log');
  }
}

/** The hash a stored row should carry, from its columns: what `verify` compares with its `hash`. */
export function hashOfRow(row: ActionRow): string {
  return hashAction(hashedFieldsOf(recordOfRow(row)));
}

/** A stored record under the names its hash covers, with the hash: what leaves the log to be checked elsewhere. */
export interface HashedRecord extends Required<HashedFields> {
  hash: string;
}

/** A stored row as a {@link HashedRecord}. */
export function recordOfRow(row: ActionRow): HashedRecord {
  return {
    seq: row.seq,
    format: row.format === 2 ? 2 : 1,
    kind: row.kind,
    at: row.at,
    user: row.user,
    siteId: row.site_id,
    system: row.system,
    operation: row.operation,
    paramsJson: row.params,
    result: row.result,
    message: row.message,
    intentSeq: row.intent_seq,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * The hashed fields of a copy read back (a stored row, a collector's message), each text field
 * taken as text whatever the copy holds: an altered type changes the hash, it does not break it.
 */
export function hashedFieldsOf(r: HashedRecord): HashedFields {
  return {
    format: r.format === 2 ? 2 : 1,
    seq: r.seq,
    kind: String(r.kind),
    at: String(r.at),
    user: String(r.user),
    siteId: String(r.siteId),
    system: String(r.system),
    operation: String(r.operation),
    paramsJson: String(r.paramsJson),
    result: String(r.result),
    message: String(r.message),
    intentSeq: r.intentSeq ?? null,
    prevHash: String(r.prevHash),
  };
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

function parseParams(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Records read back: {@link ActionLog.begin} and {@link ActionLog.complete} redacted them before storing them. */
function stored(records: ActionRecord[]): Redacted<ActionRecord[]> {
  return records as Redacted<ActionRecord[]>;
}

function toRecord(row: ListedRow): ActionRecord {
  const base = { seq: row.seq, at: row.at, user: row.user, siteId: row.site_id, system: row.system, operation: row.operation, params: parseParams(row.params), prevHash: row.prev_hash, hash: row.hash };
  if (row.kind === 'intent') {
    if (row.done_result === null) return { ...base, result: 'unknown', message: NO_OUTCOME_MESSAGE };
    return { ...base, result: row.done_result as ActionResult, message: row.done_message ?? '', completedAt: row.done_at ?? undefined };
  }
  return { ...base, result: (row.result === 'error' ? 'error' : 'ok') as ActionResult, message: row.message };
}

type Statements = ReturnType<typeof prepareStatements>;

function prepareStatements(db: Database) {
  return {
    head: db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM action_log_head WHERE id = 1'),
    lastRow: db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM action_log ORDER BY seq DESC LIMIT 1'),
    setHead: db.prepare<[number, string]>('INSERT INTO action_log_head (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash'),
    insert: db.prepare<[number, number, string, string, string, string, string, string, string, string, string, number | null, string, string]>(
      'INSERT INTO action_log (seq, format, kind, at, user, site_id, system, operation, params, result, message, intent_seq, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    all: db.prepare<[], ActionRow>('SELECT * FROM action_log ORDER BY seq'),
    count: db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM action_log WHERE kind <> 'outcome'"),
  };
}
