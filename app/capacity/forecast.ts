import type { ForecastBasis } from './days.js';

export { daysPhrase, daysText, forecastBasis } from './days.js';

/**
 * "Days until full": a least-squares line through consumed bytes over time, extended until the
 * pool's free space is gone. Free space is usable minus allocated where the allocated figure is
 * known (what "full" is judged on: new data needs space allocated for it), else usable minus
 * consumed; the forecast says which (`basis`). The uncertainty comes from the standard error of the
 * slope (a 95 % interval with the t distribution), so a short or noisy history shows a wide range
 * instead of false precision. Days are whole: a forecast has no precision below a day.
 */

import { timeMs } from '../answers/time.js';

const DAY_MS = 86_400_000;

/** One point of a capacity history. */
export interface CapacitySample {
  /** Milliseconds since the epoch. */
  t: number;
  /** Consumed bytes at `t`. */
  consumed: number;
}

export type ForecastStatus =
  /** Consumed is at or above the capacity now. */
  | 'full'
  /** The fitted line rises: `days` is meaningful. */
  | 'growing'
  /** The fitted slope is zero or negative: the pool never fills at this rate. */
  | 'not-growing'
  /** Fewer than three distinct times, or no capacity: no fit with an error is possible. */
  | 'insufficient-data';

export type { ForecastBasis } from './days.js';

export interface Forecast {
  status: ForecastStatus;
  basis: ForecastBasis;
  /** Fitted growth, bytes per day (0 when there is no fit). */
  slopePerDay: number;
  /** Standard error of `slopePerDay`; undefined without at least three distinct times. */
  slopeStdErrorPerDay?: number;
  /** Consumed bytes on the fitted line at `now`. */
  consumedNow?: number;
  capacity: number;
  /** Point estimate of whole days from `now` until the pool is full ('growing': at least 1; 'full': 0). */
  days?: number;
  /** 95 % range of `days`, whole days. `high` is Infinity when growth is not distinguishable from zero. */
  range?: { low: number; high: number };
  /** ISO time of the point estimate. */
  fullAt?: string;
  /** Samples used. */
  samples: number;
}

/** Two-sided 97.5 % quantiles of Student's t for 1–30 degrees of freedom. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** Anchors of the t quantile past the table: degrees of freedom → quantile. */
const T_975_TAIL: ReadonlyArray<readonly [number, number]> = [
  [30, 2.042],
  [40, 2.021],
  [60, 2.0],
  [120, 1.98],
];

/** t multiplier of a 95 % interval with `df` degrees of freedom (Infinity below 1, 1.96 beyond 120). */
export function tQuantile975(df: number): number {
  if (df < 1) return Number.POSITIVE_INFINITY;
  if (df <= 30) return T_975[Math.floor(df) - 1] as number;
  for (let i = 1; i < T_975_TAIL.length; i++) {
    const [d1, q1] = T_975_TAIL[i] as readonly [number, number];
    const [d0, q0] = T_975_TAIL[i - 1] as readonly [number, number];
    if (df <= d1) return q0 + ((df - d0) / (d1 - d0)) * (q1 - q0);
  }
  return 1.96;
}

/** Least-squares fit of y = a + b·x; `se` is the standard error of b (undefined for n < 3). */
export function linearFit(xs: readonly number[], ys: readonly number[]): { a: number; b: number; se: number | undefined } | undefined {
  const n = xs.length;
  if (n < 2 || ys.length !== n) return undefined;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i] as number;
    my += ys[i] as number;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    sxx += dx * dx;
    sxy += dx * ((ys[i] as number) - my);
  }
  if (sxx === 0) return undefined;
  const b = sxy / sxx;
  const a = my - b * mx;
  if (n < 3) return { a, b, se: undefined };
  let sse = 0;
  for (let i = 0; i < n; i++) {
    const r = (ys[i] as number) - (a + b * (xs[i] as number));
    sse += r * r;
  }
  return { a, b, se: Math.sqrt(sse / (n - 2) / sxx) };
}

/**
 * Whole days until the free space is gone, from a history of consumed bytes.
 *
 * The line is fitted with time in days since the first sample (for numeric stability). Days are
 * counted from `now` (default: the newest sample) on the fitted line: the space left is `capacity`
 * minus the larger of the fitted consumed bytes and `allocated`. The range uses slope ± t·SE: the
 * faster slope gives `low`, the slower gives `high` (Infinity when it is ≤ 0).
 *
 * @param samples points in any order; non-finite points are ignored.
 * @param capacity bytes the pool can hold; ≤ 0 yields 'insufficient-data'.
 * @param now milliseconds since the epoch to count from.
 * @param allocated bytes already allocated, when known (basis `free`).
 */
export function forecastFull(samples: readonly CapacitySample[], capacity: number, now?: number, allocated?: number): Forecast {
  return forecastOf(seriesFit(samples), capacity, now, allocated);
}

/**
 * What a forecast reads of a series of samples: how many finite points, the first and last times
 * and the last consumed bytes in time order, the consumed bytes of the last sample as listed, and
 * the least-squares line through the points (time in days since the first). A few numbers, however
 * long the history: what a reader keeps between forecasts of a history that has not changed.
 */
export interface SeriesFit {
  samples: number;
  t0: number;
  tLast: number;
  latest: number;
  lastListed: number | undefined;
  fit: ReturnType<typeof linearFit>;
}

/** The {@link SeriesFit} of `samples` (in any order; non-finite points are ignored). */
export function seriesFit(samples: readonly CapacitySample[]): SeriesFit {
  const pts = samples.filter((s) => Number.isFinite(s.t) && Number.isFinite(s.consumed)).sort((a, b) => a.t - b.t);
  const t0 = pts[0]?.t ?? Number.NaN;
  return {
    samples: pts.length,
    t0,
    tLast: pts[pts.length - 1]?.t ?? Number.NaN,
    latest: pts[pts.length - 1]?.consumed ?? Number.NaN,
    lastListed: samples[samples.length - 1]?.consumed,
    fit: linearFit(
      pts.map((p) => (p.t - t0) / DAY_MS),
      pts.map((p) => p.consumed),
    ),
  };
}

/** {@link forecastFull} of the samples `s` was fitted from. */
export function forecastOf(s: SeriesFit, capacity: number, now?: number, allocated?: number): Forecast {
  const { fit } = s;
  const taken = allocated !== undefined && Number.isFinite(allocated) ? allocated : undefined;
  const base: Forecast = { status: 'insufficient-data', basis: taken === undefined ? 'consumed' : 'free', slopePerDay: 0, capacity, samples: s.samples };
  if (s.samples === 0 || !(capacity > 0)) return base;
  const at = now ?? s.tLast;
  if (Math.max(s.latest, taken ?? 0) >= capacity) return { ...base, status: 'full', consumedNow: s.latest, days: 0, range: { low: 0, high: 0 }, fullAt: new Date(at).toISOString() };

  if (!fit || fit.se === undefined) return base;
  const xNow = (at - s.t0) / DAY_MS;
  const consumedNow = fit.a + fit.b * xNow;
  const withFit = { ...base, slopePerDay: fit.b, slopeStdErrorPerDay: fit.se, consumedNow };
  if (consumedNow >= capacity) return { ...withFit, status: 'full', days: 0, range: { low: 0, high: 0 }, fullAt: new Date(at).toISOString() };
  if (fit.b <= 0) return { ...withFit, status: 'not-growing' };

  const remaining = capacity - Math.max(consumedNow, taken ?? 0);
  const margin = tQuantile975(s.samples - 2) * fit.se;
  const days = wholeDays(remaining / fit.b);
  const fast = fit.b + margin;
  const slow = fit.b - margin;
  return {
    ...withFit,
    status: 'growing',
    days,
    range: { low: Math.min(days, Math.max(1, Math.floor(remaining / fast))), high: slow > 0 ? Math.max(days, Math.ceil(remaining / slow)) : Number.POSITIVE_INFINITY },
    fullAt: new Date(at + days * DAY_MS).toISOString(),
  };
}

/** Days as the forecast gives them: whole, and at least 1 while space is left. */
export function wholeDays(days: number): number {
  return Math.max(1, Math.round(days));
}

/**
 * A forecast in words, as the pool panel and the health report say it: `full now`, `not growing`,
 * `not enough history`, `usable unknown` (no capacity to fill), `growing`, or `growing (growth not
 * certain)` when the 95 % range does not exclude a pool that stops growing. The days themselves are
 * formatted by whoever shows them.
 */
export function forecastTrend(f: Forecast): string {
  switch (f.status) {
    case 'full':
      return 'full now';
    case 'not-growing':
      return 'not growing';
    case 'insufficient-data':
      return f.capacity > 0 ? 'not enough history' : 'usable unknown';
    case 'growing':
      return Number.isFinite(f.range?.high ?? Number.POSITIVE_INFINITY) ? 'growing' : 'growing (growth not certain)';
  }
}

/** One row of a pool capacity history (`PerformanceStatstics` of the pools/history read). */
export interface PoolHistoryRow {
  PoolName?: string;
  Time?: string;
  TotalConsumedSizeInBytes?: number;
}

/**
 * The rows of a history {@link historyByPool} reads, each with only the fields it reads: the same
 * samples from a fraction of the memory, for a reader that keeps a history between forecasts.
 */
export function historyRowsRead(rows: readonly PoolHistoryRow[]): PoolHistoryRow[] {
  const out: PoolHistoryRow[] = [];
  for (const r of rows) {
    if (typeof r.PoolName === 'string' && typeof r.Time === 'string' && typeof r.TotalConsumedSizeInBytes === 'number') out.push({ PoolName: r.PoolName, Time: r.Time, TotalConsumedSizeInBytes: r.TotalConsumedSizeInBytes });
  }
  return out;
}

/**
 * Splits a pool capacity history into per-pool samples, plus a system series summing the pools
 * at each time (only times at which every pool reported, so a missing pool does not look like a drop).
 */
export function historyByPool(rows: readonly PoolHistoryRow[]): { pools: Map<string, CapacitySample[]>; system: CapacitySample[] } {
  const pools = new Map<string, CapacitySample[]>();
  for (const r of rows) {
    if (typeof r.PoolName !== 'string' || typeof r.Time !== 'string' || typeof r.TotalConsumedSizeInBytes !== 'number') continue;
    const t = timeMs(r.Time);
    if (t === undefined) continue;
    let list = pools.get(r.PoolName);
    if (!list) pools.set(r.PoolName, (list = []));
    list.push({ t, consumed: r.TotalConsumedSizeInBytes });
  }
  const sums = new Map<number, { consumed: number; count: number }>();
  for (const list of pools.values()) {
    for (const s of list) {
      const cur = sums.get(s.t) ?? { consumed: 0, count: 0 };
      cur.consumed += s.consumed;
      cur.count += 1;
      sums.set(s.t, cur);
    }
  }
  const system = [...sums.entries()]
    .filter(([, v]) => v.count === pools.size)
    .map(([t, v]) => ({ t, consumed: v.consumed }))
    .sort((a, b) => a.t - b.t);
  return { pools, system };
}

/**
 * The {@link SeriesFit} of each pool's samples and of the system series ({@link historyByPool}),
 * kept per rows array: a history kept while its answer stands is forecast again at every poll with
 * only the capacity figures and "now" moved, and its fits are a few numbers where its samples would
 * be a few kilobytes. A rows array must not be changed once asked about, but for rows added at its end.
 */
export function historyFits(rows: readonly PoolHistoryRow[]): { pools: ReadonlyMap<string, SeriesFit>; system: SeriesFit } {
  let held = FITS.get(rows);
  if (held?.length !== rows.length) {
    const { pools, system } = historyByPool(rows);
    held = { length: rows.length, pools: new Map([...pools].map(([name, samples]) => [name, seriesFit(samples)])), system: seriesFit(system) };
    FITS.set(rows, held);
  }
  return held;
}
const FITS = new WeakMap<readonly PoolHistoryRow[], { length: number; pools: ReadonlyMap<string, SeriesFit>; system: SeriesFit }>();
