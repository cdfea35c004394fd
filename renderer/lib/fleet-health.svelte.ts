import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import { planRows, planTotal, type PlanRow } from '../../app/capacity/plan.js';
import type { PoolCapacity } from '../../app/capacity/pools.js';
import { systemRollup } from '../../app/health/system-health.js';
import type { NotificationRecord } from '../../app/catalog/index.js';
import type { FleetStore, FleetSystem } from './fleet.svelte.js';
import { highLevel, laggingReplication, levelRank, rollupHealth, systemLevel, unhealthyDrives, type LaggingPair, type Level, type NodeDrive, type Rollup } from './health.js';
import { mapLimitBatched } from './limit.js';
import { dataOf } from './loader.svelte.js';
import { READS } from './reads.js';
import { SystemContext } from './system.svelte.js';

/** What was read for one system from the cache, and its roll-up. */
export interface SystemFacts {
  version: number;
  rollup: Rollup;
  /** When the health record was read from the system. */
  at: string | undefined;
  drives: NodeDrive[];
  lagging: LaggingPair[];
  errors: NotificationRecord[];
}

export interface OverviewRow {
  key: string;
  siteId: string;
  siteName: string;
  system: string;
  state: string;
  rollup: Rollup;
  /** Health and connection together: what the list is sorted by. */
  level: Level;
  at: string | undefined;
  drives: number;
  lagging: number;
}

interface Tagged {
  siteId: string;
  system: string;
}

const CONCURRENCY = 6;
/** Systems read before the overview, tree and header are updated with them (see `mapLimitBatched`). */
export const PUBLISH_BATCH = 25;
const key = (s: Tagged): string => `${s.siteId}\u0000${s.system}`;

/**
 * Every system's health from the offline cache, reloaded per system when its data version moves:
 * the roll-up (with capacity and HA), unhealthy drives, lagging replication and recent errors. One
 * instance serves the overview, the fleet tree and the system header, so they cannot disagree.
 */
export class FleetHealth {
  readonly #facts = new SvelteMap<string, SystemFacts>();
  loading = $state(false);
  readonly #fleet: FleetStore;
  /** Systems being read now, so a second trigger does not read them twice. */
  readonly #inflight = new SvelteSet<string>();
  readonly #now: () => number;

  constructor(fleet: FleetStore, now: () => number = Date.now) {
    this.#fleet = fleet;
    this.#now = now;
  }

  /** A system's facts, once read. */
  of(siteId: string, system: string): SystemFacts | undefined {
    return this.#facts.get(key({ siteId, system }));
  }

  /** Rows worst first: critical, unknown, warning, ok; then by the lowest health figure. */
  readonly rows: OverviewRow[] = $derived.by(() => {
    const facts = this.#facts;
    const rows = this.#fleet.systems.map((s): OverviewRow => {
      const f = facts.get(key(s));
      const rollup = f?.rollup ?? rollupHealth(undefined);
      return {
        key: key(s),
        siteId: s.siteId,
        siteName: s.site?.name ?? s.siteId,
        system: s.system,
        state: s.status.state,
        rollup,
        level: systemLevel(rollup, s.status.state),
        at: f?.at,
        drives: f?.drives.length ?? 0,
        lagging: f?.lagging.length ?? 0,
      };
    });
    const lowest = (r: OverviewRow): number =>
      Math.min(...r.rollup.dimensions.map((d) => (d.name === 'volumes' || d.name === 'hardware' ? (d.percent ?? 100) : d.name === 'ha' ? 100 : 100 - (d.percent ?? 0))), 100);
    return rows.sort((a, b) => levelRank(a.level) - levelRank(b.level) || lowest(a) - lowest(b) || a.system.localeCompare(b.system));
  });

  readonly drives: Array<NodeDrive & Tagged> = $derived([...this.#facts].flatMap(([k, f]) => f.drives.map((d) => ({ ...d, ...split(k) }))));
  readonly lagging: Array<LaggingPair & Tagged> = $derived([...this.#facts].flatMap(([k, f]) => f.lagging.map((p) => ({ ...p, ...split(k) }))));
  /** Pools full or nearly full (or filling fast), worst first: the overview's attention list. */
  readonly pools: Array<PoolCapacity & Tagged> = $derived(
    [...this.#facts]
      .flatMap(([k, f]) => f.rollup.capacity.pools.filter((p) => p.level !== 'ok' && p.level !== 'unknown').map((p) => ({ ...p, ...split(k) })))
      .sort((a, b) => levelRank(a.level) - levelRank(b.level) || (a.freePercent ?? 100) - (b.freePercent ?? 100)),
  );
  readonly errors: Array<NotificationRecord & Tagged> = $derived(
    [...this.#facts]
      .flatMap(([k, f]) => f.errors.map((n) => ({ ...n, ...split(k) })))
      .sort((a, b) => (b.Timestamp ?? '').localeCompare(a.Timestamp ?? ''))
      .slice(0, 100),
  );

  /** Every pool of every system, fullest first: the capacity planning view (app/capacity/plan.ts). */
  readonly plan: PlanRow[] = $derived(planRows(this.rows.map((r) => ({ siteId: r.siteId, siteName: r.siteName, system: r.system, capacity: r.rollup.capacity }))));

  readonly totals = $derived.by(() => {
    const byLevel: Record<Level, number> = { critical: 0, unknown: 0, warning: 0, ok: 0 };
    for (const r of this.rows) byLevel[r.level]++;
    const t = planTotal(this.plan);
    return { usable: t.usable, allocated: t.allocated, byLevel };
  });

  /** Loads the systems whose data version moved since they were last read. */
  async load(systems: readonly FleetSystem[]): Promise<void> {
    const due = systems.filter((s) => !this.#inflight.has(key(s)) && this.#facts.get(key(s))?.version !== this.#fleet.version(s.siteId, s.system));
    if (due.length === 0) return;
    for (const s of due) this.#inflight.add(key(s));
    this.loading = true;
    try {
      // Published in batches: every derived list below walks all systems' facts.
      await mapLimitBatched(due, CONCURRENCY, PUBLISH_BATCH, (s) => this.#read(s), (done) => {
        for (const [s, facts] of done) {
          this.#facts.set(key(s), facts);
          this.#inflight.delete(key(s));
        }
      });
    } finally {
      for (const s of due) this.#inflight.delete(key(s));
      this.loading = this.#inflight.size > 0;
    }
  }

  async #read(s: FleetSystem): Promise<SystemFacts> {
    const sys = new SystemContext(this.#fleet, s.siteId, s.system);
    const version = this.#fleet.version(s.siteId, s.system);
    const safe = <T>(p: Promise<T>): Promise<T | null> => p.catch(() => null);
    const [health, resources, replication, notes, nodes, pools, provisioning, history] = await Promise.all([
      safe(sys.readCache(READS.health)),
      safe(sys.readCache(READS.resources)),
      safe(sys.readCache(READS.replication)),
      safe(sys.readCache(READS.notifications)),
      safe(sys.readCache(READS.nodes)),
      safe(sys.readCache(READS.poolsCurrent)),
      safe(sys.readCache(READS.provisioning)),
      safe(sys.readCache(READS.capacityHistory)),
    ]);
    return {
      version,
      rollup: systemRollup({ health: health?.value, pools: pools?.value, provisioning: provisioning?.value, history: history?.value, nodes: nodes?.value }, this.#now()),
      at: health?.at,
      drives: unhealthyDrives(dataOf(resources?.value)),
      lagging: laggingReplication(dataOf(replication?.value)),
      errors: highLevel(dataOf(notes?.value), 20),
    };
  }
}

function split(k: string): Tagged {
  const i = k.indexOf('\u0000');
  return { siteId: k.slice(0, i), system: k.slice(i + 1) };
}
