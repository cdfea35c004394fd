import { SCALE_UNKNOWN_TEXT, scaleUnknown } from '../answers/percent-scale.js';
import { assessCapacity, type SystemCapacity } from '../capacity/pools.js';
import type { Application, Drive, Health, Node, NotificationRecord, ReplicationPair } from '../catalog/resources.js';
import { haOf, type HaSummary } from './ha.js';
import { notificationRank } from './notification-level.js';
import { levelRank, worse, worst, type Level } from './level.js';
import type { SmartLookup } from '../smart/verdict.js';
import { classifyState, driveLevel, driveSmartRisk, pairLevel, type DriveSmartRisk } from './states.js';

/**
 * One system's health as the overview, the tree, the system header and the summary show it: the
 * worst of volumes, hardware, utilization, capacity and HA. Pure, so every view agrees.
 */

/** Thresholds of the roll-up. Percentages; "health" is the service's own 0–100 figure. */
export const THRESHOLDS = {
  healthWarning: 100,
  healthCritical: 80,
  utilizationWarning: 85,
  utilizationCritical: 95,
} as const;

export type DimensionName = 'volumes' | 'hardware' | 'utilization' | 'capacity' | 'ha' | 'drives' | 'replication';

export interface Dimension {
  name: DimensionName;
  level: Level;
  /** The figure the level comes from, as a percentage; undefined when not reported or not a percentage. */
  percent: number | undefined;
  text: string;
}

export interface Rollup {
  level: Level;
  dimensions: Dimension[];
  /** Short reasons for a level other than ok, worst first. */
  reasons: string[];
  capacity: SystemCapacity;
  ha: HaSummary | undefined;
}

/** What a roll-up reads besides the health record; each is optional (a view may not have it cached). */
export interface RollupInput {
  capacity?: SystemCapacity | undefined;
  /** `/nodes/list` nodes: their State and HAState. */
  nodes?: readonly Node[] | undefined;
  /** The drives not OK, by status or SMART ({@link unhealthyDrives}); undefined when the drive list is not cached. */
  drives?: readonly NodeDrive[] | undefined;
  /** The replication pairs not in sync ({@link laggingReplication}); undefined when the pair list is not cached. */
  lagging?: readonly LaggingPair[] | undefined;
}

function healthDim(name: 'volumes' | 'hardware', pct: number | undefined, detail: string, unknownScale: boolean): Dimension {
  if (pct === undefined) return { name, level: 'unknown', percent: undefined, text: unknownScale ? SCALE_UNKNOWN_TEXT : 'not reported' };
  const level: Level = pct < THRESHOLDS.healthCritical ? 'critical' : pct < THRESHOLDS.healthWarning ? 'warning' : 'ok';
  return { name, level, percent: pct, text: detail };
}

/**
 * Rolls a system up to one level. A system with no health record is 'unknown', which sorts right
 * after 'critical': not knowing is worse than a warning. Capacity is the pools' assessment (the
 * system's provisioning state and the forecast), not a share of the whole system, so one full pool
 * among four is critical, not "25 %".
 */
export function rollupHealth(health: Health | null | undefined, input: RollupInput = {}): Rollup {
  const capacity = input.capacity ?? assessCapacity({ health });
  const ha = input.nodes ? haOf(input.nodes) : undefined;
  const objects: Dimension[] = [...(ha ? [haDim(ha)] : []), ...(input.drives ? [drivesDim(input.drives)] : []), ...(input.lagging ? [replicationDim(input.lagging)] : [])];
  if (!health) {
    const dims: Dimension[] = [capacityDim(capacity), ...objects].filter((d) => d.level !== 'unknown' || d.name === 'drives' || d.name === 'replication');
    return { level: 'unknown', dimensions: dims, reasons: ['no health data cached', ...reasonsOf(dims)], capacity, ha };
  }
  const v = health.Volumes;
  const hw = health.HardwareResources;
  const u = health.HardwareUtilization;
  const unhealthyHw = Object.entries(hw?.UnhealthyResourceCount ?? {}).filter(([, n]) => n > 0);
  const util = u?.HardwareUtilizationInPercentage;
  const dimensions: Dimension[] = [
    healthDim('volumes', v?.VolumesHealthInPercentage, v?.UnhealthyVolumes ? `${v.UnhealthyVolumes} unhealthy of ${(v.HealthyVolumes ?? 0) + v.UnhealthyVolumes}` : `${v?.HealthyVolumes ?? 0} healthy`, scaleUnknown(v, 'VolumesHealthInPercentage')),
    healthDim('hardware', hw?.HardwareResourcesHealthInPercentage, unhealthyHw.length ? unhealthyHw.map(([k, n]) => `${n} ${k}`).join(', ') : 'all healthy', scaleUnknown(hw, 'HardwareResourcesHealthInPercentage')),
    util === undefined
      ? { name: 'utilization', level: 'unknown', percent: undefined, text: scaleUnknown(u, 'HardwareUtilizationInPercentage') ? SCALE_UNKNOWN_TEXT : 'not reported' }
      : {
          name: 'utilization',
          level: util >= THRESHOLDS.utilizationCritical ? 'critical' : util >= THRESHOLDS.utilizationWarning ? 'warning' : 'ok',
          percent: util,
          text: `CPU ${pctText(u, 'CPUInPercentage')}, memory ${pctText(u, 'MemoryInPercentage')}`,
        },
    capacityDim(capacity),
    ...objects,
  ];
  return {
    level: dimensions.reduce<Level>((l, d) => worse(l, d.level), 'ok'),
    dimensions,
    reasons: reasonsOf(dimensions),
    capacity,
    ha,
  };
}

/** A utilisation figure for a line of text: `42 %`, or why it is missing. */
function pctText(u: Health['HardwareUtilization'], field: 'CPUInPercentage' | 'MemoryInPercentage'): string {
  const v = u?.[field];
  return v !== undefined ? `${Math.round(v)} %` : scaleUnknown(u, field) ? SCALE_UNKNOWN_TEXT : 'not reported';
}

function reasonsOf(dimensions: readonly Dimension[]): string[] {
  return dimensions
    .filter((d) => d.level !== 'ok')
    .sort((a, b) => levelRank(a.level) - levelRank(b.level))
    .map((d) => {
      if (d.name === 'capacity' || d.name === 'ha' || d.name === 'drives' || d.name === 'replication') return `${d.name === 'ha' ? 'HA' : d.name}: ${d.text}`;
      if (d.percent === undefined) return `${d.name}: ${d.text}`;
      return `${d.name}: ${Math.round(d.percent)} %${d.name === 'utilization' ? '' : ' healthy'}`;
    });
}

/** The capacity dimension: the worst pool's verdict, with the highest allocated share as its figure. */
function capacityDim(c: SystemCapacity): Dimension {
  const worstPool = c.pools[0];
  if (!worstPool) return { name: 'capacity', level: c.level, percent: undefined, text: c.reasons[0] ?? 'not reported' };
  const highest = Math.max(...c.pools.map((p) => p.allocatedPercent ?? 0));
  const text = worstPool.level === 'ok' ? `${c.pools.length} pool${c.pools.length === 1 ? '' : 's'} ok` : `${worstPool.name} ${worstPool.verdict}${worstPool.freePercent !== undefined ? ` (${worstPool.freePercent} % free)` : ''}`;
  return { name: 'capacity', level: c.level, percent: c.pools.some((p) => p.allocatedPercent !== undefined) ? highest : undefined, text };
}

function haDim(ha: HaSummary): Dimension {
  return { name: 'ha', level: ha.level, percent: undefined, text: ha.text };
}

/** Counts by word, worst first: `2 Missing, 1 Degraded`. */
function tally(items: ReadonlyArray<{ word: string; level: Level }>): string {
  const counts = new Map<string, { n: number; level: Level }>();
  for (const i of items) counts.set(i.word, { n: (counts.get(i.word)?.n ?? 0) + 1, level: i.level });
  return [...counts.entries()]
    .sort((a, b) => levelRank(a[1].level) - levelRank(b[1].level) || b[1].n - a[1].n)
    .map(([w, c]) => `${c.n} ${w}`)
    .join(', ');
}

function drivesDim(drives: readonly NodeDrive[]): Dimension {
  if (!drives.length) return { name: 'drives', level: 'ok', percent: undefined, text: 'all OK' };
  const items = drives.map(({ drive, smart }) => ({ word: driveWord(drive, smart), level: driveLevel(drive, smart) }));
  return { name: 'drives', level: worst(items.map((i) => i.level)), percent: undefined, text: tally(items) };
}

/** How a drive not OK is counted: its status, or its SMART risk when its status is OK. */
function driveWord(drive: Drive, smart: DriveSmartRisk | undefined): string {
  if (classifyState('drive', drive.ResourceStatus)?.understood === false) return `“${drive.ResourceStatus}” (not understood)`;
  if (smart && driveLevel(drive) === 'ok') return `SMART ${smart.risk}`;
  return String(drive.ResourceStatus);
}

function replicationDim(pairs: readonly LaggingPair[]): Dimension {
  if (!pairs.length) return { name: 'replication', level: 'ok', percent: undefined, text: 'in sync' };
  const items = pairs.map(({ pair }) => ({ word: pair.ConnectionStatus ?? 'behind', level: pairLevel(pair) }));
  return { name: 'replication', level: worst(items.map((i) => i.level)), percent: undefined, text: `${pairs.length} pair${pairs.length === 1 ? '' : 's'} not in sync (${tally(items)})` };
}

/** A drive with its node, for fleet-wide lists; `smart` when its SMART text shows a risk. */
export interface NodeDrive {
  node: string;
  drive: Drive;
  smart?: DriveSmartRisk | undefined;
}

/** A system's drives' SMART risks by drive ({@link DriveSmartRisk}): undefined where SMART adds nothing. */
export type SmartRisks = (node: string, driveId: number) => DriveSmartRisk | undefined;

/** The SMART risks of a system's cached SMART verdicts. */
export function smartRisksOf(smart: SmartLookup): SmartRisks {
  return (node, driveId) => driveSmartRisk(smart(node, driveId));
}

/**
 * Drives of a `/resources/list` answer whose level is not ok ({@link driveLevel}): their status, or
 * with `smart` (the system's SMART risks) a risk their SMART text shows.
 */
export function unhealthyDrives(nodes: readonly Node[], smart?: SmartRisks): NodeDrive[] {
  const out: NodeDrive[] = [];
  for (const n of nodes) {
    for (const d of n.Drives ?? []) {
      const risk = smart && n.Name && typeof d.Id === 'number' ? smart(n.Name, d.Id) : undefined;
      if (driveLevel(d, risk) !== 'ok') out.push({ node: n.Name ?? '', drive: d, ...(risk ? { smart: risk } : {}) });
    }
  }
  return out;
}

/** A replication pair behind its source. */
export interface LaggingPair {
  application: string;
  volume: string;
  pair: ReplicationPair;
}

/** Replication pairs whose level is not ok: below 100 % in sync, or a connection status that is not in sync. */
export function laggingReplication(apps: readonly Application[]): LaggingPair[] {
  const out: LaggingPair[] = [];
  for (const a of apps) {
    for (const v of a.Volumes ?? []) {
      for (const p of v.Replication?.ReplicationPairs ?? []) {
        if (pairLevel(p) !== 'ok') out.push({ application: a.Application ?? v.Application ?? '', volume: v.Volume ?? '', pair: p });
      }
    }
  }
  return out;
}

/** Notification level of Error: what the fleet overview calls high-level. */
export const HIGH_LEVEL = 4;

/** Notifications at Error level or above, newest first. */
export function highLevel(records: readonly NotificationRecord[], limit = 50): NotificationRecord[] {
  return records
    .filter((r) => notificationRank(r.Level) >= HIGH_LEVEL)
    .sort((a, b) => (b.Timestamp ?? '').localeCompare(a.Timestamp ?? ''))
    .slice(0, limit);
}
