import { describe, expect, it } from 'vitest';
import { haOf, partnerOf, takeoverBlocked, givebackBlocked } from '../../../../app/health/ha.js';
import { highLevel, laggingReplication, rollupHealth, unhealthyDrives } from '../../../../app/health/rollup.js';
import { driveLevel, driveMessage, driveSmartRisk, driveStatusText, type DriveSmartRisk } from '../../../../app/health/states.js';
import { connectionLevel } from '../../../../app/health/system-health.js';
import { briefOf, UNREAD_ROLLUP } from '../../../../app/health/summary-facts.js';
import { healthy } from './fixtures.js';

describe('health roll-up', () => {

  it('is ok when every dimension is', () => {
    const r = rollupHealth(healthy);
    expect(r).toMatchObject({ level: 'ok', reasons: [] });
    expect(r.capacity.pools.map((p) => [p.name, p.usable, p.allocated, p.free])).toEqual([['p', 100, 50, 50]]);
  });

  it('takes the worst dimension and says why', () => {
    const r = rollupHealth({
      ...healthy,
      HardwareResources: { HardwareResourcesHealthInPercentage: 96, UnhealthyResourceCount: { Drive: 2 } },
      CapacityUtilization: { CapacityInBytes: 100, CapacityUsageInBytes: 93, PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 100, CapacityUsageInBytes: 93 }] },
    });
    expect(r.level).toBe('critical');
    expect(r.reasons).toEqual(['capacity: p nearly full (7 % free)', 'hardware: 96 % healthy']);
    expect(r.dimensions.find((d) => d.name === 'hardware')?.text).toBe('2 Drive');
  });

  it('is critical when one pool of four is Full, though the system as a whole is a quarter used', () => {
    const pools = ['a', 'b', 'c', 'd'].map((PoolName) => ({ PoolName, CapacityInBytes: 100, CapacityUsageInBytes: PoolName === 'a' ? 99.35 : 0 }));
    const r = rollupHealth({ ...healthy, CapacityUtilization: { CapacityInBytes: 400, CapacityUsageInBytes: 99.35, ProvisioningStates: ['Full', 'Ok'], PoolCapacity: pools } });
    expect(r.level).toBe('critical');
    expect(r.reasons[0]).toBe('capacity: a full (0.65 % free)');
  });

  it('is unknown without a health record, and a dimension not reported is unknown', () => {
    expect(rollupHealth(undefined).level).toBe('unknown');
    expect(rollupHealth({ ...healthy, HardwareUtilization: undefined }).level).toBe('unknown');
  });

  it('counts a taken-over node as critical and names it', () => {
    const nodes = [
      { Name: 'n1', State: 'Running', HAState: 'TakeoverActive' },
      { Name: 'n2', State: 'Down', HAState: 'TakenOver' },
    ];
    const r = rollupHealth(healthy, { nodes });
    expect(r.level).toBe('critical');
    expect(r.reasons).toEqual(['HA: n2 taken over by n1']);
    expect(r.ha?.label).toBe('taken over');
  });

  it('counts a connection problem as at least a warning', () => {
    expect(connectionLevel('ok')).toBe('ok');
    expect(connectionLevel('stale')).toBe('ok');
    // A system that does not answer is critical, as its alert is.
    expect(connectionLevel('unreachable')).toBe('critical');
    expect(connectionLevel('paused')).toBe('warning');
    expect(connectionLevel('certificate-changed')).toBe('critical');
    // Part of the system's data could not be read: not knowing is worse than a warning.
    expect(connectionLevel('protocol-error')).toBe('unknown');
  });
});

describe('HA actions', () => {
  const normal = [
    { Name: 'n1', State: 'Running', HAState: 'Normal' },
    { Name: 'n2', State: 'Running', HAState: 'Normal' },
  ];
  const taken = [
    { Name: 'n1', State: 'Running', HAState: 'TakeoverActive' },
    { Name: 'n2', State: 'Down', HAState: 'TakenOver' },
  ];

  it('offers a takeover only of a running node whose partner can take it', () => {
    expect(takeoverBlocked(normal, 'n2')).toBeUndefined();
    expect(takeoverBlocked(taken, 'n2')).toBe('n2 is already taken over');
    expect(takeoverBlocked(taken, 'n1')).toBe("n1 is running its partner's services; give them back first");
  });

  it('offers give-back only while a node is taken over', () => {
    expect(givebackBlocked(normal)).toBe('no node is taken over');
    expect(givebackBlocked(taken)).toBeUndefined();
  });

  it('knows the partner in a pair, and not in a larger system it cannot pair', () => {
    expect(partnerOf(normal, 'n1')?.Name).toBe('n2');
    expect(partnerOf([...normal, { Name: 'n3' }], 'n1')).toBeUndefined();
    expect(haOf(normal)).toMatchObject({ level: 'ok', label: 'normal' });
    expect(haOf([{ Name: 'n1', State: 'Running', HAState: 'Unknown' }]).level).toBe('ok');
  });
});

describe('fleet lists', () => {
  it('picks drives whose status is not OK', () => {
    const nodes = [{ Name: 'n1', Drives: [{ Id: 1, ResourceStatus: 'OK' }, { Id: 2, ResourceStatus: 'Failed' }, { Id: 3 }] }];
    expect(unhealthyDrives(nodes).map((d) => [d.node, d.drive.Id])).toEqual([['n1', 2]]);
  });

  it('picks drives whose SMART predicts failure while their status is OK, at the level SMART says', () => {
    const nodes = [{ Name: 'n1', Drives: [{ Id: 1, Name: 'sda', ResourceStatus: 'OK' }, { Id: 2, Name: 'sdb', ResourceStatus: 'Degraded' }, { Id: 3, Name: 'sdc', ResourceStatus: 'OK' }, { Id: 4, Name: 'sdd', ResourceStatus: 'Online' }] }];
    const smart = (_node: string, id: number): DriveSmartRisk | undefined =>
      id === 1 ? { risk: 'critical', findings: ['5 Reallocated_Sector_Ct: 640'] } : id === 2 ? { risk: 'warning', findings: [] } : undefined;
    const drives = unhealthyDrives(nodes, smart);
    expect(drives.map((d) => [d.drive.Name, driveLevel(d.drive, d.smart), driveStatusText(d)])).toEqual([
      ['sda', 'critical', 'OK, SMART critical'],
      ['sdb', 'warning', 'Degraded'],
    ]);
    expect(driveMessage(drives[0]!)).toBe('5 Reallocated_Sector_Ct: 640');
    // The roll-up counts the SMART-only drive by its SMART risk, and the system with it.
    const r = rollupHealth(healthy, { drives });
    expect(r.level).toBe('critical');
    expect(r.dimensions.find((d) => d.name === 'drives')).toMatchObject({ level: 'critical', text: '1 SMART critical, 1 Degraded' });
    // SMART text not understood adds nothing to a drive's level: the SMART report names it unknown.
    expect(driveSmartRisk({ risk: 'unknown', findings: [] })).toBeUndefined();
    expect(driveLevel({ ResourceStatus: 'OK' }, { risk: 'unknown' })).toBe('ok');
    expect(driveSmartRisk({ risk: 'warning', findings: [{ risk: 'warning', subject: '197 Current_Pending_Sector', message: '6' }] })).toEqual({ risk: 'warning', findings: ['197 Current_Pending_Sector: 6'] });
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

describe('UNREAD_ROLLUP (the first frame shows it without the roll-up code)', () => {
  it('is the brief of the roll-up of nothing cached', () => {
    expect(UNREAD_ROLLUP).toStrictEqual(briefOf({ rollup: rollupHealth(undefined), at: undefined, drives: [], lagging: [] }).rollup);
  });
});
