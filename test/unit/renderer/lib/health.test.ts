import { describe, expect, it } from 'vitest';
import { connectionLevel, highLevel, laggingReplication, rollupHealth, unhealthyDrives } from '../../../../renderer/lib/health.js';

describe('health roll-up', () => {
  const healthy = {
    Volumes: { VolumesHealthInPercentage: 100, HealthyVolumes: 10, UnhealthyVolumes: 0 },
    HardwareResources: { HardwareResourcesHealthInPercentage: 100, UnhealthyResourceCount: {} },
    HardwareUtilization: { HardwareUtilizationInPercentage: 40, CPUInPercentage: 30, MemoryInPercentage: 40 },
    CapacityUtilization: { CapacityInBytes: 100, CapacityUsageInBytes: 50 },
  };

  it('is ok when every dimension is', () => {
    expect(rollupHealth(healthy)).toMatchObject({ level: 'ok', reasons: [], capacity: { total: 100, used: 50 } });
  });

  it('takes the worst dimension and says why', () => {
    const r = rollupHealth({ ...healthy, HardwareResources: { HardwareResourcesHealthInPercentage: 96, UnhealthyResourceCount: { Drive: 2 } }, CapacityUtilization: { CapacityInBytes: 100, CapacityUsageInBytes: 93 } });
    expect(r.level).toBe('critical');
    expect(r.reasons).toEqual(['capacity: 93 %', 'hardware: 96 % healthy']);
    expect(r.dimensions.find((d) => d.name === 'hardware')?.text).toBe('2 Drive');
  });

  it('is unknown without a health record, and a dimension not reported is unknown', () => {
    expect(rollupHealth(undefined).level).toBe('unknown');
    expect(rollupHealth({ ...healthy, HardwareUtilization: undefined }).level).toBe('unknown');
  });

  it('counts a connection problem as at least a warning', () => {
    expect(connectionLevel('ok')).toBe('ok');
    expect(connectionLevel('stale')).toBe('ok');
    expect(connectionLevel('unreachable')).toBe('warning');
    expect(connectionLevel('certificate-changed')).toBe('critical');
    // Part of the system's data could not be read: not knowing is worse than a warning.
    expect(connectionLevel('protocol-error')).toBe('unknown');
  });
});

describe('fleet lists', () => {
  it('picks drives whose status is not OK', () => {
    const nodes = [{ Name: 'n1', Drives: [{ Id: 1, ResourceStatus: 'OK' }, { Id: 2, ResourceStatus: 'Failed' }, { Id: 3 }] }];
    expect(unhealthyDrives(nodes).map((d) => [d.node, d.drive.Id])).toEqual([['n1', 2]]);
  });

  it('picks replication pairs below 100 % or not in sync', () => {
    const apps = [
      {
        Application: 'sql',
        Volumes: [
          { Volume: 'a', Replication: { ReplicationPairs: [{ SyncInPercentage: 100, ConnectionStatus: 'InSync' }] } },
          { Volume: 'b', Replication: { ReplicationPairs: [{ SyncInPercentage: 42, ConnectionStatus: 'Syncing' }] } },
          { Volume: 'c', Replication: { ReplicationPairs: [{ SyncInPercentage: 100, ConnectionStatus: 'Initializing' }] } },
        ],
      },
    ];
    expect(laggingReplication(apps).map((p) => p.volume)).toEqual(['b', 'c']);
  });

  it('keeps errors and above, newest first', () => {
    const notes = [
      { Id: 1, Level: 5, Timestamp: '2025-01-01T01:00:00' },
      { Id: 2, Level: 3, Timestamp: '2025-01-01T03:00:00' },
      { Id: 3, Level: 4, Timestamp: '2025-01-01T02:00:00' },
    ];
    expect(highLevel(notes).map((n) => n.Id)).toEqual([3, 1]);
  });
});
