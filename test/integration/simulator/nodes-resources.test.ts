import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Drive, DrivePerformance, Health, Node } from '../../../app/catalog/resources.js';
import { ApiError } from '../../../main/client/index.js';
import { harness, rejection } from './support.js';
import type { Harness } from './support.js';

async function expect400(p: Promise<unknown>, message: RegExp): Promise<void> {
  const err = await rejection(p);
  expect(err).toBeInstanceOf(ApiError);
  expect(err.message).toMatch(message);
}

function rawOf(text: string, id: number): number {
  const line = text.split('\n').find((l) => new RegExp(`^\\s*${id}\\s`).test(l));
  if (!line) throw new Error(`attribute ${id} not found`);
  return Number(line.trim().split(/\s+/)[9]);
}

describe('nodes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 1 });
  });
  afterAll(async () => h.close());

  it('takes over and gives back, moving services and HA state', async () => {
    const nodes = (await h.call<{ Data: Node[] }>('GET /nodes/list')).Data;
    const [a, b] = nodes as [Node, Node];
    expect(a).toMatchObject({ State: 'Running', HAState: 'Normal', CurrentManagementConnection: true });
    await h.call('PUT /nodes/takeover', { body: { Node: a.Name } });
    const after = (await h.call<{ Data: Node[] }>('GET /nodes/list')).Data;
    expect(after[0]).toMatchObject({ State: 'Down', HAState: 'TakenOver', Services: [], CurrentManagementConnection: false });
    expect(after[1]).toMatchObject({ State: 'Running', HAState: 'TakeoverActive', CurrentManagementConnection: true });
    expect(new Set(after[1]?.Services)).toEqual(new Set([...(a.Services ?? []), ...(b.Services ?? [])]));
    await expect400(h.call('PUT /nodes/takeover', { body: { Node: a.Name } }), /already taken over/);
    await expect400(h.call('PUT /nodes/takeover', { body: { Node: b.Name } }), /running the services of/);
    await expect400(h.call('PUT /nodes/connect', { body: { Node: a.Name } }), /is down/);
    await h.call('PUT /nodes/giveback', { body: { Force: true } });
    const back = (await h.call<{ Data: Node[] }>('GET /nodes/list')).Data;
    expect(back.map((n) => [n.State, n.HAState, n.Services])).toEqual(nodes.map((n) => ['Running', 'Normal', n.Services]));
    await expect400(h.call('PUT /nodes/giveback', { body: {} }), /No node is taken over/);
  });

  it('sets CHAP and iSNS, renames nodes, runs the support tunnel and lists sessions', async () => {
    await expect400(h.call('PUT /nodes/chap', { body: { ChapName: 'target', ChapSecret: 'short' } }), /12 to 16/);
    await h.call('PUT /nodes/chap', { body: { ChapName: 'target', ChapSecret: 'target-secret-1' } });
    await h.call('PUT /nodes/isns', { body: { Address: '10.1.0.5', AccessControl: true } });
    await expect400(h.call('PUT /nodes/isns', { body: { Address: 'isns..server' } }), /not a valid IPv4/);
    const [n1, n2] = (await h.call<{ Data: Node[] }>('GET /nodes/list', { query: { sensors: true } })).Data as [Node, Node];
    expect(n1.TargetChap).toEqual({ ChapName: 'target' });
    expect(n1.Isns).toEqual({ IsnsAddress: '10.1.0.5', AccessControl: true });
    expect(n1.Sensors?.some((s) => s.Type === 'Temperture' && /^\d+ C$/.test(s.Reading ?? ''))).toBe(true);
    expect(n1.Iqn).toMatch(/^iqn\.2012-06\.com\.fleetdeck:/);
    await h.call('PUT /nodes/edit', { body: { Node: n2.Name, Newname: 'renamed-node' } });
    await expect400(h.call('PUT /nodes/edit', { body: { Node: 'renamed-node', Newname: n1.Name } }), /already exists/);
    await h.call('PUT /nodes/connect', { body: { Node: 'renamed-node' } });
    expect((await h.call<{ Data: Node[] }>('GET /nodes/list')).Data.find((n) => n.Name === 'renamed-node')?.CurrentManagementConnection).toBe(true);
    await h.call('PUT /nodes/support/tunnel/enable', { body: { Node: 'renamed-node' } });
    await expect400(h.call('PUT /nodes/support/tunnel/enable', { body: { Node: 'renamed-node' } }), /already enabled/);
    const tunnels = (await h.call<{ Data: Node[] }>('GET /nodes/support/tunnel/status')).Data;
    expect(tunnels.find((n) => n.Name === 'renamed-node')?.SupportTunnelStatus).toMatch(/^Enabled/);
    await h.call('PUT /nodes/support/tunnel/disable', { body: { Node: 'renamed-node' } });
    await h.call('POST /hosts/create', { body: { Name: 'sess-host', Iqn: 'iqn.2024-01.com.example:sess', Ip: '10.101.1.170' } });
    const app = (await h.call<{ Data: Array<{ Application: string }> }>('GET /applications/list', { query: { vols: false } })).Data[0]?.Application;
    await h.call('POST /hosts/mappings/add', { body: { Application: app, Hosts: ['sess-host'] } });
    const sessions = (await h.call<{ Data: Node[] }>('GET /nodes/sessions', { query: { node: n1.Name } })).Data;
    expect(sessions[0]?.Sessions).toContain(`iSCSI iqn.2024-01.com.example:sess (10.101.1.170) -> ${n1.Iqn}`);
  });

  it('runs node utilities with a timeout', async () => {
    expect(await h.call<string>('GET /nodes/utils/run', { query: { utility: 'uptime' } })).toMatch(/up \d+ days, .*load average/);
    expect(await h.call<string>('GET /nodes/utils/run', { query: { utility: 'ip-addr' } })).toMatch(/inet 10\.1\.1\.\d+\/24 scope global eth0/);
    expect(await h.call<string>('GET /nodes/utils/run', { query: { utility: 'df' } })).toMatch(/^Filesystem\s+1K-blocks/);
    await expect400(h.call('GET /nodes/utils/run', { query: { utility: 'rm' } }), /Unknown utility 'rm'/);
    // The run lasts as long as the system's clock says: 30 s asked, cut at the 1 s timeout.
    h.instantWaits = true;
    try {
      h.waits.length = 0;
      expect(await h.call<string>('GET /nodes/utils/run', { query: { utility: 'sleep', args: '0.05' } })).toBe('');
      expect(h.waits).toEqual([50]);
      h.waits.length = 0;
      await expect400(h.call('GET /nodes/utils/run', { query: { utility: 'sleep', args: '30', timeoutSeconds: 1 } }), /timed out after 1 s/);
      expect(h.waits).toEqual([1000]);
      h.waits.length = 0;
      expect(await h.call<string>('GET /nodes/utils/run', { query: { utility: 'sleep', args: '2', timeoutSeconds: 5 } })).toBe('');
      expect(h.waits).toEqual([2000]);
    } finally {
      h.instantWaits = false;
    }
    await expect400(h.call('GET /nodes/utils/run', { query: { utility: 'uptime', timeoutSeconds: 0 } }), /timeoutSeconds/);
  });
});

describe('resources', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 1 });
  });
  afterAll(async () => h.close());

  it('lists drives of mixed types with pools and approval states', async () => {
    const drives = (await h.call<{ Data: Drive[] }>('GET /resources/drives/list', { query: { details: true } })).Data;
    expect(new Set(drives.map((d) => d.Type))).toEqual(new Set(['HDD', 'SSD', 'NVMe']));
    const first = drives[0] as Drive;
    expect(first).toMatchObject({ ResourceStatus: expect.any(String), Vendor: expect.any(String), Model: expect.any(String), ManualPool: 'hdd-pool', ApprovedState: 'Approved' });
    const all = (await h.call<{ Data: Node[] }>('GET /resources/list', { query: { resourceType: 'drives' } })).Data.flatMap((n) => n.Drives ?? []);
    expect(all.some((d) => d.ApprovedState === 'NotApproved')).toBe(true);
    const nvme = (await h.call<{ Data: Drive[] }>('GET /resources/drives/list', { query: { patterns: ['^nvme'] } })).Data;
    expect(nvme.length).toBeGreaterThan(0);
    expect(nvme.every((d) => d.Type === 'NVMe')).toBe(true);
    await expect400(h.call('GET /resources/drives/list', { query: { patterns: ['('] } }), /not a valid regular expression/);
    await expect400(h.call('GET /resources/drives/list', { query: { patterns: ['(s+)+$'] } }), /nests quantifiers/);
    await expect400(h.call('GET /resources/list', { query: { resourceType: 'toaster' } }), /Invalid resourceType/);
  });

  it('approves new drives into the pool of their type, growing its capacity', async () => {
    const before = await h.call<Health>('GET /monitoring/health/current', { query: { details: true } });
    const fresh = (await h.call<{ Data: Node[] }>('GET /resources/list', { query: { resourceType: 'drive' } })).Data.flatMap((n) => n.Drives ?? []).filter((d) => d.ApprovedState === 'NotApproved');
    const target = fresh[0] as Drive;
    await expect400(h.call('PUT /resources/drives/approve', { body: { DriveIds: [target.Id], ManualPool: 'nvme-pool' } }), /holds NVMe drives/);
    await h.call('PUT /resources/drives/approve', { body: { DriveIds: [target.Id] } });
    const after = await h.call<Health>('GET /monitoring/health/current', { query: { details: true } });
    const pool = `${(target.Type as string).toLowerCase()}-pool`;
    const cap = (x: Health): number => x.CapacityUtilization?.PoolCapacity?.find((p) => p.PoolName === pool)?.CapacityInBytes ?? 0;
    expect(cap(after)).toBeGreaterThan(cap(before));
    await expect400(h.call('PUT /resources/drives/approve', { body: { DriveIds: [target.Id] } }), /already approved/);
    await expect400(h.call('PUT /resources/drives/approve', { body: {} }), /Choose drives/);
  });

  it('serves SMART text: ATA attributes for HDD/SSD and the NVMe health log', async () => {
    const drives = (await h.call<{ Data: Node[] }>('GET /resources/list', { query: { resourceType: 'drive' } })).Data.flatMap((n) => n.Drives ?? []);
    const hdd = drives.find((d) => d.Type === 'HDD' && d.ResourceStatus === 'OK') as Drive;
    const nvme = drives.find((d) => d.Type === 'NVMe' && d.ResourceStatus === 'OK') as Drive;
    const ata = await h.call<string>('GET /resources/drives/smart', { query: { driveid: hdd.Id } });
    for (const id of [5, 187, 188, 197, 198]) expect(Number.isFinite(rawOf(ata, id))).toBe(true);
    expect(ata).toMatch(/SMART overall-health self-assessment test result: PASSED/);
    const log = await h.call<string>('GET /resources/drives/smart', { query: { driveid: nvme.Id } });
    for (const label of ['Critical Warning', 'Available Spare', 'Available Spare Threshold', 'Percentage Used', 'Media and Data Integrity Errors']) expect(log).toMatch(new RegExp(`^${label}:\\s+\\S+`, 'm'));
    await expect400(h.call('GET /resources/drives/smart', { query: { driveid: 999_999 } }), /does not exist/);
    await expect400(h.call('GET /resources/drives/smart', {}), /driveid is required/);
  });

  it('lets a degrading drive worsen with simulated time until it is reported Degraded', async () => {
    const bad = (await h.call<{ Data: Node[] }>('GET /resources/list', { query: { resourceType: 'drive', errors: true } })).Data.flatMap((n) => n.Drives ?? []);
    const drive = bad.find((d) => d.ResourceStatus === 'Warning') as Drive;
    expect(drive).toBeDefined();
    const health = await h.call<Health>('GET /monitoring/health/current');
    expect(health.HardwareResources?.UnhealthyResourceCount?.['Drive']).toBeGreaterThanOrEqual(1);
    const text0 = await h.call<string>('GET /resources/drives/smart', { query: { driveid: drive.Id } });
    h.sim.control.advanceClock(24 * 3600);
    const text1 = await h.call<string>('GET /resources/drives/smart', { query: { driveid: drive.Id } });
    if (drive.Type === 'NVMe') {
      expect(Number(/Media and Data Integrity Errors:\s+(\d+)/.exec(text1)?.[1])).toBeGreaterThan(Number(/Media and Data Integrity Errors:\s+(\d+)/.exec(text0)?.[1]));
    } else {
      expect(rawOf(text1, 5)).toBeGreaterThan(rawOf(text0, 5));
      expect(rawOf(text1, 197)).toBeGreaterThan(rawOf(text0, 197));
    }
    // Two weeks in 12-hour steps; each call keeps the session alive.
    for (let i = 0; i < 28; i++) {
      h.sim.control.advanceClock(12 * 3600);
      await h.call('GET /Version');
    }
    const later = (await h.call<{ Data: Node[] }>('GET /resources/list', { query: { resourceType: 'drive', ids: [drive.Id] } })).Data.flatMap((n) => n.Drives ?? []);
    expect(later[0]?.ResourceStatus).toBe('Degraded');
  });

  it('fails a drive through the control API: pool volumes Degraded, health and SMART follow', async () => {
    const failed = h.sim.control.failDrive({ site: 0 });
    const health = await h.call<Health>('GET /monitoring/health/current', { query: { details: true } });
    expect(health.Volumes?.UnhealthyVolumes).toBeGreaterThan(0);
    expect(Object.values(health.Volumes?.UnhealthyStates ?? {})).toContain('Degraded');
    expect(health.CapacityUtilization?.ProvisioningStates).toContain('Degraded');
    const smart = await h.call<string>('GET /resources/drives/smart', { query: { driveid: failed.driveId } });
    expect(smart).toMatch(/FAILED!/);
    const notes = await h.call<{ Data: Array<{ Level: number; Message: string }> }>('GET /notifications/query', { query: { levels: ['Critical'] } });
    expect(notes.Data.some((n) => n.Message.includes(`Drive ${failed.name}`) && n.Level === 5)).toBe(true);
    const perf = await h.call<{ Data: DrivePerformance[] }>('GET /resources/drives/performance_analyzer', { query: { all: true, iterationTimeInSeconds: 5 } });
    expect(perf.Data.some((r) => r.Entity?.endsWith(`/${failed.name}`) && r.NodeName === failed.node)).toBe(false);
  });

  it('analyses drive performance per type', async () => {
    const perf = await h.call<{ Data: DrivePerformance[] }>('GET /resources/drives/performance_analyzer', { query: { nvme: true } });
    expect(perf.Data.length).toBeGreaterThan(0);
    expect(perf.Data.every((r) => r.PerformanceResult?.DurationInSec === 10)).toBe(true);
    const rr = perf.Data.find((r) => r.PerformanceTestName === 'RandomRead4K' && r.Status === 'SystemPerformance');
    expect(rr?.PerformanceResult?.IOPS).toBeGreaterThan(100_000);
    await expect400(h.call('GET /resources/drives/performance_analyzer', {}), /Choose drives/);
  });

  it('toggles iSCSI and NVMe-oF on data addresses', async () => {
    const nics = (await h.call<{ Data: Node[] }>('GET /resources/network/list', { query: { details: true } })).Data[0]?.NetworkInterfaceCards ?? [];
    const eth3 = nics.find((n) => n.Name === 'eth3');
    const ip = eth3?.Ips?.[0]?.Ip as string;
    await h.call('PUT /resources/network/iscsi', { query: { ips: [ip] }, body: { Enable: false } });
    await h.call('PUT /resources/network/nvmeof', { query: { ip }, body: { Enable: true, Rdma: true, Port: 4421 } });
    const after = (await h.call<{ Data: Node[] }>('GET /resources/network/list')).Data[0]?.NetworkInterfaceCards?.find((n) => n.Name === 'eth3')?.Ips?.[0];
    expect(after).toMatchObject({ IscsiEnabled: false, RdmaNvmeofEnabled: true, RdmaNvmeofPorts: ['4421'] });
    await expect400(h.call('PUT /resources/network/iscsi', { query: { ips: ['192.0.2.1'] }, body: { Enable: true } }), /not configured/);
    await expect400(h.call('PUT /resources/network/nvmeof', { query: { ip }, body: { Enable: true, Port: 70000 } }), /Port/);
  });

  it('pings from every NIC: own subnets and simulated systems answer, others fail', async () => {
    const ok = (await h.call<{ Data: Node[] }>('GET /resources/network/ping', { query: { address: '10.101.1.100' } })).Data[0];
    expect(ok?.Pings?.length).toBe(4);
    expect(ok?.Pings?.every((p) => p.IsSuccessful && p.Error === '' && p.Nics?.length === 1)).toBe(true);
    const far = (await h.call<{ Data: Node[] }>('GET /resources/network/ping', { query: { address: '198.51.100.7', nics: ['eth2'], pingType: 'icmp' } })).Data[0];
    expect(far?.Pings).toEqual([{ PingType: 'ICMP', Address: '198.51.100.7', Nics: ['eth2'], IsSuccessful: false, Error: expect.stringMatching(/Unreachable/) }]);
    await expect400(h.call('GET /resources/network/ping', { query: { address: '10.1.1.1', nics: ['eth7'] } }), /NIC 'eth7'/);
    await expect400(h.call('GET /resources/network/ping', {}), /address is required/);
  });

  it('supplies the SED password and removes missing resources', async () => {
    await expect400(h.call('PUT /resources/drives/sed/supply_password', { body: { Password: 'x' } }), /8 to 32/);
    await h.call('PUT /resources/drives/sed/supply_password', { body: { Password: 'sed-password-1' } });
    const nodes = (await h.call<{ Data: Node[] }>('GET /nodes/list', { query: { sed: true } })).Data;
    expect(nodes.every((n) => n.IsSEDPasswordSupplied === true)).toBe(true);
    const drives = (await h.call<{ Data: Drive[] }>('GET /resources/drives/list', { query: { details: true } })).Data;
    expect(drives.filter((d) => d.Type === 'NVMe').every((d) => d.SelfEncryptingDrive === 'Unlocked')).toBe(true);
    const healthy = drives.find((d) => d.ResourceStatus === 'OK') as Drive;
    await expect400(h.call('DELETE /resources/delete', { query: { entityIds: [healthy.Id] } }), /is not missing/);
    const pulled = h.sim.control.failDrive({ site: 0, missing: true });
    const missing = (await h.call<{ Data: Node[] }>('GET /resources/list', { query: { errors: true } })).Data.flatMap((n) => n.Drives ?? []).filter((d) => d.ResourceStatus === 'Missing');
    expect(missing.map((d) => d.Id)).toContain(pulled.driveId);
    await h.call('DELETE /resources/delete', { query: { entityIds: [pulled.driveId] } });
    const left = (await h.call<{ Data: Node[] }>('GET /resources/list', { query: { resourceType: 'drive' } })).Data.flatMap((n) => n.Drives ?? []);
    expect(left.some((d) => d.Id === pulled.driveId)).toBe(false);
  });
});
