import { describe, expect, it } from 'vitest';
import type { Health } from '../../../../app/catalog/resources.js';
import { highLevel, laggingReplication, rollupHealth, unhealthyDrives } from '../../../../app/health/rollup.js';

const health = (over: Record<string, unknown> = {}): Health =>
  ({
    Volumes: { VolumesHealthInPercentage: 100, HealthyVolumes: 4, UnhealthyVolumes: 0 },
    HardwareResources: { HardwareResourcesHealthInPercentage: 100, UnhealthyResourceCount: {} },
    HardwareUtilization: { HardwareUtilizationInPercentage: 40, CPUInPercentage: 30.4, MemoryInPercentage: 50.5 },
    ...over,
  }) as Health;

const dim = (h: Health, name: string) => rollupHealth(h).dimensions.find((d) => d.name === name);

describe('rollupHealth: each dimension at its thresholds', () => {
  it('reads volume and hardware health: below 80 % critical, below 100 % a warning', () => {
    expect(dim(health(), 'volumes')).toEqual({ name: 'volumes', level: 'ok', percent: 100, text: '4 healthy' });
    expect(dim(health({ Volumes: { VolumesHealthInPercentage: 99.9, HealthyVolumes: 3, UnhealthyVolumes: 1 } }), 'volumes')).toEqual({ name: 'volumes', level: 'warning', percent: 99.9, text: '1 unhealthy of 4' });
    expect(dim(health({ Volumes: { VolumesHealthInPercentage: 80, UnhealthyVolumes: 2 } }), 'volumes')).toMatchObject({ level: 'warning', text: '2 unhealthy of 2' });
    expect(dim(health({ Volumes: { VolumesHealthInPercentage: 79.9 } }), 'volumes')).toMatchObject({ level: 'critical', text: '0 healthy' });
    expect(dim(health({ Volumes: undefined }), 'volumes')).toEqual({ name: 'volumes', level: 'unknown', percent: undefined, text: 'not reported' });
    expect(dim(health({ HardwareResources: { HardwareResourcesHealthInPercentage: 75, UnhealthyResourceCount: { Fans: 2, PSUs: 0, Drives: 1 } } }), 'hardware')).toEqual({ name: 'hardware', level: 'critical', percent: 75, text: '2 Fans, 1 Drives' });
    expect(dim(health(), 'hardware')).toMatchObject({ level: 'ok', text: 'all healthy' });
  });

  it('reads utilization: from 85 % a warning, from 95 % critical, with CPU and memory rounded', () => {
    const at = (p: number) => dim(health({ HardwareUtilization: { HardwareUtilizationInPercentage: p, CPUInPercentage: 30.4, MemoryInPercentage: 50.5 } }), 'utilization');
    expect(at(84.9)).toEqual({ name: 'utilization', level: 'ok', percent: 84.9, text: 'CPU 30 %, memory 51 %' });
    expect(at(85)?.level).toBe('warning');
    expect(at(94.9)?.level).toBe('warning');
    expect(at(95)?.level).toBe('critical');
    expect(dim(health({ HardwareUtilization: { HardwareUtilizationInPercentage: 10 } }), 'utilization')?.text).toBe('CPU not reported, memory not reported');
    expect(dim(health({ HardwareUtilization: undefined }), 'utilization')).toEqual({ name: 'utilization', level: 'unknown', percent: undefined, text: 'not reported' });
  });

  it('gives the worst level and the reasons worst first, in words', () => {
    const r = rollupHealth(
      health({
        Volumes: { VolumesHealthInPercentage: 90.4, HealthyVolumes: 9, UnhealthyVolumes: 1 },
        HardwareResources: { HardwareResourcesHealthInPercentage: 70, UnhealthyResourceCount: { Fans: 1 } },
        HardwareUtilization: { HardwareUtilizationInPercentage: 88, CPUInPercentage: 88, MemoryInPercentage: 10 },
      }),
      { nodes: [{ Name: 'n1', State: 'Down', HAState: 'Normal' }], drives: [{ node: 'n1', drive: { Id: 1, ResourceStatus: 'Missing' } }], lagging: [] },
    );
    expect(r.level).toBe('critical');
    expect(r.reasons).toEqual(['hardware: 70 % healthy', 'HA: n1 down', 'drives: 1 Missing', 'capacity: not reported', 'volumes: 90 % healthy', 'utilization: 88 %']);
    expect(r.dimensions.map((d) => d.name)).toEqual(['volumes', 'hardware', 'utilization', 'capacity', 'ha', 'drives', 'replication']);
    expect(r.dimensions.find((d) => d.name === 'replication')).toEqual({ name: 'replication', level: 'ok', percent: undefined, text: 'in sync' });
  });

  it('without a health record is unknown, keeping what the lists say', () => {
    const r = rollupHealth(undefined, { drives: [], lagging: [] });
    expect(r.level).toBe('unknown');
    expect(r.reasons[0]).toBe('no health data cached');
    expect(r.dimensions.map((d) => d.name)).toEqual(['drives', 'replication']);
    expect(rollupHealth(null, { nodes: [{ Name: 'n1', State: 'Down' }] }).reasons).toEqual(['no health data cached', 'HA: n1 down']);
  });
});

describe('drive and replication dimensions', () => {
  it('tallies drives by status, worst first then most, naming a status not understood', () => {
    const drives = ['Degraded', 'Missing', 'Degraded', 'Failed', 'Wibbling', 'Missing', 'Missing'].map((s, i) => ({ node: 'n1', drive: { Id: i, ResourceStatus: s } }));
    expect(rollupHealth(health(), { drives }).dimensions.find((d) => d.name === 'drives')).toEqual({
      name: 'drives',
      level: 'critical',
      percent: undefined,
      text: '3 Missing, 1 Failed, 1 “Wibbling” (not understood), 2 Degraded',
    });
    expect(rollupHealth(health(), { drives: [] }).dimensions.find((d) => d.name === 'drives')).toEqual({ name: 'drives', level: 'ok', percent: undefined, text: 'all OK' });
  });

  it('counts pairs not in sync, by status', () => {
    const lagging = [
      { application: 'a', volume: 'v1', pair: { ConnectionStatus: 'Syncing', SyncInPercentage: 40 } },
      { application: 'a', volume: 'v2', pair: { SyncInPercentage: 90 } },
    ];
    expect(rollupHealth(health(), { lagging }).dimensions.find((d) => d.name === 'replication')).toEqual({ name: 'replication', level: 'warning', percent: undefined, text: '2 pairs not in sync (1 Syncing, 1 behind)' });
    expect(rollupHealth(health(), { lagging: lagging.slice(0, 1) }).dimensions.find((d) => d.name === 'replication')?.text).toBe('1 pair not in sync (1 Syncing)');
  });
});

describe('fleet lists', () => {
  it('lists drives not ok with their node, and pairs not ok with their application and volume', () => {
    expect(unhealthyDrives([{ Name: 'n1', Drives: [{ Id: 1, ResourceStatus: 'Rebuilding' }, { Id: 2, ResourceStatus: 'OK' }] }, { Drives: [{ Id: 3, ResourceStatus: 'Wibble' }] }, { Name: 'n3' }])).toEqual([
      { node: 'n1', drive: { Id: 1, ResourceStatus: 'Rebuilding' } },
      { node: '', drive: { Id: 3, ResourceStatus: 'Wibble' } },
    ]);
    const apps = [
      { Application: 'sql', Volumes: [{ Volume: 'v1', Replication: { ReplicationPairs: [{ ConnectionStatus: 'Connected', SyncInPercentage: 100 }, { ConnectionStatus: 'Broken' }] } }] },
      { Volumes: [{ Application: 'web', Volume: 'v2', Replication: { ReplicationPairs: [{ SyncInPercentage: 10 }] } }, { Replication: { ReplicationPairs: [{ ConnectionStatus: 'Paused' }] } }] },
      { Application: 'none' },
    ];
    expect(laggingReplication(apps as never)).toEqual([
      { application: 'sql', volume: 'v1', pair: { ConnectionStatus: 'Broken' } },
      { application: 'web', volume: 'v2', pair: { SyncInPercentage: 10 } },
      { application: '', volume: '', pair: { ConnectionStatus: 'Paused' } },
    ]);
  });

  it('keeps notifications at Error or above, newest first, up to the limit', () => {
    const records = [
      { Id: 1, Level: 4, Timestamp: '2026-01-01T00:00:00Z' },
      { Id: 2, Level: 3, Timestamp: '2026-01-03T00:00:00Z' },
      { Id: 3, Level: 5, Timestamp: '2026-01-02T00:00:00Z' },
      { Id: 4, Level: 'Weird' },
      { Id: 5, Level: 'Fatal', Timestamp: '2026-01-04T00:00:00Z' },
    ];
    expect(highLevel(records as never).map((r) => r.Id)).toEqual([5, 3, 1, 4]);
    expect(highLevel(records as never, 2).map((r) => r.Id)).toEqual([5, 3]);
  });
});

describe('the capacity dimension', () => {
  const pool = (name: string, level: 'ok' | 'warning' | 'critical', verdict: string, allocatedPercent: number | undefined, freePercent: number | undefined) =>
    ({ name, level, verdict, allocatedPercent, freePercent, usable: undefined, allocated: undefined, consumed: undefined, free: undefined, state: undefined, reason: undefined, layouts: [], forecast: { status: 'none' }, reasons: [] }) as never;

  it('shows the worst pool’s verdict and the highest allocated share', () => {
    const capacity = { pools: [pool('p1', 'critical', 'nearly full', 91, 9), pool('p2', 'ok', 'ok', 95, 5)], total: undefined, level: 'critical' as const, reasons: ['p1 nearly full'] };
    const d = rollupHealth(health(), { capacity }).dimensions.find((x) => x.name === 'capacity');
    expect(d).toEqual({ name: 'capacity', level: 'critical', percent: 95, text: 'p1 nearly full (9 % free)' });
    expect(rollupHealth(health(), { capacity }).reasons).toEqual(['capacity: p1 nearly full (9 % free)']);
  });

  it('counts pools that are all ok, and gives no figure when no pool has one', () => {
    const one = { pools: [pool('p1', 'ok', 'ok', undefined, undefined)], total: undefined, level: 'ok' as const, reasons: [] };
    expect(rollupHealth(health(), { capacity: one }).dimensions.find((x) => x.name === 'capacity')).toEqual({ name: 'capacity', level: 'ok', percent: undefined, text: '1 pool ok' });
    const two = { pools: [pool('p1', 'ok', 'ok', 10, 90), pool('p2', 'ok', 'ok', 20, 80)], total: undefined, level: 'ok' as const, reasons: [] };
    expect(rollupHealth(health(), { capacity: two }).dimensions.find((x) => x.name === 'capacity')).toEqual({ name: 'capacity', level: 'ok', percent: 20, text: '2 pools ok' });
    const noFree = { pools: [pool('p1', 'warning', 'degraded', 50, undefined)], total: undefined, level: 'warning' as const, reasons: [] };
    expect(rollupHealth(health(), { capacity: noFree }).dimensions.find((x) => x.name === 'capacity')?.text).toBe('p1 degraded');
    const none = { pools: [], total: undefined, level: 'unknown' as const, reasons: [] };
    expect(rollupHealth(health(), { capacity: none }).dimensions.find((x) => x.name === 'capacity')).toEqual({ name: 'capacity', level: 'unknown', percent: undefined, text: 'not reported' });
  });
});
