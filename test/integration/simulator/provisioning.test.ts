import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application, FloatingIp, Health, Host, HostMapping, NasServer, PoolCapacityUsage, Template } from '../../../app/catalog/resources.js';
import { ApiError } from '../../../main/client/index.js';
import { harness, rejection } from './support.js';
import type { Harness } from './support.js';

const GiB = 2 ** 30;

async function expect400(p: Promise<unknown>, message: RegExp): Promise<void> {
  const err = await rejection(p);
  expect(err).toBeInstanceOf(ApiError);
  expect(err.message).toMatch(message);
}

describe('provisioning object graph', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 2 });
  });
  afterAll(async () => h.close());

  it('template -> application -> host -> mapping -> file system, with capacity that adds up', async () => {
    const before = await h.call<Health>('GET /monitoring/health/current');
    await h.call('POST /templates/create', { body: { Application: 'web-tier', Description: 'Web servers' } });
    await h.call('POST /templates/volumes/create', { body: { Application: 'web-tier', Volume: 'content', CapacityInBytes: 100 * GiB, Pool: 'hdd-pool', SnapshotCapacityInBytes: 10 * GiB, Cgid: 1 } });
    await h.call('POST /templates/volumes/create', { body: { Application: 'web-tier', Volume: 'logs', CapacityInBytes: 20 * GiB, Pool: 'ssd-pool', Cgid: 1 } });
    await h.call('POST /templates/volumes/create', { body: { Application: 'web-tier', Volume: 'files', CapacityInBytes: 50 * GiB, Pool: 'hdd-pool' } });
    await h.call('PUT /templates/snapshots/schedule', { query: { application: 'web-tier', cgid: 1 }, body: { Frequency: ['hourly', 'daily'], Retention: ['24', '7'] } });
    const templates = await h.call<{ Data: Template[] }>('GET /templates/list', { query: { name: 'web-tier' } });
    expect(templates.Data[0]?.Volumes?.map((v) => v.Volume)).toEqual(['content', 'logs', 'files']);
    expect(templates.Data[0]?.ConsistencyGroups?.[0]?.Volumes?.map((v) => v.Volume)).toEqual(['content', 'logs']);

    await h.call('POST /applications/create', { body: { Application: 'shop', Template: 'web-tier', Description: 'Web shop' } });
    const apps = await h.call<{ Data: Application[] }>('GET /applications/list', { query: { application: 'shop' } });
    const shop = apps.Data[0];
    expect(shop).toMatchObject({ Application: 'shop', Template: 'web-tier', Description: 'Web shop' });
    expect(shop?.Volumes?.map((v) => [v.Volume, v.CapacityInBytes, v.Pool, v.State])).toEqual([
      ['content', 100 * GiB, 'hdd-pool', 'Ok'],
      ['logs', 20 * GiB, 'ssd-pool', 'Ok'],
      ['files', 50 * GiB, 'hdd-pool', 'Ok'],
    ]);
    expect(shop?.ConsistencyGroups).toHaveLength(1);
    expect(shop?.ConsistencyGroups?.[0]?.SnapshotScheduler).toEqual(['hourly', 'daily']);
    const cgid = shop?.ConsistencyGroups?.[0]?.Id;
    expect(shop?.Volumes?.filter((v) => v.Cgid === cgid).map((v) => v.Volume)).toEqual(['content', 'logs']);

    const after = await h.call<Health>('GET /monitoring/health/current');
    expect((after.CapacityUtilization?.CapacityUsageInBytes ?? 0) - (before.CapacityUtilization?.CapacityUsageInBytes ?? 0)).toBe(180 * GiB);

    await h.call('POST /hosts/create', { body: { Name: 'shop-web01', Iqn: 'iqn.2024-03.com.example:web01', Ip: '10.101.1.150', ChapSecret: 'chap-secret-12' } });
    await h.call('POST /hosts/create', { body: { Name: 'shop-web02', Wwns: ['21:00:00:24:FF:01:02:03'] } });
    await h.call('POST /hosts/mappings/add', { body: { Application: 'shop', Hosts: ['shop-web01', 'shop-web02'], Volumes: ['content', 'logs'] } });
    await h.call('POST /applications/mappings/add', { body: { Application: 'shop', Hosts: ['shop-web01'], Volumes: ['files'], LunIds: ['7'] } });
    const mappings = await h.call<{ Data: HostMapping[] }>('GET /hosts/mappings/list', { query: { application: 'shop' } });
    expect(mappings.Data).toEqual([
      { Application: 'shop', Host: 'shop-web01', Volumes: ['content', 'logs', 'files'], LunIds: ['0', '1', '7'] },
      { Application: 'shop', Host: 'shop-web02', Volumes: ['content', 'logs'], LunIds: ['0', '1'] },
    ]);
    const hosts = await h.call<{ Data: Host[] }>('GET /hosts/list', { query: { name: 'shop-web02' } });
    expect(hosts.Data[0]).toMatchObject({ Name: 'shop-web02', Wwns: ['21:00:00:24:ff:01:02:03'], Mappings: [{ Application: 'shop', Volume: 'content', LunId: 0 }, { Application: 'shop', Volume: 'logs', LunId: 1 }] });

    await h.call('POST /applications/filesystems/add', { body: { Application: 'shop', Volumes: ['files'], Profile: 'ordered' } });
    let fs = await h.call<{ Data: Application[] }>('GET /applications/filesystems/list', { query: { application: 'shop' } });
    expect(fs.Data[0]?.Volumes?.map((v) => [v.Volume, v.FileSystemInformation?.Profile, v.FileSystemInformation?.MountState])).toEqual([['files', 'Ordered', 'Unmounted']]);
    await h.call('PUT /applications/filesystems/mount', { body: { Application: 'shop', Volume: 'files' } });
    fs = await h.call<{ Data: Application[] }>('GET /applications/filesystems/list', { query: { application: 'shop', volume: 'files' } });
    expect(fs.Data[0]?.Volumes?.[0]?.FileSystemInformation).toMatchObject({ MountState: 'Mounted', MountCount: '1', Profile: 'Ordered' });
    await expect400(h.call('PUT /applications/filesystems/mount', { body: { Application: 'shop', Volume: 'files' } }), /already mounted/);
    await expect400(h.call('POST /applications/filesystems/add', { body: { Application: 'shop', Volumes: ['files'], Profile: 'Journal' } }), /already has a file system/);
    await expect400(h.call('POST /applications/filesystems/add', { body: { Application: 'shop', Volumes: ['logs'], Profile: 'ext4' } }), /Journal or Ordered/);

    // Deleting needs the mappings gone, or force.
    await expect400(h.call('DELETE /applications/delete', { query: { application: 'shop' } }), /host mapping/);
    await expect400(h.call('DELETE /hosts/delete', { query: { name: 'shop-web02' } }), /mapping/);
    await h.call('DELETE /hosts/mappings/delete', { query: { application: 'shop', hosts: ['shop-web02'] } });
    await h.call('DELETE /hosts/delete', { query: { name: 'shop-web02' } });
    await h.call('DELETE /applications/delete', { query: { application: 'shop', force: true } });
    const final = await h.call<Health>('GET /monitoring/health/current');
    expect(final.CapacityUtilization?.CapacityUsageInBytes).toBe(before.CapacityUtilization?.CapacityUsageInBytes);
    expect((await h.call<{ Data: HostMapping[] }>('GET /hosts/mappings/list', { query: { host: 'shop-web01' } })).Data).toEqual([]);
  });

  it('keeps pool usage equal to the sum of its volumes and health capacity equal to the pools', async () => {
    const apps = await h.call<{ Data: Application[] }>('GET /applications/list');
    const pools = await h.call<PoolCapacityUsage>('GET /monitoring/capacity/pools/current', { query: { details: true } });
    const health = await h.call<Health>('GET /monitoring/health/current', { query: { details: true } });
    const volumes = apps.Data.flatMap((a) => a.Volumes ?? []);
    for (const pool of pools.CapacityUsage ?? []) {
      const mine = volumes.filter((v) => v.Pool === pool.Name);
      expect(pool.TotalAllocatedSizeInBytes).toBe(mine.reduce((s, v) => s + (v.CapacityInBytes ?? 0) + (v.SnapshotCapacityInBytes ?? 0), 0));
      expect(pool.UserDataAllocatedSizeInBytes).toBe(mine.reduce((s, v) => s + (v.CapacityInBytes ?? 0), 0));
      const hp = health.CapacityUtilization?.PoolCapacity?.find((p) => p.PoolName === pool.Name);
      expect(hp?.CapacityUsageInBytes).toBe(pool.TotalAllocatedSizeInBytes);
      expect((hp?.CapacityInBytes ?? 0) - (pool.TotalAllocatedSizeInBytes ?? 0)).toBe(pool.FreeCapacityInBytes);
    }
    expect(health.CapacityUtilization?.CapacityUsageInBytes).toBe((pools.CapacityUsage ?? []).reduce((s, p) => s + (p.TotalAllocatedSizeInBytes ?? 0), 0));
  });

  it('refuses more capacity than a pool has', async () => {
    await h.call('POST /templates/create', { body: { Application: 'huge' } });
    await h.call('POST /templates/volumes/create', { body: { Application: 'huge', Volume: 'v', CapacityInBytes: 2 ** 49, Pool: 'nvme-pool' } });
    await expect400(h.call('POST /applications/create', { body: { Application: 'too-big', Template: 'huge' } }), /Not enough free capacity in pool 'nvme-pool'/);
    expect((await h.call<{ Data: Application[] }>('GET /applications/list', { query: { application: 'too-big' } })).Data).toEqual([]);
  });

  it('validates host identities and keeps LUN ids unique per host', async () => {
    await expect400(h.call('POST /hosts/create', { body: { Name: 'bad1', Wwns: ['10:00:00:00:c9'] } }), /Invalid WWN/);
    await expect400(h.call('POST /hosts/create', { body: { Name: 'bad2', Wwns: ['zz00000000000000'] } }), /Invalid WWN/);
    await expect400(h.call('POST /hosts/create', { body: { Name: 'bad3', Iqn: 'iqn.20-01.com.example' } }), /Invalid IQN/);
    await expect400(h.call('POST /hosts/create', { body: { Name: 'bad4', Iqn: 'eui.0123456789abcdef' } }), /Invalid IQN/);
    await expect400(h.call('POST /hosts/create', { body: { Name: 'bad5', Nqn: 'nqn.2014-13.org.nvmexpress:x' } }), /Invalid NQN/);
    await expect400(h.call('POST /hosts/create', { body: { Name: 'bad6', Ip: '300.1.1.1' } }), /not a valid IPv4/);
    await expect400(h.call('POST /hosts/create', { body: { Name: 'bad7', ChapSecret: 'short' } }), /ChapSecret must be 12 to 16/);
    await h.call('POST /hosts/create', { body: { Name: 'lun-a', Wwns: ['500a0981000000a1'], Nqn: 'nqn.2014-08.org.nvmexpress:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427' } });
    await expect400(h.call('POST /hosts/create', { body: { Name: 'lun-b', Wwns: ['50:0a:09:81:00:00:00:a1'] } }), /already belongs to host 'lun-a'/);
    await h.call('POST /hosts/create', { body: { Name: 'lun-b', Iqn: 'iqn.1991-05.com.microsoft:lun-b' } });
    const app = (await h.call<{ Data: Application[] }>('GET /applications/list', { query: { cg: false } })).Data.find((a) => (a.Volumes?.length ?? 0) >= 2) as Application;
    const [v1, v2] = (app.Volumes ?? []).map((v) => v.Volume as string);
    await h.call('POST /hosts/mappings/add', { body: { Application: app.Application, Hosts: ['lun-a'], Volumes: [v1], LunIds: ['5'] } });
    await expect400(h.call('POST /hosts/mappings/add', { body: { Application: app.Application, Hosts: ['lun-a'], Volumes: [v2], LunIds: ['5'] } }), /LUN 5 is already used on host 'lun-a'/);
    await expect400(h.call('POST /hosts/mappings/add', { body: { Application: app.Application, Hosts: ['lun-a'], Volumes: [v1] } }), /already mapped/);
    await expect400(h.call('POST /hosts/mappings/add', { body: { Application: app.Application, Hosts: ['lun-a'], Volumes: [v2], LunIds: ['1', '2'] } }), /one LUN id per volume/);
    await expect400(h.call('POST /hosts/mappings/add', { body: { Application: app.Application, Hosts: ['nobody'], Volumes: [v2] } }), /Host 'nobody' does not exist/);
    // The same LUN on another host is fine.
    await h.call('POST /hosts/mappings/add', { body: { Application: app.Application, Hosts: ['lun-b'], Volumes: [v2], LunIds: ['5'] } });
    await h.call('PUT /hosts/mappings/edit', { query: { application: app.Application, host: 'lun-a' }, body: { Volumes: [v1, v2], LunIds: ['9', '10'] } });
    const rec = await h.call<{ Data: HostMapping[] }>('GET /hosts/mappings/list', { query: { host: 'lun-a' } });
    expect(rec.Data).toEqual([{ Application: app.Application, Host: 'lun-a', Volumes: [v1, v2], LunIds: ['9', '10'] }]);
    await h.call('PUT /hosts/wwn/add', { body: { Name: 'lun-a', Wwns: ['500A0981000000A2'] } });
    await expect400(h.call('PUT /hosts/wwn/add', { body: { Name: 'lun-a', Wwns: ['500a0981000000a2'] } }), /already on host/);
  });

  it('pairs hosts and floating IPs only with objects that exist on another system of the site', async () => {
    const [, other] = h.sim.manifest.sites[0]!.systems;
    const remoteToken = await h.login();
    await h.client.selectSystem(remoteToken, other!);
    await h.call('POST /hosts/create', { token: remoteToken, body: { Name: 'dr-web01' } });
    await h.call('POST /hosts/create', { body: { Name: 'pair-src' } });
    await expect400(h.call('POST /hosts/pair', { body: { Name: 'pair-src', TargetSystem: other, TargetHost: 'ghost' } }), /does not exist on system/);
    await expect400(h.call('POST /hosts/pair', { body: { Name: 'pair-src', TargetSystem: 'elsewhere', TargetHost: 'dr-web01' } }), /System 'elsewhere' does not exist/);
    await expect400(h.call('POST /hosts/pair', { body: { Name: 'pair-src', TargetSystem: h.sim.manifest.sites[0]!.systems[0], TargetHost: 'x' } }), /current system/);
    await h.call('POST /hosts/pair', { body: { Name: 'pair-src', TargetSystem: other, TargetHost: 'dr-web01' } });
    const remote = await h.call<{ Data: Host[] }>('GET /hosts/list', { token: remoteToken, query: { name: 'dr-web01' } });
    expect(remote.Data[0]?.Pairs).toEqual([{ RemoteSystem: h.sim.manifest.sites[0]!.systems[0], RemoteHost: 'pair-src' }]);
    await h.call('DELETE /hosts/unpair', { query: { name: 'pair-src', targetSystem: other } });
    expect((await h.call<{ Data: Host[] }>('GET /hosts/list', { token: remoteToken, query: { name: 'dr-web01' } })).Data[0]?.Pairs).toEqual([]);

    await h.call('POST /floatingips/create', { body: { Name: 'app-vip', Address: '10.101.1.220', Mask: '255.255.255.0', Gateway: '10.101.1.1', Interfaces: ['eth2'] } });
    await expect400(h.call('POST /floatingips/create', { body: { Name: 'dup-vip', Address: '10.101.1.220' } }), /already in use/);
    await expect400(h.call('POST /floatingips/create', { body: { Name: 'bad-vip', Address: '10.101.1.221', Interfaces: ['eth9'] } }), /Interface 'eth9' does not exist/);
    await expect400(h.call('POST /floatingips/create', { body: { Name: 'bad-mask', Address: '10.101.1.222', Mask: '255.0.255.0' } }), /not a valid netmask/);
    await h.call('POST /floatingips/create', { token: remoteToken, body: { Name: 'dr-vip', Address: '10.101.2.220', Dummy: true } });
    await h.call('POST /floatingips/pair', { body: { Name: 'app-vip', TargetSystem: other, TargetFloatingIp: 'dr-vip' } });
    const fips = await h.call<{ Data: FloatingIp[] }>('GET /floatingips/list', { query: { ip: '10.101.1.220' } });
    expect(fips.Data).toHaveLength(1);
    expect(fips.Data[0]).toMatchObject({ Name: 'app-vip', PairedFloatingIps: [{ Name: 'dr-vip', RemoteSystemName: other, Address: '10.101.2.220' }], Interfaces: ['eth2'] });
    expect(fips.Data[0]?.Nodes?.length).toBeGreaterThanOrEqual(2);

    await h.call('POST /nas_servers/create', { body: { Name: 'SHOPNAS', FloatingIps: ['app-vip'], DirectoryService: 'corp.example.com', Username: 'svc', Password: 'nas-secret-1' } });
    await expect400(h.call('POST /nas_servers/create', { body: { Name: 'SHOPNAS', FloatingIps: ['app-vip'], Workgroup: 'WG' } }), /OverwriteExistingServer/);
    await expect400(h.call('POST /nas_servers/create', { body: { Name: 'NAS2', FloatingIps: ['nope'], Workgroup: 'WG' } }), /Floating IP 'nope' does not exist/);
    await expect400(h.call('DELETE /floatingips/delete', { query: { name: 'app-vip' } }), /used by NAS server 'SHOPNAS'/);
    const nas = await h.call<{ Data: NasServer[] }>('GET /nas_servers/list');
    expect(nas.Data.find((n) => n.Name === 'SHOPNAS')).toMatchObject({ DirectoryService: 'corp.example.com', Username: 'svc', FloatingIps: ['app-vip'] });
    const join = await h.call<string>('PUT /nas_servers/directory_service/test_join');
    expect(join).toMatch(/SHOPNAS.*corp\.example\.com/);
  });

  it('edits the name and description of an application and of a template alike: one of them required, a new name unique regardless of case', async () => {
    await h.call('POST /templates/create', { body: { Application: 'edit-t1' } });
    await h.call('POST /templates/create', { body: { Application: 'edit-t2' } });
    await h.call('POST /applications/create', { body: { Application: 'edit-a1', Template: 'edit-t1' } });
    await h.call('POST /applications/create', { body: { Application: 'edit-a2', Template: 'edit-t1' } });

    await expect400(h.call('PUT /applications/edit', { query: { application: 'edit-a1' }, body: {} }), /Nothing to change/);
    await expect400(h.call('PUT /templates/edit', { query: { application: 'edit-t1' }, body: {} }), /Nothing to change/);
    await expect400(h.call('PUT /applications/edit', { query: { application: 'edit-a1' }, body: { Application: 'EDIT-A2' } }), /Application 'EDIT-A2' already exists/);
    await expect400(h.call('PUT /templates/edit', { query: { application: 'edit-t1' }, body: { Application: 'Edit-T2' } }), /Template 'Edit-T2' already exists/);
    await expect400(h.call('PUT /templates/edit', { query: { application: 'edit-t1' }, body: { Application: 'no spaces' } }), /Invalid Application/);

    // Its own name in another case is a rename, not a clash.
    expect(await h.call('PUT /applications/edit', { query: { application: 'edit-a1' }, body: { Application: 'Edit-A1', Description: 'renamed' } })).toMatch(/Application 'Edit-A1' updated/);
    expect(await h.call('PUT /templates/edit', { query: { application: 'edit-t2' }, body: { Description: 'described' } })).toMatch(/Template 'edit-t2' updated/);
    const apps = await h.call<{ Data: Application[] }>('GET /applications/list', { query: { application: 'edit-a1' } });
    expect(apps.Data[0]).toMatchObject({ Application: 'Edit-A1', Description: 'renamed' });
    const templates = await h.call<{ Data: Template[] }>('GET /templates/list', { query: { name: 'edit-t2' } });
    expect(templates.Data[0]).toMatchObject({ Application: 'edit-t2', Description: 'described' });
  });
});
