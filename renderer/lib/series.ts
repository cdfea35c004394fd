import type { PerformanceStatistic, PoolCapacityHistoryStatistic, UtilizationHistoryStatistic } from '../../app/catalog/index.js';
import { parseTime } from './format.js';

/** One line of a chart: x in ms since the epoch, sorted. */
export interface Series {
  label: string;
  points: Array<{ x: number; y: number }>;
}

function group<T>(rows: readonly T[], name: (r: T) => string | undefined): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = name(r) ?? '';
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

function line<T>(label: string, rows: readonly T[], time: (r: T) => string | undefined, value: (r: T) => number | undefined): Series | undefined {
  const points: Series['points'] = [];
  for (const r of rows) {
    const x = parseTime(time(r));
    const y = value(r);
    if (x !== undefined && typeof y === 'number' && Number.isFinite(y)) points.push({ x, y });
  }
  points.sort((a, b) => a.x - b.x);
  return points.length > 0 ? { label, points } : undefined;
}

export type PerfMetric = 'iops' | 'latency' | 'throughput';

const PERF_FIELDS: Record<PerfMetric, Array<[string, keyof PerformanceStatistic]>> = {
  iops: [
    ['total', 'Iops'],
    ['read', 'ReadIops'],
    ['write', 'WriteIops'],
  ],
  latency: [
    ['total', 'LatencyInMilliseconds'],
    ['read', 'ReadLatencyInMilliseconds'],
    ['write', 'WriteLatencyInMilliseconds'],
  ],
  throughput: [
    ['total', 'ThroughputInBytes'],
    ['read', 'ReadThroughputInBytes'],
    ['write', 'WriteThroughputInBytes'],
  ],
};

/** Total, read and write lines of a performance metric per entity (entity name left out when there is one). */
export function perfSeries(stats: readonly PerformanceStatistic[], metric: PerfMetric): Series[] {
  const byEntity = group(stats, (s) => s.EntityName);
  const many = byEntity.size > 1;
  const out: Series[] = [];
  for (const [entity, rows] of byEntity) {
    for (const [part, field] of PERF_FIELDS[metric]) {
      const s = line(many ? `${entity} ${part}` : part, rows, (r) => r.Time, (r) => r[field] as number | undefined);
      if (s) out.push(s);
    }
  }
  return out;
}

export type UtilMetric = 'CpuInPercentage' | 'MemoryInPercentage' | 'HddInPercentage' | 'SsdInPercentage' | 'NvmeInPercentage';

/** One line per node for a utilization metric. */
export function utilSeries(stats: readonly UtilizationHistoryStatistic[], metric: UtilMetric): Series[] {
  return [...group(stats, (s) => s.NodeName)].flatMap(([node, rows]) => line(node, rows, (r) => r.Time, (r) => r[metric]) ?? []);
}

/** Consumed bytes per pool over time. */
export function poolSeries(stats: readonly PoolCapacityHistoryStatistic[]): Series[] {
  return [...group(stats, (s) => s.PoolName)].flatMap(([pool, rows]) => line(pool, rows, (r) => r.Time, (r) => r.TotalConsumedSizeInBytes) ?? []);
}

/** Text alternative of a chart: each line's latest value and range. */
export function describeSeries(series: readonly Series[], format: (v: number) => string): string {
  if (series.length === 0) return 'no data';
  return series
    .map((s) => {
      const ys = s.points.map((p) => p.y);
      const last = ys[ys.length - 1] as number;
      return `${s.label}: latest ${format(last)}, min ${format(Math.min(...ys))}, max ${format(Math.max(...ys))}`;
    })
    .join('; ');
}
