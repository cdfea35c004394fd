import path from 'node:path';
import { CodedError } from '../../app/errors.js';

/**
 * A data file Fleetdeck cannot use as it is: not writable, full, damaged, locked, missing. The
 * message always names the file and says what the admin can do about it. Crosses IPC as
 * `{ code: 'store', message }`.
 */
export class StoreError extends CodedError {
  override readonly name = 'StoreError';
  declare readonly code: 'store';
  constructor(
    message: string,
    /** The file concerned (absolute path). */
    readonly file: string,
    /** What went wrong, for callers that act on it. */
    readonly reason: StoreFailure,
    options?: { cause?: unknown },
  ) {
    super('store', message, options);
  }
}

/**
 * `damaged`: not a database, malformed or emptied; `missing`: a file that must exist does not;
 * `read-only`: cannot be written (permissions, read-only file system); `full`: no space left;
 * `busy`: another process holds its lock; `newer`: written by a newer Fleetdeck; `closed`: used after
 * its connection was closed (shutting down); `io`: anything else.
 */
export type StoreFailure = 'damaged' | 'missing' | 'read-only' | 'full' | 'busy' | 'newer' | 'closed' | 'io';

/** The SQLite or file-system error code of an error, if it carries one. */
export function errorCodeOf(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : '';
}

/** What kind of failure an SQLite or file-system error is. */
export function failureOf(err: unknown): StoreFailure {
  if (err instanceof StoreError) return err.reason;
  const code = errorCodeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT') || /malformed|not a database/i.test(message)) return 'damaged';
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code.startsWith('SQLITE_CANTOPEN') || code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'read-only';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || (code === 'SQLITE_IOERR_WRITE' && /full|space/i.test(message))) return 'full';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  return 'io';
}

/** True for an error that says the file's content is damaged. */
export function isDamage(err: unknown): boolean {
  return failureOf(err) === 'damaged';
}

/** What the admin can do about a failure of `file`, as the second half of a message. */
export function remedy(failure: StoreFailure, file: string): string {
  const dir = path.dirname(file);
  switch (failure) {
    case 'read-only':
      return `make ${dir} and the files in it writable by this user (or choose another data directory with --data-dir or FLEETDECK_DATA_DIR)`;
    case 'full':
      return `free space on the disk holding ${dir}, then try again`;
    case 'busy':
      return 'another Fleetdeck process is writing to it: try again in a moment';
    case 'newer':
      return 'update Fleetdeck, or use another data directory';
    case 'closed':
      return 'start Fleetdeck again';
    case 'damaged':
    case 'missing':
      return `restore ${path.basename(file)} from a backup`;
    case 'io':
      return `check the disk holding ${dir}`;
  }
}

/**
 * Wraps any error of an operation on `file` (what: "record the write in", "read") into a
 * {@link StoreError} that names the file and the remedy; a StoreError passes through unchanged.
 */
export function storeError(err: unknown, file: string, what: string, label: string): StoreError {
  if (err instanceof StoreError) return err;
  const failure = failureOf(err);
  const detail = err instanceof Error ? err.message : String(err);
  return new StoreError(`cannot ${what} ${file} (${label}): ${detail}; ${remedy(failure, file)}`, file, failure, { cause: err });
}
