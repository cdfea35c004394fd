import fs from 'node:fs';
import path from 'node:path';
import Libsql from 'libsql';

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

/** An open connection to the data directory's SQLite database (the part of the driver's API the app uses). */
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
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    const get = stmt.get.bind(stmt);
    stmt.get = (...params: unknown[]): unknown => {
      const row: unknown = get(...params);
      if (typeof row === 'object' && row !== null && '_metadata' in row) delete (row as { _metadata?: unknown })._metadata;
      return row;
    };
    return stmt;
  }) as typeof db.prepare;
  const pragma = db.pragma.bind(db);
  db.pragma = (source: string, options: { simple?: boolean } = {}): unknown => {
    if (!options.simple) return pragma(source);
    const row: unknown = prepare(`PRAGMA ${source}`).raw().get();
    return Array.isArray(row) ? (row[0] as unknown) : undefined;
  };
  const close = db.close.bind(db);
  db.close = () => {
    // A reader in another process can hold the WAL back; the checkpoint then does what it can.
    if (db.open) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return close();
  };
  return db as unknown as Database;
}

/** File name of the database inside the data directory. */
export const DATABASE_FILE = 'fleetdeck.db';

/** Keep cache_size.bytes equal to the sum of cache_entries.bytes (both cache schemas). */
const CACHE_SIZE_TRIGGERS = `CREATE TRIGGER cache_size_insert AFTER INSERT ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes + NEW.bytes WHERE id = 1;
  END;
  CREATE TRIGGER cache_size_update AFTER UPDATE OF bytes ON cache_entries BEGIN
    UPDATE cache_size SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1;
  END;`;

/**
 * Migrations in order: entry i brings the schema from version i to i + 1. Never edit a shipped
 * entry; append a new one (an installed app has already run the old ones).
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
  CREATE TRIGGER action_log_no_update BEFORE UPDATE ON action_log BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: rows cannot be changed');
  END;
  CREATE TRIGGER action_log_no_delete BEFORE DELETE ON action_log BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: rows cannot be deleted');
  END;

  -- Head of the chain (last seq and hash), written in the same transaction as each append. Appends
  -- continue from here rather than from the last row, so a truncated tail shows up as a gap.
  CREATE TABLE action_log_head (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    seq  INTEGER NOT NULL,
    hash TEXT    NOT NULL
  );
  `,
  `
  -- Report history: every generated report with its model, so it can be reopened, exported again
  -- and compared with another one.
  CREATE TABLE reports (
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
  CREATE INDEX reports_generated_at ON reports (generated_at);
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
];

/** Schema version this build writes (SQLite `user_version`). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Milliseconds a connection waits for another process's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating if needed) `<dataDir>/fleetdeck.db` and brings its schema to {@link SCHEMA_VERSION}.
 * Creates `dataDir` with mode 0700 when missing.
 *
 * Durability: the connection runs WAL with `synchronous = NORMAL`, which survives an application
 * crash but may lose the last commits on power loss: right for the cache, which is refilled by the
 * next refresh. The action log must not lose an acknowledged write even then, so `ActionLog.append`
 * raises the connection to `synchronous = FULL` around its own transaction (the WAL is fsynced at
 * that commit) and restores NORMAL afterwards. One database file keeps the cache and log in one
 * place to back up; the per-append switch keeps cache writes cheap.
 *
 * `busy_timeout` is {@link BUSY_TIMEOUT_MS}: one app instance per site shares the data directory.
 *
 * @throws Error when the database was written by a newer Fleetdeck (schema version above ours), or
 *   SQLite errors when the file is not a database or is locked longer than the busy timeout.
 */
export function openDatabase(dataDir: string): Database {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = connect(path.join(dataDir, DATABASE_FILE));
  try {
    // busy_timeout first: switching to WAL and migrating take locks another process may hold.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function userVersion(db: Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

function migrate(db: Database): void {
  if (userVersion(db) === SCHEMA_VERSION) return;
  // IMMEDIATE, and the version re-read inside: two processes starting together migrate once.
  db.transaction(() => {
    const from = userVersion(db);
    if (from > SCHEMA_VERSION) {
      throw new Error(
        `${DATABASE_FILE} has schema version ${from}, written by a newer Fleetdeck than this one (${SCHEMA_VERSION}); update Fleetdeck or use another data directory`,
      );
    }
    for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v] as string);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
