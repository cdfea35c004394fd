import { describe, expect, it } from 'vitest';
import type { Forecast } from '../../../../app/capacity/forecast.js';
import { assessCapacity, fillsFirst, type CapacityInput, type PoolCapacity } from '../../../../app/capacity/pools.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const NOW = T0 + 29 * DAY;

/** Daily consumed history of one pool over 30 days: `start` growing by `perDay` bytes (whole numbers, so the fit is exact). */
function history(pool: string, start: number, perDay: number) {
  return Array.from({ length: 30 }, (_, i) => ({ PoolName: pool, Time: new Date(T0 + i * DAY).toISOString().slice(0, 19), TotalConsumedSizeInBytes: start + i * perDay }));
}

/** One pool `p` from the pool read (allocated, free), an optional state and a history. */
function pool(o: { allocated?: number; free?: number; consumed?: number; state?: string; reason?: string; freePercent?: number; perDay?: number; start?: number; now?: number | null }): PoolCapacity {
  const input: CapacityInput = {
    pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: o.allocated, TotalConsumedSizeInBytes: o.consumed, FreeCapacityInBytes: o.free }] },
    ...(o.state !== undefined ? { provisioning: [{ PoolName: 'p', State: o.state, Reason: o.reason, FreeSpaceInPercentage: o.freePercent }] } : {}),
    ...(o.perDay !== undefined ? { history: history('p', o.start ?? 0, o.perDay) } : {}),
    ...(o.now === null ? {} : { now: o.now ?? NOW }),
  };
  return assessCapacity(input).pools[0] as PoolCapacity;
}

describe('the forecast’s part in a pool’s level', () => {
  // 50 bytes allocated, consumed data at 29 and growing 1 a day: the free space lasts `free` days.
  const growing = (free: number) => pool({ allocated: 50, free, state: 'Ok', perDay: 1 });

  it('is critical while the 95 % range says full within 30 days, and names the days', () => {
    const p = growing(29);
    expect(p.forecast).toMatchObject({ status: 'growing', days: 29, range: { low: 29, high: 29 } });
    expect(p).toMatchObject({ level: 'critical', verdict: 'full in 29 days', reasons: ['p: full in about 29 days at the current growth'] });
  });

  it('is a warning from 30 days on, and ok from 90 days', () => {
    expect(growing(30)).toMatchObject({ level: 'warning', verdict: 'full in 30 days' });
    expect(growing(89)).toMatchObject({ level: 'warning', verdict: 'full in 89 days', reasons: ['p: full in about 89 days at the current growth'] });
    expect(growing(90)).toMatchObject({ level: 'ok', verdict: 'ok', reasons: [] });
  });

  it('is critical when the data have filled the pool, though the system says Ok', () => {
    const p = pool({ allocated: 20, free: 80, state: 'Ok', perDay: 5 });
    expect(p.forecast).toMatchObject({ status: 'full', basis: 'free' });
    expect(p).toMatchObject({ level: 'critical', verdict: 'full', reasons: ['p: no free space left'] });
  });

  it('judges a pool with only a usable figure and a history by its forecast, and one with nothing as unknown', () => {
    const c = assessCapacity({ health: { CapacityUtilization: { PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 100 }] } }, history: history('p', 0, 1), now: NOW });
    expect(c.pools[0]).toMatchObject({ level: 'warning', verdict: 'full in 71 days', allocatedPercent: undefined, forecast: { basis: 'consumed', days: 71 } });
    const bare = assessCapacity({ history: history('p', 0, 1), now: NOW }).pools[0];
    expect(bare).toMatchObject({ usable: undefined, consumed: 29, level: 'unknown', verdict: 'unknown', forecast: { status: 'insufficient-data' } });
  });
});

describe('a pool’s verdict from the system’s state', () => {
  it('says degraded, nearly full, full, or the critical state itself, with the system’s reason', () => {
    expect(pool({ allocated: 10, free: 90, state: 'Degraded', reason: 'RebuildRunning' })).toMatchObject({ level: 'warning', verdict: 'degraded', reasons: ['p: the system reports Degraded, RebuildRunning (90 % free)'] });
    expect(pool({ allocated: 10, free: 90, state: 'LowSpace', reason: 'None' })).toMatchObject({ level: 'warning', verdict: 'nearly full', reasons: ['p: the system reports LowSpace (90 % free)'] });
    expect(pool({ allocated: 10, free: 90, state: 'Critical' })).toMatchObject({ level: 'critical', verdict: 'Critical' });
    expect(pool({ allocated: 10, free: 90, state: 'Exhausted' })).toMatchObject({ level: 'critical', verdict: 'Exhausted' });
    expect(pool({ allocated: 10, free: 90, state: 'NearlyFull' })).toMatchObject({ level: 'critical', verdict: 'full' });
  });

  it('says the free share beside the state only when it is known', () => {
    expect(assessCapacity({ provisioning: [{ PoolName: 'p', State: 'Degraded' }] }).pools[0]?.reasons).toEqual(['p: the system reports Degraded']);
  });

  it('keeps the data’s own "full" (and says no free space is left) when the system also says Full', () => {
    const p = pool({ allocated: 20, free: 80, state: 'Full', perDay: 5 });
    expect(p.forecast).toMatchObject({ status: 'full', basis: 'free' });
    expect(p.reasons).toEqual(['p: the system reports Full (80 % free)', 'p: no free space left']);
  });

  it('shows a pool the system calls full as full now from the evaluation time, not a date', () => {
    const p = pool({ allocated: 99, free: 1, state: 'Full', perDay: 1 });
    expect(p.forecast).toMatchObject({ status: 'full', basis: 'state', days: 0, range: { low: 0, high: 0 }, fullAt: new Date(NOW).toISOString() });
    expect(pool({ allocated: 99, free: 1, state: 'Full', perDay: 1, now: null }).forecast.fullAt).toBeUndefined();
  });
});

describe('a pool’s level without a state: its allocated share', () => {
  const at = (allocated: number, perDay?: number) => pool({ allocated, free: 100 - allocated, ...(perDay !== undefined ? { perDay } : {}) });

  it('is ok below 80 %, filling up from 80 %, nearly full from 90 %, full under 1 % free', () => {
    expect(at(79)).toMatchObject({ level: 'ok', verdict: 'ok', reasons: [] });
    expect(at(80)).toMatchObject({ level: 'warning', verdict: 'filling up', reasons: ['p: 80 % allocated'] });
    expect(at(90)).toMatchObject({ level: 'critical', verdict: 'nearly full', reasons: ['p: 90 % allocated'] });
    expect(at(99)).toMatchObject({ level: 'critical', verdict: 'nearly full', freePercent: 1 });
    expect(at(99.5)).toMatchObject({ level: 'critical', verdict: 'full', freePercent: 0.5 });
  });

  it('makes a pool under 1 % free full now (basis state), and one at 1 % keeps its forecast', () => {
    // Consumed grows 1 a day from 0, far below what is allocated: only the free space counts.
    expect(at(99.5, 1).forecast).toMatchObject({ status: 'full', basis: 'state', days: 0 });
    expect(at(99.5, 1).reasons).toEqual(['p: 100 % allocated']);
    expect(at(99, 1).forecast).toMatchObject({ status: 'growing', basis: 'free', days: 1 });
    expect(at(50, 1).forecast).toMatchObject({ status: 'growing', basis: 'free' });
  });

  it('calls a pool whose data have filled it full, though its allocated share alone says filling up', () => {
    // 85 allocated of 100, consumed data past 100 by now.
    expect(pool({ allocated: 85, free: 15, perDay: 5 })).toMatchObject({ level: 'critical', verdict: 'full', forecast: { status: 'full', basis: 'free' } });
  });

  it('leaves a pool whose system reports a state to that state, however little free space it reports', () => {
    const p = pool({ allocated: 50, free: 150, state: 'Ok', freePercent: 0.5, perDay: 1 });
    expect(p.forecast).toMatchObject({ status: 'growing', basis: 'free' });
    expect(p.verdict).toBe('ok');
  });

  it('reads the share from the free percentage where no allocated figure is reported', () => {
    const c = assessCapacity({ health: { CapacityUtilization: { PoolCapacityVirtualRaidProvisioning: [{ Name: 'p', FreeSpaceInPercentage: 12 }, { FreeSpaceInPercentage: 1 }] } } });
    expect(c.pools).toHaveLength(1);
    expect(c.pools[0]).toMatchObject({ name: 'p', freePercent: 12, allocatedPercent: 88, level: 'warning', verdict: 'filling up' });
  });
});

describe('a pool’s figures from whichever reads are at hand', () => {
  it('takes usable and allocated from the health record, and derives free and the shares', () => {
    const c = assessCapacity({ health: { CapacityUtilization: { PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 200, CapacityUsageInBytes: 50 }, { CapacityInBytes: 1 }] } } });
    expect(c.pools).toHaveLength(1);
    expect(c.pools[0]).toMatchObject({ usable: 200, allocated: 50, free: 150, freePercent: 75, allocatedPercent: 25, level: 'ok' });
  });

  it('takes the allocated share from allocated and usable, not from a free figure that leaves some space reserved', () => {
    // Usable 200; 50 allocated, 100 free: 50 are reserved by the system and neither.
    const c = assessCapacity({
      pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: 50, FreeCapacityInBytes: 100 }, { Name: 'q', TotalAllocatedSizeInBytes: 50, FreeCapacityInBytes: 100 }] },
      health: { CapacityUtilization: { PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 200 }, { PoolName: 'q', CapacityInBytes: 200 }] } },
    });
    expect(c.pools[0]).toMatchObject({ usable: 200, free: 100, freePercent: 50, allocatedPercent: 25 });
    expect(c.total).toMatchObject({ usable: 400, allocated: 100, free: 200 });
  });

  it('keeps the pool read’s allocated figure over the health record’s, and ignores a usable of 0', () => {
    const c = assessCapacity({
      pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: 30, FreeCapacityInBytes: 70 }] },
      health: { CapacityUtilization: { PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 0, CapacityUsageInBytes: 99 }] } },
    });
    expect(c.pools[0]).toMatchObject({ usable: 100, allocated: 30, free: 70 });
  });

  it('knows no usable or free space from an allocated figure alone, nor from a free figure alone', () => {
    expect(pool({ allocated: 30 })).toMatchObject({ usable: undefined, free: undefined, freePercent: undefined, allocatedPercent: undefined, level: 'unknown' });
    expect(pool({ free: 30 })).toMatchObject({ usable: undefined, free: 30, freePercent: undefined, allocatedPercent: undefined, level: 'unknown' });
  });

  it('never shows negative free space when more is allocated than usable', () => {
    const c = assessCapacity({ health: { CapacityUtilization: { PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 100, CapacityUsageInBytes: 120 }] } } });
    expect(c.pools[0]?.free).toBe(0);
  });

  it('ignores figures that are not finite numbers', () => {
    const p = assessCapacity({ pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: Number.NaN, FreeCapacityInBytes: Number.POSITIVE_INFINITY, TotalConsumedSizeInBytes: '5' as unknown as number }] } }).pools[0];
    expect(p).toMatchObject({ allocated: undefined, free: undefined, consumed: undefined });
  });

  it('takes consumed from the newest history sample when the pool read has none', () => {
    expect(pool({ allocated: 50, free: 50, perDay: 1, start: 3 }).consumed).toBe(32);
  });

  it('lets the provisioning read’s free percentage replace the health record’s, but not erase it', () => {
    const health = { CapacityUtilization: { PoolCapacityVirtualRaidProvisioning: [{ Name: 'p', FreeSpaceInPercentage: 40 }] } };
    expect(assessCapacity({ health, provisioning: [{ PoolName: 'p', State: 'Ok', FreeSpaceInPercentage: 30 }] }).pools[0]?.freePercent).toBe(30);
    expect(assessCapacity({ health, provisioning: [{ PoolName: 'p', State: 'Ok' }] }).pools[0]?.freePercent).toBe(40);
    expect(assessCapacity({ provisioning: [{ State: 'Full' }] }).pools).toEqual([]);
  });

  it('lists only the N+K layouts given as numbers, and none when none are given', () => {
    const c = assessCapacity({ provisioning: [{ PoolName: 'p', State: 'Ok', VirtualRaidValues: [{ N: 8, K: 2 }, { N: 4 }, { K: 1 }, { N: '4' as unknown as number, K: 1 }] }, { PoolName: 'q', State: 'Ok' }] });
    expect(c.pools.find((p) => p.name === 'p')?.layouts).toEqual([{ n: 8, k: 2 }]);
    expect(c.pools.find((p) => p.name === 'q')?.layouts).toEqual([]);
    expect(pool({ allocated: 1, free: 1 }).layouts).toEqual([]);
  });
});

describe('a system’s pools together', () => {
  const reads = (rows: Array<[string, number, number]>): CapacityInput['pools'] => ({
    CapacityUsage: [...rows.map(([Name, a, f]) => ({ Name, TotalAllocatedSizeInBytes: a, FreeCapacityInBytes: f, TotalConsumedSizeInBytes: 1 })), { Name: 'Total', TotalAllocatedSizeInBytes: 1 }, { TotalAllocatedSizeInBytes: 1 }],
  });

  it('lists pools worst first, then by name, leaving out the Total row and rows without a name', () => {
    const c = assessCapacity({ pools: reads([['c', 10, 90], ['b', 95, 5], ['a', 10, 90], ['d', 85, 15]]) });
    expect(c.pools.map((p) => `${p.name} ${p.level}`)).toEqual(['b critical', 'd warning', 'a ok', 'c ok']);
    expect(c.level).toBe('critical');
    const same = assessCapacity({ pools: reads([['d', 10, 90], ['c', 10, 90], ['b', 10, 90], ['a', 10, 90], ['e', 10, 90]]) });
    expect(same.pools.map((p) => p.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('adds an "All pools" line only for two pools or more, with sums that are unknown when one pool’s figure is', () => {
    expect(assessCapacity({ pools: reads([['a', 10, 90]]) }).total).toBeUndefined();
    expect(assessCapacity({ pools: reads([['a', 10, 90], ['b', 30, 70]]) }).total).toMatchObject({ usable: 200, allocated: 40, free: 160, consumed: 2, level: 'ok', verdict: 'ok' });
    const partial = assessCapacity({ pools: { CapacityUsage: [{ Name: 'a', TotalAllocatedSizeInBytes: 10, FreeCapacityInBytes: 90 }, { Name: 'b', TotalAllocatedSizeInBytes: 10 }] } });
    expect(partial.total).toMatchObject({ usable: undefined, allocated: 20, free: undefined, consumed: undefined });
  });

  it('keeps the total’s own verdict when it is not ok, else names the worst pool’s', () => {
    // Both pools 85 % allocated: the total is itself filling up.
    expect(assessCapacity({ pools: reads([['a', 85, 15], ['b', 85, 15]]) }).total).toMatchObject({ level: 'warning', verdict: 'filling up' });
    expect(assessCapacity({ pools: reads([['a', 85, 15], ['b', 10, 90]]) }).total).toMatchObject({ level: 'warning', verdict: 'a filling up' });
  });

  it('leaves the total its own forecast when no pool is filling', () => {
    const c = assessCapacity({ pools: reads([['a', 10, 90], ['b', 30, 70]]) });
    expect(c.total?.fillsFirst).toBeUndefined();
    expect(c.total?.forecast.status).toBe('insufficient-data');
  });

  it('counts states the health record reports without pool names only when no pool has a state of its own', () => {
    const health = { CapacityUtilization: { ProvisioningStates: ['Ok', 'Warning'] } };
    expect(assessCapacity({ health, pools: reads([['a', 10, 90]]) })).toMatchObject({ level: 'warning', reasons: ['a pool is Warning (the system does not say which)'] });
    expect(assessCapacity({ health, provisioning: [{ PoolName: 'a', State: 'Ok' }] })).toMatchObject({ level: 'ok', reasons: [] });
    expect(assessCapacity({ health: { CapacityUtilization: { ProvisioningStates: ['Ok'] } } })).toMatchObject({ level: 'unknown', reasons: [] });
  });

  it('gives every pool’s reasons, in the order of the pools', () => {
    const c = assessCapacity({ pools: reads([['a', 85, 15], ['b', 95, 5]]) });
    expect(c.reasons).toEqual(['b: 95 % allocated', 'a: 85 % allocated']);
  });
});

describe('fillsFirst', () => {
  const f = (status: Forecast['status'], days?: number): { forecast: Forecast } => ({ forecast: { status, basis: 'free', slopePerDay: 1, capacity: 1, samples: 3, ...(days !== undefined ? { days } : {}) } });

  it('picks the pool full now, else the fewest days, the first on a tie, and none that is not filling', () => {
    const a = f('growing', 40);
    const b = f('growing', 12);
    const c = f('growing', 12);
    expect(fillsFirst([a, b, c])).toBe(b);
    const full = f('full', 0);
    expect(fillsFirst([a, full, b])).toBe(full);
    expect(fillsFirst([f('not-growing'), f('insufficient-data'), f('growing')])).toBeUndefined();
    expect(fillsFirst([f('not-growing', 1), a])).toBe(a);
    expect(fillsFirst([])).toBeUndefined();
  });
});
