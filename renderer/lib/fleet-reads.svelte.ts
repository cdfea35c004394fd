import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { OperationKey, ResultOf } from '../../app/catalog/index.js';
import type { FleetStore, FleetSystem } from './fleet.svelte.js';
import { forEachLimit } from './limit.js';
import type { CacheRead } from './reads.js';
import { SystemContext, type Loaded } from './system.svelte.js';

const CONCURRENCY = 6;
const key = (siteId: string, system: string): string => `${siteId}\u0000${system}`;

type Answers<R extends Record<string, CacheRead>> = { [K in keyof R]: R[K] extends CacheRead<infer O extends OperationKey> ? Loaded<ResultOf<O>> | null : never };

/** One system's cached answers of the chosen reads; null where nothing is cached. */
export interface SystemReads<R extends Record<string, CacheRead>> {
  siteId: string;
  siteName: string;
  system: string;
  version: number;
  answers: Answers<R>;
  /** The oldest of the answers' read times: the age of whatever combines them. */
  at: string | undefined;
  /** Reads that failed (an answer main could not read), by name. */
  failed: string[];
}

/**
 * A few cached reads of many systems, for the fleet views (version drift, configuration compared):
 * read from the offline cache only, under a cap, and again for a system when its data version moves.
 */
export class FleetReads<R extends Record<string, CacheRead>> {
  readonly #data = new SvelteMap<string, SystemReads<R>>();
  /** Systems being read now, so a second trigger does not read them twice. */
  readonly #inflight = new SvelteSet<string>();
  readonly #fleet: FleetStore;
  readonly #reads: R;
  loading = $state(false);

  constructor(fleet: FleetStore, reads: R) {
    this.#fleet = fleet;
    this.#reads = reads;
  }

  of(siteId: string, system: string): SystemReads<R> | undefined {
    return this.#data.get(key(siteId, system));
  }

  /** Reads the systems not read yet or whose data moved since. */
  async load(systems: readonly FleetSystem[]): Promise<void> {
    const due = systems.filter((s) => !this.#inflight.has(key(s.siteId, s.system)) && this.#data.get(key(s.siteId, s.system))?.version !== this.#fleet.version(s.siteId, s.system));
    if (!due.length) return;
    for (const s of due) this.#inflight.add(key(s.siteId, s.system));
    this.loading = true;
    try {
      await forEachLimit(due, CONCURRENCY, async (s) => {
        try {
          this.#data.set(key(s.siteId, s.system), await this.#read(s));
        } finally {
          this.#inflight.delete(key(s.siteId, s.system));
        }
      });
    } finally {
      this.loading = this.#inflight.size > 0;
    }
  }

  async #read(s: FleetSystem): Promise<SystemReads<R>> {
    const version = this.#fleet.version(s.siteId, s.system);
    const sys = new SystemContext(this.#fleet, s.siteId, s.system);
    const failed: string[] = [];
    const entries = await Promise.all(
      Object.entries(this.#reads).map(async ([name, read]) => {
        try {
          return [name, await sys.readCache(read)] as const;
        } catch {
          failed.push(name);
          return [name, null] as const;
        }
      }),
    );
    const ats = entries.flatMap(([, v]) => (v ? [v.at] : [])).sort();
    return { siteId: s.siteId, siteName: s.site?.name ?? s.siteId, system: s.system, version, answers: Object.fromEntries(entries) as Answers<R>, at: ats[0], failed };
  }
}
