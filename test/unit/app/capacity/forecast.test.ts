import { describe, expect, it } from 'vitest';
import { forecastFull, forecastOf, forecastTrend, historyByPool, historyFits, linearFit, tQuantile975, type CapacitySample } from '../../../../app/capacity/forecast.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);
const TB = 1e12;

/** Daily samples from `start` growing by `perDay`, with an optional deterministic wobble. */
function series(days: number, start: number, perDay: number, wobble = 0): CapacitySample[] {
  return Array.from({ length: days }, (_, i) => ({ t: T0 + i * DAY, consumed: start + perDay * i + (i % 2 === 0 ? wobble : -wobble) }));
}

describe('linearFit', () => {
  it('recovers an exact line with zero standard error', () => {
    const fit = linearFit([0, 1, 2, 3], [5, 7, 9, 11]);
    expect(fit?.a).toBeCloseTo(5);
    expect(fit?.b).toBeCloseTo(2);
    expect(fit?.se).toBeCloseTo(0);
  });

  it('matches a hand-computed standard error', () => {
    // x = 0..4, y = 1,3,2,5,4 → b = 0.8, a = 1.4, SSE = 3.6, sxx = 10 → se = sqrt(3.6/3/10).
    const fit = linearFit([0, 1, 2, 3, 4], [1, 3, 2, 5, 4]);
    expect(fit?.b).toBeCloseTo(0.8);
    expect(fit?.a).toBeCloseTo(1.4);
    expect(fit?.se).toBeCloseTo(Math.sqrt(0.12));
  });

  it('gives no fit for one point or one distinct x', () => {
    expect(linearFit([1], [1])).toBeUndefined();
    expect(linearFit([2, 2, 2], [1, 2, 3])).toBeUndefined();
  });

  it('gives no fit when x and y differ in length', () => {
    expect(linearFit([0, 1, 2], [1, 2])).toBeUndefined();
    expect(linearFit([0, 1], [1, 2, 3])).toBeUndefined();
  });

  it('fits a line through two points, with no standard error, and gives one from three', () => {
    expect(linearFit([0, 1], [1, 3])).toEqual({ a: 1, b: 2, se: undefined });
    const three = linearFit([0, 1, 2], [1, 3, 4]);
    // b = 1.5, a = 7/6, residuals ±1/6: SSE = 1/6, sxx = 2 → se = sqrt(1/6 / 1 / 2).
    expect(three?.b).toBeCloseTo(1.5);
    expect(three?.se).toBeCloseTo(Math.sqrt(1 / 12));
  });
});

describe('forecastFull', () => {
  it('counts the days until a steadily growing pool is full', () => {
    // 50 TB used, +1 TB a day, 100 TB capacity: after 30 days 79 TB, 21 days to go.
    const f = forecastFull(series(30, 50 * TB, 1 * TB), 100 * TB);
    expect(f.status).toBe('growing');
    expect(f.days).toBeCloseTo(21, 6);
    expect(f.slopePerDay).toBeCloseTo(TB);
    expect(f.range?.low).toBeCloseTo(21, 6);
    expect(f.range?.high).toBeCloseTo(21, 6);
    expect(f.fullAt).toBe(new Date(T0 + 50 * DAY).toISOString());
  });

  it('gives a range that contains the estimate and widens with noise', () => {
    const quiet = forecastFull(series(30, 50 * TB, TB, 0.5 * TB), 100 * TB);
    const noisy = forecastFull(series(30, 50 * TB, TB, 3 * TB), 100 * TB);
    for (const f of [quiet, noisy]) {
      expect(f.range?.low).toBeLessThanOrEqual(f.days as number);
      expect(f.range?.high).toBeGreaterThanOrEqual(f.days as number);
    }
    const width = (f: typeof quiet): number => (f.range?.high as number) - (f.range?.low as number);
    expect(width(noisy)).toBeGreaterThan(width(quiet));
  });

  it('leaves the range open when growth is not distinguishable from zero', () => {
    // Rises about 0.5 TB a day, but the day-to-day swing is several TB.
    const f = forecastFull([50, 53, 49, 52, 51, 54].map((v, i) => ({ t: T0 + i * DAY, consumed: v * TB })), 100 * TB);
    expect(f.status).toBe('growing');
    expect(f.range?.high).toBe(Number.POSITIVE_INFINITY);
    expect(f.range?.low).toBeLessThan(f.days as number);
  });

  it('says "not growing" for a flat or shrinking pool', () => {
    expect(forecastFull(series(10, 50 * TB, 0), 100 * TB).status).toBe('not-growing');
    const shrinking = forecastFull(series(10, 50 * TB, -TB), 100 * TB);
    expect(shrinking.status).toBe('not-growing');
    expect(shrinking.days).toBeUndefined();
  });

  it('says "full" when consumed has reached the capacity', () => {
    expect(forecastFull(series(10, 95 * TB, TB), 100 * TB)).toMatchObject({ status: 'full', days: 0 });
  });

  it('needs three distinct times and a capacity', () => {
    expect(forecastFull(series(2, 50 * TB, TB), 100 * TB).status).toBe('insufficient-data');
    expect(forecastFull([], 100 * TB).status).toBe('insufficient-data');
    expect(forecastFull(series(10, 50 * TB, TB), 0).status).toBe('insufficient-data');
  });

  it('is said in the same words by the pool panel and the health report', () => {
    expect(forecastTrend(forecastFull(series(30, 50 * TB, TB), 100 * TB))).toBe('growing');
    expect(forecastTrend(forecastFull([50, 53, 49, 52, 51, 54].map((v, i) => ({ t: T0 + i * DAY, consumed: v * TB })), 100 * TB))).toBe('growing (growth not certain)');
    expect(forecastTrend(forecastFull(series(10, 50 * TB, 0), 100 * TB))).toBe('not growing');
    expect(forecastTrend(forecastFull(series(10, 95 * TB, TB), 100 * TB))).toBe('full now');
    expect(forecastTrend(forecastFull(series(2, 50 * TB, TB), 100 * TB))).toBe('not enough history');
    expect(forecastTrend(forecastFull(series(10, 50 * TB, TB), 0))).toBe('usable unknown');
  });

  it('calls a growing forecast without a range uncertain rather than failing', () => {
    expect(forecastTrend({ status: 'growing', basis: 'consumed', slopePerDay: 1, capacity: 1, days: 3, samples: 3 })).toBe('growing (growth not certain)');
  });

  it('counts from the newest sample by default, whatever the order the samples come in', () => {
    const ordered = forecastFull(series(30, 50 * TB, TB), 100 * TB);
    const shuffled = forecastFull([...series(30, 50 * TB, TB)].sort((a, b) => (a.t % (7 * DAY)) - (b.t % (7 * DAY)) || b.t - a.t), 100 * TB);
    expect(shuffled).toEqual(ordered);
    expect(shuffled.fullAt).toBe(new Date(T0 + 50 * DAY).toISOString());
  });

  it('ignores samples with a time or a consumed figure that is not a finite number', () => {
    const clean = series(30, 50 * TB, TB);
    const dirty = [...clean, { t: Number.NaN, consumed: 99 * TB }, { t: T0 + 40 * DAY, consumed: Number.POSITIVE_INFINITY }, { t: T0 + 41 * DAY, consumed: Number.NaN }];
    expect(forecastFull(dirty, 100 * TB)).toEqual(forecastFull(clean, 100 * TB));
    expect(forecastFull(dirty, 100 * TB).samples).toBe(30);
  });

  it('is full once the allocated figure reaches the capacity, whatever consumed data hold', () => {
    const f = forecastFull(series(10, 20 * TB, TB), 100 * TB, undefined, 100 * TB);
    expect(f).toMatchObject({ status: 'full', basis: 'free', days: 0, range: { low: 0, high: 0 }, consumedNow: 29 * TB });
    expect(f.fullAt).toBe(new Date(T0 + 9 * DAY).toISOString());
  });

  it('is full when the newest consumed figure equals the capacity exactly', () => {
    expect(forecastFull(series(10, 91 * TB, TB), 100 * TB)).toMatchObject({ status: 'full', days: 0 });
  });

  it('is full at a later now when the fitted line has reached the capacity by then', () => {
    // 10, 20, 30 TB on days 0–2: the line is at 50 TB on day 4, exactly the capacity.
    const f = forecastFull(series(3, 10 * TB, 10 * TB), 50 * TB, T0 + 4 * DAY);
    expect(f).toMatchObject({ status: 'full', days: 0, range: { low: 0, high: 0 }, fullAt: new Date(T0 + 4 * DAY).toISOString() });
    expect(f.consumedNow).toBeCloseTo(50 * TB, -3);
  });

  it('states its basis: free space with an allocated figure, consumed data without one or with one that is not a number', () => {
    expect(forecastFull(series(30, 50 * TB, TB), 100 * TB).basis).toBe('consumed');
    expect(forecastFull(series(30, 50 * TB, TB), 100 * TB, undefined, 60 * TB).basis).toBe('free');
    expect(forecastFull(series(30, 50 * TB, TB), 100 * TB, undefined, Number.NaN)).toEqual(forecastFull(series(30, 50 * TB, TB), 100 * TB));
    expect(forecastFull([], 100 * TB).basis).toBe('consumed');
    expect(forecastFull([], 100 * TB, undefined, 1).basis).toBe('free');
  });

  it('gives the 95 % range of slope ± t(n − 2)·SE: the faster slope the low days, the slower the high', () => {
    // 10, 22, 29, 41 TB on days 0–3: b = 10 TB/day, a = 10.5 TB, SE = √0.5 TB/day, t(2) = 4.303.
    const f = forecastFull([10, 22, 29, 41].map((v, i) => ({ t: T0 + i * DAY, consumed: v * TB })), 200 * TB);
    const remaining = 200 - (10.5 + 10 * 3);
    const margin = 4.303 * Math.sqrt(0.5);
    expect(f.days).toBe(Math.round(remaining / 10));
    expect(f.range).toEqual({ low: Math.floor(remaining / (10 + margin)), high: Math.ceil(remaining / (10 - margin)) });
  });

  it('counts from the given now and sorts unordered samples', () => {
    const s = series(30, 50 * TB, TB).reverse();
    const f = forecastFull(s, 100 * TB, T0 + 31 * DAY);
    expect(f.days).toBeCloseTo(19, 6);
  });
});

describe('tQuantile975', () => {
  it('follows the t table and tends to 1.96', () => {
    expect(tQuantile975(1)).toBeCloseTo(12.706);
    expect(tQuantile975(10)).toBeCloseTo(2.228);
    expect(tQuantile975(50)).toBeGreaterThan(2.0);
    expect(tQuantile975(50)).toBeLessThan(2.021);
    expect(tQuantile975(1000)).toBe(1.96);
    expect(tQuantile975(0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('interpolates linearly between the anchors past the table', () => {
    // 31–40 between 2.042 and 2.021, 41–60 towards 2.0, 61–120 towards 1.98.
    expect(tQuantile975(35)).toBeCloseTo((2.042 + 2.021) / 2, 6);
    expect(tQuantile975(50)).toBeCloseTo((2.021 + 2.0) / 2, 6);
    expect(tQuantile975(90)).toBeCloseTo((2.0 + 1.98) / 2, 6);
    expect(tQuantile975(120)).toBeCloseTo(1.98, 6);
  });
});

describe('historyByPool', () => {
  it('groups rows by pool and sums the system only where every pool reported', () => {
    const rows = [
      { PoolName: 'a', Time: '2025-01-01T00:00:00', TotalConsumedSizeInBytes: 1 },
      { PoolName: 'b', Time: '2025-01-01T00:00:00', TotalConsumedSizeInBytes: 10 },
      { PoolName: 'a', Time: '2025-01-02T00:00:00', TotalConsumedSizeInBytes: 2 },
      { PoolName: 'b', Time: '2025-01-02T00:00:00Z', TotalConsumedSizeInBytes: 20 },
      { PoolName: 'a', Time: '2025-01-03T00:00:00', TotalConsumedSizeInBytes: 3 },
      { PoolName: 'c' },
      { Time: '2025-01-01T00:00:00', TotalConsumedSizeInBytes: 5 },
      { PoolName: 'a', TotalConsumedSizeInBytes: 5 },
      { PoolName: 'a', Time: '2025-01-04T00:00:00' },
      { PoolName: 'a', Time: 'yesterday', TotalConsumedSizeInBytes: 5 },
    ];
    const { pools, system } = historyByPool(rows);
    expect([...pools.keys()]).toEqual(['a', 'b']);
    expect(pools.get('a')?.map((s) => s.consumed)).toEqual([1, 2, 3]);
    expect(system).toEqual([
      { t: Date.UTC(2025, 0, 1), consumed: 11 },
      { t: Date.UTC(2025, 0, 2), consumed: 22 },
    ]);
  });

  it('orders the system series by time whatever order the rows come in', () => {
    const rows = [
      { PoolName: 'a', Time: '2025-01-03T00:00:00Z', TotalConsumedSizeInBytes: 3 },
      { PoolName: 'a', Time: '2025-01-01T00:00:00Z', TotalConsumedSizeInBytes: 1 },
      { PoolName: 'b', Time: '2025-01-01T00:00:00Z', TotalConsumedSizeInBytes: 10 },
      { PoolName: 'b', Time: '2025-01-03T00:00:00Z', TotalConsumedSizeInBytes: 30 },
    ];
    expect(historyByPool(rows).system).toEqual([
      { t: Date.UTC(2025, 0, 1), consumed: 11 },
      { t: Date.UTC(2025, 0, 3), consumed: 33 },
    ]);
  });

  it('fits a kept history once, and again when rows were added to it; each fit forecasts as its samples do', () => {
    const rows = [
      { PoolName: 'a', Time: '2025-01-01T00:00:00Z', TotalConsumedSizeInBytes: 1 },
      { PoolName: 'b', Time: '2025-01-01T00:00:00Z', TotalConsumedSizeInBytes: 5 },
      { PoolName: 'a', Time: '2025-01-02T00:00:00Z', TotalConsumedSizeInBytes: 2 },
      { PoolName: 'b', Time: '2025-01-02T00:00:00Z', TotalConsumedSizeInBytes: 5 },
      { PoolName: 'a', Time: '2025-01-03T00:00:00Z', TotalConsumedSizeInBytes: 4 },
      { PoolName: 'b', Time: '2025-01-03T00:00:00Z', TotalConsumedSizeInBytes: 6 },
    ];
    const fits = historyFits(rows);
    expect(historyFits(rows)).toBe(fits);
    const { pools, system } = historyByPool(rows);
    for (const [capacity, now] of [[100, Date.UTC(2025, 0, 3)], [10, Date.UTC(2025, 0, 5)], [3, undefined]] as const) {
      for (const [name, samples] of pools) expect(forecastOf(fits.pools.get(name)!, capacity, now)).toEqual(forecastFull(samples, capacity, now));
      expect(forecastOf(fits.system, capacity, now)).toEqual(forecastFull(system, capacity, now));
    }
    rows.push({ PoolName: 'a', Time: '2025-01-04T00:00:00Z', TotalConsumedSizeInBytes: 8 });
    expect(historyFits(rows).pools.get('a')).toMatchObject({ samples: 4, latest: 8, lastListed: 8 });
  });
});
