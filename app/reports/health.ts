import { forecastFull, historyByPool, type Forecast } from '../capacity/forecast.js';
import type { Health, Node, NotificationRecord, PoolCapacityHistory, PoolCapacityUsage, PoolProvisioning } from '../catalog/resources.js';
import type { Cell, ReportSection } from './model.js';
import { answer, dataList, type ReportInput, type SystemSnapshot } from './snapshot.js';
import { SITE_SYSTEM, arr, dataAgesFor, makeTable, num, percentOf, text, where } from './table.js';

const OPS = [
  'GET /monitoring/health/current',
  'GET /monitoring/capacity/pools/current',
  'GET /monitoring/capacity/pools/history',
  'GET /monitoring/capacity/provisioning',
  'GET /resources/list',
  'GET /notifications/query',
] as const;

/** Notification levels (the interface leaves them unshown; the usual 0 Verbose … 5 Critical scale). */
const LEVEL_NAMES = ['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Critical'];
/** Warning and above are listed. */
const LISTED_LEVEL = 3;
/** Newest listed notifications per system: enough for an audit trail, bounded for the PDF. */
const NOTIFICATIONS_PER_SYSTEM = 25;

/** Health and capacity: health percentages, pool capacity with days until full, problems, warnings. */
export function healthSection(input: ReportInput): ReportSection {
  const now = Date.parse(input.generatedAt);
  const summary: Cell[][] = [];
  const pools: Cell[][] = [];
  const provisioning: Cell[][] = [];
  const unhealthyVolumes: Cell[][] = [];
  const hardwareProblems: Cell[][] = [];
  const notifications: Cell[][] = [];
  for (const s of input.systems) {
    const h = answer<Health>(s, 'GET /monitoring/health/current');
    const cap = h?.CapacityUtilization;
    const total = num(cap?.CapacityInBytes);
    const used = num(cap?.CapacityUsageInBytes);
    summary.push([
      ...where(s),
      s.state,
      num(h?.Volumes?.VolumesHealthInPercentage),
      num(h?.Volumes?.UnhealthyVolumes),
      num(h?.HardwareResources?.HardwareResourcesHealthInPercentage),
      countsText(h?.HardwareResources?.UnhealthyResourceCount),
      num(h?.HardwareUtilization?.CPUInPercentage),
      num(h?.HardwareUtilization?.MemoryInPercentage),
      total,
      used,
      percentOf(used, total),
    ]);
    for (const [name, state] of Object.entries(h?.Volumes?.UnhealthyStates ?? {})) unhealthyVolumes.push([...where(s), name, text(state)]);
    pools.push(...poolRows(s, now));
    for (const p of dataList<PoolProvisioning>(s, 'GET /monitoring/capacity/provisioning')) {
      provisioning.push([...where(s), text(p.PoolName), text(p.State), text(p.Reason), num(p.FreeSpaceInPercentage)]);
    }
    for (const n of dataList<Node>(s, 'GET /resources/list')) {
      const groups: Array<[string, Array<{ Name?: string; ResourceSerial?: string; ResourceStatus?: string; ErrMsg?: string }> | undefined]> = [
        ['Drive', n.Drives],
        ['CPU', n.CPU],
        ['Memory', n.Memory],
        ['NIC', n.NetworkInterfaceCards],
        ['FC HBA', n.FibreChannelHostBusAdapters],
        ['Chassis', n.Chassis],
      ];
      for (const [component, items] of groups) {
        for (const c of arr(items)) {
          if (c.ResourceStatus === undefined || c.ResourceStatus === 'OK') continue;
          hardwareProblems.push([...where(s), text(n.Name), component, text(c.Name), text(c.ResourceSerial), text(c.ResourceStatus), text(c.ErrMsg)]);
        }
      }
    }
    const records = dataList<NotificationRecord>(s, 'GET /notifications/query')
      .filter((r) => typeof r.Level === 'number' && r.Level >= LISTED_LEVEL)
      .sort((a, b) => String(b.Timestamp ?? '').localeCompare(String(a.Timestamp ?? '')))
      .slice(0, NOTIFICATIONS_PER_SYSTEM);
    for (const r of records) notifications.push([...where(s), text(r.Timestamp), levelName(r.Level), text(r.Node), text(r.Module), text(r.Message)]);
  }
  return {
    id: 'health',
    kind: 'health',
    title: 'Health and capacity',
    description:
      'Health and utilization as each system reports them; pool capacity with days until full, from a least-squares line through the cached 30-day pool history ' +
      '(95 % range from the slope’s standard error), counted from the time this report was generated; open hardware problems; the newest warnings and errors.',
    tables: [
      makeTable(
        'health.systems',
        'System health',
        [
          ...SITE_SYSTEM,
          ['state', 'State when reported'],
          ['volumesHealth', 'Volumes healthy', 'percent'],
          ['unhealthyVolumes', 'Unhealthy volumes', 'number'],
          ['hardwareHealth', 'Hardware healthy', 'percent'],
          ['unhealthyResources', 'Unhealthy resources'],
          ['cpu', 'CPU', 'percent'],
          ['memory', 'Memory', 'percent'],
          ['capacity', 'Capacity', 'bytes'],
          ['used', 'Used', 'bytes'],
          ['usedPercent', 'Used', 'percent'],
        ],
        ['site', 'system'],
        summary,
      ),
      makeTable(
        'health.pools',
        'Pool capacity and days until full',
        [
          ...SITE_SYSTEM,
          ['pool', 'Pool'],
          ['capacity', 'Capacity', 'bytes'],
          ['consumed', 'Consumed', 'bytes'],
          ['usedPercent', 'Used', 'percent'],
          ['growthPerDay', 'Growth per day', 'bytes'],
          ['daysUntilFull', 'Days until full', 'number'],
          ['range', '95 % range (days)'],
          ['fullBy', 'Full by', 'time'],
          ['outlook', 'Outlook'],
        ],
        ['site', 'system', 'pool'],
        pools,
        'No pool capacity cached.',
      ),
      makeTable(
        'health.provisioning',
        'Pool provisioning',
        [...SITE_SYSTEM, ['pool', 'Pool'], ['state', 'State'], ['reason', 'Reason'], ['free', 'Free', 'percent']],
        ['site', 'system', 'pool'],
        provisioning,
        'No provisioning record cached.',
      ),
      makeTable('health.unhealthyVolumes', 'Unhealthy volumes', [...SITE_SYSTEM, ['volume', 'Volume'], ['state', 'State']], ['site', 'system', 'volume'], unhealthyVolumes, 'No unhealthy volumes reported.'),
      makeTable(
        'health.hardwareProblems',
        'Open hardware problems',
        [...SITE_SYSTEM, ['node', 'Node'], ['component', 'Component'], ['name', 'Name'], ['serial', 'Serial'], ['status', 'Status'], ['error', 'Error']],
        ['site', 'system', 'node', 'component', 'name'],
        hardwareProblems,
        'No hardware component reports a problem.',
      ),
      makeTable(
        'health.notifications',
        `Newest warnings and errors (up to ${NOTIFICATIONS_PER_SYSTEM} per system)`,
        [...SITE_SYSTEM, ['time', 'Time', 'time'], ['level', 'Level'], ['node', 'Node'], ['module', 'Module'], ['message', 'Message']],
        ['site', 'system', 'time', 'message'],
        notifications,
        'No warnings or errors cached.',
      ),
    ],
    dataAges: dataAgesFor(input, OPS),
  };
}

/** Capacity, consumption and forecast per pool, plus "All pools" when there are several. */
function poolRows(s: SystemSnapshot, now: number): Cell[][] {
  const current = answer<PoolCapacityUsage>(s, 'GET /monitoring/capacity/pools/current');
  const health = answer<Health>(s, 'GET /monitoring/health/current');
  const history = answer<PoolCapacityHistory>(s, 'GET /monitoring/capacity/pools/history');
  // Usable bytes: the health record's pool capacity, else allocated + free (as the monitoring view).
  const capacity = new Map<string, number>();
  const consumed = new Map<string, number>();
  for (const r of arr(current?.CapacityUsage)) {
    if (!r.Name || r.Name === 'Total') continue;
    if (typeof r.TotalAllocatedSizeInBytes === 'number' && typeof r.FreeCapacityInBytes === 'number') capacity.set(r.Name, r.TotalAllocatedSizeInBytes + r.FreeCapacityInBytes);
    if (typeof r.TotalConsumedSizeInBytes === 'number') consumed.set(r.Name, r.TotalConsumedSizeInBytes);
  }
  for (const p of arr(health?.CapacityUtilization?.PoolCapacity)) if (p.PoolName && typeof p.CapacityInBytes === 'number' && p.CapacityInBytes > 0) capacity.set(p.PoolName, p.CapacityInBytes);
  const { pools: byPool, system } = historyByPool(arr(history?.PerformanceStatstics));
  const names = [...new Set([...capacity.keys(), ...byPool.keys()])].sort();
  const rows: Cell[][] = [];
  let total = 0;
  for (const name of names) {
    const cap = capacity.get(name) ?? 0;
    total += cap;
    const samples = byPool.get(name) ?? [];
    const used = consumed.get(name) ?? samples[samples.length - 1]?.consumed;
    rows.push(poolRow(s, name, cap, used, forecastFull(samples, cap, now)));
  }
  if (names.length > 1) {
    const used = names.reduce<number | undefined>((sum, n) => (sum === undefined || !consumed.has(n) ? undefined : sum + (consumed.get(n) as number)), 0);
    rows.push(poolRow(s, 'All pools', total, used ?? system[system.length - 1]?.consumed, forecastFull(system, total, now)));
  }
  return rows;
}

function poolRow(s: SystemSnapshot, pool: string, capacity: number, consumed: number | undefined, f: Forecast): Cell[] {
  const days = f.status === 'growing' || f.status === 'full' ? (f.days ?? null) : null;
  const range = f.range && f.status === 'growing' ? `${Math.round(f.range.low)} – ${Number.isFinite(f.range.high) ? Math.round(f.range.high) : '∞'}` : null;
  return [
    ...where(s),
    pool,
    capacity > 0 ? capacity : null,
    consumed ?? null,
    percentOf(consumed, capacity),
    f.status === 'insufficient-data' ? null : Math.round(f.slopePerDay),
    days === null ? null : Math.round(days * 10) / 10,
    range,
    f.fullAt ?? null,
    outlook(f),
  ];
}

function outlook(f: Forecast): string {
  switch (f.status) {
    case 'full':
      return 'full now';
    case 'not-growing':
      return 'not growing';
    case 'insufficient-data':
      return f.capacity > 0 ? 'not enough history' : 'capacity unknown';
    case 'growing':
      return Number.isFinite(f.range?.high ?? Number.POSITIVE_INFINITY) ? 'growing' : 'growing (growth not certain)';
  }
}

function countsText(counts: Record<string, number> | undefined): string | null {
  const parts = Object.entries(counts ?? {})
    .filter(([, n]) => typeof n === 'number' && n > 0)
    .map(([k, n]) => `${k}: ${n}`);
  return parts.length ? parts.join(', ') : null;
}

function levelName(level: number | undefined): string | null {
  if (level === undefined) return null;
  return LEVEL_NAMES[level] ?? `Level ${level}`;
}
