import { describe, expect, it } from 'vitest';
import { CAPACITY_HISTORY_CACHE, REFRESH_READS, driveSkeleton, driveStatuses, drivesOf, dueAgain, healthStates, readPhase, refreshPlan, smartDrivesToRead, smartDue } from '../../../../app/fleet/refresh-plan.js';
import { ROLLUP_READS } from '../../../../app/health/system-health.js';
import { REPORT_READS } from '../../../../app/reports/snapshot.js';
import { READS } from '../../../../renderer/lib/reads.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const resources = (statuses: Record<number, string>) => ({
  Data: [{ Name: 'node-1', Drives: Object.entries(statuses).map(([id, s]) => ({ Id: Number(id), ResourceStatus: s })) }],
});
const HOUR = 3_600_000;

describe('refresh plan: full and steady', () => {
  it('a full refresh reads everything; a steady poll reads health, notifications and the live lists, and only the slow and detail reads that are due', () => {
    const full = refreshPlan(NOW, undefined, 'full');
    expect(full).toHaveLength(REFRESH_READS.length + 2);
    const nothingDue = refreshPlan(NOW, undefined, 'steady', () => false);
    expect(nothingDue.map((r) => r.op).sort()).toEqual(['GET /monitoring/evacuations/live', 'GET /monitoring/health/current', 'GET /notifications/query', 'GET /replication/list'].sort());
    const usersDue = refreshPlan(NOW, undefined, 'steady', (r) => r.op === 'GET /users/list');
    expect(usersDue.map((r) => r.op)).toContain('GET /users/list');
    expect(usersDue).toHaveLength(nothingDue.length + 1);
    const drivesDue = refreshPlan(NOW, undefined, 'steady', (r) => r.op === 'GET /resources/list');
    expect(drivesDue.map((r) => r.op).sort()).toEqual([...nothingDue.map((r) => r.op), 'GET /resources/list'].sort());
    expect(REFRESH_READS.filter((r) => r.detail).map((r) => r.op).sort()).toEqual(
      ['GET /monitoring/capacity/pools/current', 'GET /monitoring/capacity/provisioning', 'GET /nodes/list', 'GET /resources/list'].sort(),
    );
  });

  it('a steady poll reads notifications since the newest record held', () => {
    const plan = refreshPlan(NOW, '2026-03-01T11:59:00', 'steady', () => false);
    expect(plan.find((r) => r.op === 'GET /notifications/query')?.query).toMatchObject({ startTimestamp: '2026-03-01T11:59:00' });
  });
});

describe('the capacity history in the cache', () => {
  it('is cached under one read whatever range was asked for, the one the roll-up, reports and views read', () => {
    const history = refreshPlan(NOW, undefined).filter((r) => r.op === CAPACITY_HISTORY_CACHE.op);
    expect(history).toHaveLength(1);
    expect(history[0]!.query).toMatchObject({ fromDate: expect.any(String) as unknown });
    expect({ op: history[0]!.op, query: history[0]!.cacheQuery }).toEqual(CAPACITY_HISTORY_CACHE);
    const readers = [ROLLUP_READS.history, READS.capacityHistory, ...REPORT_READS.filter((r) => r.op === CAPACITY_HISTORY_CACHE.op)];
    expect(readers).toHaveLength(3);
    for (const r of readers) expect(r).toEqual(CAPACITY_HISTORY_CACHE);
  });
});

describe('SMART in a steady poll', () => {
  it('reads a drive never read, or read at least the SMART age ago, and not one read recently', () => {
    const now = resources({ 1: 'OK', 2: 'OK', 3: 'OK' });
    const ages: Record<number, number | undefined> = { 1: undefined, 2: 24 * HOUR, 3: 23 * HOUR };
    const due = smartDue(now, now, (d) => ages[d.driveid], 24 * HOUR);
    expect(smartDrivesToRead(now, 256, due).drives.map((d) => d.driveid)).toEqual([1, 2]);
  });

  it('reads a drive whose status changed since the last drive list, however fresh its reading', () => {
    const before = resources({ 1: 'OK', 2: 'OK' });
    const now = resources({ 1: 'OK', 2: 'Failed' });
    const due = smartDue(now, before, () => HOUR, 24 * HOUR);
    expect(smartDrivesToRead(now, 256, due)).toEqual({ drives: [{ node: 'node-1', driveid: 2 }], total: 1 });
  });

  it('keeps the cap, failing drives first, among the drives due', () => {
    const now = resources({ 1: 'OK', 2: 'OK', 3: 'Degraded', 4: 'OK' });
    const due = smartDue(now, now, (d) => (d.driveid === 4 ? HOUR : undefined), 24 * HOUR);
    expect(smartDrivesToRead(now, 2, due)).toEqual({ drives: [{ node: 'node-1', driveid: 3 }, { node: 'node-1', driveid: 1 }], total: 3 });
  });
});

describe('driveSkeleton', () => {
  it('reads as the drive list does for SMART planning: the same drives, statuses and order', () => {
    const resources = {
      Data: [
        { Name: 'n1', Time: 'x', Drives: [{ Id: 1, ResourceStatus: 'OK', Sensors: [1] }, { Id: 2, ResourceStatus: 'Failed' }, null, { Id: 'big', ResourceStatus: 'OK' }, { Id: 3, ResourceStatus: 'Missing' }] },
        { Name: 5, Drives: [{ Id: 9 }] },
        { Name: 'n2', Drives: [{ Id: 4 }] },
      ],
    };
    const skeleton = driveSkeleton(resources);
    expect(JSON.stringify(skeleton).length).toBeLessThan(JSON.stringify(resources).length);
    expect(drivesOf(skeleton)).toEqual(drivesOf(resources));
    expect(driveStatuses(skeleton)).toEqual(driveStatuses(resources));
    expect(smartDrivesToRead(skeleton, 1)).toEqual(smartDrivesToRead(resources, 1));
    expect(driveSkeleton(undefined)).toEqual({ Data: [] });
  });
});

describe('healthStates: what a steady poll compares of the health answer', () => {
  const health = (o: { cpu?: number; bytes?: number; drives?: number; vols?: Record<string, string>; states?: string[]; pools?: string[] } = {}) => ({
    Volumes: { VolumesHealthInPercentage: 100, HealthyVolumes: 4, UnhealthyVolumes: Object.keys(o.vols ?? {}).length, UnhealthyStates: o.vols ?? {} },
    HardwareResources: { HardwareResourcesHealthInPercentage: 99.5, UnhealthyResourceCount: o.drives ? { Drive: o.drives } : {} },
    HardwareUtilization: { HardwareUtilizationInPercentage: o.cpu ?? 12, CPUInPercentage: o.cpu ?? 12 },
    CapacityUtilization: {
      CapacityInBytes: 1e12,
      CapacityUsageInBytes: o.bytes ?? 4e11,
      ProvisioningStates: o.states ?? ['Ok'],
      PoolCapacity: (o.pools ?? ['p1', 'p2']).map((p) => ({ PoolName: p, CapacityInBytes: 5e11, CapacityUsageInBytes: o.bytes ?? 2e11 })),
    },
  });

  it('stands while percentages and bytes move', () => {
    expect(healthStates(health({ cpu: 80, bytes: 4.5e11 }))).toEqual(healthStates(health()));
  });

  it('moves, part by part, when a count, a state or the pools change', () => {
    const before = healthStates(health())!;
    const drive = healthStates(health({ drives: 1 }))!;
    expect(drive.hardware).not.toBe(before.hardware);
    expect(drive.pools).toBe(before.pools);
    expect(healthStates(health({ vols: { 'app/v1': 'Degraded' } }))!.volumes).not.toBe(before.volumes);
    expect(healthStates(health({ vols: { 'app/v1': 'Degraded' } }))!.volumes).not.toBe(healthStates(health({ vols: { 'app/v1': 'Offline' } }))!.volumes);
    expect(healthStates(health({ states: ['Ok', 'Degraded'] }))!.pools).not.toBe(before.pools);
    expect(healthStates(health({ pools: ['p1'] }))!.pools).not.toBe(before.pools);
    // Order is no change.
    expect(healthStates(health({ pools: ['p2', 'p1'], states: ['Warning', 'Ok'] }))).toEqual(healthStates(health({ states: ['Ok', 'Warning'] })));
  });

  it('is undefined for no answer', () => {
    expect(healthStates(undefined)).toBeUndefined();
    expect(healthStates(null)).toBeUndefined();
  });
});


describe('dueAgain and readPhase: reads spread over their window', () => {
  const WINDOW = 15 * 60_000;
  const t0 = Date.UTC(2026, 0, 15, 10, 3, 17);

  it('reads an answer never read, or read longer ago than the window, at once', () => {
    expect(dueAgain(undefined, t0, WINDOW, 0.3)).toBe(true);
    expect(dueAgain(Number.NaN, t0, WINDOW, 0.3)).toBe(true);
    for (const phase of [0, 0.25, 0.5, 0.999]) expect(dueAgain(t0 - WINDOW, t0, WINDOW, phase)).toBe(true);
  });

  it('without a phase, reads by age alone: not before the window length has passed', () => {
    expect(dueAgain(t0, t0 + WINDOW - 1, WINDOW)).toBe(false);
    expect(dueAgain(t0, t0 + WINDOW, WINDOW)).toBe(true);
    expect(dueAgain(t0, t0, 0)).toBe(true);
  });

  it('reads each system once a window: a fleet read at once reads again over the next window, a share in each poll', () => {
    const systems = Array.from({ length: 1_000 }, (_, i) => ['site-a', 'site-b', 'site-c'][i % 3]! + '/' + `sys-${i}`);
    const perPoll = new Map<number, number>();
    for (const name of systems) {
      const [site, system] = name.split('/') as [string, string];
      const phase = readPhase(site, system);
      let readAt = t0;
      const reads: number[] = [];
      // Polls every minute for two windows.
      for (let minute = 1; minute <= 30; minute++) {
        const now = t0 + minute * 60_000;
        if (!dueAgain(readAt, now, WINDOW, phase)) continue;
        expect(now - readAt).toBeLessThanOrEqual(WINDOW);
        reads.push(minute);
        readAt = now;
        if (minute <= 15) perPoll.set(minute, (perPoll.get(minute) ?? 0) + 1);
      }
      // Once in the first window after the fleet's read, once in the next: never twice in one.
      expect(reads.filter((m) => m <= 15)).toHaveLength(1);
      expect(reads).toHaveLength(2);
      expect(reads[1]! - reads[0]!).toBe(15);
    }
    // Spread: no poll of the first window reads more than twice its share.
    expect([...perPoll.values()].reduce((a, b) => a + b, 0)).toBe(1_000);
    for (const n of perPoll.values()) expect(n).toBeLessThan((2 * 1_000) / 15);
  });

  it('gives each system one phase in [0, 1), the same every time', () => {
    expect(readPhase('site-a', 'sys-1')).toBe(readPhase('site-a', 'sys-1'));
    expect(readPhase('site-a', 'sys-1')).not.toBe(readPhase('site-a', 'sys-2'));
    expect(readPhase('site-a', 'sys-1')).not.toBe(readPhase('site-b', 'sys-1'));
    for (let i = 0; i < 200; i++) {
      const p = readPhase('s', `x${i}`);
      expect(p >= 0 && p < 1).toBe(true);
    }
  });
});
