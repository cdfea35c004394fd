import Libsql from 'libsql';
import { StoreError } from './store-error.js';

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
