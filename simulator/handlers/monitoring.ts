import type {
  AluaRecord, ChartsFileInfo, EvacuationRecord, Health, LivePerformance, PerformanceHistory, PerformanceStatistic, PoolCapacityHistory,
  PoolCapacityUsage, PoolCapacityUsageRecord, PoolProvisioning, ReserveRecord, TopVolumes, UtilizationHistory, UtilizationLive,
} from '../../app/catalog/resources.js';
import { fail } from '../errors.js';
import { noise } from '../random.js';
import {
  findPool, footprint, poolAllocatedBytes, poolConsumedBytes, poolDegraded, poolRawBytes, poolUsableBytes, poolVolumes,
} from '../state/capacity.js';
import { requireApp, requireNode, requireVolume } from '../state/lookup.js';
import type { AppState, PoolState, SystemState, VolumeState } from '../state/model.js';
import { isoSeconds } from '../state/notifications.js';
import { buckets, nodeLoad, round2, volumeLoad } from '../state/series.js';
import type { VolumeLoad } from '../state/series.js';
import { appView, volumeDegraded, volumeState } from '../state/views.js';
import type { Ctx, HandlerMap } from './context.js';

/** Most points one history answer may hold; beyond it the request is refused (400) rather than truncated. */
/**
 * The volumes a performance query names: `application` and optionally `volumes` of it, or
 * undefined for the whole system (no application, or `wholeSystem`). `volumes` without
 * `application` is a 400 either way.
 */
function volumeScope(ctx: Ctx, wholeSystem: boolean): { app: AppState; vols: VolumeState[] } | undefined {
  const appName = ctx.query.str('application');
  const volNames = ctx.query.strs('volumes') ?? [];
  if (volNames.length > 0 && !appName) fail('volumes needs application.');
  if (wholeSystem || !appName) return undefined;
  const app = requireApp(ctx.system, appName);
  return { app, vols: volNames.length > 0 ? volNames.map((n) => requireVolume(app, n)) : app.volumes };
}

export const MAX_POINTS = 2000;
const MINUTE = 60_000;

interface Range {
  from: number;
  to: number;
  interval: number;
  times: number[];
}

/** Reads fromDate/toDate/interval (defaults: the last hour at 5 minutes) and checks the point budget. */
function range(ctx: Ctx, entities: number, defaultSpanMs = 3_600_000, defaultIntervalMinutes = 5): Range {
  const to = ctx.query.date('toDate') ?? ctx.nowMs;
  const from = ctx.query.date('fromDate') ?? to - defaultSpanMs;
  if (!(from < to)) fail('fromDate must be earlier than toDate.');
  const minutes = ctx.query.int('interval') ?? defaultIntervalMinutes;
  if (minutes < 1 || minutes > 10_080) fail('interval must be between 1 and 10080 minutes.');
  const interval = minutes * MINUTE;
  const count = Math.floor((to - from) / interval + 1) * Math.max(1, entities);
  if (count > MAX_POINTS) fail(`Too many points (${count}): at most ${MAX_POINTS}; choose a larger interval or a shorter range.`);
  return { from, to, interval, times: buckets(from, to, interval) };
}

/** Predicted values (times after now) need force=true, as the document describes for these histories. */
function checkPrediction(ctx: Ctx, r: Range): void {
  if (r.to > ctx.nowMs + MINUTE && !ctx.query.flag('force')) fail('The range reaches into the future, so predicted values would be shown; send force=true to approve.');
}

function allVolumes(system: SystemState): Array<{ app: AppState; vol: VolumeState }> {
  return system.apps.flatMap((app) => app.volumes.map((vol) => ({ app, vol })));
}

function load(system: SystemState, vol: VolumeState, t: number): VolumeLoad {
  return volumeLoad(system.seriesSeed, vol.entityId, t, findPool(system, vol.pool)?.type === 'HDD', volumeDegraded(system, vol));
}

interface Sums {
  readIops: number;
  writeIops: number;
  readLatency: number;
  writeLatency: number;
  readBytes: number;
  writeBytes: number;
}

function sumLoad(system: SystemState, vols: readonly VolumeState[], t: number): Sums {
  const s: Sums = { readIops: 0, writeIops: 0, readLatency: 0, writeLatency: 0, readBytes: 0, writeBytes: 0 };
  for (const v of vols) {
    const l = load(system, v, t);
    s.readIops += l.readIops;
    s.writeIops += l.writeIops;
    s.readLatency += l.readLatencyMs * l.readIops;
    s.writeLatency += l.writeLatencyMs * l.writeIops;
    s.readBytes += l.readIops * l.readIoSize;
    s.writeBytes += l.writeIops * l.writeIoSize;
  }
  return s;
}

/** Metric switches: when none of iops/throughput/latency/iosize is sent, all are shown. */
function metricSwitches(ctx: Ctx): { iops: boolean; throughput: boolean; latency: boolean; iosize: boolean } {
  const q = ctx.query;
  const anySent = ['iops', 'throughput', 'latency', 'iosize'].some((m) => q.bool(m) === true);
  const pick = (m: string): boolean => (anySent ? q.flag(m) : q.on(m));
  return { iops: pick('iops'), throughput: pick('throughput'), latency: pick('latency'), iosize: pick('iosize') };
}

function perfPoint(s: Sums, t: number, entity: string, m: ReturnType<typeof metricSwitches>, read: boolean, write: boolean, total: boolean): PerformanceStatistic {
  const iops = s.readIops + s.writeIops;
  const out: PerformanceStatistic = { Time: isoSeconds(t), EntityName: entity };
  const div = (a: number, b: number): number => (b > 0 ? round2(a / b) : 0);
  if (m.iops) {
    if (total) out.Iops = iops;
    if (read) out.ReadIops = s.readIops;
    if (write) out.WriteIops = s.writeIops;
  }
  if (m.latency) {
    if (total) out.LatencyInMilliseconds = div(s.readLatency + s.writeLatency, iops);
    if (read) out.ReadLatencyInMilliseconds = div(s.readLatency, s.readIops);
    if (write) out.WriteLatencyInMilliseconds = div(s.writeLatency, s.writeIops);
  }
  if (m.iosize) {
    if (total) out.IoSizeInBytes = div(s.readBytes + s.writeBytes, iops);
    if (read) out.ReadIoSizeInBytes = div(s.readBytes, s.readIops);
    if (write) out.WriteIoSizeInBytes = div(s.writeBytes, s.writeIops);
  }
  if (m.throughput) {
    if (total) out.ThroughputInBytes = s.readBytes + s.writeBytes;
    if (read) out.ReadThroughputInBytes = s.readBytes;
    if (write) out.WriteThroughputInBytes = s.writeBytes;
  }
  return out;
}

function charts(system: SystemState, entities: readonly string[], measures: readonly string[]): ChartsFileInfo[] {
  return entities.flatMap((e) => measures.map((m) => ({ EntityIdentifier: e, ChartMeasure: m, Path: `/var/lib/fleetdeck/charts/${system.name}/${e.replace(/\//g, '_')}-${m}.png` })));
}

function poolState(system: SystemState, pool: PoolState): { state: string; reason: string; free: number } {
  const usable = poolUsableBytes(system, pool);
  const free = usable > 0 ? round2(((usable - poolAllocatedBytes(system, pool)) / usable) * 100) : 0;
  if (poolDegraded(system, pool)) return { state: 'Degraded', reason: 'DriveFailure', free };
  if (free < 5) return { state: 'Full', reason: 'LowFreeSpace', free };
  if (free < 15) return { state: 'Warning', reason: 'LowFreeSpace', free };
  return { state: 'Ok', reason: 'None', free };
}

function poolTypeUtil(system: SystemState, nodeId: number, t: number): Record<'HDD' | 'SSD' | 'NVMe', number> {
  const l = nodeLoad(system.seriesSeed, nodeId, t);
  return { HDD: l.hdd, SSD: l.ssd, NVMe: l.nvme };
}

/** Pool growth model for history: allocation grows ~0.2 % a day towards today's value (and beyond, predicted). */
function grown(current: number, nowMs: number, t: number, seed: number, salt: number): number {
  const days = (nowMs - t) / 86_400_000;
  const f = Math.max(0.3, 1 - 0.002 * days) * (0.995 + 0.01 * noise(seed, salt, Math.floor(t / 3_600_000)));
  return Math.round(current * f);
}

export const monitoringHandlers: HandlerMap = {
  'GET /monitoring/alua/live': (ctx) => {
    const mapped = new Set(ctx.system.mappings.map((m) => m.volumeId));
    const takeover = ctx.system.nodes.some((n) => n.ha !== 'Normal');
    const data: AluaRecord[] = allVolumes(ctx.system)
      .filter(({ vol }) => mapped.has(vol.id))
      .map(({ app, vol }) => {
        const l = load(ctx.system, vol, ctx.nowMs);
        const iops = l.readIops + l.writeIops;
        // During a takeover paths to the missing node fail over to non-optimised ones.
        const share = takeover ? 0.35 : 0.03;
        return { VolumeFullName: `${app.name}/${vol.name}`, optimizedIops: Math.round(iops * (1 - share)), unoptimizedIops: Math.round(iops * share) };
      });
    return { Data: data };
  },

  'GET /monitoring/capacity/provisioning': (ctx) => {
    const data: PoolProvisioning[] = ctx.system.pools.map((p) => {
      const members = ctx.system.nodes.flatMap((n) => n.drives).filter((d) => d.pool === p.name && d.approved === 'Approved' && d.status !== 'Missing').length;
      const layouts = [{ N: p.n, K: p.k }, ...[[8, 2], [4, 2], [2, 1]].filter(([n, k]) => (n as number) + (k as number) <= members && !(n === p.n && k === p.k)).map(([n, k]) => ({ N: n as number, K: k as number }))];
      const st = poolState(ctx.system, p);
      return { PoolName: p.name, VirtualRaidValues: layouts, State: st.state, Reason: st.reason, FreeSpaceInPercentage: st.free };
    });
    return { Data: data };
  },

  'GET /monitoring/capacity/volumes': (ctx) => ({
    Data: ctx.system.apps.map((a) => appView(ctx.site, ctx.system, a, ctx.nowMs, { desc: false, cg: false, vols: true })),
  }),

  'GET /monitoring/evacuations/live': (ctx) => {
    const pairs: Array<[string, string]> = [['ssd-pool', 'hdd-pool'], ['nvme-pool', 'ssd-pool']];
    const data: EvacuationRecord[] = [];
    for (const [upperName, lowerName] of pairs) {
      const upper = findPool(ctx.system, upperName);
      const lower = findPool(ctx.system, lowerName);
      if (!upper || !lower) continue;
      const usable = poolUsableBytes(ctx.system, upper);
      const used = poolConsumedBytes(ctx.system, upper);
      const low = Math.floor(usable * 0.7);
      const high = Math.floor(usable * 0.85);
      const change = Math.round((noise(ctx.system.seriesSeed, upper.id, Math.floor(ctx.nowMs / MINUTE)) - 0.4) * 50 * 2 ** 20);
      data.push({
        Name: `${upper.name}>${lower.name}`,
        LowerTierPoolNames: [lower.name],
        UpperTierPoolName: upper.name,
        UpperTierUsedSizeInBytes: used,
        UpperTierAllocatedSizeInBytes: poolAllocatedBytes(ctx.system, upper),
        UpperTierLowerThresholdSizeInBytes: low,
        UpperTierHigherThresholdSizeInBytes: high,
        TierUsageChangePerSecondInBytes: change,
        TierMinUsageChangeInBytes: 2 ** 30,
        TierUsageChangeInBytes_90thPrecentile: Math.abs(change) * 60,
        IsEvacuating: used > low,
        IsInBypass: false,
        WasEvacuating: used > low * 0.9,
      });
    }
    return { Data: data };
  },

  'GET /monitoring/health/current': (ctx) => {
    const q = ctx.query;
    const details = q.flag('details');
    const sys = ctx.system;
    const out: Health = {};
    if (q.on('volumes')) {
      const vols = allVolumes(sys).map(({ app, vol }) => ({
        name: `${app.name}/${vol.name}`,
        state: volumeState(sys, vol, vol.cgid === undefined || (app.cgs.find((c) => c.id === vol.cgid)?.available ?? true)),
      }));
      const bad = vols.filter((v) => v.state !== 'Ok');
      out.Volumes = {
        VolumesHealthInPercentage: vols.length ? round2(((vols.length - bad.length) / vols.length) * 100) : 100,
        HealthyVolumes: vols.length - bad.length,
        UnhealthyVolumes: bad.length,
      };
      if (details) out.Volumes.UnhealthyStates = Object.fromEntries(bad.map((v) => [v.name, v.state]));
    }
    if (q.on('hardwareResources')) {
      const kinds: Array<[string, Array<{ status: string }>]> = [
        ['Drive', sys.nodes.flatMap((n) => n.drives)],
        ['Cpu', sys.nodes.flatMap((n) => n.cpus)],
        ['Memory', sys.nodes.flatMap((n) => n.memory)],
        ['Nic', sys.nodes.flatMap((n) => n.nics)],
        ['Hba', sys.nodes.flatMap((n) => n.hbas)],
        ['Chassis', sys.nodes.flatMap((n) => n.chassis)],
      ];
      const total = kinds.reduce((s, [, list]) => s + list.length, 0);
      const counts: Record<string, number> = {};
      let unhealthy = 0;
      for (const [kind, list] of kinds) {
        const n = list.filter((c) => c.status !== 'OK').length;
        if (n > 0) counts[kind] = n;
        unhealthy += n;
      }
      out.HardwareResources = { HardwareResourcesHealthInPercentage: total ? round2(((total - unhealthy) / total) * 100) : 100, UnhealthyResourceCount: counts };
    }
    if (q.on('hardwareUtilization')) {
      const running = sys.nodes.filter((n) => n.state === 'Running');
      const loads = running.map((n) => nodeLoad(sys.seriesSeed, n.id, ctx.nowMs));
      const avg = (f: (l: (typeof loads)[number]) => number): number => (loads.length ? round2(loads.reduce((s, l) => s + f(l), 0) / loads.length) : 0);
      const cpu = avg((l) => l.cpu);
      const mem = avg((l) => l.memory);
      const drive = avg((l) => (l.hdd + l.ssd + l.nvme) / 3);
      out.HardwareUtilization = { HardwareUtilizationInPercentage: Math.max(cpu, mem, drive), CPUInPercentage: cpu, MemoryInPercentage: mem, DriveInPercentage: drive };
    }
    if (q.on('capacityUtilization')) {
      const pools = sys.pools.map((p) => ({ p, usable: poolUsableBytes(sys, p), used: poolAllocatedBytes(sys, p), st: poolState(sys, p) }));
      out.CapacityUtilization = {
        CapacityInBytes: pools.reduce((s, x) => s + x.usable, 0),
        CapacityUsageInBytes: pools.reduce((s, x) => s + x.used, 0),
        ProvisioningStates: [...new Set(pools.map((x) => x.st.state))],
      };
      if (details) {
        out.CapacityUtilization.PoolCapacity = pools.map((x) => ({ PoolName: x.p.name, CapacityInBytes: x.usable, CapacityUsageInBytes: x.used }));
        out.CapacityUtilization.PoolCapacityVirtualRaidProvisioning = pools.map((x) => ({ Name: x.p.name, FreeSpaceInPercentage: x.st.free }));
      }
    }
    return out;
  },

  'GET /monitoring/performance/history': (ctx) => {
    const q = ctx.query;
    const sys = ctx.system;
    const scope = volumeScope(ctx, q.flag('system'));
    const entities: Array<{ name: string; vols: VolumeState[] }> = scope
      ? scope.vols.map((v) => ({ name: `${scope.app.name}/${v.name}`, vols: [v] }))
      : [{ name: sys.name, vols: allVolumes(sys).map((x) => x.vol) }];
    const r = range(ctx, entities.length);
    const m = metricSwitches(ctx);
    const readOnly = q.flag('readOnly');
    const writeOnly = q.flag('writeOnly');
    if (readOnly && writeOnly) fail('Choose only one of readOnly and writeOnly.');
    const aggr = q.flag('aggrReadsWrites');
    const read = !writeOnly && !aggr;
    const write = !readOnly && !aggr;
    const total = !readOnly && !writeOnly;
    const stats = entities.flatMap((e) => r.times.map((t) => perfPoint(sumLoad(sys, e.vols, t), t, e.name, m, read, write, total)));
    const measures = Object.entries(m).filter(([, on]) => on).map(([k]) => k);
    const out: PerformanceHistory = { PerformanceStatstics: stats, ChartsFileInfo: charts(sys, entities.map((e) => e.name), measures) };
    return out;
  },

  'GET /monitoring/performance/live': (ctx) => {
    const q = ctx.query;
    const sys = ctx.system;
    const scope = volumeScope(ctx, false);
    const picked = scope ? scope.vols.map((vol) => ({ app: scope.app, vol })) : allVolumes(sys);
    const m = metricSwitches(ctx);
    const read = q.on('read');
    const write = q.on('write');
    const time = isoSeconds(ctx.nowMs);
    const record = (name: string, s: Sums): LivePerformance => {
      const out: LivePerformance = { Time: time, Name: name };
      const div = (a: number, b: number): number => (b > 0 ? round2(a / b) : 0);
      if (read) {
        if (m.iops) out.ReadIops = s.readIops;
        if (m.latency) out.ReadLatencyInMilliseconds = div(s.readLatency, s.readIops);
        if (m.iosize) out.ReadIoSizeInBytes = div(s.readBytes, s.readIops);
        if (m.throughput) out.ReadThroughputInBytes = s.readBytes;
      }
      if (write) {
        if (m.iops) out.WriteIops = s.writeIops;
        if (m.latency) out.WriteLatencyInMilliseconds = div(s.writeLatency, s.writeIops);
        if (m.iosize) out.WriteIoSizeInBytes = div(s.writeBytes, s.writeIops);
        if (m.throughput) out.WriteThroughputInBytes = s.writeBytes;
      }
      return out;
    };
    const data = q.flag('aggr')
      ? [record(scope?.app.name ?? sys.name, sumLoad(sys, picked.map((p) => p.vol), ctx.nowMs))]
      : picked.map((p) => record(`${p.app.name}/${p.vol.name}`, sumLoad(sys, [p.vol], ctx.nowMs)));
    return { Data: data };
  },

  'GET /monitoring/reserve/current': (ctx) => {
    const data: ReserveRecord[] = ctx.system.pools.map((p) => {
      const usable = poolUsableBytes(ctx.system, p);
      return {
        Name: p.name,
        UsedDataInBytes: poolConsumedBytes(ctx.system, p),
        TotalChunksInBytes: usable,
        HddChunksInBytes: p.type === 'HDD' ? usable : 0,
        SsdChunksInBytes: p.type === 'SSD' ? usable : 0,
        NvmeChunksInBytes: p.type === 'NVMe' ? usable : 0,
        ReserveSpaceInBytes: Math.floor(usable * 0.05),
      };
    });
    return { Data: data };
  },

  'GET /monitoring/top/volumes': (ctx) => {
    const q = ctx.query;
    const limit = q.int('limit') ?? 10;
    if (limit < 1 || limit > 1000) fail('limit must be between 1 and 1000.');
    const to = q.date('toDate') ?? ctx.nowMs;
    const from = q.date('fromDate') ?? to - 3_600_000;
    if (!(from < to)) fail('fromDate must be earlier than toDate.');
    const samples = Array.from({ length: 12 }, (_, i) => from + ((to - from) * (i + 0.5)) / 12);
    const key = (['userDataConsumedSize', 'retentionConsumedSize', 'latency', 'iops'] as const).find((k) => q.flag(k)) ?? 'iops';
    const rows = allVolumes(ctx.system).map(({ app, vol }) => {
      const sums = samples.map((t) => sumLoad(ctx.system, [vol], t));
      const iops = Math.round(sums.reduce((s, x) => s + x.readIops + x.writeIops, 0) / samples.length);
      const latency = round2(sums.reduce((s, x) => s + (x.readIops + x.writeIops > 0 ? (x.readLatency + x.writeLatency) / (x.readIops + x.writeIops) : 0), 0) / samples.length);
      const sortValue = key === 'iops' ? iops : key === 'latency' ? latency : key === 'userDataConsumedSize' ? vol.capacityBytes * vol.consumed : vol.snapshotCapacityBytes * vol.consumed;
      return { stat: { Name: `${app.name}/${vol.name}`, Iops: iops, CapacityInBytes: vol.capacityBytes, LatencyInMilliseconds: latency }, sortValue };
    });
    rows.sort((a, b) => b.sortValue - a.sortValue);
    const top = rows.slice(0, limit).map((r) => r.stat);
    const out: TopVolumes = { Statistics: top, ChartsFileInfo: charts(ctx.system, ['top-volumes'], [key]) };
    return out;
  },

  'GET /monitoring/utilization/history': (ctx) => {
    const q = ctx.query;
    const sys = ctx.system;
    const nodes = q.str('node') ? [requireNode(sys, q.str('node'))] : sys.nodes;
    const aggr = q.flag('aggr');
    const r = range(ctx, aggr ? 1 : nodes.length);
    checkPrediction(ctx, r);
    const anySent = ['hdd', 'ssd', 'nvme', 'cpu', 'memory'].some((k) => q.bool(k) === true);
    const want = (k: string): boolean => (anySent ? q.flag(k) : q.on(k));
    const row = (name: string, t: number, ids: readonly number[]): NonNullable<UtilizationHistory['UtilizationHistoryStatstics']>[number] => {
      const loads = ids.map((id) => nodeLoad(sys.seriesSeed, id, t));
      const avg = (f: (l: (typeof loads)[number]) => number): number => round2(loads.reduce((s, l) => s + f(l), 0) / Math.max(1, loads.length));
      const out: NonNullable<UtilizationHistory['UtilizationHistoryStatstics']>[number] = { Time: isoSeconds(t), NodeName: name };
      if (want('cpu')) out.CpuInPercentage = avg((l) => l.cpu);
      if (want('memory')) out.MemoryInPercentage = avg((l) => l.memory);
      if (want('ssd')) out.SsdInPercentage = avg((l) => l.ssd);
      if (want('hdd')) out.HddInPercentage = avg((l) => l.hdd);
      if (want('nvme')) out.NvmeInPercentage = avg((l) => l.nvme);
      return out;
    };
    const stats = aggr
      ? r.times.map((t) => row('All nodes', t, nodes.map((n) => n.id)))
      : nodes.flatMap((n) => r.times.map((t) => row(n.name, t, [n.id])));
    const out: UtilizationHistory = { UtilizationHistoryStatstics: stats, ChartsFileInfo: charts(sys, aggr ? ['All nodes'] : nodes.map((n) => n.name), ['utilization']) };
    return out;
  },

  'GET /monitoring/utilization/live': (ctx) => {
    const sys = ctx.system;
    const nodes = ctx.query.str('node') ? [requireNode(sys, ctx.query.str('node'))] : sys.nodes;
    const data: UtilizationLive[] = nodes.map((n) => {
      const l = nodeLoad(sys.seriesSeed, n.id, ctx.nowMs);
      const byPool = (type: PoolState['type']): Record<string, number> => {
        const util = poolTypeUtil(sys, n.id, ctx.nowMs)[type];
        return Object.fromEntries(sys.pools.filter((p) => p.type === type).map((p) => [p.name, util]));
      };
      const down = n.state !== 'Running';
      return {
        Time: isoSeconds(ctx.nowMs),
        EntityName: n.name,
        CPUInPercentage: down ? 0 : l.cpu,
        MemoryInPercentage: down ? 0 : l.memory,
        HDDInPercentage: down ? 0 : l.hdd,
        SSDInPercentage: down ? 0 : l.ssd,
        NvmeInPercentage: down ? 0 : l.nvme,
        HDDPoolsInPercentage: byPool('HDD'),
        SSDPoolsInPercentage: byPool('SSD'),
        NvmePoolsInPercentage: byPool('NVMe'),
      };
    });
    return { Data: data };
  },

  'GET /monitoring/capacity/pools/current': (ctx) => {
    const sys = ctx.system;
    const details = ctx.query.flag('details');
    const rows: PoolCapacityUsageRecord[] = sys.pools.map((p) => {
      const vols = poolVolumes(sys, p);
      const usable = poolUsableBytes(sys, p);
      const allocated = vols.reduce((s, v) => s + footprint(v), 0);
      const userAlloc = vols.reduce((s, v) => s + v.capacityBytes, 0);
      const userUsed = vols.reduce((s, v) => s + Math.floor(v.capacityBytes * v.consumed), 0);
      const retAlloc = vols.reduce((s, v) => s + v.snapshotCapacityBytes, 0);
      const retUsed = vols.reduce((s, v) => s + Math.floor(v.snapshotCapacityBytes * v.consumed * 0.4), 0);
      const raid = (p.n + p.k) / p.n;
      const brief: PoolCapacityUsageRecord = {
        PoolId: p.id,
        Name: p.name,
        RawSizeInBytes: poolRawBytes(sys, p),
        TotalAllocatedSizeInBytes: allocated,
        TotalConsumedSizeInBytes: userUsed + retUsed,
        FreeCapacityInBytes: Math.max(0, usable - allocated),
      };
      return details
        ? {
            ...brief,
            UserDataAllocatedSizeInBytes: userAlloc,
            UserDataConsumedSizeInBytes: userUsed,
            UpperTierAllocatedSizeInBytes: 0,
            UpperTierConsumedSizeInBytes: 0,
            RetentionAllocatedSizeInBytes: retAlloc,
            RetentionConsumedSizeInBytes: retUsed,
            VRAIDAllocationSizeInBytes: Math.floor(allocated * raid),
            VRAIDConsumedSizeInBytes: Math.floor((userUsed + retUsed) * raid),
            MetadataSizeInBytes: Math.floor(allocated * 0.01),
            ReserveSizeInBytes: Math.floor(usable * 0.05),
            OverAllocationSizeInBytes: Math.max(0, allocated - usable),
          }
        : brief;
    });
    if (ctx.query.flag('total')) {
      const total: PoolCapacityUsageRecord = { PoolId: 0, Name: 'Total' };
      for (const r of rows) {
        for (const [k, v] of Object.entries(r)) {
          if (typeof v !== 'number' || k === 'PoolId') continue;
          const rec = total as Record<string, unknown>;
          rec[k] = ((rec[k] as number | undefined) ?? 0) + v;
        }
      }
      rows.push(total);
    }
    const out: PoolCapacityUsage = { CapacityUsage: rows, ChartsFileInfo: charts(sys, sys.pools.map((p) => p.name), ['capacity']) };
    return out;
  },

  'GET /monitoring/capacity/pools/history': (ctx) => {
    const q = ctx.query;
    const sys = ctx.system;
    const types = new Set<string>([...(q.flag('hdd') ? ['HDD'] : []), ...(q.flag('ssd') ? ['SSD'] : []), ...(q.flag('nvme') ? ['NVMe'] : [])]);
    // All simulated pools are automatic; manualPools=true therefore adds none.
    const pools = sys.pools.filter((p) => types.size === 0 || types.has(p.type));
    const r = range(ctx, pools.length, 7 * 86_400_000, 60);
    checkPrediction(ctx, r);
    const stats = pools.flatMap((p) => {
      const alloc = poolAllocatedBytes(sys, p);
      const used = poolConsumedBytes(sys, p);
      return r.times.map((t) => ({
        PoolName: p.name,
        Time: isoSeconds(t),
        TotalAllocatedSizeInBytes: grown(alloc, ctx.nowMs, t, sys.seriesSeed, p.id),
        TotalConsumedSizeInBytes: grown(used, ctx.nowMs, t, sys.seriesSeed, p.id + 100),
      }));
    });
    const out: PoolCapacityHistory = { PerformanceStatstics: stats, ChartsFileInfo: charts(sys, pools.map((p) => p.name), ['capacity']) };
    return out;
  },
};
