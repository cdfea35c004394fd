import type { Application, Drive, Health, Node, NotificationRecord, ReplicationPair } from '../../app/catalog/index.js';
import { HIGH_LEVEL } from './levels.js';
import { readOnlyReason } from './states.js';

/** Severity, ordered so that sorting by rank puts the worst first. */
export type Level = 'critical' | 'unknown' | 'warning' | 'ok';
const RANK: Record<Level, number> = { critical: 0, unknown: 1, warning: 2, ok: 3 };

export function levelRank(level: Level): number {
  return RANK[level];
}

export function worse(a: Level, b: Level): Level {
  return RANK[a] <= RANK[b] ? a : b;
}

/** Thresholds of the roll-up. Percentages; "health" is the service's own 0–100 figure. */
export const THRESHOLDS = {
  healthWarning: 100,
  healthCritical: 80,
  utilizationWarning: 85,
  utilizationCritical: 95,
  capacityWarning: 80,
  capacityCritical: 90,
} as const;

export interface Dimension {
  name: 'volumes' | 'hardware' | 'utilization' | 'capacity';
  level: Level;
  /** The figure the level comes from, as a percentage; undefined when not reported. */
  percent: number | undefined;
  text: string;
}

export interface Rollup {
  level: Level;
  dimensions: Dimension[];
  /** Short reasons for a level other than ok, worst first. */
  reasons: string[];
  capacity: { total: number; used: number } | undefined;
}

function healthDim(name: 'volumes' | 'hardware', pct: number | undefined, detail: string): Dimension {
  if (pct === undefined) return { name, level: 'unknown', percent: undefined, text: 'not reported' };
  const level: Level = pct < THRESHOLDS.healthCritical ? 'critical' : pct < THRESHOLDS.healthWarning ? 'warning' : 'ok';
  return { name, level, percent: pct, text: detail };
}

function loadDim(name: 'utilization' | 'capacity', pct: number | undefined, warn: number, crit: number, text: string): Dimension {
  if (pct === undefined) return { name, level: 'unknown', percent: undefined, text: 'not reported' };
  return { name, level: pct >= crit ? 'critical' : pct >= warn ? 'warning' : 'ok', percent: pct, text };
}

/**
 * Rolls a health record up to one level: the worst of volumes, hardware, utilization and capacity.
 * A system with no health record is 'unknown', which sorts right after 'critical': not knowing is
 * worse than a warning.
 */
export function rollupHealth(health: Health | undefined): Rollup {
  if (!health) return { level: 'unknown', dimensions: [], reasons: ['no health data cached'], capacity: undefined };
  const v = health.Volumes;
  const hw = health.HardwareResources;
  const u = health.HardwareUtilization;
  const c = health.CapacityUtilization;
  const unhealthyHw = Object.entries(hw?.UnhealthyResourceCount ?? {}).filter(([, n]) => n > 0);
  const capTotal = c?.CapacityInBytes;
  const capUsed = c?.CapacityUsageInBytes;
  const capPct = capTotal && capUsed !== undefined ? (capUsed / capTotal) * 100 : undefined;
  const dimensions: Dimension[] = [
    healthDim('volumes', v?.VolumesHealthInPercentage, v?.UnhealthyVolumes ? `${v.UnhealthyVolumes} unhealthy of ${(v.HealthyVolumes ?? 0) + v.UnhealthyVolumes}` : `${v?.HealthyVolumes ?? 0} healthy`),
    healthDim('hardware', hw?.HardwareResourcesHealthInPercentage, unhealthyHw.length ? unhealthyHw.map(([k, n]) => `${n} ${k}`).join(', ') : 'all healthy'),
    loadDim('utilization', u?.HardwareUtilizationInPercentage, THRESHOLDS.utilizationWarning, THRESHOLDS.utilizationCritical, `CPU ${Math.round(u?.CPUInPercentage ?? 0)} %, memory ${Math.round(u?.MemoryInPercentage ?? 0)} %`),
    loadDim('capacity', capPct, THRESHOLDS.capacityWarning, THRESHOLDS.capacityCritical, capPct === undefined ? 'not reported' : `${capPct.toFixed(0)} % used`),
  ];
  const bad = dimensions.filter((d) => d.level !== 'ok').sort((a, b) => RANK[a.level] - RANK[b.level]);
  return {
    level: dimensions.reduce<Level>((l, d) => worse(l, d.level), 'ok'),
    dimensions,
    reasons: bad.map((d) => `${d.name}: ${d.percent === undefined ? d.text : `${Math.round(d.percent)} %${d.name === 'capacity' || d.name === 'utilization' ? '' : ' healthy'}`}`),
    capacity: capTotal !== undefined && capUsed !== undefined ? { total: capTotal, used: capUsed } : undefined,
  };
}

/**
 * A connection problem counts at least as a warning: the data shown may be old. Answers the app
 * cannot read count as unknown: part of the system's data is missing, which is worse than a warning.
 */
export function connectionLevel(state: string | undefined): Level {
  if (state === 'certificate-changed') return 'critical';
  if (state === 'protocol-error') return 'unknown';
  return readOnlyReason(state) ? 'warning' : 'ok';
}

/** A drive with its node, for fleet-wide lists. */
export interface NodeDrive {
  node: string;
  drive: Drive;
}

/** Drives of a `/resources/list` answer whose status is not OK. */
export function unhealthyDrives(nodes: readonly Node[]): NodeDrive[] {
  const out: NodeDrive[] = [];
  for (const n of nodes) {
    for (const d of n.Drives ?? []) {
      if (d.ResourceStatus && d.ResourceStatus.toUpperCase() !== 'OK') out.push({ node: n.Name ?? '', drive: d });
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

// The interface shows only "Initializing"; these are the states that mean caught up.
const IN_SYNC = /^(insync|in_sync|synced|synchronized|connected|ok|active)$/i;

/** Replication pairs with sync below 100 % or a connection status that is not in sync. */
export function laggingReplication(apps: readonly Application[]): LaggingPair[] {
  const out: LaggingPair[] = [];
  for (const a of apps) {
    for (const v of a.Volumes ?? []) {
      for (const p of v.Replication?.ReplicationPairs ?? []) {
        const behind = (p.SyncInPercentage !== undefined && p.SyncInPercentage < 100) || (p.ConnectionStatus !== undefined && !IN_SYNC.test(p.ConnectionStatus));
        if (behind) out.push({ application: a.Application ?? v.Application ?? '', volume: v.Volume ?? '', pair: p });
      }
    }
  }
  return out;
}

/** Notifications at Error level or above, newest first. */
export function highLevel(records: readonly NotificationRecord[], limit = 50): NotificationRecord[] {
  return records
    .filter((r) => (r.Level ?? 0) >= HIGH_LEVEL)
    .sort((a, b) => (b.Timestamp ?? '').localeCompare(a.Timestamp ?? ''))
    .slice(0, limit);
}
