import type { SystemCapacity } from '../../app/capacity/pools.js';
import type { CapacityMemo } from '../../app/health/system-health.js';
import type { CacheRow } from '../store/offline-cache.js';

/** An answer as handed over: its stored text and read time, and its value once parsed (or as the writer kept it). */
interface Written {
  readonly json: string;
  readonly at: string;
  value?: unknown;
}

/**
 * What one refresh or poll of a system has just written to the cache, handed with its status event
 * to the readers that follow it (the health summary, the alert engine and its compliance rule, the
 * answer digests, the search index), so none of them reads its answers back from the cache. Each
 * text is parsed once, by its first reader, and shared by the others (none changes what it reads);
 * the whole is let go with the event. Answers this write did not hold (those it left alone, or
 * renewed unchanged) are read from the cache as ever. The system's capacity assessment is made
 * once for the readers too ({@link capacity}).
 */
export class WrittenAnswers implements CapacityMemo {
  readonly #rows = new Map<string, Written>();
  readonly #digests: ReadonlyMap<string, string>;
  #capacity: SystemCapacity | undefined;

  /**
   * @param rows the rows written, as `OfflineCache.rowOf` made them (a renewed row, without text, is left out)
   * @param digests the stable digests of the volatile answers read (`AnswerDigests`), by cache key: those of rows not written are not given
   */
  constructor(rows: readonly CacheRow[], digests: ReadonlyMap<string, string> = new Map()) {
    for (const r of rows) if (r.json !== undefined) this.#rows.set(r.key, 'value' in r ? { json: r.json, at: r.at, value: r.value } : { json: r.json, at: r.at });
    this.#digests = digests;
  }

  /** The value and read time of the answer written under a cache key; undefined when this write did not hold it. */
  get(key: string): { value: unknown; at: string } | undefined {
    const row = this.#rows.get(key);
    if (!row) return undefined;
    if (!('value' in row)) row.value = JSON.parse(row.json) as unknown;
    return { value: row.value, at: row.at };
  }

  /** The stored text and read time of the answer written under a cache key. */
  text(key: string): { json: string; at: string } | undefined {
    const row = this.#rows.get(key);
    return row && { json: row.json, at: row.at };
  }

  /**
   * The system's capacity assessment, made by the first reader that asks (with its own time for the
   * forecast) and given as it is to the others: while the event's listeners run nothing writes the
   * cache, so every reader assesses the same answers.
   */
  capacity(assess: () => SystemCapacity): SystemCapacity {
    this.#capacity ??= assess();
    return this.#capacity;
  }

  /** The stable digest of a volatile answer written under a cache key (see `AnswerDigests`). */
  digest(key: string): string | undefined {
    return this.#rows.has(key) ? this.#digests.get(key) : undefined;
  }
}
