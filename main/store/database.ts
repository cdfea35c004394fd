import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Libsql from 'libsql';
import { ensureDataDir, fsyncDir, tightenFile } from './data-dir.js';
import { StoreError, errorCodeOf, remedy, storeError } from './store-error.js';

/** A prepared statement: `P` its parameters, `R` one result row. */
export interface Statement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): { changes: number; lastInsertRowid: number | bigint };
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
}

/** A function run in a transaction; `.immediate` takes the write lock at BEGIN. */
export interface Transaction<F extends (...args: never[]) => unknown> {
  (...args: Parameters<F>): ReturnType<F>;
  immediate(...args: Parameters<F>): ReturnType<F>;
}

/** An open connection to one of the data directory's SQLite files (the part of the driver's API the app uses). */
export interface Database {
  prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R>;
  exec(sql: string): void;
  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>;
  /** `PRAGMA source`; with `simple`, the first column of the first row, else every row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): void;
  /** False once closed. */
  readonly open: boolean;
}

/**
 * A bare connection to a SQLite file, without the app's pragmas or migrations (tests and tools
 * that read a database as it is). The driver is libsql: N-API, so the same binary loads in Node
 * and in Electron without a rebuild. It keeps better-sqlite3's API but for two things mended here:
 * its `get` adds a `_metadata` (timing) key to the row, which would leak into whatever the row is
 * compared with or copied to, and its `pragma(…, { simple: true })` returns that row, not the value.
 *
 * libsql 0.5 also keeps the SQLite handle open after `close()` while any statement prepared on it
 * is still alive (they are freed by the garbage collector or at exit; fixed upstream after 0.5.29).
 * So `close()` here first checkpoints the WAL into the database file: what a closed connection
 * leaves is the database alone, as with better-sqlite3, even if the handle lingers until exit.
 */
export function connect(file: string): Database {
  const db = new Libsql(file);
  // libsql 0.5 runs a statement prepared before `close()` on the lingering handle, and its
  // `inTransaction` after `close()` aborts the whole process (a Rust panic, exit 134): work that
  // outlives the connection (a poll ending while the app shuts down) gets a clear error instead.
  const ensureOpen = (): void => {
    if (!db.open) throw closedError(file);
  };
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    const get = stmt.get.bind(stmt);
    stmt.get = (...params: unknown[]): unknown => {
      ensureOpen();
      const row: unknown = get(...params);
      if (typeof row === 'object' && row !== null && '_metadata' in row) delete (row as { _metadata?: unknown })._metadata;
      return row;
    };
    const run = stmt.run.bind(stmt);
    stmt.run = (...params: unknown[]) => {
      ensureOpen();
      return run(...params);
    };
    const all = stmt.all.bind(stmt);
    stmt.all = (...params: unknown[]) => {
      ensureOpen();
      return all(...params);
    };
    const iterate = stmt.iterate.bind(stmt);
    stmt.iterate = (...params: unknown[]) => {
      ensureOpen();
      return iterate(...params);
    };
    return stmt;
  }) as typeof db.prepare;
  const pragma = db.pragma.bind(db);
  db.pragma = (source: string, options: { simple?: boolean } = {}): unknown => {
    if (!options.simple) return pragma(source);
    const row: unknown = prepare(`PRAGMA ${source}`).raw().get();
    return Array.isArray(row) ? (row[0] as unknown) : undefined;
  };
  db.transaction = ((fn: (...args: never[]) => unknown) => transactionOf(db, fn, ensureOpen)) as typeof db.transaction;
  const close = db.close.bind(db);
  db.close = () => {
    // A reader in another process can hold the WAL back; the checkpoint then does what it can.
    if (db.open) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return close();
  };
  return db as unknown as Database;
}

/** What a read or write on a closed connection gets (see {@link connect}). */
function closedError(file: string): StoreError {
  return new StoreError(`cannot use ${file}: it is closed (Fleetdeck is shutting down); nothing was read or written`, file, 'closed');
}

let savepoints = 0;

/**
 * better-sqlite3's transaction semantics on libsql, whose own wrapper differs in two ways that
 * matter: it rolls back unconditionally, so when SQLite has already ended the transaction itself
 * (SQLITE_FULL, SQLITE_IOERR) the caller gets "cannot rollback - no transaction is active" instead
 * of the error that happened; and it cannot nest. Here a nested call is a savepoint, and ROLLBACK
 * runs only while a transaction is still open, so the original error reaches the caller.
 */
function transactionOf(db: Libsql.Database, fn: (...args: never[]) => unknown, ensureOpen: () => void): Transaction<(...args: never[]) => unknown> {
  // `inTransaction` of a closed connection is a process abort in libsql, not an error.
  const inTransaction = (): boolean => db.open && db.inTransaction;
  const run =
    (mode: string) =>
    (...args: never[]): unknown => {
      ensureOpen();
      if (inTransaction()) {
        const name = `fleetdeck_sp_${++savepoints}`;
        db.exec(`SAVEPOINT ${name}`);
        try {
          const result = fn(...args);
          db.exec(`RELEASE ${name}`);
          return result;
        } catch (err) {
          if (inTransaction()) db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
          throw err;
        }
      }
      db.exec(`BEGIN ${mode}`);
      try {
        const result = fn(...args);
        db.exec('COMMIT');
        return result;
      } catch (err) {
        if (inTransaction()) db.exec('ROLLBACK');
        throw err;
      }
    };
  return Object.assign(run(''), { immediate: run('IMMEDIATE') }) as Transaction<(...args: never[]) => unknown>;
}

/** File name of the offline cache inside the data directory. */
export const DATABASE_FILE = 'fleetdeck.db';
/** File name of the action log inside the data directory. */
export const ACTION_LOG_FILE = 'actions.db';
/** File name of the report history inside the data directory. */
export const REPORTS_FILE = 'reports.db';
/** File name of the alerts and their rules inside the data directory. */
export const ALERTS_FILE = 'alerts.db';
/** File name of the site list inside the data directory. */
export const SITES_DB_FILE = 'sites.db';

/** Keep cache_size.bytes equal to the sum of cache_entries.bytes (both cache schemas). */
const CACHE_SIZE_TRIGGERS = `CREATE TRIGGER cache_size_insert AFTER INSERT ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes + NEW.bytes WHERE id = 1;
  END;
  CREATE TRIGGER cache_size_update AFTER UPDATE OF bytes ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1;
  END;`;

/** Triggers keeping the action log append-only. */
const ACTION_LOG_TRIGGERS = `CREATE TRIGGER action_log_no_update BEFORE UPDATE ON action_log BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: rows cannot be changed');
  END;
  CREATE TRIGGER action_log_no_delete BEFORE DELETE ON action_log BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: rows cannot be deleted');
  END;`;

/** Triggers keeping the action log append-only, and the head of its chain (both log schemas). */
const ACTION_LOG_APPEND_ONLY = `${ACTION_LOG_TRIGGERS}

  -- Head of the chain (last seq and hash), written in the same transaction as each append. Appends
  -- continue from here rather than from the last row, so a truncated tail shows up as a gap.
  CREATE TABLE action_log_head (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    seq  INTEGER NOT NULL,
    hash TEXT    NOT NULL
  );`;

/** The report history's table (both places it has lived). */
const REPORTS_TABLE = `CREATE TABLE reports (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         TEXT    NOT NULL,
    title        TEXT    NOT NULL,
    generated_at TEXT    NOT NULL,   -- ISO time the report was built
    generated_by TEXT    NOT NULL,   -- OS user
    source       TEXT    NOT NULL CHECK (source IN ('cache', 'fresh')),
    sites        TEXT    NOT NULL,   -- JSON [{id, name}] of the sites in scope
    systems      INTEGER NOT NULL,   -- number of systems in scope
    model        TEXT    NOT NULL,   -- the report model as JSON, already redacted
    sha256       TEXT    NOT NULL    -- of model
  );
  CREATE INDEX reports_generated_at ON reports (generated_at);`;

/**
 * Migrations of the offline cache (fleetdeck.db) in order: entry i brings the schema from version
 * i to i + 1. Never edit a shipped entry; append a new one (an installed app has already run the
 * old ones). Versions 1–3 also held the action log and the report history; version 4 moved them
 * to their own files ({@link ACTION_LOG_FILE}, {@link REPORTS_FILE}), see {@link splitLegacyTables}.
 */
export const MIGRATIONS: readonly string[] = [
  `
  -- Offline cache: the last result of every read, per (site, system, key).
  CREATE TABLE cache_entries (
    site_id      TEXT    NOT NULL,
    system       TEXT    NOT NULL,
    key          TEXT    NOT NULL,
    value        TEXT    NOT NULL,   -- JSON, already redacted
    bytes        INTEGER NOT NULL,   -- UTF-8 length of value
    at           TEXT    NOT NULL,   -- ISO time the value was read from the system
    last_read_at TEXT    NOT NULL,   -- ISO time of the last put or get
    use_seq      INTEGER NOT NULL,   -- logical clock of the last put or get: LRU order
    PRIMARY KEY (site_id, system, key)
  ) WITHOUT ROWID;
  CREATE INDEX cache_entries_lru ON cache_entries (use_seq);

  -- Running total of cache_entries.bytes, kept by triggers so the size check after each put is O(1).
  CREATE TABLE cache_size (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    bytes INTEGER NOT NULL
  );
  INSERT INTO cache_size (id, bytes) VALUES (1, 0);
${CACHE_SIZE_TRIGGERS}
  CREATE TRIGGER cache_size_delete AFTER DELETE ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes - OLD.bytes WHERE id = 1;
  END;

  -- Action log: every write the app performs, hash-chained.
  CREATE TABLE action_log (
    seq       INTEGER PRIMARY KEY,
    at        TEXT NOT NULL,
    user      TEXT NOT NULL,
    site_id   TEXT NOT NULL,
    system    TEXT NOT NULL,
    operation TEXT NOT NULL,
    params    TEXT NOT NULL,   -- canonical JSON, already redacted
    result    TEXT NOT NULL CHECK (result IN ('ok', 'error')),
    message   TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash      TEXT NOT NULL
  );
  CREATE INDEX action_log_site_at ON action_log (site_id, at);
  CREATE INDEX action_log_at ON action_log (at);
  ${ACTION_LOG_APPEND_ONLY}
  `,
  `
  -- Report history: every generated report with its model, so it can be reopened, exported again
  -- and compared with another one.
  ${REPORTS_TABLE}
  `,
  `
  -- The offline cache, rebuilt. Values can be megabytes: they move to a rowid table (SQLite's
  -- WITHOUT ROWID layout is meant for small rows; a key lookup there walked the whole value), and
  -- the read bookkeeping moves to its own small table, so recording a read leaves the value alone.
  CREATE TABLE cache_entries_v2 (
    id      INTEGER PRIMARY KEY,
    site_id TEXT    NOT NULL,
    system  TEXT    NOT NULL,
    key     TEXT    NOT NULL,
    value   TEXT    NOT NULL,   -- JSON, already redacted
    bytes   INTEGER NOT NULL,   -- UTF-8 length of value
    at      TEXT    NOT NULL,   -- ISO time the value was read from the system
    UNIQUE (site_id, system, key)
  );
  INSERT INTO cache_entries_v2 (site_id, system, key, value, bytes, at)
    SELECT site_id, system, key, value, bytes, at FROM cache_entries;
  CREATE TABLE cache_use (
    site_id      TEXT    NOT NULL,
    system       TEXT    NOT NULL,
    key          TEXT    NOT NULL,
    last_read_at TEXT    NOT NULL,   -- ISO time of the last put or get
    use_seq      INTEGER NOT NULL,   -- logical clock of the last put or get: LRU order
    PRIMARY KEY (site_id, system, key)
  ) WITHOUT ROWID;
  INSERT INTO cache_use (site_id, system, key, last_read_at, use_seq)
    SELECT site_id, system, key, last_read_at, use_seq FROM cache_entries;
  CREATE INDEX cache_use_lru ON cache_use (use_seq);
  -- Dropping the old table drops its index and triggers (and fires none): cache_size stays right.
  DROP TABLE cache_entries;
  ALTER TABLE cache_entries_v2 RENAME TO cache_entries;
${CACHE_SIZE_TRIGGERS}
  CREATE TRIGGER cache_size_delete AFTER DELETE ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes - OLD.bytes WHERE id = 1;
    DELETE FROM cache_use WHERE site_id = OLD.site_id AND system = OLD.system AND key = OLD.key;
  END;
  `,
  `
  -- The action log and the report history now live in their own files (actions.db, reports.db):
  -- their rows were copied there, in the same transaction, just before this migration ran.
  DROP TABLE IF EXISTS action_log_head;
  DROP TABLE IF EXISTS action_log;
  DROP TABLE IF EXISTS reports;
  `,
  `
  -- Answers are stored normalised (app/answers/normalise.ts) from format 2 on. Format 1 rows were
  -- stored as the system sent them: they are normalised when next read, and dropped when their
  -- shape is not one the app recognises (the upgrade option of OfflineCache).
  ALTER TABLE cache_entries ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
  `,
  `
  -- Content version of each answer: a number from one counter (cache_size.version), taken when a
  -- put stores a value different from the one held; a put of the same answer only advances its read
  -- time (at). Who derives something from the answers (the alert engine after every poll) compares
  -- versions instead of reading and parsing them again. Indexed with the key: a system's versions
  -- are read from the index, without walking the (possibly large) values stored before the column.
  ALTER TABLE cache_entries ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE cache_size ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX cache_entries_version ON cache_entries (site_id, system, key, version);
  `,
  `
  -- Each system's health summary (main/core/health-summaries.ts), computed from its cached answers
  -- when they change, so a start loads one small row per system instead of parsing its answers.
  -- Derived data: a row of another format is computed again from the cache.
  CREATE TABLE system_summaries (
    site_id TEXT    NOT NULL,
    system  TEXT    NOT NULL,
    format  INTEGER NOT NULL,   -- SUMMARY_FORMAT of the version that computed it
    summary TEXT    NOT NULL,   -- JSON, redacted
    PRIMARY KEY (site_id, system)
  ) WITHOUT ROWID;
  `,
  `
  -- Every start lists each (site, system) with its newest read time (OfflineCache.systems, the
  -- fleet's statuses before the window opens). Read from the table, \`at\` lies past each row's
  -- stored answer, so the listing walked the whole cache (40 MB at 200 systems); from this index
  -- alone it reads a few pages.
  CREATE INDEX cache_entries_system_at ON cache_entries (site_id, system, at);
  `,
  `
  -- Each system's last refresh outcome (main/store/system-outcomes.ts): its status as the refresh
  -- left it, so a later process (a report after \`fleetdeck refresh\`, the other shell) starts from
  -- what that refresh found instead of calling every cached system stale.
  CREATE TABLE system_outcomes (
    site_id TEXT NOT NULL,
    system  TEXT NOT NULL,
    status  TEXT NOT NULL,   -- JSON of the SystemStatus, redacted, without seq or progress
    PRIMARY KEY (site_id, system)
  ) WITHOUT ROWID;
  `,
];

/**
 * Migrations of the action log ({@link ACTION_LOG_FILE}), same rules as {@link MIGRATIONS}.
 *
 * Records are hash-chained in `seq` order. `format` 1 is a write recorded after the fact, as
 * Fleetdeck stored them in fleetdeck.db before the log had its own file (imported unchanged, hashes
 * included). `format` 2 records each write twice: an `intent` (with its parameters) committed
 * before the request is sent, and an `outcome` (`ok`, `refused`, `unknown`) pointing at its intent
 * once the answer is known; an intent without an outcome is a write whose outcome is unknown.
 * `restart` opens a new log after the previous file was damaged or lost, naming it.
 */
export const LOG_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE action_log (
    seq        INTEGER PRIMARY KEY,
    format     INTEGER NOT NULL CHECK (format IN (1, 2)),
    kind       TEXT    NOT NULL CHECK (kind IN ('write', 'intent', 'outcome', 'restart')),
    at         TEXT    NOT NULL,   -- ISO time
    user       TEXT    NOT NULL,
    site_id    TEXT    NOT NULL,
    system     TEXT    NOT NULL,
    operation  TEXT    NOT NULL,
    params     TEXT    NOT NULL,   -- canonical JSON, already redacted ('null' on outcomes)
    result     TEXT    NOT NULL CHECK (result IN ('ok', 'error', 'pending', 'refused', 'unknown')),
    message    TEXT    NOT NULL,   -- already redacted
    intent_seq INTEGER,            -- outcome: the intent it completes
    prev_hash  TEXT    NOT NULL,
    hash       TEXT    NOT NULL,
    CHECK ((format = 1) = (kind = 'write')),
    CHECK ((kind = 'outcome') = (intent_seq IS NOT NULL))
  );
  CREATE INDEX action_log_site_at ON action_log (site_id, at);
  CREATE INDEX action_log_at ON action_log (at);
  -- One outcome per intent; also what the listing joins on.
  CREATE UNIQUE INDEX action_log_outcome ON action_log (intent_seq) WHERE intent_seq IS NOT NULL;
  ${ACTION_LOG_APPEND_ONLY}

  -- Facts about the file itself: where its first records came from.
  CREATE TABLE log_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  `
  -- Kind 'local': a change made in Fleetdeck itself, not sent to any system (an alert rule edited).
  -- SQLite cannot change a CHECK in place: the table is rebuilt with every row, seq and hash as
  -- they were (DROP TABLE drops the append-only triggers first, so none fires), then they return.
  CREATE TABLE action_log_v2 (
    seq        INTEGER PRIMARY KEY,
    format     INTEGER NOT NULL CHECK (format IN (1, 2)),
    kind       TEXT    NOT NULL CHECK (kind IN ('write', 'intent', 'outcome', 'restart', 'local')),
    at         TEXT    NOT NULL,
    user       TEXT    NOT NULL,
    site_id    TEXT    NOT NULL,
    system     TEXT    NOT NULL,
    operation  TEXT    NOT NULL,
    params     TEXT    NOT NULL,
    result     TEXT    NOT NULL CHECK (result IN ('ok', 'error', 'pending', 'refused', 'unknown')),
    message    TEXT    NOT NULL,
    intent_seq INTEGER,
    prev_hash  TEXT    NOT NULL,
    hash       TEXT    NOT NULL,
    CHECK ((format = 1) = (kind = 'write')),
    CHECK ((kind = 'outcome') = (intent_seq IS NOT NULL))
  );
  INSERT INTO action_log_v2 (seq, format, kind, at, user, site_id, system, operation, params, result, message, intent_seq, prev_hash, hash)
    SELECT seq, format, kind, at, user, site_id, system, operation, params, result, message, intent_seq, prev_hash, hash FROM action_log;
  DROP TABLE action_log;
  ALTER TABLE action_log_v2 RENAME TO action_log;
  CREATE INDEX action_log_site_at ON action_log (site_id, at);
  CREATE INDEX action_log_at ON action_log (at);
  CREATE UNIQUE INDEX action_log_outcome ON action_log (intent_seq) WHERE intent_seq IS NOT NULL;
  ${ACTION_LOG_TRIGGERS}
  `,
];

/**
 * Migrations of the alerts file ({@link ALERTS_FILE}), same rules as {@link MIGRATIONS}. Not in the
 * cache, which is rebuilt when damaged: an acknowledgement, a snooze and an admin's rules are
 * decisions, not answers the next refresh fetches again.
 */
export const ALERT_MIGRATIONS: readonly string[] = [
  `
  -- Every alert raised, open or cleared (cleared ones are the history).
  CREATE TABLE alerts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    rule            TEXT    NOT NULL,
    site_id         TEXT    NOT NULL,
    system          TEXT    NOT NULL,
    subject         TEXT    NOT NULL,   -- a drive, a pool, a pair; '' for the system itself
    level           TEXT    NOT NULL CHECK (level IN ('warning', 'critical')),
    message         TEXT    NOT NULL,
    raised_at       TEXT    NOT NULL,   -- ISO times
    last_seen_at    TEXT    NOT NULL,
    cleared_at      TEXT,
    acknowledged_at TEXT,
    acknowledged_by TEXT,
    snoozed_until   TEXT
  );
  -- One alert per condition while it lasts: the stable key is rule + system + subject.
  CREATE UNIQUE INDEX alerts_active_key ON alerts (rule, site_id, system, subject) WHERE cleared_at IS NULL;
  CREATE INDEX alerts_raised_at ON alerts (raised_at);

  -- The admin's rule overrides: one row per scope ('' site/system for the fleet, '' system for a site).
  CREATE TABLE alert_rules (
    site_id  TEXT NOT NULL,
    system   TEXT NOT NULL,
    override TEXT NOT NULL,   -- JSON of app/alerts/rules.ts ruleOverrideSchema
    PRIMARY KEY (site_id, system)
  );

  -- Settings of alerting itself (desktop notifications on or off).
  CREATE TABLE alert_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
];

/**
 * Migrations of the report history ({@link REPORTS_FILE}), same rules as {@link MIGRATIONS}. The
 * history has its own file rather than living in the cache: a cache is rebuilt when damaged, and
 * generated reports are records an admin kept, not answers the next refresh can fetch again.
 */
export const REPORT_MIGRATIONS: readonly string[] = [
  `
  -- Every generated report with its model, so it can be reopened, exported again and compared.
  ${REPORTS_TABLE}
  CREATE TABLE report_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
];

/**
 * Migrations of the site list ({@link SITES_DB_FILE}), same rules as {@link MIGRATIONS}. Its own file:
 * the cache is rebuilt when damaged and the action log set aside by `log start-new`, and neither
 * may take the admin's sites with it. Each site is its JSON (`app/domain/site.ts`), so every field
 * survives whatever this file's columns are; `name_key` makes a name clash fail even past the code.
 */
export const SITE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sites (
    id       TEXT    PRIMARY KEY,
    position INTEGER NOT NULL,
    name_key TEXT    NOT NULL UNIQUE,
    site     TEXT    NOT NULL
  );
  -- Facts about the file itself: the sites.json it was imported from.
  CREATE TABLE site_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
];

/** One kind of SQLite file in the data directory. */
export interface DatabaseSpec {
  /** What the file holds, for messages ("the offline cache"). */
  label: string;
  migrations: readonly string[];
  /**
   * Migrate an existing file that has no schema version. Only the cache: earlier Fleetdecks
   * created it in place, so a crash before its first commit left such a file. Files of the other
   * kinds are created complete (see {@link createDatabaseFile}): unversioned, they are foreign.
   */
  adoptUnversioned?: boolean;
  /** Runs inside the migration transaction, before migrating an existing schema from `from` (≥ 1). */
  beforeMigrate?: (db: Database, from: number, file: string) => void;
  /**
   * A rollback journal instead of WAL, and opened even when it cannot be written (its writes then
   * fail naming the file): for a small, rarely written file that must stay readable from a
   * read-only data directory, where a WAL file cannot be read without creating its index.
   */
  readableWhenReadOnly?: boolean;
}

/** The offline cache: `fleetdeck.db`. */
export const CACHE_DATABASE: DatabaseSpec = { label: 'the offline cache', migrations: MIGRATIONS, adoptUnversioned: true, beforeMigrate: (db, from, file) => splitLegacyTables(db, from, path.dirname(file)) };
/** The action log: `actions.db`. */
export const LOG_DATABASE: DatabaseSpec = { label: 'the action log', migrations: LOG_MIGRATIONS };
/** The report history: `reports.db`. */
export const REPORTS_DATABASE: DatabaseSpec = { label: 'the report history', migrations: REPORT_MIGRATIONS };
/** Alerts, their rules and settings: `alerts.db`. */
export const ALERTS_DATABASE: DatabaseSpec = { label: 'the alerts and their rules', migrations: ALERT_MIGRATIONS };
/** The site list: `sites.db`. */
export const SITES_DATABASE: DatabaseSpec = { label: 'the site list', migrations: SITE_MIGRATIONS, readableWhenReadOnly: true };

/** Schema version of the cache this build writes (SQLite `user_version`). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Milliseconds a connection waits for another process's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens `file` as a database of kind `spec`, bringing its schema to the latest version; creates it
 * (complete, mode 0600) when missing unless `create` is false. Existing files and their WAL/SHM are
 * tightened to 0600.
 *
 * Durability: WAL with `synchronous = NORMAL`, which survives an application crash but may lose the
 * last commits on power loss: right for the cache and the report history. The action log must not
 * lose an acknowledged record even then, so `ActionLog` raises its connection to `synchronous =
 * FULL` for each append. `busy_timeout` is {@link BUSY_TIMEOUT_MS}: one app instance per site
 * shares the data directory.
 *
 * @throws StoreError naming the file and what to do: `missing` (and not created), `damaged` (empty,
 *   not a database, malformed, or not of this kind), `newer` (schema from a newer Fleetdeck),
 *   `read-only`, `full`, `busy`, `io`.
 */
export function openSqlite(file: string, spec: DatabaseSpec, options: { create?: boolean } = {}): Database {
  let size: number | undefined;
  try {
    size = fs.statSync(file).size;
  } catch (err) {
    if (errorCodeOf(err) !== 'ENOENT') throw storeError(err, file, 'open', spec.label);
  }
  if (size === undefined) {
    if (options.create === false) throw new StoreError(`${file} (${spec.label}) is missing; ${remedy('missing', file)}`, file, 'missing');
    try {
      createDatabaseFile(file, spec);
    } catch (err) {
      throw storeError(err, file, 'create', spec.label);
    }
  } else if (size === 0) {
    // Never a state Fleetdeck leaves a file in: files are created complete, then linked into place.
    throw new StoreError(`${file} (${spec.label}) is empty (0 bytes): it was emptied or truncated; ${remedy('damaged', file)}`, file, 'damaged');
  }
  let db: Database | undefined;
  try {
    tightenFile(file);
    // SQLite would open a file it cannot write read-only, without a word, and fail at the first write.
    fs.accessSync(file, spec.readableWhenReadOnly ? fs.constants.R_OK : fs.constants.R_OK | fs.constants.W_OK);
    db = connect(file);
    // busy_timeout first: switching to WAL and migrating take locks another process may hold.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma(`journal_mode = ${spec.readableWhenReadOnly ? 'DELETE' : 'WAL'}`);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, spec, file);
    tightenFile(`${file}-wal`);
    tightenFile(`${file}-shm`);
    return db;
  } catch (err) {
    try {
      db?.close();
    } catch {
      // Closing checkpoints the WAL, which fails on the very damage being reported: report that, not this.
    }
    throw storeError(err, file, 'open', spec.label);
  }
}

/** A database of kind `spec` in memory only: what a run uses when its file cannot be opened. */
export function openMemoryDatabase(spec: DatabaseSpec): Database {
  const db = connect(':memory:');
  db.transaction(() => {
    for (const m of spec.migrations) db.exec(m);
    db.pragma(`user_version = ${spec.migrations.length}`);
  })();
  return db;
}

/**
 * Opens (creating if needed) the offline cache `<dataDir>/fleetdeck.db`; creates `dataDir` 0700.
 * A cache from before the split hands its action log and report history over to their own files
 * first (see {@link splitLegacyTables}).
 * @throws StoreError as {@link openSqlite}
 */
export function openDatabase(dataDir: string): Database {
  ensureDataDir(dataDir);
  return openSqlite(path.join(dataDir, DATABASE_FILE), CACHE_DATABASE);
}

/**
 * Opens the action log `<dataDir>/actions.db`. `create: false` refuses to start a new one in place
 * of a missing file (a missing log is reported, never silently replaced).
 * @throws StoreError as {@link openSqlite}
 */
export function openLogDatabase(dataDir: string, options: { create?: boolean } = {}): Database {
  ensureDataDir(dataDir);
  return openSqlite(path.join(dataDir, ACTION_LOG_FILE), LOG_DATABASE, options);
}

/** Opens (creating if needed) the alerts `<dataDir>/alerts.db`. @throws StoreError as {@link openSqlite} */
export function openAlertsDatabase(dataDir: string): Database {
  ensureDataDir(dataDir);
  return openSqlite(path.join(dataDir, ALERTS_FILE), ALERTS_DATABASE);
}

/** Opens (creating if needed) the report history `<dataDir>/reports.db`. @throws StoreError as {@link openSqlite} */
export function openReportsDatabase(dataDir: string): Database {
  ensureDataDir(dataDir);
  return openSqlite(path.join(dataDir, REPORTS_FILE), REPORTS_DATABASE);
}

/**
 * Creates `file` complete or not at all: built under a temporary name (mode 0600, rollback journal),
 * schema and `fill` committed, then hard-linked into place, which fails rather than replace a file
 * another process created meanwhile (theirs is kept). So an empty or half-made file at the final
 * name always means damage.
 */
export function createDatabaseFile(file: string, spec: DatabaseSpec, fill?: (db: Database) => void): void {
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  fs.closeSync(fs.openSync(tmp, 'wx', 0o600));
  try {
    const db = connect(tmp);
    try {
      db.pragma('synchronous = FULL');
      db.transaction(() => {
        for (const m of spec.migrations) db.exec(m);
        db.pragma(`user_version = ${spec.migrations.length}`);
        fill?.(db);
      })();
    } finally {
      db.close();
    }
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      if (errorCodeOf(err) !== 'EEXIST') throw err;
    }
    fsyncDir(path.dirname(file));
  } finally {
    fs.rmSync(tmp, { force: true });
    fs.rmSync(`${tmp}-journal`, { force: true });
  }
}

function userVersion(db: Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

function migrate(db: Database, spec: DatabaseSpec, file: string): void {
  const target = spec.migrations.length;
  if (userVersion(db) === target) return;
  // IMMEDIATE, and the version re-read inside: two processes starting together migrate once.
  db.transaction(() => {
    const from = userVersion(db);
    if (from === target) return;
    if (from > target) {
      throw new StoreError(
        `${file} (${spec.label}) has schema version ${from}, written by a newer Fleetdeck than this one (${target}); ${remedy('newer', file)}`,
        file,
        'newer',
      );
    }
    if (from === 0 && !spec.adoptUnversioned) {
      throw new StoreError(`${file} is not ${spec.label} of Fleetdeck (it has no schema version); ${remedy('damaged', file)}`, file, 'damaged');
    }
    if (from > 0) spec.beforeMigrate?.(db, from, file);
    for (let v = from; v < target; v++) db.exec(spec.migrations[v] as string);
    db.pragma(`user_version = ${target}`);
  }).immediate();
}

function hasTable(db: Database, name: string): boolean {
  return db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?").get(name)?.n === 1;
}

/**
 * Before the cache reaches version 4: copies the action log (rows, hashes and head unchanged) and
 * the report history out of a fleetdeck.db of versions 1–3 into new `actions.db` / `reports.db`.
 * Runs inside the cache's migration transaction, which holds its write lock: processes starting
 * together copy once, and the tables are dropped from the cache only in the commit that follows a
 * complete copy. A copy left by a start that stopped before that commit is recognised by its
 * marker and kept.
 * @throws StoreError when the target file exists without the marker of this very copy.
 */
function splitLegacyTables(cache: Database, from: number, dataDir: string): void {
  if (from >= 4) return;
  if (hasTable(cache, 'action_log')) {
    const count = cache.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM action_log').get()?.n ?? 0;
    const head = hasTable(cache, 'action_log_head') ? cache.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM action_log_head WHERE id = 1').get() : undefined;
    const marker = JSON.stringify({ from: DATABASE_FILE, records: count, headSeq: head?.seq ?? null, headHash: head?.hash ?? null });
    copyOnce(path.join(dataDir, ACTION_LOG_FILE), LOG_DATABASE, 'log_meta', marker, (dst) => {
      const insert = dst.prepare(
        "INSERT INTO action_log (seq, format, kind, at, user, site_id, system, operation, params, result, message, intent_seq, prev_hash, hash) VALUES (?, 1, 'write', ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
      );
      type Row = { seq: number; at: string; user: string; site_id: string; system: string; operation: string; params: string; result: string; message: string; prev_hash: string; hash: string };
      for (const r of cache.prepare<[], Row>('SELECT * FROM action_log ORDER BY seq').iterate()) {
        insert.run(r.seq, r.at, r.user, r.site_id, r.system, r.operation, r.params, r.result, r.message, r.prev_hash, r.hash);
      }
      if (head) dst.prepare('INSERT INTO action_log_head (id, seq, hash) VALUES (1, ?, ?)').run(head.seq, head.hash);
    });
  }
  if (hasTable(cache, 'reports')) {
    const count = cache.prepare<[], { n: number; last: number | null }>('SELECT COUNT(*) AS n, MAX(id) AS last FROM reports').get();
    const marker = JSON.stringify({ from: DATABASE_FILE, reports: count?.n ?? 0, lastId: count?.last ?? null });
    copyOnce(path.join(dataDir, REPORTS_FILE), REPORTS_DATABASE, 'report_meta', marker, (dst) => {
      const cols = 'id, kind, title, generated_at, generated_by, source, sites, systems, model, sha256';
      const insert = dst.prepare(`INSERT INTO reports (${cols}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      for (const r of cache.prepare<[], Record<string, unknown>>(`SELECT ${cols} FROM reports ORDER BY id`).iterate()) insert.run(...cols.split(', ').map((c) => r[c]));
    });
  }
}

const LEGACY_MARKER = 'legacy-import';

function copyOnce(file: string, spec: DatabaseSpec, metaTable: string, marker: string, copy: (dst: Database) => void): void {
  if (fs.existsSync(file)) {
    const existing = openSqlite(file, spec, { create: false });
    try {
      const found = existing.prepare<[string], { value: string }>(`SELECT value FROM ${metaTable} WHERE key = ?`).get(LEGACY_MARKER)?.value;
      if (found === marker) return;
    } finally {
      existing.close();
    }
    throw new StoreError(
      `${path.join(path.dirname(file), DATABASE_FILE)} still holds ${spec.label} of an earlier Fleetdeck, and ${file} exists without it: nothing was changed. Move ${file} away (keep it), then start Fleetdeck again to copy the earlier records into a new one`,
      file,
      'io',
    );
  }
  createDatabaseFile(file, spec, (dst) => {
    copy(dst);
    dst.prepare(`INSERT INTO ${metaTable} (key, value) VALUES (?, ?)`).run(LEGACY_MARKER, marker);
  });
}
