import { forecastTrend } from '../capacity/forecast.js';
import { planRows, planTotal, poolFigures, rangeText } from '../capacity/plan.js';
import type { PoolCapacity } from '../capacity/pools.js';
import { timeText } from '../answers/time.js';
import { levelName, notificationRank } from '../health/notification-level.js';
import type { Health, Node, NotificationRecord } from '../catalog/resources.js';
import type { Rollup } from '../health/rollup.js';
import { driveLevel, driveSmartRisk, stateLevelOf } from '../health/states.js';
import type { SmartLookup } from '../smart/verdict.js';
import { rollupAnswers, systemLevel, systemRollup } from '../health/system-health.js';
import type { Cell, ReportSection } from './model.js';
import { answer, dataList, smartLookupOf, type ReportInput, type SystemSnapshot } from './snapshot.js';
import { SITE_SYSTEM, arr, dataAgesFor, makeTable, num, percentOf, text, where } from './table.js';

const OPS = [
  'GET /monitoring/health/current',
  'GET /monitoring/capacity/pools/current',
  'GET /monitoring/capacity/pools/history',
  'GET /monitoring/capacity/provisioning',
  'GET /nodes/list',
  'GET /resources/list',
  'GET /replication/list',
  'GET /notifications/query',
] as const;

/** Warning and above are listed. */
const LISTED_LEVEL = 3;
/** Newest listed notifications per system: enough for an audit trail, bounded for the PDF. */
const NOTIFICATIONS_PER_SYSTEM = 25;

/** Health and capacity: health percentages, pool capacity with days until full, problems, warnings. */
export function healthSection(input: ReportInput): ReportSection {
  const now = Date.parse(input.generatedAt);
  const summary: Cell[][] = [];
  const pools: Cell[][] = [];
  const unhealthyVolumes: Cell[][] = [];
  const hardwareProblems: Cell[][] = [];
  const notifications: Cell[][] = [];
  for (const s of input.systems) {
    const h = answer<Health>(s, 'GET /monitoring/health/current');
    const cap = h?.CapacityUtilization;
    const smart = smartLookupOf(s);
    const rollup = rollupOf(s, now, smart);
    const capacity = rollup.capacity;
    // The pools' sums, as the overview and the planning view total them; the health record's
    // system-wide figures only where the system names no pool.
    const rows = capacity.pools.length ? planRows([{ siteId: s.siteId, siteName: s.siteName, system: s.system, capacity }]) : undefined;
    const sums = rows ? planTotal(rows) : undefined;
    const total = sums ? (sums.unknownUsable ? null : sums.usable) : num(cap?.CapacityInBytes);
    // No pool with an allocated figure is an allocation not reported, not 0 bytes.
    const allocated = sums ? (rows?.some((r) => r.allocated !== undefined) ? sums.allocated : null) : num(cap?.CapacityUsageInBytes);
    summary.push([
      ...where(s),
      s.state,
      systemLevel(rollup, s.state),
      num(h?.Volumes?.VolumesHealthInPercentage),
      num(h?.Volumes?.UnhealthyVolumes),
      num(h?.HardwareResources?.HardwareResourcesHealthInPercentage),
      countsText(h?.HardwareResources?.UnhealthyResourceCount),
      num(h?.HardwareUtilization?.CPUInPercentage),
      num(h?.HardwareUtilization?.MemoryInPercentage),
      total,
      allocated,
      percentOf(allocated, total),
      capacity.level,
    ]);
    for (const [name, state] of Object.entries(h?.Volumes?.UnhealthyStates ?? {})) unhealthyVolumes.push([...where(s), name, text(state), typeof state === 'string' ? stateLevelOf('volume', state) : 'unknown']);
    for (const p of capacity.pools) pools.push(poolRow(s, p));
    if (capacity.total) pools.push(poolRow(s, capacity.total));
    for (const n of dataList<Node>(s, 'GET /resources/list')) {
      const groups: Array<[string, Array<{ Id?: number; Name?: string; ResourceSerial?: string; ResourceStatus?: string; ErrMsg?: string }> | undefined]> = [
        ['Drive', n.Drives],
        ['CPU', n.CPU],
        ['Memory', n.Memory],
        ['NIC', n.NetworkInterfaceCards],
        ['FC HBA', n.FibreChannelHostBusAdapters],
        ['Chassis', n.Chassis],
      ];
      for (const [component, items] of groups) {
        for (const c of arr(items)) {
          // A drive's SMART risk is a hardware problem too, at the level every view gives the drive.
          const risk = component === 'Drive' && n.Name && typeof c.Id === 'number' ? driveSmartRisk(smart(n.Name, c.Id)) : undefined;
          const level = driveLevel(c, risk);
          if (level === 'ok') continue;
          const smartText = risk && level !== driveLevel(c) ? `SMART risk ${risk.risk}${risk.findings.length ? `: ${risk.findings.join('; ')}` : ''}` : undefined;
          hardwareProblems.push([...where(s), text(n.Name), component, text(c.Name), text(c.ResourceSerial), text(c.ResourceStatus), level, [text(c.ErrMsg), smartText].filter(Boolean).join('; ') || null]);
        }
      }
    }
    const records = dataList<NotificationRecord>(s, 'GET /notifications/query')
      .filter((r) => notificationRank(r.Level, LISTED_LEVEL) >= LISTED_LEVEL)
      .sort((a, b) => String(b.Timestamp ?? '').localeCompare(String(a.Timestamp ?? '')))
      .slice(0, NOTIFICATIONS_PER_SYSTEM);
    for (const r of records) notifications.push([...where(s), timeText(r.Timestamp), r.Level === undefined ? 'not sent' : levelName(r.Level), text(r.Node), text(r.Module), text(r.Message)]);
  }
  return {
    id: 'health',
    kind: 'health',
    title: 'Health and capacity',
    description:
      'Health and utilization as each system reports them; pool capacity with the system’s own provisioning state and whole days until full: the days the free space (usable − allocated) lasts ' +
      'at the growth of consumed data, from a least-squares line through the cached 30-day pool history (95 % range from the slope’s standard error), counted from the time this report was generated; ' +
      'a pool the system judges full is full now (0 days), and “All pools” shows the pool that fills first. Each row states what its days measure. The outlook is the worse of the state and the forecast. ' +
      'Then open hardware problems and the newest warnings and errors.',
    tables: [
      makeTable(
        'health.systems',
        'System health',
        [
          ...SITE_SYSTEM,
          ['state', 'State when reported'],
          ['level', 'Health (roll-up)'],
          ['volumesHealth', 'Volumes healthy', 'percent'],
          ['unhealthyVolumes', 'Unhealthy volumes', 'number'],
          ['hardwareHealth', 'Hardware healthy', 'percent'],
          ['unhealthyResources', 'Unhealthy resources'],
          ['cpu', 'CPU', 'percent'],
          ['memory', 'Memory', 'percent'],
          ['capacity', 'Usable', 'bytes'],
          ['allocated', 'Allocated', 'bytes'],
          ['allocatedPercent', 'Allocated', 'percent'],
          ['capacityLevel', 'Capacity outlook'],
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
          ['state', 'State (system)'],
          ['reason', 'Reason'],
          ['capacity', 'Usable', 'bytes'],
          ['allocated', 'Allocated', 'bytes'],
          ['consumed', 'Consumed', 'bytes'],
          ['free', 'Free', 'bytes'],
          ['freePercent', 'Free', 'percent'],
          ['growthPerDay', 'Consumed growth per day', 'bytes'],
          ['daysUntilFull', 'Days until full', 'number'],
          ['range', '95 % range (days)'],
          ['fullBy', 'Full by', 'time'],
          ['basis', 'Days measure'],
          ['outlook', 'Outlook'],
        ],
        ['site', 'system', 'pool'],
        pools,
        'No pool capacity cached.',
      ),
      makeTable('health.unhealthyVolumes', 'Unhealthy volumes', [...SITE_SYSTEM, ['volume', 'Volume'], ['state', 'State'], ['level', 'Level']], ['site', 'system', 'volume'], unhealthyVolumes, 'No unhealthy volumes reported.'),
      makeTable(
        'health.hardwareProblems',
        'Open hardware problems',
        [...SITE_SYSTEM, ['node', 'Node'], ['component', 'Component'], ['name', 'Name'], ['serial', 'Serial'], ['status', 'Status'], ['level', 'Level'], ['error', 'Error']],
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

/** The system's roll-up from its snapshot: the same reads, SMART verdicts, assessment and levels as the fleet overview. */
function rollupOf(s: SystemSnapshot, now: number, smart: SmartLookup): Rollup {
  return systemRollup(rollupAnswers((r) => s.answers[r.op]?.value, smart), now);
}

function poolRow(s: SystemSnapshot, p: PoolCapacity): Cell[] {
  // The same figures, rounded the same way, as the capacity planning view (app/capacity/plan.ts).
  const f = poolFigures(p);
  const n = (v: number | undefined): number | null => (v === undefined ? null : v);
  return [...where(s), p.name, text(p.state), text(p.reason), n(f.usable), n(f.allocated), n(f.consumed), n(f.free), n(f.freePercent), n(f.growthPerDay), n(f.daysUntilFull), rangeText(f.range) ?? null, f.fullBy ?? null, f.basis, outlook(p)];
}

/** The pool's verdict with its level, and what the forecast adds when it is not the deciding part. */
function outlook(p: PoolCapacity): string {
  const trend = forecastTrend(p.forecast);
  const first = p.fillsFirst ? ` (${p.fillsFirst} fills first)` : '';
  return `${p.level}: ${p.verdict === 'ok' ? trend : `${p.verdict}; ${trend}`}${first}`;
}

function countsText(counts: Record<string, number> | undefined): string | null {
  const parts = Object.entries(counts ?? {})
    .filter(([, n]) => typeof n === 'number' && n > 0)
    .map(([k, n]) => `${k}: ${n}`);
  return parts.length ? parts.join(', ') : null;
}
