import type { PlanRow, planRows as PlanRows } from '../../app/capacity/plan.js';
import type { PoolCapacity } from '../../app/capacity/pools.js';
import { systemLevel } from '../../app/health/connection.js';
import { levelRank, type Level } from '../../app/health/level.js';
import type { LaggingPair, NodeDrive } from '../../app/health/rollup.js';
import { briefFromWire, briefOf, summaryFromWire, needsLook, UNREAD_ROLLUP, type HealthBrief, type HealthSummary, type RollupBrief } from '../../app/health/summary-facts.js';
import type { IncompleteList } from '../../app/answers/incomplete.js';
import type { NotificationRecord } from '../../app/catalog/index.js';
import { api, firstRead } from './api.js';
import { compareText, errorText } from './format.js';
import type { FleetStore, FleetSystem } from './fleet.svelte.js';
import { afterNextPaint } from './lazy.js';
import { changedMap, emptyMap } from './published-map.js';

/** A system's health brief or summary as main computed it, with main's sequence number (which change computed it). */
export type Sequenced<T extends HealthBrief | HealthSummary> = T & { seq: number };

export interface OverviewRow {
  key: string;
  siteId: string;
  siteName: string;
  system: string;
  state: string;
  rollup: RollupBrief;
  /** Health and connection together: what the list is sorted by. */
  level: Level;
  /** When the health record was read: the system's data age. */
  at: string | undefined;
  /** When the oldest of the detail lists behind the HA, capacity and drive columns was read. */
  oldestDetailAt: string | undefined;
  drives: number;
  lagging: number;
}

interface Tagged {
  siteId: string;
  system: string;
}

/** A system's details with its attention lists tagged once, when read, instead of at every publication. */
interface Details {
  system: string;
  summary: Sequenced<HealthSummary>;
  drives: Array<NodeDrive & Tagged>;
  lagging: Array<LaggingPair & Tagged>;
  pools: Array<PoolCapacity & Tagged>;
  errors: Array<NotificationRecord & Tagged>;
}

const key = (s: Tagged): string => `${s.siteId}\u0000${s.system}`;

/** How many of the fleet's newest errors the overview lists. */
const RECENT_ERRORS = 100;

const timeOf = (n: NotificationRecord): string => n.Timestamp ?? '';
/** Newest first. ISO times of one form order as their code units: what localeCompare gave, without a collator per comparison. */
const newestFirst = (a: NotificationRecord, b: NotificationRecord): number => (timeOf(a) < timeOf(b) ? 1 : timeOf(a) > timeOf(b) ? -1 : 0);

/**
 * The `n` newest of lists each sorted newest first, merged by taking the newest head `n` times:
 * n × lists comparisons (100 × 1,000 at 1,000 systems) instead of sorting every system's 20 errors.
 */
function newest<T extends NotificationRecord>(lists: ReadonlyArray<readonly T[]>, n: number): T[] {
  const heads = lists.map(() => 0);
  const times = lists.map((l) => (l[0] ? timeOf(l[0]) : undefined));
  const out: T[] = [];
  while (out.length < n) {
    let best = -1;
    let bestTime = '';
    for (let i = 0; i < times.length; i++) {
      const t = times[i];
      if (t !== undefined && (best < 0 || t > bestTime)) {
        best = i;
        bestTime = t;
      }
    }
    if (best < 0) break;
    const list = lists[best]!;
    const at = heads[best]!;
    out.push(list[at]!);
    heads[best] = at + 1;
    times[best] = list[at + 1] ? timeOf(list[at + 1]!) : undefined;
  }
  return out;
}

/** What a system without a summary shows: the roll-up of nothing cached. */
const NOTHING = UNREAD_ROLLUP;

/** The lowest health figure of a roll-up (what ranks rows of one level): volumes and hardware as they are, utilization and capacity as headroom. */
const lowest = (r: RollupBrief): number => {
  let low = 100;
  const dimensions = r.dimensions;
  for (let i = 0; i < dimensions.length; i++) {
    const d = dimensions[i]!;
    const name = d.name;
    const v = name === 'volumes' || name === 'hardware' ? (d.percent ?? 100) : name === 'ha' ? 100 : 100 - (d.percent ?? 0);
    if (v < low) low = v;
  }
  return low;
};

/** Systems by level, the capacity figures of the totals line (as `planTotal` counts them) and the attention counts, from the roll-ups. */
export interface OverviewTotals {
  usable: number;
  allocated: number;
  byLevel: Record<Level, number>;
  pools: number;
  drives: number;
  lagging: number;
}

/**
 * The overview's rows, worst first (critical, unknown, warning, ok; then by the lowest health figure;
 * then by name), and their totals, in one walk of the fleet: the first frame's data render at 1,000
 * systems. The sort keys are computed once per system into typed arrays (the level by `systemLevel`,
 * as the tree, the system page and the reports compute it), and the totals are counted in the same
 * walk rather than in another over the rows.
 */
export function overviewOf(systems: readonly FleetSystem[], briefs: ReadonlyMap<string, Sequenced<HealthBrief>>): { rows: OverviewRow[]; totals: OverviewTotals } {
  const n = systems.length;
  // Arrays grown by push stay packed (an array made with a length has holes, slower to read).
  const rows: OverviewRow[] = [];
  const rank = new Uint8Array(n);
  const low = new Float64Array(n);
  const order: number[] = [];
  const byLevel: Record<Level, number> = { critical: 0, unknown: 0, warning: 0, ok: 0 };
  let usable = 0;
  let allocated = 0;
  let pools = 0;
  let drives = 0;
  let lagging = 0;
  for (let i = 0; i < n; i++) {
    const s = systems[i]!;
    // The fleet's own key string: the lookup builds no new one (1,000 at the first frame).
    const k = s.key;
    const b = briefs.get(k);
    const rollup = b === undefined ? NOTHING : b.rollup;
    const state = s.status.state;
    const level = systemLevel(rollup, state);
    rank[i] = levelRank(level);
    low[i] = lowest(rollup);
    order.push(i);
    const row: OverviewRow = { key: k, siteId: s.siteId, siteName: s.site?.name ?? s.siteId, system: s.system, state, rollup, level, at: b?.at, oldestDetailAt: b?.oldestDetailAt, drives: b?.drives ?? 0, lagging: b?.lagging ?? 0 };
    rows.push(row);
    byLevel[level]++;
    const c = rollup.capacity;
    usable += c.usable;
    allocated += c.allocated;
    pools += c.attention;
    drives += row.drives;
    lagging += row.lagging;
  }
  order.sort((a, b) => rank[a]! - rank[b]! || low[a]! - low[b]! || compareText(rows[a]!.system, rows[b]!.system));
  const sorted: OverviewRow[] = [];
  for (let i = 0; i < n; i++) sorted.push(rows[order[i]!]!);
  return { rows: sorted, totals: { usable, allocated, byLevel, pools, drives, lagging } };
}

/**
 * Every system's health as main keeps it, in two reads: first every system's health brief
 * (`health:briefs`: level, dimensions, HA, capacity totals, counts, data age; what the tree, the
 * overview's rows and totals and the system header show), then, after the first frame is painted,
 * the details (`health:summaries`: pools with forecasts, unhealthy drives, lagging pairs, recent
 * errors: the overview's attention lists and capacity planning). From then on only the summaries
 * main computed again, whole. One instance serves the overview, the fleet tree, the system header and
 * capacity planning, so they cannot disagree.
 */
export class FleetHealth {
  /**
   * Every system's health brief and details: plain maps replaced whole at each answer, so an
   * answer of 1,000 systems is one change the views see (the rows, totals and lists walk every
   * system anyway), not 1,000.
   */
  #briefs = $state.raw(emptyMap<string, Sequenced<HealthBrief>>());
  #details = $state.raw(emptyMap<string, Details>());
  /**
   * The first read of every system's roll-up is running: nothing is shown yet. Later reads (the few
   * summaries main computed again) do not set it: what they replace stays shown, with its data age.
   */
  loading = $state(false);
  /** Why the last read failed; the summaries read before stay shown. */
  error = $state<string | undefined>(undefined);
  /** The details (pools, drives, pairs, errors) have been read: until then the views showing them say "reading…". */
  detailsRead = $state(false);
  /** Why the details could not be read (they are read again at the next load). */
  detailsError = $state<string | undefined>(undefined);
  readonly #fleet: FleetStore;
  /** The `seq` of main's last roll-up answer: the next roll-up read asks only for what changed after it. */
  #seq: number | undefined;
  /** The `seq` of main's last whole answer; undefined until the details are read. */
  #detailSeq: number | undefined;
  /** The first frame has been painted: the details may be read. */
  #detailsDue = false;
  /** The details read after the first frame, once the roll-ups are read. */
  #detailsLoad: Promise<void> | undefined;
  #running: Promise<void> | undefined;
  /** A load was asked for while one was running: read once more after it. */
  #again = false;

  constructor(fleet: FleetStore) {
    this.#fleet = fleet;
  }

  /** A system's health brief, once read. */
  of(siteId: string, system: string): Sequenced<HealthBrief> | undefined {
    return this.#briefs.get(key({ siteId, system }));
  }

  /** A system's whole summary (pools, forecasts, drives, pairs, errors), once the details are read. */
  details(siteId: string, system: string): Sequenced<HealthSummary> | undefined {
    return this.#details.get(key({ siteId, system }))?.summary;
  }

  /** The overview's rows and totals, computed together (`overviewOf`). */
  readonly #overview = $derived.by(() => overviewOf(this.#fleet.systems, this.#briefs));

  /** Rows worst first: critical, unknown, warning, ok; then by the lowest health figure; then by name. */
  readonly rows: OverviewRow[] = $derived(this.#overview.rows);

  readonly drives: Array<NodeDrive & Tagged> = $derived([...this.#details.values()].flatMap((d) => d.drives));
  /** Systems whose drive or replication list main read only in part: the overview's lists of them are at least so long. */
  readonly incomplete = $derived.by(() => {
    const out: Record<'drives' | 'replication', Array<{ what: string; mark: IncompleteList }>> = { drives: [], replication: [] };
    for (const d of this.#details.values()) {
      const i = d.summary.incomplete;
      if (i?.drives) out.drives.push({ what: `${d.system} drives`, mark: i.drives });
      if (i?.replication) out.replication.push({ what: `${d.system} replication`, mark: i.replication });
    }
    return out;
  });
  readonly lagging: Array<LaggingPair & Tagged> = $derived([...this.#details.values()].flatMap((d) => d.lagging));
  /** Pools full or nearly full (or filling fast), worst first: the overview's attention list. */
  readonly pools: Array<PoolCapacity & Tagged> = $derived(
    [...this.#details.values()].flatMap((d) => d.pools).sort((a, b) => levelRank(a.level) - levelRank(b.level) || (a.freePercent ?? 100) - (b.freePercent ?? 100)),
  );
  /** The {@link RECENT_ERRORS} newest high-level notifications across the fleet, newest first. */
  readonly errors: Array<NotificationRecord & Tagged> = $derived(newest([...this.#details.values()].map((d) => d.errors), RECENT_ERRORS));

  /**
   * The capacity plan's rows (app/capacity/plan.ts), loaded with the details: the first frame
   * shows no plan, and its script then does not carry it.
   */
  #planRows = $state.raw<typeof PlanRows | undefined>(undefined);
  /** Every pool of every system, fullest first: the capacity planning view (app/capacity/plan.ts); empty until the details are read. */
  readonly plan: PlanRow[] = $derived.by(() => {
    const planRows = this.#planRows;
    if (!planRows) return [];
    return planRows(
      this.#fleet.systems.flatMap((s) => {
        const d = this.#details.get(s.key);
        return d ? [{ siteId: s.siteId, siteName: s.site?.name ?? s.siteId, system: s.system, capacity: d.summary.rollup.capacity }] : [];
      }),
    );
  });

  /** Systems by level, the capacity figures of the totals line (as `planTotal` counts them) and the attention counts, from the roll-ups. */
  readonly totals: OverviewTotals = $derived(this.#overview.totals);

  /**
   * Reads the summaries main computed since the last read: every system's roll-up the first time
   * (then the details once the first frame is painted), only the changed ones after that. Called when
   * a system's data version moves; calls while a read runs are folded into one more read.
   */
  load(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
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

  /** Resolves when the details read after the first frame has ended (at once when no roll-up has been read yet). */
  detailsSettled(): Promise<void> {
    return this.#detailsLoad ?? Promise.resolve();
  }

  async #read(): Promise<void> {
    if (this.#detailSeq !== undefined || this.#detailsDue) return this.#readWhole(this.#detailSeq);
    const first = this.#seq === undefined;
    if (first) this.loading = true;
    // The first read is the one the first script sent (`startFirstReads`), while the frame's modules loaded.
    const answer = await (first ? firstRead('health:briefs') : api().invoke('health:briefs', { since: this.#seq }));
    // One publication for the whole answer: every derived list walks all systems. None for an answer
    // without changes (the read the window makes when its fleet list is first shown): the
    // rows, totals and tree would be built again for nothing.
    if (answer.systems.length > 0) {
      this.#briefs = changedMap(this.#briefs, (briefs) => {
        for (const w of answer.systems) briefs.set(key(w), briefFromWire(w));
      });
    }
    this.#seq = answer.seq;
    this.loading = false;
    if (first) {
      this.#detailsLoad = afterNextPaint().then(() => {
        this.#detailsDue = true;
        return this.load();
      });
    }
  }

  /** Reads whole summaries (every system's, or those computed after `since`): details and roll-ups both. */
  async #readWhole(since: number | undefined): Promise<void> {
    let answer;
    try {
      const plan = this.#planRows ? undefined : import('../../app/capacity/plan.js');
      // Observed here too: a failed read leaves it unawaited.
      plan?.catch(() => undefined);
      answer = await api().invoke('health:summaries', since === undefined ? {} : { since });
      if (plan) this.#planRows = (await plan).planRows;
    } catch (err) {
      if (!this.detailsRead) this.detailsError = errorText(err);
      throw err;
    }
    // The roll-ups main computed again since they were read first (the others are the same summary's).
    const rebriefed: Array<[string, Sequenced<HealthBrief>]> = [];
    this.#details = changedMap(this.#details, (details) => {
      for (const w of answer.systems) {
        const k = key(w);
        const summary: Sequenced<HealthSummary> = { ...summaryFromWire(w), seq: w.seq };
        const { siteId, system } = w;
        const tag = <T extends object>(x: T): T & Tagged => ({ ...x, siteId, system });
        details.set(k, {
          system,
          summary,
          drives: summary.drives.map(tag),
          lagging: summary.lagging.map(tag),
          pools: summary.rollup.capacity.pools.filter(needsLook).map(tag),
          errors: summary.errors.map(tag).sort(newestFirst),
        });
        if (this.#briefs.get(k)?.seq !== w.seq) rebriefed.push([k, { ...briefOf(summary), seq: w.seq }]);
      }
    });
    if (rebriefed.length > 0) {
      this.#briefs = changedMap(this.#briefs, (briefs) => {
        for (const [k, b] of rebriefed) briefs.set(k, b);
      });
    }
    this.#detailSeq = answer.seq;
    this.#seq = Math.max(this.#seq ?? 0, answer.seq);
    this.detailsRead = true;
    this.detailsError = undefined;
  }
}

