import { describe, expect, it } from 'vitest';
import { forecastFull, forecastTrend, historyByPool, linearFit, tQuantile975, type CapacitySample } from '../../../../app/capacity/forecast.js';

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
    ];
    const { pools, system } = historyByPool(rows);
    expect([...pools.keys()]).toEqual(['a', 'b']);
    expect(pools.get('a')?.map((s) => s.consumed)).toEqual([1, 2, 3]);
    expect(system).toEqual([
      { t: Date.UTC(2025, 0, 1), consumed: 11 },
      { t: Date.UTC(2025, 0, 2), consumed: 22 },
    ]);
  });
});
