import type { Level } from '../health/level.js';
import { forecastBasis } from './days.js';
import type { ForecastStatus } from './forecast.js';
import type { PoolCapacity, SystemCapacity } from './pools.js';

/**
 * Capacity planning across the fleet: every pool of every system as one row with the figures the
 * planning view, its CSV and the health report's pool table show. The figures are taken from the
 * one assessment (`assessCapacity`) and shaped here once, so the view and the report cannot round
 * or label them differently.
 */

/** The figures of one pool, as every table of pools shows them. */
export interface PoolFigures {
  usable: number | undefined;
  allocated: number | undefined;
  consumed: number | undefined;
  free: number | undefined;
  freePercent: number | undefined;
  /** Allocated share of usable, % to two decimals: what the system's own thresholds judge. */
  usedPercent: number | undefined;
  /** Fitted growth of consumed data, bytes per day (whole bytes); undefined without a fit. */
  growthPerDay: number | undefined;
  /** Whole days until full: 0 when full now; undefined when it is not filling or cannot be told. */
  daysUntilFull: number | undefined;
  /** 95 % range of the days, whole days; `high` is Infinity when growth may be zero. */
  range: { low: number; high: number } | undefined;
  /** ISO time of the point estimate while growing. */
  fullBy: string | undefined;
  status: ForecastStatus;
  /** What the days measure, in words ({@link forecastBasis}). */
  basis: string;
}

// One collator for every comparison: `localeCompare` builds one per call, slow for thousands of rows.
// Made on first use, not at import: the first collator of a process loads ICU's collation data,
// which main's start does not need.
let collator: Intl.Collator | undefined;

const round = (v: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** A pool's figures for a table (the planning view, its export, the health report). */
export function poolFigures(p: PoolCapacity): PoolFigures {
  const f = p.forecast;
  const filling = f.status === 'growing' || f.status === 'full';
  return {
    usable: p.usable,
    allocated: p.allocated,
    consumed: p.consumed,
    free: p.free,
    freePercent: p.freePercent,
    usedPercent: p.allocatedPercent === undefined ? undefined : round(p.allocatedPercent, 2),
    growthPerDay: f.status === 'insufficient-data' ? undefined : Math.round(f.slopePerDay),
    daysUntilFull: filling && f.days !== undefined ? f.days : undefined,
    range: f.status === 'growing' && f.range ? { low: Math.round(f.range.low), high: Number.isFinite(f.range.high) ? Math.round(f.range.high) : Number.POSITIVE_INFINITY } : undefined,
    fullBy: f.status === 'growing' ? f.fullAt : undefined,
    status: f.status,
    basis: forecastBasis(f),
  };
}

/** The 95 % range as text: `12 – 40`, `12 – ∞`. */
export function rangeText(range: PoolFigures['range']): string | undefined {
  return range ? `${range.low} – ${Number.isFinite(range.high) ? range.high : '∞'}` : undefined;
}

/** One system's capacity, with where it lives. */
export interface SystemCapacityEntry {
  siteId: string;
  siteName: string;
  system: string;
  capacity: SystemCapacity;
}

/** One row of the planning table: a pool of a system. */
export interface PlanRow extends PoolFigures {
  /** Unique across the fleet: site, system and pool. */
  key: string;
  siteId: string;
  siteName: string;
  system: string;
  pool: string;
  level: Level;
  verdict: string;
  /** Full now: no free space left, or the system itself judges the pool full (the forecast's status `full`). */
  fullNow: boolean;
}

/** The fleet total: sums of every pool; no days, since pools of different systems share no space. */
export interface PlanTotal {
  pools: number;
  systems: number;
  usable: number;
  allocated: number;
  consumed: number;
  free: number;
  usedPercent: number | undefined;
  /** Sum of the pools' fitted growth, bytes per day (pools without a fit add nothing). */
  growthPerDay: number;
  /** Pools whose figure is unknown and therefore missing from the sums. */
  unknownUsable: number;
  /** Pools full now (see {@link PlanRow.fullNow}), and full now or forecast full within 30 / 90 days (by the point estimate). */
  fullNow: number;
  within30: number;
  within90: number;
  /** The pool that fills first across the fleet (full now, else the fewest days); undefined when none is filling. */
  fillsFirst: { siteName: string; system: string; pool: string; days: number } | undefined;
}

/** Every pool of every system as planning rows, fullest first (see {@link comparePlan}). */
export function planRows(systems: readonly SystemCapacityEntry[]): PlanRow[] {
  const rows: PlanRow[] = [];
  for (const s of systems) {
    for (const p of s.capacity.pools) {
      const figures = poolFigures(p);
      const fullNow = figures.status === 'full';
      rows.push({ key: `${s.siteId}\u0000${s.system}\u0000${p.name}`, siteId: s.siteId, siteName: s.siteName, system: s.system, pool: p.name, level: p.level, verdict: p.verdict, fullNow, ...figures });
    }
  }
  return rows.sort(comparePlan);
}

/**
 * Fullest first: pools full now (by their data or by the system's own state) on top, then the
 * sooner a pool fills the higher it is; pools with no forecast (not growing, not enough history)
 * after every filling pool; ties by the larger used share; then site, system and pool so the order
 * is total. O(n log n) through `Array.prototype.sort`.
 */
export function comparePlan(a: PlanRow, b: PlanRow): number {
  if (a.fullNow !== b.fullNow) return a.fullNow ? -1 : 1;
  const da = a.fullNow ? 0 : (a.daysUntilFull ?? Number.POSITIVE_INFINITY);
  const db = b.fullNow ? 0 : (b.daysUntilFull ?? Number.POSITIVE_INFINITY);
  if (da !== db) return da < db ? -1 : 1;
  const ua = a.usedPercent ?? -1;
  const ub = b.usedPercent ?? -1;
  if (ua !== ub) return ub - ua;
  const c = (collator ??= new Intl.Collator(undefined, { numeric: true }));
  return c.compare(a.siteName, b.siteName) || c.compare(a.system, b.system) || c.compare(a.pool, b.pool);
}

/** The fleet total of planning rows. */
export function planTotal(rows: readonly PlanRow[]): PlanTotal {
  const t: PlanTotal = { pools: rows.length, systems: 0, usable: 0, allocated: 0, consumed: 0, free: 0, usedPercent: undefined, growthPerDay: 0, unknownUsable: 0, fullNow: 0, within30: 0, within90: 0, fillsFirst: undefined };
  const systems = new Set<string>();
  let allocatedOfKnown = 0;
  for (const r of rows) {
    systems.add(`${r.siteId}\u0000${r.system}`);
    if (r.usable === undefined) t.unknownUsable++;
    else {
      t.usable += r.usable;
      allocatedOfKnown += r.allocated ?? 0;
    }
    t.allocated += r.allocated ?? 0;
    t.consumed += r.consumed ?? 0;
    t.free += r.free ?? 0;
    t.growthPerDay += r.growthPerDay ?? 0;
    if (r.fullNow) t.fullNow++;
    if (r.fullNow || (r.daysUntilFull !== undefined && r.daysUntilFull <= 30)) t.within30++;
    if (r.fullNow || (r.daysUntilFull !== undefined && r.daysUntilFull <= 90)) t.within90++;
    const days = r.fullNow ? 0 : r.daysUntilFull;
    if (days !== undefined && (t.fillsFirst === undefined || days < t.fillsFirst.days)) t.fillsFirst = { siteName: r.siteName, system: r.system, pool: r.pool, days };
  }
  t.systems = systems.size;
  t.usedPercent = t.usable > 0 ? round((allocatedOfKnown / t.usable) * 100, 2) : undefined;
  return t;
}

/** The planning table's columns (id, label, kind), shared by the view's CSV export. */
export const PLAN_COLUMNS = [
  ['site', 'Site', 'text'],
  ['system', 'System', 'text'],
  ['pool', 'Pool', 'text'],
  ['daysUntilFull', 'Days until full', 'number'],
  ['range', '95 % range (days)', 'text'],
  ['fullBy', 'Full by', 'text'],
  ['usedPercent', 'Used (allocated) %', 'number'],
  ['growthPerDay', 'Consumed growth per day (bytes)', 'number'],
  ['usable', 'Usable (bytes)', 'number'],
  ['allocated', 'Allocated (bytes)', 'number'],
  ['consumed', 'Consumed (bytes)', 'number'],
  ['free', 'Free (bytes)', 'number'],
  ['outlook', 'Outlook', 'text'],
] as const;

export type PlanCell = string | number | null;

/** A planning row as export cells, in {@link PLAN_COLUMNS} order. */
export function planCells(r: PlanRow): PlanCell[] {
  const n = (v: number | undefined): number | null => (v === undefined ? null : v);
  return [r.siteName, r.system, r.pool, n(r.daysUntilFull), rangeText(r.range) ?? null, r.fullBy ?? null, n(r.usedPercent), n(r.growthPerDay), n(r.usable), n(r.allocated), n(r.consumed), n(r.free), `${r.level}: ${r.verdict}`];
}

/** Which pool fills first, in words: `tundra-01/hdd-pool full now`, `tundra-01/hdd-pool first, in 31 days`. */
export function fillsFirstText(t: Pick<PlanTotal, 'fillsFirst'>): string | undefined {
  const f = t.fillsFirst;
  if (!f) return undefined;
  return f.days === 0 ? `${f.system}/${f.pool} full now` : `${f.system}/${f.pool} first, in ${f.days} day${f.days === 1 ? '' : 's'}`;
}

/** The fleet total as export cells, in {@link PLAN_COLUMNS} order. */
export function totalCells(t: PlanTotal): PlanCell[] {
  return ['Fleet total', `${t.systems} systems`, `${t.pools} pools`, fillsFirstText(t) ?? null, null, null, t.usedPercent ?? null, t.growthPerDay, t.usable, t.allocated, t.consumed, t.free, `${t.fullNow} full now, ${t.within30} within 30 days, ${t.within90} within 90 days`];
}
