import { SvelteMap } from 'svelte/reactivity';
import type { OperationKey } from '../../app/catalog/index.js';
import type { FleetStore } from '../lib/fleet.svelte.js';
import { PUBLISH_BATCH } from '../lib/fleet-health.svelte.js';
import { mapLimitBatched } from '../lib/limit.js';
import { dataOf } from '../lib/loader.svelte.js';
import { READS, type CacheRead } from '../lib/reads.js';
import { entriesOf, searchEntries, type SearchEntry } from '../lib/search.js';
import { SystemContext } from '../lib/system.svelte.js';

const CONCURRENCY = 6;

function hostOf(baseUrl: string | undefined): string {
  try {
    return baseUrl ? new URL(baseUrl).host : '';
  } catch {
    return baseUrl ?? '';
  }
}

/**
 * Fleet-wide search over the offline cache: systems, site hosts, storage hosts with their WWNs,
 * IQNs and NQNs, volumes and NAAs, drive serials, nodes. Each system's entries are built once per
 * data version and kept, so typing searches memory, not IPC.
 */
export class SearchIndex {
  readonly #fleet: FleetStore;
  readonly #bySystem = new SvelteMap<string, { version: number; entries: SearchEntry[] }>();
  indexing = $state(false);

  constructor(fleet: FleetStore) {
    this.#fleet = fleet;
  }

  /** Brings every system's entries up to its current data version. */
  async refresh(): Promise<void> {
    const due = this.#fleet.systems.filter((s) => this.#bySystem.get(`${s.siteId}\u0000${s.system}`)?.version !== this.#fleet.version(s.siteId, s.system));
    if (due.length === 0) return;
    this.indexing = true;
    try {
      // Published in batches: an open search view re-runs the query over every entry on each change.
      await mapLimitBatched(due, CONCURRENCY, PUBLISH_BATCH, async (s) => {
        const sys = new SystemContext(this.#fleet, s.siteId, s.system);
        const version = this.#fleet.version(s.siteId, s.system);
        const read = <K extends OperationKey>(r: CacheRead<K>) => sys.readCache(r).then((x) => x?.value, () => undefined);
        const [hosts, apps, resources, nodes] = await Promise.all([read(READS.hosts), read(READS.applications), read(READS.resources), read(READS.nodes)]);
        const entries = entriesOf({
          siteId: s.siteId,
          siteName: s.site?.name ?? s.siteId,
          siteHost: hostOf(s.site?.baseUrl),
          system: s.system,
          hosts: dataOf(hosts),
          applications: dataOf(apps),
          resources: dataOf(resources),
          nodes: dataOf(nodes),
        });
        return { version, entries };
      }, (done) => {
        for (const [s, indexed] of done) this.#bySystem.set(`${s.siteId}\u0000${s.system}`, indexed);
      });
    } finally {
      this.indexing = false;
    }
  }

  search(query: string, limit = 500): SearchEntry[] {
    return searchEntries(
      [...this.#bySystem.values()].flatMap((x) => x.entries),
      query,
      limit,
    );
  }
}
