import type { SearchAnswer, SearchEntry } from '../../app/search/entries.js';
import { api } from '../lib/api.js';
import type { FleetStore } from '../lib/fleet.svelte.js';

/** While main's index is still reading systems, the same query is asked again after this long. */
export const PENDING_RETRY_MS = 250;

/**
 * Fleet-wide search over the offline cache (systems, site hosts, storage hosts with their WWNs,
 * IQNs and NQNs, volumes and NAAs, drive serials, nodes), answered by main's index through
 * `search:query`: typing sends one small request, never the fleet's cached answers.
 */
export class SearchIndex {
  readonly #fleet: FleetStore;

  constructor(fleet: FleetStore) {
    this.#fleet = fleet;
  }

  /** The first `limit` matches of `query`, how many match, and how many systems main has still to read. */
  search(query: string, limit = 500): Promise<SearchAnswer> {
    return api().invoke('search:query', { query, limit });
  }

  /** Main reads its index from the cache from the first query on: asked when a search box opens, it has a head start. */
  warm(): void {
    this.search('', 1).catch(() => undefined);
  }

  /**
   * A search that follows `query()` (nothing is asked while it is blank): created in a component,
   * it asks again when the query changes, when a system's data changes, and while main's index is
   * still reading systems. Answers to an earlier query are dropped.
   */
  live(query: () => string, limit: number): LiveSearch {
    return new LiveSearch(this, this.#fleet, query, limit);
  }
}

export class LiveSearch {
  /** The answer to the current query; undefined until it arrives (or while the query is blank). */
  answer = $state.raw<SearchAnswer | undefined>(undefined);
  /** Why the last search failed, in words. */
  error = $state<string | undefined>(undefined);
  /** A search of the current query is on its way. */
  busy = $state(false);
  /** Moves to ask the same query again (main's index was still reading). */
  #again = $state(0);

  constructor(index: SearchIndex, fleet: FleetStore, query: () => string, limit: number) {
    // Moves when a refresh has ended somewhere (new hosts, volumes or drives may be cached); not on
    // every status change, so a running refresh does not make the search ask again and again.
    const dataVersion = $derived.by(() => {
      let v = 0;
      for (const s of fleet.systems) v += fleet.version(s.siteId, s.system);
      return v;
    });
    $effect(() => {
      const q = query().trim();
      if (!q) {
        this.answer = undefined;
        this.busy = false;
        return;
      }
      void this.#again;
      void dataVersion;
      let current = true;
      this.busy = true;
      let retry: ReturnType<typeof setTimeout> | undefined;
      index.search(q, limit).then(
        (a) => {
          if (!current) return;
          this.answer = a;
          this.error = undefined;
          this.busy = false;
          if (a.pending > 0) retry = setTimeout(() => this.#again++, PENDING_RETRY_MS);
        },
        (err: unknown) => {
          if (!current) return;
          this.error = err instanceof Error ? err.message : String(err);
          this.busy = false;
        },
      );
      // A newer query (or the component's end) makes this answer, and its retry, moot.
      return () => {
        current = false;
        clearTimeout(retry);
      };
    });
  }

  /** The results of the current query (empty while blank or not answered yet). */
  get results(): SearchEntry[] {
    return this.answer?.results ?? [];
  }

  /** Main's index has systems still to read: the results may grow. */
  get reading(): boolean {
    return this.answer ? this.answer.pending > 0 : this.busy;
  }
}
