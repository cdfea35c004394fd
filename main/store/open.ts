import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDataDir, fsyncDir, tightenFile } from './data-dir.js';
import { connect, type Database } from './driver.js';
import { ALERT_MIGRATIONS, LOG_MIGRATIONS, MIGRATIONS, REPORT_MIGRATIONS, SITE_MIGRATIONS } from './migrations.js';
import { StoreError, errorCodeOf, remedy, storeError } from './store-error.js';

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
