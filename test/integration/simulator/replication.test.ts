import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application, NotificationRecord, Volume } from '../../../app/catalog/resources.js';
import { ApiError } from '../../../main/client/index.js';
import { harness, rejection } from './support.js';
import type { Harness } from './support.js';

const GiB = 2 ** 30;

function volume(list: { Data: Application[] }, app: string, vol: string): Volume | undefined {
  return list.Data.find((a) => a.Application === app)?.Volumes?.find((v) => v.Volume === vol);
}

describe('replication between systems of a site', () => {
  let h: Harness;
  let primarySystem: string;
  let targetSystem: string;
  let remote: string;
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 3 });
    [primarySystem, , targetSystem] = h.sim.manifest.sites[0]!.systems as [string, string, string];
    remote = await h.login();
    await h.client.selectSystem(remote, targetSystem);
    await h.call('POST /templates/create', { body: { Application: 'repl-tpl' } });
    await h.call('POST /templates/volumes/create', { body: { Application: 'repl-tpl', Volume: 'db', CapacityInBytes: 200 * GiB, Pool: 'ssd-pool' } });
    await h.call('POST /applications/create', { body: { Application: 'orders', Template: 'repl-tpl' } });
  });
  afterAll(async () => h.close());

  it('shows the seeded pair in sync', async () => {
    const list = await h.call<{ Data: Application[] }>('GET /replication/list', { query: { filterPrimary: true } });
    const pair = list.Data[0]?.Volumes?.[0]?.Replication;
    expect(pair).toMatchObject({ Role: 'Primary', LocalDataStatus: 'UpToDate' });
    expect(pair?.ReplicationPairs?.[0]).toMatchObject({ ConnectionStatus: 'InSync', SyncInPercentage: 100, RemoteSystemRole: 'Secondary' });
  });

  it('creates the secondary on the target and progresses Initializing -> Syncing -> InSync with the clock', async () => {
    await h.call('POST /replication/start', { body: { Application: 'orders', Volume: 'db', TargetSystem: targetSystem, TargetApplication: 'orders-dr', Asynchronous: true } });
    const status = async (): Promise<{ status?: string; percent?: number }> => {
      const l = await h.call<{ Data: Application[] }>('GET /replication/list', { query: { application: 'orders' } });
      const p = volume(l, 'orders', 'db')?.Replication?.ReplicationPairs?.[0];
      return { status: p?.ConnectionStatus, percent: p?.SyncInPercentage };
    };
    expect(await status()).toEqual({ status: 'Initializing', percent: 0 });
    const remoteApps = await h.call<{ Data: Application[] }>('GET /applications/list', { token: remote, query: { application: 'orders-dr' } });
    const secondary = volume(remoteApps, 'orders-dr', 'db');
    expect(secondary).toMatchObject({ CapacityInBytes: 200 * GiB, ReadOnly: true, Replication: { Role: 'Secondary', LocalDataStatus: 'Inconsistent' } });
    expect(secondary?.Replication?.ReplicationPairs?.[0]).toMatchObject({ RemoteSystemName: primarySystem, RemoteAppName: 'orders', RemoteVolName: 'db', ReplicationProtocol: 'Asynchronous' });

    h.sim.control.advanceClock(20);
    const mid = await status();
    expect(mid.status).toBe('Syncing');
    expect(mid.percent).toBeGreaterThan(0);
    expect(mid.percent).toBeLessThan(100);
    h.sim.control.advanceClock(30);
    const later = await status();
    expect(later.percent).toBeGreaterThan(mid.percent as number);
    await expect(rejection(h.call('PUT /replication/primary', { token: remote, body: { Application: 'orders-dr', Volume: ['db'] } }))).resolves.toMatchObject({ message: expect.stringMatching(/not in sync/) });
    h.sim.control.advanceClock(3600);
    expect(await status()).toEqual({ status: 'InSync', percent: 100 });
    const notes = await h.call<{ Data: NotificationRecord[] }>('GET /notifications/query', { query: { modules: ['Replication'], descendingOrder: true, top: 5 } });
    expect(notes.Data.some((n) => /orders\/db to .* is in sync/.test(n.Message ?? ''))).toBe(true);

    await expect(rejection(h.call('POST /replication/start', { body: { Application: 'orders', Volume: 'db', TargetSystem: targetSystem } }))).resolves.toBeInstanceOf(ApiError);
  });

  it('changes the mode, refreshes and reconnects', async () => {
    await expect(rejection(h.call('PUT /replication/edit', { body: { Application: 'orders', Volume: 'db', Synchronous: true, Asynchronous: true } }))).resolves.toMatchObject({ message: expect.stringMatching(/only one/) });
    await h.call('PUT /replication/edit', { body: { Application: 'orders', Volume: 'db', Semisynchronous: true } });
    const l = await h.call<{ Data: Application[] }>('GET /replication/list', { query: { application: 'orders', volume: 'db' } });
    expect(volume(l, 'orders', 'db')?.Replication?.ReplicationPairs?.[0]?.ReplicationProtocol).toBe('Semisynchronous');
    expect(await h.call('GET /replication/refresh', { query: { application: 'orders', reconnect: true } })).toMatch(/Reconnected 1/);
    const during = await h.call<{ Data: Application[] }>('GET /replication/list', { query: { application: 'orders' } });
    expect(volume(during, 'orders', 'db')?.Replication?.ReplicationPairs?.[0]?.ConnectionStatus).toBe('Initializing');
    h.sim.control.advanceClock(10);
    const after = await h.call<{ Data: Application[] }>('GET /replication/list', { query: { application: 'orders' } });
    expect(volume(after, 'orders', 'db')?.Replication?.ReplicationPairs?.[0]?.ConnectionStatus).toBe('InSync');
  });

  it('promotes the secondary to primary and demotes the old primary', async () => {
    await expect(rejection(h.call('PUT /replication/primary', { body: { Application: 'orders', Volume: ['db'] } }))).resolves.toMatchObject({ message: expect.stringMatching(/not a secondary/) });
    await h.call('PUT /replication/primary', { token: remote, body: { Application: 'orders-dr', Volume: ['db'] } });
    const remoteList = await h.call<{ Data: Application[] }>('GET /replication/list', { token: remote, query: { filterPrimary: true } });
    expect(volume(remoteList, 'orders-dr', 'db')).toMatchObject({ ReadOnly: false, Replication: { Role: 'Primary' } });
    const localList = await h.call<{ Data: Application[] }>('GET /replication/list', { query: { filterSecondary: true } });
    expect(volume(localList, 'orders', 'db')).toMatchObject({ ReadOnly: true, Replication: { Role: 'Secondary' } });
  });

  it('stops the pair on both sides', async () => {
    await h.call('DELETE /replication/stop', { query: { application: 'orders', volume: 'db', targetSystem } });
    const local = await h.call<{ Data: Application[] }>('GET /applications/list', { query: { application: 'orders' } });
    expect(volume(local, 'orders', 'db')?.Replication).toMatchObject({ Role: 'None', ReplicationPairs: [] });
    const remoteApps = await h.call<{ Data: Application[] }>('GET /applications/list', { token: remote, query: { application: 'orders-dr' } });
    expect(volume(remoteApps, 'orders-dr', 'db')?.Replication).toMatchObject({ Role: 'None', ReplicationPairs: [] });
    expect((await h.call<{ Data: Application[] }>('GET /replication/list', { query: { application: 'orders' } })).Data).toEqual([]);
    await expect(rejection(h.call('DELETE /replication/stop', { query: { application: 'orders', volume: 'db' } }))).resolves.toMatchObject({ message: expect.stringMatching(/not replicated/) });
  });

  it('needs paired floating IPs to replicate a NAS volume', async () => {
    await h.call('POST /applications/filesystems/add', { body: { Application: 'orders', Volumes: ['db'] } });
    await expect(rejection(h.call('POST /replication/start', { body: { Application: 'orders', Volume: 'db', TargetSystem: targetSystem, TargetApplication: 'orders-nas' } }))).resolves.toMatchObject({
      message: expect.stringMatching(/NAS volume/),
    });
    await expect(
      rejection(h.call('POST /replication/start', { body: { Application: 'orders', Volume: 'db', TargetSystem: targetSystem, TargetApplication: 'orders-nas', SourceFloatingIp: 'nas-fip', TargetFloatingIp: 'nas-fip' } })),
    ).resolves.toMatchObject({ message: expect.stringMatching(/not paired/) });
    await h.call('POST /floatingips/pair', { body: { Name: 'nas-fip', TargetSystem: targetSystem, TargetFloatingIp: 'nas-fip' } });
    await h.call('POST /replication/start', { body: { Application: 'orders', Volume: 'db', TargetSystem: targetSystem, TargetApplication: 'orders-nas', SourceFloatingIp: 'nas-fip', TargetFloatingIp: 'nas-fip' } });
  });

  it('manages replication floating IPs, listed as a text table', async () => {
    const nodes = (await h.call<{ Data: unknown[] }>('GET /nodes/list', { token: remote })).Data.length;
    const addresses = Array.from({ length: nodes }, (_, i) => `10.201.3.${80 + i}`);
    await expect(rejection(h.call('POST /replication/floatingips/create', { token: remote, body: { Name: 'repl-b', Addresses: addresses.slice(1) } }))).resolves.toMatchObject({
      message: expect.stringMatching(/one address per node/),
    });
    await h.call('POST /replication/floatingips/create', { token: remote, body: { Name: 'repl-b', Addresses: addresses, Mask: '255.255.255.0' } });
    const text = await h.call<string>('GET /replication/floatingips/list', { token: remote });
    expect(text.split('\n')[0]).toMatch(/^Name\s+Addresses\s+Mask\s+Gateway\s+Nodes\s+Interfaces$/);
    expect(text).toMatch(/repl-b\s+10\.201\.3\.80, 10\.201\.3\.81/);
    const one = await h.call<string>('GET /replication/floatingips/list', { token: remote, query: { ip: '10.201.3.81' } });
    expect(one.split('\n')).toHaveLength(2);
    await h.call('POST /replication/floatingips/edit', { token: remote, body: { Name: 'repl-b', Newname: 'repl-c' } });
    await h.call('DELETE /replication/floatingips/delete', { token: remote, query: { name: 'repl-c' } });
    expect(await h.call<string>('GET /replication/floatingips/list', { token: remote, query: { name: 'repl-c' } })).toBe('No replication floating IPs.');
  });
});
