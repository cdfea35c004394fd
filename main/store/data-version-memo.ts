import type { Database, Statement } from './driver.js';

/**
 * A value a store makes from its file and keeps in memory while the file stands: until another
 * connection (another window, the CLI, the monitor) commits to it, as SQLite's `PRAGMA data_version`
 * tells. A commit of the store's own connection does not move that version, so the store keeps the
 * value right after its own writes (through {@link held}) or drops it ({@link clear}). So on that
 * connection, only the memo's holder writes what the value is made from.
 */
export class DataVersionMemo<T> {
  readonly #dataVersion: Statement<[], { data_version: number }>;
  #entry: { value: T; version: number | undefined } | undefined;

  /** @param db the connection whose commits the value follows; the memo prepares one statement on it. */
  constructor(db: Pick<Database, 'prepare'>) {
    this.#dataVersion = db.prepare<[], { data_version: number }>('PRAGMA data_version');
  }

  /**
   * The value held, when no other connection has committed since it was made; else `make()`'s,
   * held from now on. One `data_version` read per call, made before `make` runs: a commit that
   * lands while `make` reads the file moves the version past the one kept, so the next call makes
   * the value again rather than keep one older than its version.
   * @throws what the read or `make` throws; nothing is held then.
   */
  get(make: () => T): T {
    const version = this.#dataVersion.get()?.data_version;
    const entry = this.#entry;
    if (entry && entry.version === version) return entry.value;
    this.#entry = undefined;
    const value = make();
    this.#entry = { value, version };
    return value;
  }

  /**
   * The value held, without asking the file (`undefined` when none): for its holder to keep it
   * right after a write of its own. A value older than another connection's commit may be given:
   * the next {@link get} drops it anyway.
   */
  held(): T | undefined {
    return this.#entry?.value;
  }

  /** Forgets the value: the next {@link get} makes it again. */
  clear(): void {
    this.#entry = undefined;
  }
}
