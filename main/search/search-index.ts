import type { SystemStatus } from '../../app/domain/site.js';
import { refreshRead } from '../../app/fleet/refresh-plan.js';
import { dataEntriesOf, foldEntry, matchEntries, siteEntriesOf, type FoldedEntry, type SearchAnswer } from '../../app/search/entries.js';
import { cacheKey } from '../store/offline-cache.js';
import type { StatusOrder } from '../core/fleet-state.js';
import type { WrittenAnswers } from '../core/written-answers.js';

/** The cached reads whose answers the search index is built from (hosts, volumes, drives, nodes). */
export const SEARCH_READS = {
  hosts: refreshRead('GET /hosts/list'),
  applications: refreshRead('GET /applications/list'),
  resources: refreshRead('GET /resources/list'),
  nodes: refreshRead('GET /nodes/list'),
} as const;
const SEARCH_OPS: ReadonlySet<string> = new Set(Object.values(SEARCH_READS).map((r) => r.op));
const SEARCH_LIST = Object.values(SEARCH_READS);
const SEARCH_KEYS: readonly string[] = SEARCH_LIST.map((r) => cacheKey(r.op, r.query));

/** What the index needs of the fleet: the systems, their cached answers and news of refreshes. */
export interface SearchSource {
  status(siteId?: string, order?: StatusOrder): SystemStatus[];
  cached(siteId: string, system: string, opKey: string, query: Record<string, unknown>, options: { recordUse?: boolean }): { value: unknown } | undefined;
  /** The content version of each cached answer of a system, by cache key (reads no answer; an answer read again unchanged keeps its version). */
  cachedVersions(siteId: string, system: string): ReadonlyMap<string, number>;
  /** Status events, with what the refresh or poll they end wrote (`written`). */
  on(listener: (e: { type: string; status?: SystemStatus; written?: WrittenAnswers | undefined }) => void): () => void;
}

/** The site of a system as the index shows it: its name and the host of its address. */
export interface SearchSite {
  id: string;
  name: string;
  baseUrl: string;
}

export interface SearchIndexOptions {
  fleet: SearchSource;
  sites: () => readonly SearchSite[];
  /**
   * Calls `run` once start-up is over (default: 3 s later; the runtime's: once the window painted its first frame, `StartGate`), when the index starts reading the cache
   * in the background unless a query started it first; returns a cancel function.
   */
  afterStart?: ((run: () => void) => () => void) | undefined;
  /** Runs the next slice of the background reading later (default `setImmediate`: IPC and timers run between slices). */
  defer?: ((run: () => void) => void) | undefined;
  /** Systems read per background slice at most (default 10). */
  slice?: number | undefined;
  /**
   * A background slice stops once it has run this long (default {@link SLICE_MS}), after at least one
   * system: an IPC call or a page's script waits at most about that long, never for a whole slice
   * of systems.
   */
  sliceMs?: number | undefined;
  /** The clock of the slice's budget (default `performance.now`). */
  now?: (() => number) | undefined;
  /** Systems a query reads itself before answering (default 32): a few refreshed systems show at once. */
  queryReads?: number | undefined;
  warn?: ((message: string) => void) | undefined;
  /**
   * What the search compares of a system's answers to tell a changed system from one only polled:
   * the answers' content versions, but for the node and drive lists, whose sensor readings and
   * clocks move at every poll while the search reads none of them, the digest of what stays
   * (`AnswerDigests`, shared with the alert engine). Without it, the content versions alone.
   */
  digests?: { seen(siteId: string, system: string, read: { op: string; query: Record<string, unknown> }, versions: ReadonlyMap<string, number>, written?: WrittenAnswers): string | number | null } | undefined;
}

/** How long one background slice of reading may run (ms). */
export const SLICE_MS = 8;

/** How long after start the index starts reading the cache on its own: the window's first paint comes first. */
export const START_DELAY_MS = 3000;

interface Indexed {
  siteName: string;
  siteHost: string;
  /** What the search compares of its searched answers (their content versions, or digests: {@link SearchIndexOptions.digests}): what tells a changed system from one only polled. */
  versions: string;
  site: FoldedEntry[];
  data: FoldedEntry[];
}

const keyOf = (siteId: string, system: string): string => `${siteId}\u0000${system}`;

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function dataOf<T>(value: unknown): T[] | undefined {
  const data = (value as { Data?: unknown } | null | undefined)?.Data;
  return Array.isArray(data) ? (data as T[]) : undefined;
}

function defaultAfterStart(run: () => void): () => void {
  const t = setTimeout(run, START_DELAY_MS);
  t.unref?.();
  return () => clearTimeout(t);
}

/**
 * The fleet search index, kept by main: every system's searchable entries (system, site host,
 * storage hosts with WWNs, IQNs and NQNs, volumes and NAAs, drive serials, nodes), folded once, in
 * memory. Rebuilt from the offline cache (2–3 ms of CPU per system: parsing four answers), in
 * slices with IPC served between them, from shortly after start or from the first query, whichever
 * comes first. A system is read again when a refresh or poll of it ends with new answers, or a read
 * of one of its searched answers is cached. A query answers at once from what is indexed and says
 * how many systems are still to be read, so an incomplete answer never looks final.
 */
export class SearchIndex {
  readonly #o: SearchIndexOptions;
  readonly #indexed = new Map<string, Indexed>();
  /** Systems whose cached data may have changed since they were read (or were never read). */
  readonly #dirty = new Map<string, { siteId: string; system: string }>();
  /** The site list last asked for and its map by id (see #siteMap). */
  #sitesSeen: { list: readonly SearchSite[]; map: Map<string, SearchSite> } | undefined;
  #scheduled = false;
  #unsubscribe: (() => void) | undefined;
  #cancelStart: (() => void) | undefined;
  #closed = false;
  /** Set once start-up is over or by the first query: the background reading runs from then on. */
  #active = false;

  constructor(o: SearchIndexOptions) {
    this.#o = o;
  }

  /**
   * Starts following the fleet. Nothing is read during start-up (nor ever by a process that never
   * asks, like the CLI, which does not start the index).
   */
  start(): void {
    this.#unsubscribe = this.#o.fleet.on((e) => {
      // A refresh's end (or a poll's, which sends only its end) may have cached new answers: read
      // from what it hands over at once once the index is reading, else marked to be read later.
      if (e.type !== 'status' || !e.status || e.status.state === 'refreshing') return;
      if (e.written && this.#active && !this.#closed) {
        this.#dirty.delete(keyOf(e.status.siteId, e.status.system));
        this.#index(e.status.siteId, e.status.system, this.#siteMap(), e.written);
      } else this.markChanged(e.status.siteId, e.status.system);
    });
    // In any order (no localeCompare, whose first use loads ICU's collation data, before serving).
    for (const s of this.#o.fleet.status(undefined, 'any')) this.#dirty.set(keyOf(s.siteId, s.system), { siteId: s.siteId, system: s.system });
    this.#cancelStart = (this.#o.afterStart ?? defaultAfterStart)(() => this.#activate());
  }

  close(): void {
    this.#closed = true;
    this.#cancelStart?.();
    this.#unsubscribe?.();
  }

  /** The system's cached data may have changed: it is looked at again (in the background, or by the next query). */
  markChanged(siteId: string, system: string): void {
    this.#dirty.set(keyOf(siteId, system), { siteId, system });
    this.#schedule();
  }

  /** A read was cached for the system: look again when it is one of the answers the search uses (same operation and query). */
  noteCachedRead(siteId: string, system: string, opKey: string, query: Record<string, unknown> = {}): void {
    if (SEARCH_OPS.has(opKey) && SEARCH_KEYS.includes(cacheKey(opKey, query))) this.markChanged(siteId, system);
  }

  /** Systems not read yet, or maybe changed since. */
  get pending(): number {
    return this.#dirty.size;
  }

  /** Reads every changed system now (benchmarks; the app lets the background slices do it). */
  settle(): void {
    this.#read(Number.POSITIVE_INFINITY, this.#siteMap());
  }

  /**
   * The first `limit` entries matching `query` (the rules of `matchEntries`) and how many match, over
   * the systems of `siteId` (every site when undefined), in the fleet's order (site name, system).
   */
  query(query: string, limit: number, siteId?: string): SearchAnswer {
    const sites = this.#siteMap();
    this.#read(this.#o.queryReads ?? 32, sites);
    this.#activate();
    const systems = this.#o.fleet
      .status()
      .filter((s) => !siteId || s.siteId === siteId)
      .map((s) => ({ siteId: s.siteId, system: s.system, siteName: sites.get(s.siteId)?.name ?? s.siteId, baseUrl: sites.get(s.siteId)?.baseUrl }))
      .sort((a, b) => a.siteName.localeCompare(b.siteName) || a.system.localeCompare(b.system));
    let pending = 0;
    const lists: FoldedEntry[][] = [];
    for (const s of systems) {
      const key = keyOf(s.siteId, s.system);
      const found = this.#indexed.get(key);
      if (this.#dirty.has(key)) pending++;
      else if (!found) {
        // A system the index has not heard of yet (listed since): read in the background.
        this.markChanged(s.siteId, s.system);
        pending++;
      }
      if (!found) continue;
      const siteHost = s.baseUrl === undefined ? '' : hostOf(s.baseUrl);
      // A renamed site (or a changed address) changes only its two entries.
      if (found.siteName !== s.siteName || found.siteHost !== siteHost) {
        found.siteName = s.siteName;
        found.siteHost = siteHost;
        found.site = siteEntriesOf({ siteId: s.siteId, system: s.system, siteName: s.siteName, siteHost }).map(foldEntry);
      }
      lists.push(found.site, found.data);
    }
    if (!siteId && this.#indexed.size > systems.length) {
      // Systems gone from the fleet (a removed site) are dropped, not kept in memory.
      const present = new Set(systems.map((s) => keyOf(s.siteId, s.system)));
      for (const key of this.#indexed.keys()) if (!present.has(key)) this.#indexed.delete(key);
    }
    return { ...matchEntries(lists, query, limit), systems: systems.length, pending };
  }

  #siteMap(): Map<string, SearchSite> {
    // Built again only when the list is another one (a store's shared list stays the same array until a site changes).
    const list = this.#o.sites();
    if (this.#sitesSeen?.list !== list) this.#sitesSeen = { list, map: new Map(list.map((s) => [s.id, s])) };
    return this.#sitesSeen.map;
  }

  #activate(): void {
    if (this.#active || this.#closed) return;
    this.#active = true;
    this.#cancelStart?.();
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#closed || !this.#active || this.#dirty.size === 0) return;
    this.#scheduled = true;
    (this.#o.defer ?? setImmediate)(() => {
      this.#scheduled = false;
      if (this.#closed) return;
      const now = this.#o.now ?? (() => performance.now());
      const until = now() + (this.#o.sliceMs ?? SLICE_MS);
      this.#read(this.#o.slice ?? 10, this.#siteMap(), () => now() >= until);
      this.#schedule();
    });
  }

  /** Reads up to `count` changed systems into the index, or fewer once `spent` says the slice's time is up (after one at least). */
  #read(count: number, sites: ReadonlyMap<string, SearchSite>, spent: () => boolean = () => false): void {
    let n = 0;
    for (const [key, s] of this.#dirty) {
      if (n >= count || (n > 0 && spent())) break;
      n++;
      this.#dirty.delete(key);
      this.#index(s.siteId, s.system, sites);
    }
  }

  /** Reads one system's searched answers into the index (from `written` where it holds them), unless what the search compares of them is unchanged. */
  #index(siteId: string, system: string, sites: ReadonlyMap<string, SearchSite>, written?: WrittenAnswers): void {
    const key = keyOf(siteId, system);
    const site = sites.get(siteId);
    const siteHost = site ? hostOf(site.baseUrl) : '';
    const base = { siteId, siteName: site?.name ?? siteId, siteHost, system };
    let versions: string;
    try {
      const held = this.#o.fleet.cachedVersions(siteId, system);
      const digests = this.#o.digests;
      versions = digests ? SEARCH_LIST.map((r) => digests.seen(siteId, system, r, held, written) ?? '').join('|') : SEARCH_KEYS.map((k) => held.get(k) ?? '').join('|');
    } catch {
      versions = '';
    }
    const known = this.#indexed.get(key);
    // A poll that cached nothing new for the search (same content versions) costs no re-read.
    if (known && versions !== '' && known.versions === versions) return;
    const read = (r: { op: string; query: Record<string, unknown> }): unknown => {
      try {
        return (written?.get(cacheKey(r.op, r.query)) ?? this.#o.fleet.cached(siteId, system, r.op, r.query, { recordUse: false }))?.value;
      } catch (err) {
        // A damaged cached answer leaves its part out; refreshing the system replaces it.
        this.#o.warn?.(`search index: the cached ${r.op} of ${system} could not be read (${err instanceof Error ? err.message : String(err)})`);
        return undefined;
      }
    };
    this.#indexed.set(key, {
      siteName: base.siteName,
      siteHost,
      versions,
      site: siteEntriesOf(base).map(foldEntry),
      data: dataEntriesOf({
        ...base,
        hosts: dataOf(read(SEARCH_READS.hosts)),
        applications: dataOf(read(SEARCH_READS.applications)),
        resources: dataOf(read(SEARCH_READS.resources)),
        nodes: dataOf(read(SEARCH_READS.nodes)),
      }).map(foldEntry),
    });
  }
}
