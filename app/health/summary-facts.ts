import type { IncompleteList } from '../answers/incomplete.js';
import type { NotificationRecord } from '../catalog/resources.js';
import type { Level } from './level.js';
import type { LaggingPair, NodeDrive, Rollup } from './rollup.js';

// The window's side of a health summary (app/health/system-summary.ts), without zod, so the window's
// first script does not carry it. It imports nothing from system-summary.ts: the wire forms it reads
// are spelt out below as the fields it needs, and system-summary.ts re-exports what main uses.

/** A system's health summary (what the window keeps per system). */
export interface HealthSummary {
  rollup: Rollup;
  /** When the health record was read from the system: the system's data age. */
  at: string | undefined;
  /** When the detail lists behind the drive, HA and pool figures were read (see {@link DetailsAt}). */
  detailsAt?: DetailsAt | undefined;
  drives: NodeDrive[];
  lagging: LaggingPair[];
  errors: NotificationRecord[];
  /** The lists behind `drives` and `lagging` when the system sent only part of them: those lists are at least so long. */
  incomplete?: Partial<Record<'drives' | 'replication', IncompleteList>> | undefined;
}

/**
 * When each detail list a summary reads was read from the system (ISO; absent when none is cached):
 * `nodes` (HA), `drives` (drives not OK), `pools` (the older of pool capacity and provisioning). A
 * steady poll reads them less often than the health record, so what shows their figures shows
 * their time, not `at`.
 */
export interface DetailsAt {
  nodes?: string | undefined;
  drives?: string | undefined;
  pools?: string | undefined;
}

/**
 * A system's capacity as the overview's first frame shows it: its level, its worst pool's verdict
 * (the capacity cell), and the figures of the fleet totals line, counted as `planTotal`
 * (`app/capacity/plan.ts`) counts the system's pools.
 */
export interface CapacityBrief {
  level: Level;
  /** The worst pool's verdict (`full`, `nearly full`, `full in 20 days`); undefined without pools. */
  verdict: string | undefined;
  /** Bytes, of the pools that report a usable size. */
  usable: number;
  /** Bytes, of every pool (one with no figure adds nothing). */
  allocated: number;
  /** Pools whose usable size is unknown (missing from `usable`). */
  unknownUsable: number;
  pools: number;
  /** Pools full, nearly full or filling fast: the overview's "pools need a look". */
  attention: number;
}

/** A roll-up without the pools and their forecasts: what the tree, the overview's rows and the system header show. */
export type RollupBrief = Omit<Rollup, 'capacity'> & { capacity: CapacityBrief };

/**
 * What the tree's and the overview's first frame need of a system (a few hundred bytes, where the
 * whole summary is several KB): the roll-up without pools, the counts of unhealthy drives and
 * lagging pairs, and the data age. The details (pools with forecasts, drives, pairs, errors) are
 * read after the first frame.
 */
export interface HealthBrief {
  rollup: RollupBrief;
  at: string | undefined;
  /** The oldest of the summary's {@link DetailsAt}: the HA, capacity and drive figures are at least this fresh. */
  oldestDetailAt?: string | undefined;
  /** How many drives are not OK. */
  drives: number;
  /** How many replication pairs are behind. */
  lagging: number;
}

/**
 * The brief of a system with nothing cached (`briefOf` of `rollupHealth(undefined)`, as a test
 * holds): written out, so the window's first frame needs neither the roll-up nor the capacity
 * assessment to show a system whose summary is not read yet.
 */
export const UNREAD_ROLLUP: RollupBrief = {
  level: 'unknown',
  dimensions: [],
  reasons: ['no health data cached'],
  ha: undefined,
  capacity: { level: 'unknown', verdict: undefined, usable: 0, allocated: 0, unknownUsable: 0, pools: 0, attention: 0 },
};

/** A pool the overview lists as needing a look. */
export const needsLook = (p: { level: Level }): boolean => p.level !== 'ok' && p.level !== 'unknown';

/** A system's brief from its summary: computed by main beside the summary, and by the window from a summary it read in full. */
export function briefOf(f: Pick<HealthSummary, 'rollup' | 'at' | 'detailsAt'> & { drives: readonly unknown[]; lagging: readonly unknown[] }): HealthBrief {
  const { capacity, ...rest } = f.rollup;
  const c: CapacityBrief = { level: capacity.level, verdict: capacity.pools[0]?.verdict, usable: 0, allocated: 0, unknownUsable: 0, pools: capacity.pools.length, attention: 0 };
  for (const p of capacity.pools) {
    if (p.usable === undefined) c.unknownUsable++;
    else c.usable += p.usable;
    c.allocated += p.allocated ?? 0;
    if (needsLook(p)) c.attention++;
  }
  const oldest = oldestOf([f.detailsAt?.nodes, f.detailsAt?.drives, f.detailsAt?.pools]);
  return { rollup: { ...rest, capacity: c }, at: f.at, ...(oldest ? { oldestDetailAt: oldest } : {}), drives: f.drives.length, lagging: f.lagging.length };
}

/** The earliest of ISO times (undefined ones left out); undefined when there is none. */
export function oldestOf(times: ReadonlyArray<string | undefined>): string | undefined {
  let oldest: string | undefined;
  for (const t of times) if (t !== undefined && (oldest === undefined || Date.parse(t) < Date.parse(oldest))) oldest = t;
  return oldest;
}

/** A pool as JSON carries it (`HealthSummaryWire` in system-summary.ts): an unbounded forecast's high end is null. */
interface WirePool {
  forecast: { range?: { low: number; high: number | null } | undefined };
}

/** The fields of a summary's wire form (`HealthSummaryWire`) that {@link summaryFromWire} reads. */
interface SummaryWire {
  rollup: { capacity: { pools: WirePool[]; total?: WirePool | undefined } };
  at?: string | undefined;
  detailsAt?: DetailsAt | undefined;
  drives: unknown[];
  lagging: unknown[];
  errors: unknown[];
  incomplete?: unknown;
}

/** What the window keeps of a summary: the wire form with the one infinite figure restored. */
export function summaryFromWire(w: SummaryWire): HealthSummary {
  const pool = <P extends WirePool>(p: P): P =>
    p.forecast.range ? { ...p, forecast: { ...p.forecast, range: { low: p.forecast.range.low, high: p.forecast.range.high ?? Number.POSITIVE_INFINITY } } } : p;
  const capacity = w.rollup.capacity;
  // The wire schema is the shape of HealthSummary as JSON; the records are the system's own, already normalised.
  return {
    rollup: { ...w.rollup, capacity: { ...capacity, pools: capacity.pools.map(pool), total: capacity.total ? pool(capacity.total) : undefined } },
    at: w.at,
    ...(w.detailsAt ? { detailsAt: w.detailsAt } : {}),
    drives: w.drives,
    lagging: w.lagging,
    errors: w.errors,
    ...(w.incomplete ? { incomplete: w.incomplete } : {}),
  } as HealthSummary;
}

/**
 * What the window keeps of a health brief, with its sequence number: the wire form is the brief
 * as JSON (figures not reported left out), kept as it was parsed rather than copied (1,000 objects
 * less to make and collect before the first frame).
 */
export function briefFromWire<W extends { rollup: object; at?: string | undefined; drives: number; lagging: number }>(w: W): W & HealthBrief {
  return w as W & HealthBrief;
}
