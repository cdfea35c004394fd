import { describe, expect, it } from 'vitest';
import { assessCapacity } from '../../../../app/capacity/pools.js';

const TIB = 1024 ** 4;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

/** Daily consumed history of one pool: `start` growing by `perDay`. */
function history(pool: string, days: number, start: number, perDay: number) {
  return Array.from({ length: days }, (_, i) => ({ PoolName: pool, Time: new Date(T0 + i * DAY).toISOString().slice(0, 19), TotalConsumedSizeInBytes: start + i * perDay }));
}

describe('pool capacity', () => {
  const pools = {
    CapacityUsage: [
      { Name: 'hdd', TotalAllocatedSizeInBytes: 99.35 * TIB, TotalConsumedSizeInBytes: 10 * TIB, FreeCapacityInBytes: 0.65 * TIB },
      { Name: 'ssd', TotalAllocatedSizeInBytes: 10 * TIB, TotalConsumedSizeInBytes: 5 * TIB, FreeCapacityInBytes: 90 * TIB },
      { Name: 'Total', TotalAllocatedSizeInBytes: 0 },
    ],
  };

  it('takes the system’s Full over a forecast of years: the worse of the two decides', () => {
    const c = assessCapacity({
      pools,
      provisioning: [
        { PoolName: 'hdd', State: 'Full', Reason: 'LowFreeSpace', FreeSpaceInPercentage: 0.65, VirtualRaidValues: [{ N: 8, K: 2 }] },
        { PoolName: 'ssd', State: 'Ok', Reason: 'None', FreeSpaceInPercentage: 90 },
      ],
      history: [...history('hdd', 30, 9 * TIB, 0.001 * TIB), ...history('ssd', 30, 4 * TIB, 0.001 * TIB)],
      now: T0 + 29 * DAY,
    });
    const hdd = c.pools[0];
    expect(hdd).toMatchObject({ name: 'hdd', level: 'critical', verdict: 'full', usable: 100 * TIB, allocated: 99.35 * TIB, consumed: 10 * TIB, free: 0.65 * TIB, freePercent: 0.65, layouts: [{ n: 8, k: 2 }] });
    // Judged full: full now, never a date years ahead from its slowly growing data.
    expect(hdd?.forecast).toMatchObject({ status: 'full', basis: 'state', days: 0 });
    expect(hdd?.reasons).toEqual(['hdd: the system reports Full, LowFreeSpace (0.65 % free)']);
    expect(c.pools[1]).toMatchObject({ name: 'ssd', level: 'ok', verdict: 'ok' });
    expect(c.level).toBe('critical');
    // Every pool together is as bad as its worst.
    expect(c.total).toMatchObject({ name: 'All pools', usable: 200 * TIB, allocated: 109.35 * TIB, level: 'critical', verdict: 'hdd full' });
  });

  it('names the full pool on the "All pools" line, though the pools together are only filling up', () => {
    const c = assessCapacity({
      pools: {
        CapacityUsage: [
          { Name: 'hdd', TotalAllocatedSizeInBytes: 99.35 * TIB, TotalConsumedSizeInBytes: 10 * TIB, FreeCapacityInBytes: 0.65 * TIB },
          { Name: 'ssd', TotalAllocatedSizeInBytes: 75 * TIB, TotalConsumedSizeInBytes: 5 * TIB, FreeCapacityInBytes: 25 * TIB },
        ],
      },
      provisioning: [
        { PoolName: 'hdd', State: 'Full', Reason: 'LowFreeSpace', FreeSpaceInPercentage: 0.65 },
        { PoolName: 'ssd', State: 'Ok', Reason: 'None', FreeSpaceInPercentage: 25 },
      ],
    });
    // 87 % allocated together reads "filling up" on its own; one full pool is what the line must say.
    expect(c.total).toMatchObject({ level: 'critical', verdict: 'hdd full' });
  });

  it('calls a Warning state nearly full, and a fast forecast critical though the state is Ok', () => {
    const warn = assessCapacity({ pools, provisioning: [{ PoolName: 'ssd', State: 'Warning', Reason: 'LowFreeSpace' }] }).pools.find((p) => p.name === 'ssd');
    expect(warn).toMatchObject({ level: 'warning', verdict: 'nearly full' });
    const fast = assessCapacity({ pools, provisioning: [{ PoolName: 'ssd', State: 'Ok' }], history: history('ssd', 30, 5 * TIB, 3 * TIB), now: T0 + 29 * DAY });
    const ssd = fast.pools.find((p) => p.name === 'ssd');
    expect(ssd?.level).toBe('critical');
    expect(ssd?.verdict).toMatch(/^full in \d+ days$/);
  });

  it('names a state it does not know instead of calling it ok, and counts it as not known', () => {
    const c = assessCapacity({ pools, provisioning: [{ PoolName: 'ssd', State: 'Rebalancing' }] });
    expect(c.pools.find((p) => p.name === 'ssd')).toMatchObject({ level: 'unknown', verdict: 'state “Rebalancing” not understood', reasons: ['ssd: the system reports a state this app does not know, “Rebalancing” (90 % free)'] });
  });

  it('judges by the allocated share when no state is reported, and is unknown with nothing at all', () => {
    expect(assessCapacity({ pools }).pools[0]).toMatchObject({ name: 'hdd', level: 'critical', verdict: 'full' });
    expect(assessCapacity({}).level).toBe('unknown');
    // A health record without pool details still says a pool is Full.
    expect(assessCapacity({ health: { CapacityUtilization: { ProvisioningStates: ['Ok', 'Full'] } } })).toMatchObject({ level: 'critical', reasons: ['a pool is Full (the system does not say which)'] });
  });
});

describe('one capacity model: "full" and "days until full" measure the same space', () => {
  const GIB = 1024 ** 3;
  const usable = 9 * TIB;
  const perDay = 5.86 * GIB;
  const at = (allocated: number, state?: string) =>
    assessCapacity({
      pools: { CapacityUsage: [{ Name: 'hdd', TotalAllocatedSizeInBytes: allocated, TotalConsumedSizeInBytes: 2.5 * TIB, FreeCapacityInBytes: usable - allocated }] },
      ...(state ? { provisioning: [{ PoolName: 'hdd', State: state }] } : {}),
      history: history('hdd', 30, 2.5 * TIB - 29 * perDay, perDay),
      now: T0 + 29 * DAY,
    }).pools[0]!;

  it('counts the days the free space (usable − allocated) lasts at the growth of consumed data, in whole days, and says so', () => {
    // 2.72 TiB free at 5.86 GiB a day: 475 days, not the ~1,108 until consumed data reaches usable.
    const p = at(usable - 2.72 * TIB);
    expect(p.forecast).toMatchObject({ status: 'growing', basis: 'free', days: Math.round((2.72 * TIB) / perDay) });
    expect(p.forecast.days).toBe(475);
    expect(Number.isInteger(p.forecast.range?.low)).toBe(true);
    expect(Number.isInteger(p.forecast.range?.high)).toBe(true);
  });

  it('shows a pool judged full (98 % allocated, the system says Full) as full now: no date years ahead', () => {
    const p = at(usable - 180 * GIB, 'Full');
    expect(p).toMatchObject({ level: 'critical', verdict: 'full' });
    expect(p.forecast).toMatchObject({ status: 'full', basis: 'state', days: 0 });
    expect(p.reasons.join(' ')).not.toMatch(/\d{3,} days/);
    // Without a state, 98 % allocated is nearly full, and its days are those of its 180 GiB: about a month.
    const q = at(usable - 180 * GIB);
    expect(q).toMatchObject({ level: 'critical', verdict: 'nearly full' });
    expect(q.forecast).toMatchObject({ status: 'growing', basis: 'free', days: 31 });
  });

  it('gives "All pools" the days of the pool that fills first, by name, not the sum of unrelated pools', () => {
    const c = assessCapacity({
      pools: {
        CapacityUsage: [
          { Name: 'hdd', TotalAllocatedSizeInBytes: 8 * TIB, TotalConsumedSizeInBytes: 2 * TIB, FreeCapacityInBytes: 1 * TIB },
          { Name: 'ssd', TotalAllocatedSizeInBytes: 1 * TIB, TotalConsumedSizeInBytes: 0.5 * TIB, FreeCapacityInBytes: 99 * TIB },
        ],
      },
      history: [...history('hdd', 30, 2 * TIB - 29 * 10 * GIB, 10 * GIB), ...history('ssd', 30, 0.5 * TIB, 0)],
      now: T0 + 29 * DAY,
    });
    expect(c.total).toMatchObject({ name: 'All pools', fillsFirst: 'hdd', forecast: { status: 'growing', days: Math.round(TIB / (10 * GIB)) } });
  });
});
