import { assessCapacity, type SystemCapacity } from '../capacity/pools.js';
import type { Application, Health, Node, PoolCapacityHistory, PoolCapacityUsage, PoolProvisioning } from '../catalog/resources.js';
import { CAPACITY_HISTORY_CACHE, refreshRead, type PlannedRead } from '../fleet/refresh-plan.js';
import type { SmartLookup } from '../smart/verdict.js';
import { laggingReplication, rollupHealth, smartRisksOf, unhealthyDrives, type LaggingPair, type NodeDrive, type Rollup } from './rollup.js';

/**
 * One system's health from its cached answers: which reads feed the capacity assessment and the
 * roll-up, and how a connection state weighs in. The fleet overview, the health report and
 * `fleetdeck fleet status` all compute it here, so a system has one level wherever it is shown.
 */

/** The cached reads (operation and cache query) of the roll-up; capacity history is cached under the empty query. */
export const ROLLUP_READS = {
  health: refreshRead('GET /monitoring/health/current'),
  pools: refreshRead('GET /monitoring/capacity/pools/current'),
  provisioning: refreshRead('GET /monitoring/capacity/provisioning'),
  history: { op: CAPACITY_HISTORY_CACHE.op, query: { ...CAPACITY_HISTORY_CACHE.query } },
  nodes: refreshRead('GET /nodes/list'),
  resources: refreshRead('GET /resources/list'),
  replication: refreshRead('GET /replication/list'),
} as const satisfies Record<string, PlannedRead>;

/**
 * Where several readers of the same answers of a system keep one capacity assessment (the health
 * summary and the alert rules after a refresh): the first that asks makes it with `assess`, at its
 * own time; the others get that one.
 */
export interface CapacityMemo {
  capacity(assess: () => SystemCapacity): SystemCapacity;
}

/**
 * The cached answers of {@link ROLLUP_READS}: undefined (or null) where nothing is cached; the
 * system's SMART verdicts by drive, where the caller has them (without, drives rate by status
 * alone); and where the capacity assessed from them is shared, if it is.
 */
export type RollupAnswers = Partial<Record<keyof typeof ROLLUP_READS, unknown>> & { smart?: SmartLookup | undefined; memo?: CapacityMemo | undefined };

/**
 * The roll-up's answers, each read by `read` (a cache, a report's snapshot) with its operation and
 * cache query, `smart`, the system's cached SMART verdicts by drive, and `memo`, where the capacity
 * assessed from these answers is shared with other readers of them.
 */
export function rollupAnswers(read: (r: PlannedRead) => unknown, smart?: SmartLookup, memo?: CapacityMemo): RollupAnswers {
  const out: RollupAnswers = {};
  for (const [name, r] of Object.entries(ROLLUP_READS)) out[name as keyof typeof ROLLUP_READS] = read(r);
  if (smart) out.smart = smart;
  if (memo) out.memo = memo;
  return out;
}

/** The `Data` list of a cached list answer; empty when it is not one. */
export const listOf = <T>(value: unknown): T[] => {
  const data = (value as { Data?: unknown } | null | undefined)?.Data;
  return Array.isArray(data) ? (data as T[]) : [];
};

/**
 * Pools' capacity from the cached answers, forecast from the time `now` (ms since the epoch); with
 * `a.memo`, the one assessment its readers share (forecast from the time of the first).
 */
export function capacityFromAnswers(a: RollupAnswers, now: number): SystemCapacity {
  const assess = (): SystemCapacity => {
    const history = (a.history as PoolCapacityHistory | null | undefined)?.PerformanceStatstics;
    return assessCapacity({
      health: a.health as Health | null | undefined,
      pools: a.pools as PoolCapacityUsage | null | undefined,
      provisioning: listOf<PoolProvisioning>(a.provisioning),
      history: Array.isArray(history) ? history : [],
      now,
    });
  };
  return a.memo ? a.memo.capacity(assess) : assess();
}

const cached = (v: unknown): boolean => v !== undefined && v !== null;

/** A system's drives not OK and pairs not in sync; each undefined when its list is not cached. */
export interface SystemObjects {
  drives: NodeDrive[] | undefined;
  lagging: LaggingPair[] | undefined;
}

/** The drives (by status and SMART) and replication pairs of the roll-up, from the cached drive and pair lists. */
export function systemObjects(a: RollupAnswers): SystemObjects {
  return {
    drives: cached(a.resources) ? unhealthyDrives(listOf<Node>(a.resources), a.smart && smartRisksOf(a.smart)) : undefined,
    lagging: cached(a.replication) ? laggingReplication(listOf<Application>(a.replication)) : undefined,
  };
}

/**
 * The roll-up of one system from its cached answers: HA, drives and replication are rolled in only
 * when their list is cached. `objects` may be given when the caller computed them already.
 */
export function systemRollup(a: RollupAnswers, now: number, objects: SystemObjects = systemObjects(a)): Rollup {
  const nodes = cached(a.nodes) ? listOf<Node>(a.nodes) : undefined;
  return rollupHealth(a.health as Health | null | undefined, { capacity: capacityFromAnswers(a, now), ...(nodes ? { nodes } : {}), ...objects });
}

export { connectionLevel, readOnlyReason, systemLevel } from './connection.js';
