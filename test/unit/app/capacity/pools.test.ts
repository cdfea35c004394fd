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
    expect(hdd?.forecast.status).toBe('growing');
    expect(hdd?.reasons).toEqual(['hdd: the system reports Full, LowFreeSpace (0.65 % free)']);
    expect(c.pools[1]).toMatchObject({ name: 'ssd', level: 'ok', verdict: 'ok' });
    expect(c.level).toBe('critical');
    // Every pool together is as bad as its worst.
    expect(c.total).toMatchObject({ name: 'All pools', usable: 200 * TIB, allocated: 109.35 * TIB, level: 'critical', verdict: 'hdd full' });
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
