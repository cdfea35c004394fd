import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AluaRecord, Application, EvacuationRecord, LivePerformance, PerformanceHistory, PoolCapacityHistory, PoolCapacityUsage, PoolProvisioning,
  ReserveRecord, TopVolumes, UtilizationHistory, UtilizationLive, VersionRecord, Workflow,
} from '../../../app/catalog/resources.js';
import { ApiError } from '../../../main/client/index.js';
import { T0, harness, rejection } from './support.js';
import type { Harness } from './support.js';

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

describe('monitoring', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 1 });
  });
  afterAll(async () => h.close());

  it('serves performance history over the asked range and interval, deterministic per timestamp', async () => {
    const query = { fromDate: iso(T0 - 3_600_000), toDate: iso(T0), interval: 10 };
    const a = await h.call<PerformanceHistory>('GET /monitoring/performance/history', { query });
    expect(a.PerformanceStatstics).toHaveLength(7);
    expect(a.PerformanceStatstics?.[0]?.Time).toBe('2025-01-15T11:00:00Z');
    expect(a.PerformanceStatstics?.[6]?.Time).toBe('2025-01-15T12:00:00Z');
    const p = a.PerformanceStatstics?.[3];
    expect(p?.Iops).toBe((p?.ReadIops ?? 0) + (p?.WriteIops ?? 0));
    expect(p?.ThroughputInBytes).toBe((p?.ReadThroughputInBytes ?? 0) + (p?.WriteThroughputInBytes ?? 0));
    // The same point is the same value however the range is cut.
    const b = await h.call<PerformanceHistory>('GET /monitoring/performance/history', { query: { fromDate: iso(T0 - 1_800_000), toDate: iso(T0), interval: 10 } });
    expect(b.PerformanceStatstics?.[0]).toEqual(a.PerformanceStatstics?.[3]);
    const iopsOnly = await h.call<PerformanceHistory>('GET /monitoring/performance/history', { query: { ...query, iops: true, readOnly: true } });
    expect(Object.keys(iopsOnly.PerformanceStatstics?.[0] ?? {}).sort()).toEqual(['EntityName', 'ReadIops', 'Time']);
    const app = (await h.call<{ Data: Application[] }>('GET /applications/list', { query: { cg: false } })).Data[0] as Application;
    const perVolume = await h.call<PerformanceHistory>('GET /monitoring/performance/history', { query: { ...query, application: app.Application } });
    expect(new Set(perVolume.PerformanceStatstics?.map((s) => s.EntityName))).toEqual(new Set(app.Volumes?.map((v) => `${app.Application}/${v.Volume}`)));
  });

  it('refuses ranges beyond the point budget and backwards ranges', async () => {
    const err = await rejection(h.call('GET /monitoring/performance/history', { query: { fromDate: iso(T0 - 30 * 86_400_000), toDate: iso(T0), interval: 1 } }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toMatch(/Too many points \(\d+\): at most 2000/);
    await expect(h.call('GET /monitoring/performance/history', { query: { fromDate: iso(T0), toDate: iso(T0 - 60_000) } })).rejects.toThrow(/earlier than toDate/);
  });

  it('needs force for predicted utilization values', async () => {
    const future = { fromDate: iso(T0), toDate: iso(T0 + 3_600_000) };
    await expect(h.call('GET /monitoring/utilization/history', { query: future })).rejects.toThrow(/force=true/);
    const u = await h.call<UtilizationHistory>('GET /monitoring/utilization/history', { query: { ...future, force: true, aggr: true, cpu: true } });
    expect(u.UtilizationHistoryStatstics?.every((s) => s.NodeName === 'All nodes' && typeof s.CpuInPercentage === 'number' && s.MemoryInPercentage === undefined)).toBe(true);
    const live = await h.call<{ Data: UtilizationLive[] }>('GET /monitoring/utilization/live');
    expect(live.Data[0]).toMatchObject({ CPUInPercentage: expect.any(Number), HDDPoolsInPercentage: { 'hdd-pool': expect.any(Number) } });
  });

  it('lists top volumes by the chosen measure, capped by limit', async () => {
    const top = await h.call<TopVolumes>('GET /monitoring/top/volumes', { query: { limit: 3, iops: true } });
    expect(top.Statistics).toHaveLength(3);
    const iops = top.Statistics?.map((s) => s.Iops ?? 0) ?? [];
    expect([...iops].sort((x, y) => y - x)).toEqual(iops);
    await expect(h.call('GET /monitoring/top/volumes', { query: { limit: 0 } })).rejects.toThrow(/limit/);
  });

  it('reports pools, reserve, provisioning, evacuations, ALUA and live performance consistently', async () => {
    const pools = await h.call<PoolCapacityUsage>('GET /monitoring/capacity/pools/current', { query: { total: true } });
    const rows = pools.CapacityUsage ?? [];
    const total = rows.find((r) => r.Name === 'Total');
    expect(total?.TotalAllocatedSizeInBytes).toBe(rows.filter((r) => r.Name !== 'Total').reduce((s, r) => s + (r.TotalAllocatedSizeInBytes ?? 0), 0));
    const reserve = await h.call<{ Data: ReserveRecord[] }>('GET /monitoring/reserve/current');
    expect(reserve.Data.map((r) => r.Name)).toEqual(['hdd-pool', 'ssd-pool', 'nvme-pool']);
    const prov = await h.call<{ Data: PoolProvisioning[] }>('GET /monitoring/capacity/provisioning');
    expect(prov.Data[0]).toMatchObject({ PoolName: 'hdd-pool', State: 'Ok', Reason: 'None', VirtualRaidValues: expect.arrayContaining([expect.objectContaining({ N: expect.any(Number), K: expect.any(Number) })]) });
    const ev = await h.call<{ Data: EvacuationRecord[] }>('GET /monitoring/evacuations/live');
    expect(ev.Data[0]?.UpperTierPoolName).toBe('ssd-pool');
    const alua = await h.call<{ Data: AluaRecord[] }>('GET /monitoring/alua/live');
    expect(alua.Data.length).toBeGreaterThan(0);
    expect(alua.Data.every((r) => (r.optimizedIops ?? 0) >= (r.unoptimizedIops ?? 0))).toBe(true);
    const live = await h.call<{ Data: LivePerformance[] }>('GET /monitoring/performance/live', { query: { aggr: true } });
    expect(live.Data).toHaveLength(1);
    const hist = await h.call<PoolCapacityHistory>('GET /monitoring/capacity/pools/history', { query: { ssd: true } });
    expect(new Set(hist.PerformanceStatstics?.map((s) => s.PoolName))).toEqual(new Set(['ssd-pool']));
    const last = hist.PerformanceStatstics?.at(-1);
    expect(last?.TotalAllocatedSizeInBytes).toBeGreaterThan(0);
  });

  it('reports a pool Full once provisioning leaves it under 5 % free, and refuses more, naming the free bytes', async () => {
    const hdd = (await h.call<PoolCapacityUsage>('GET /monitoring/capacity/pools/current')).CapacityUsage?.find((r) => r.Name === 'hdd-pool');
    const free = hdd?.FreeCapacityInBytes ?? 0;
    const usable = free + (hdd?.TotalAllocatedSizeInBytes ?? 0);
    const size = Math.floor((free - usable * 0.01) / 2 ** 30) * 2 ** 30;
    await h.call('POST /templates/create', { body: { Application: 'fill' } });
    await h.call('POST /templates/volumes/create', { body: { Application: 'fill', Volume: 'big', CapacityInBytes: size, Pool: 'hdd-pool' } });
    await h.call('POST /applications/create', { body: { Application: 'fill-app', Template: 'fill' } });
    const prov = await h.call<{ Data: PoolProvisioning[] }>('GET /monitoring/capacity/provisioning');
    const state = prov.Data.find((p) => p.PoolName === 'hdd-pool');
    expect(state).toMatchObject({ State: 'Full', Reason: 'LowFreeSpace' });
    expect(state?.FreeSpaceInPercentage).toBeLessThan(5);
    const health = await h.call<{ CapacityUtilization?: { ProvisioningStates?: string[] } }>('GET /monitoring/health/current', { query: { capacityUtilization: true } });
    expect(health.CapacityUtilization?.ProvisioningStates).toContain('Full');
    await h.call('POST /applications/create', { body: { Application: 'fill-app-2', Template: 'fill' } }).then(
      () => expect.unreachable('a second copy does not fit'),
      (err: Error) => expect(err.message).toMatch(/Not enough free capacity in pool 'hdd-pool': \d+ bytes requested, \d+ bytes free/),
    );
  });

  it('serves the version record, the provisioning workflow tree and configurations', async () => {
    const v = await h.call<VersionRecord>('GET /Version');
    expect(v.Versions?.map((c) => c.Component)).toContain('Management');
    const wf = await h.call<Workflow>('GET /workflows/volume_provisioning');
    const block = await h.call<Workflow>('GET /workflows/volume_provisioning/block');
    expect(wf.Children?.[0]).toEqual(block);
    expect(wf.Children?.[1]?.Children?.[0]?.Path).toBe('/workflows/volume_provisioning/nas/replicated');
    expect(block.OrderedCommands?.map((c) => c.Command)).toContain('POST /hosts/mappings/add');
    const conf = await h.call<{ Data: Array<{ Name: string; Value: string }> }>('GET /configurations/list', { query: { name: 'TimeZone' } });
    expect(conf.Data).toEqual([{ Name: 'TimeZone', Value: 'UTC', Description: expect.any(String) }]);
    expect(await h.call('POST /hypervisor/datastore/plugin/create', { headers: { async: true }, body: { datastore: { Name: 'ds1' } } })).toBeUndefined();
  });
});
