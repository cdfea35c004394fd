import { SvelteMap } from 'svelte/reactivity';
import { planRows, planTotal, type PlanRow } from '../../app/capacity/plan.js';
import type { PoolCapacity } from '../../app/capacity/pools.js';
import { factsFromWire, type HealthFacts } from '../../app/health/summary-facts.js';
import type { NotificationRecord } from '../../app/catalog/index.js';
import { api } from './api.js';
import { errorText } from './format.js';
import type { FleetStore } from './fleet.svelte.js';
import { levelRank, rollupHealth, systemLevel, type LaggingPair, type Level, type NodeDrive, type Rollup } from './health.js';

/** A system's health facts as main summarised them (`app/health/system-summary.ts`), with main's sequence number. */
export interface SystemFacts extends HealthFacts {
  seq: number;
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

const key = (s: Tagged): string => `${s.siteId}\u0000${s.system}`;

/**
 * Every system's health as main keeps it (`health:summaries`): the roll-up (with capacity and HA),
 * unhealthy drives, lagging replication, recent errors and data age, all systems in one read, then
 * only those whose summary main computed again. One instance serves the overview, the fleet tree,
 * the system header and capacity planning, so they cannot disagree.
 */
export class FleetHealth {
  readonly #facts = new SvelteMap<string, SystemFacts>();
  loading = $state(false);
  /** Why the last read failed; the facts read before stay shown. */
  error = $state<string | undefined>(undefined);
  readonly #fleet: FleetStore;
  /** The `seq` of main's last answer: the next read asks only for what changed after it. */
  #seq: number | undefined;
  #running: Promise<void> | undefined;
  /** A load was asked for while one was running: read once more after it. */
  #again = false;

  constructor(fleet: FleetStore) {
    this.#fleet = fleet;
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

  /**
   * Reads the summaries main computed since the last read (every system's, the first time). Called
   * when a system's data version moves; calls while a read runs are folded into one more read.
   */
  load(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.loading = true;
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          await this.#read();
        } while (this.#again);
        this.error = undefined;
      } catch (err) {
        this.error = errorText(err);
      } finally {
        this.#running = undefined;
        this.loading = false;
      }
    })();
    return this.#running;
  }

  /** Resolves when the read running now (if any) has ended, without asking for another. */
  settled(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  async #read(): Promise<void> {
    const answer = await api().invoke('health:summaries', this.#seq === undefined ? {} : { since: this.#seq });
    // One publication for the whole answer: every derived list below walks all systems' facts.
    for (const w of answer.systems) this.#facts.set(key(w), { ...factsFromWire(w), seq: w.seq });
    this.#seq = answer.seq;
  }
}

function split(k: string): Tagged {
  const i = k.indexOf('\u0000');
  return { siteId: k.slice(0, i), system: k.slice(i + 1) };
}
