import { untrack } from 'svelte';
import type { DataList, OperationKey, QueryOf, ResultOf } from '../../app/catalog/index.js';
import { errorText } from './format.js';
import type { CacheRead } from './reads.js';
import type { Loaded, SystemContext } from './system.svelte.js';

/** Loading state of one value. Late answers of superseded loads are dropped. */
export class Loader<T> {
  data = $state.raw<Loaded<T> | undefined>(undefined);
  loading = $state(false);
  error = $state<string | undefined>(undefined);
  /** The last load completed and found nothing (no cached answer). */
  missing = $state(false);
  #token = 0;

  async run(fn: () => Promise<Loaded<T> | null>): Promise<void> {
    const token = ++this.#token;
    this.loading = true;
    this.error = undefined;
    try {
      const result = await fn();
      if (token !== this.#token) return;
      this.data = result ?? undefined;
      this.missing = result === null;
    } catch (err) {
      if (token === this.#token) this.error = errorText(err);
    } finally {
      if (token === this.#token) this.loading = false;
    }
  }
}

/**
 * A cached read of a system, loaded on mount and again whenever the system, the read or the
 * system's data version changes. Call during component initialisation.
 */
export function cachedRead<K extends OperationKey>(sys: () => SystemContext, read: () => CacheRead<K> | undefined): Loader<ResultOf<K>> {
  const loader = new Loader<ResultOf<K>>();
  $effect(() => {
    const s = sys();
    const r = read();
    void s.version;
    if (!r) return;
    untrack(() => void loader.run(() => s.readCache(r)));
  });
  return loader;
}

/** The `Data` array of a list answer (typed by the operation that answered it); empty when there is none yet. */
export function dataOf<T>(value: DataList<T> | null | undefined): T[] {
  const data = value?.Data;
  return Array.isArray(data) ? data : [];
}

/**
 * A read from the system now (falling back to the same read in the cache), then to `fallback` in
 * the cache when that finds nothing: for ranges a refresh never cached exactly. Reloads when the
 * system, the request or the system's data version changes.
 */
export function fetchedRead<K extends OperationKey>(
  sys: () => SystemContext,
  request: () => { op: K; query: QueryOf<K> } | undefined,
  fallback?: () => CacheRead<K> | undefined,
): Loader<ResultOf<K>> {
  const loader = new Loader<ResultOf<K>>();
  $effect(() => {
    const s = sys();
    const r = request();
    const fb = fallback?.();
    void s.version;
    if (!r) return;
    untrack(
      () =>
        void loader.run(async () => {
          let failure: unknown;
          try {
            const hit = await s.fetch(r.op, r.query);
            if (hit) return hit;
          } catch (err) {
            failure = err;
          }
          const cached = fb ? await s.readCache(fb) : null;
          if (cached || !failure) return cached;
          throw failure;
        }),
    );
  });
  return loader;
}
