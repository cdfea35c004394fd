import { timeMs } from '../answers/time.js';
import type { OperationKey } from '../catalog/index.js';
// Not the catalog's index: the window's first script reads the refresh plan, and the index brings every operation.
import { formatDateTime } from '../catalog/validate.js';

/** One read of a refresh: an operation and its query. */
export interface PlannedRead {
  op: OperationKey;
  query: Record<string, unknown>;
  /** Query the answer is cached under when it differs from the one sent (time ranges). */
  cacheQuery?: Record<string, unknown>;
  /**
   * Slow-moving configuration or inventory (users, targets, templates, version…): a steady poll
   * re-reads it only once its cached answer is older than the slow-read age. Health reads (no flag)
   * are read by every poll.
   */
  slow?: true;
  /**
   * A detail list the health answer summarises: a steady poll reads it again only when these
   * parts of the health answer's {@link healthStates} changed since it was last read, new
   * notification records arrived, its cached answer is older than the detail age, or it was not
   * read whole last time (see `main/core/refresh.ts`).
   */
  detail?: readonly HealthPart[];
}

/** The parts of the health answer a steady poll compares (see {@link healthStates}). */
export type HealthPart = 'hardware' | 'volumes' | 'pools';

/**
 * What the health answer says about state, by part, as text to compare: unhealthy hardware counts
 * per kind, unhealthy volumes and their states, the pools' names and provisioning states. Not its
 * utilisation percentages and bytes, which move at every poll. Undefined when `health` is no
 * health answer.
 */
export function healthStates(health: unknown): Record<HealthPart, string> | undefined {
  if (health === null || typeof health !== 'object') return undefined;
  const h = health as {
    HardwareResources?: { UnhealthyResourceCount?: unknown };
    Volumes?: { UnhealthyVolumes?: unknown; UnhealthyStates?: unknown };
    CapacityUtilization?: { ProvisioningStates?: unknown; PoolCapacity?: unknown };
  };
  const sorted = (v: unknown): string => (v !== null && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : JSON.stringify(v ?? null));
  const pools = h.CapacityUtilization?.PoolCapacity;
  const names = Array.isArray(pools) ? pools.map((p) => String((p as { PoolName?: unknown } | null)?.PoolName)).sort() : null;
  const states = h.CapacityUtilization?.ProvisioningStates;
  return {
    hardware: sorted(h.HardwareResources?.UnhealthyResourceCount),
    volumes: `${JSON.stringify(h.Volumes?.UnhealthyVolumes ?? null)} ${sorted(h.Volumes?.UnhealthyStates)}`,
    pools: `${JSON.stringify(names)} ${JSON.stringify(Array.isArray(states) ? states.map(String).sort() : null)}`,
  };
}

/**
 * `full`: everything (a manual Refresh, the first contact). `steady`: a background poll, which
 * reads health, new notifications and the live lists every time and the rest only when due (see
 * {@link refreshPlan}, {@link smartDrivesToRead}), to spare controllers that serve production I/O.
 */
export type RefreshMode = 'full' | 'steady';

/**
 * What a refresh of one system reads: everything the views and reports need, or in a steady poll
 * the reads read every time and those slow and detail reads `due` says are due. All of these
 * depend only on the system's session, so they run in parallel under the per-endpoint cap; SMART
 * reads depend on the hardware list and form the second level.
 */
export function refreshPlan(now: Date, notificationsSince: string | undefined, mode: RefreshMode = 'full', due: (read: PlannedRead) => boolean = () => true): PlannedRead[] {
  const all: PlannedRead[] = [
    ...REFRESH_READS,
    // Daily points over 30 days: a new one a day, so it is slow.
    { op: CAPACITY_HISTORY_CACHE.op, query: capacityHistoryQuery(now), cacheQuery: { ...CAPACITY_HISTORY_CACHE.query }, slow: true },
    {
      op: 'GET /notifications/query',
      query: { descendingOrder: true, top: 500, ...(notificationsSince ? { startTimestamp: notificationsSince } : {}) },
    },
  ];
  return mode === 'full' ? all : all.filter((r) => (!r.slow && !r.detail) || due(r));
}

/**
 * Whether an answer read at `readAtMs` (undefined: never) is due again at `nowMs` when answers are
 * kept `maxAgeMs`: once a window of that length has begun since it was read, on windows shifted by
 * the system's own `phase` (0 ≤ phase < 1, {@link readPhase}). So it is never read twice in one
 * window and never kept past `maxAgeMs` (the first poll after that reads it), and a fleet read at
 * once (a first refresh) reads again over the next window, a share of its systems in each poll,
 * rather than every system in one poll. Without a phase, by age alone.
 */
export function dueAgain(readAtMs: number | undefined, nowMs: number, maxAgeMs: number, phase?: number): boolean {
  if (readAtMs === undefined || Number.isNaN(readAtMs)) return true;
  if (nowMs - readAtMs >= maxAgeMs) return true;
  return phase !== undefined && Math.floor(nowMs / maxAgeMs - phase) > Math.floor(readAtMs / maxAgeMs - phase);
}

/** A system's place in its read windows (see {@link dueAgain}): in [0, 1), the same at every poll and in every process. */
export function readPhase(siteId: string, system: string): number {
  // FNV-1a over the UTF-16 units: a spread, not a secret.
  let h = 0x811c9dc5;
  const text = `${siteId}\u0000${system}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

/**
 * Pool capacity over the last 30 days, daily: the basis of "days until full". No toDate: the
 * system's own "now" ends the range, so a workstation clock ahead of the system's is no error.
 */
export function capacityHistoryQuery(now: Date): Record<string, unknown> {
  return { fromDate: formatDateTime(new Date(now.getTime() - 30 * 86_400_000)), interval: 1440 };
}

/**
 * Reads whose query never changes: views read the offline cache with exactly these queries
 * (the cache key is the operation plus its query). The health answer, evacuations and replication
 * (whose lag moves) are read by every poll; the lists the health answer summarises are `detail`,
 * each with the parts whose change it shows; the rest is `slow`.
 */
export const REFRESH_READS: readonly PlannedRead[] = [
    // A node's state, HA and parts: a failed part counts as unhealthy hardware, a node down leaves its volumes unhealthy.
    { op: 'GET /nodes/list', query: { sensors: true, gateway: true, vols: true, ip: true, sed: true }, detail: ['hardware', 'volumes'] },
    // A drive's status: the health answer counts the drives not OK.
    { op: 'GET /resources/list', query: { details: true, sensors: true }, detail: ['hardware'] },
    { op: 'GET /resources/network/list', query: { details: true }, slow: true },
    { op: 'GET /nodes/support/tunnel/status', query: {}, slow: true },
    { op: 'GET /monitoring/health/current', query: { volumes: true, hardwareResources: true, hardwareUtilization: true, capacityUtilization: true, details: true } },
    // Bytes that move slowly (the detail age bounds them); a pool's state is in the health answer.
    { op: 'GET /monitoring/capacity/pools/current', query: { total: true, details: true }, detail: ['pools'] },
    // Each pool's state and layouts: a drive failing degrades its pool and changes the layouts it allows.
    { op: 'GET /monitoring/capacity/provisioning', query: {}, detail: ['pools', 'hardware'] },
    { op: 'GET /monitoring/capacity/volumes', query: {}, slow: true },
    { op: 'GET /monitoring/reserve/current', query: {}, slow: true },
    { op: 'GET /monitoring/evacuations/live', query: {} },
    { op: 'GET /applications/list', query: { desc: true, cg: true, vols: true }, slow: true },
    { op: 'GET /applications/filesystems/list', query: {}, slow: true },
    { op: 'GET /templates/list', query: { desc: true, cg: true, vols: true }, slow: true },
    { op: 'GET /hosts/list', query: { wwn: true, iqn: true, nqn: true, mapping: true, ip: true }, slow: true },
    { op: 'GET /hosts/mappings/list', query: {}, slow: true },
    { op: 'GET /replication/list', query: {} },
    { op: 'GET /floatingips/list', query: {}, slow: true },
    { op: 'GET /nas_servers/list', query: {}, slow: true },
    { op: 'GET /users/list', query: {}, slow: true },
    { op: 'GET /notifications/settings/show', query: {}, slow: true },
    { op: 'GET /settings/anomaly_detection/show', query: {}, slow: true },
    { op: 'GET /Version', query: {}, slow: true },
];

/**
 * A read of the offline cache as the refresh caches it: the operation with the query of
 * {@link REFRESH_READS}. Views and the health roll-up read with it, so the cache key always matches.
 * @throws Error when the refresh plan does not read `op`: a plan that stops reading what a view
 *   needs must fail loudly, not show nothing.
 */
export function refreshRead<K extends OperationKey>(op: K): { op: K; query: Record<string, unknown> } {
  const found = REFRESH_READS.find((r) => r.op === op);
  if (!found) throw new Error(`the refresh plan does not read ${op}`);
  return { op, query: found.query };
}

/** The read the pool capacity history is cached under, whatever time range was asked for. */
export const CAPACITY_HISTORY_CACHE = { op: 'GET /monitoring/capacity/pools/history', query: {} } as const;
/** The cached key of the merged notification records (newest first, at most 1000). */
export const NOTIFICATIONS_CACHE = { op: 'GET /notifications/query', query: {} } as const;
/** SMART text of one drive is cached under this read. */
export const smartRead = (node: string, driveid: number) => ({ op: 'GET /resources/drives/smart', query: { node, driveid } }) as const satisfies PlannedRead;

/** The drives of a `/resources/list` answer, as (node, drive id) pairs for SMART reads. */
export function drivesOf(resources: unknown): Array<{ node: string; driveid: number }> {
  const out: Array<{ node: string; driveid: number }> = [];
  const nodes = (resources as { Data?: unknown } | null)?.Data;
  if (!Array.isArray(nodes)) return out;
  for (const node of nodes as Array<{ Name?: unknown; Drives?: unknown }>) {
    if (typeof node?.Name !== 'string' || !Array.isArray(node.Drives)) continue;
    for (const d of node.Drives as Array<{ Id?: unknown; ResourceStatus?: unknown }>) {
      // A missing drive has no SMART log to read.
      if (typeof d?.Id === 'number' && !/missing/i.test(String(d.ResourceStatus ?? ''))) out.push({ node: node.Name, driveid: d.Id });
    }
  }
  return out;
}

/** A drive list as {@link driveSkeleton} keeps it. */
export interface DriveSkeleton {
  Data: Array<{ Name: string; Drives: Array<{ Id: unknown; ResourceStatus: unknown }> }>;
}

/**
 * What {@link drivesOf}, {@link driveStatuses} and so {@link smartDrivesToRead} read of a
 * `/resources/list` answer: each node's name and its drives' ids and statuses (a few bytes per
 * drive). A poll that keeps it stands it in for a drive list it did not read again.
 */
export function driveSkeleton(resources: unknown): DriveSkeleton {
  const out: DriveSkeleton['Data'] = [];
  const nodes = (resources as { Data?: unknown } | null)?.Data;
  if (Array.isArray(nodes)) {
    for (const node of nodes as Array<{ Name?: unknown; Drives?: unknown }>) {
      if (typeof node?.Name !== 'string' || !Array.isArray(node.Drives)) continue;
      out.push({ Name: node.Name, Drives: (node.Drives as Array<{ Id?: unknown; ResourceStatus?: unknown } | null>).map((d) => ({ Id: d?.Id, ResourceStatus: d?.ResourceStatus })) });
    }
  }
  return { Data: out };
}

/** Each drive's `ResourceStatus` in a `/resources/list` answer, keyed by {@link driveKey}. */
export function driveStatuses(resources: unknown): Map<string, string> {
  const status = new Map<string, string>();
  const nodes = (resources as { Data?: unknown } | null)?.Data;
  if (!Array.isArray(nodes)) return status;
  for (const node of nodes as Array<{ Name?: unknown; Drives?: unknown }>) {
    if (typeof node?.Name !== 'string' || !Array.isArray(node.Drives)) continue;
    for (const d of node.Drives as Array<{ Id?: unknown; ResourceStatus?: unknown }>) status.set(driveKey({ node: node.Name, driveid: Number(d?.Id) }), String(d?.ResourceStatus ?? ''));
  }
  return status;
}

export const driveKey = (d: { node: string; driveid: number }): string => `${d.node}\u0000${d.driveid}`;

/**
 * The drives whose SMART a refresh reads: at most `max`, those whose status is not OK first (they
 * are the ones an admin needs), then in the order listed. `total` counts every drive that has SMART
 * and is due (`due`: every drive in a full refresh; see {@link smartDue} for a steady poll).
 */
export function smartDrivesToRead(
  resources: unknown,
  max: number,
  due: (d: { node: string; driveid: number }) => boolean = () => true,
): { drives: Array<{ node: string; driveid: number }>; total: number } {
  const all = drivesOf(resources).filter(due);
  if (all.length <= max) return { drives: all, total: all.length };
  const status = driveStatuses(resources);
  const failing = (d: { node: string; driveid: number }): boolean => !/^ok$/i.test(status.get(driveKey(d)) ?? '');
  return { drives: [...all.filter(failing), ...all.filter((d) => !failing(d))].slice(0, Math.max(0, max)), total: all.length };
}

/**
 * Which drives a steady poll reads SMART for: a drive whose cached reading is missing or at least
 * `maxAgeMs` old (`ageMs` undefined = never read), or whose status differs from the previous
 * drive list (a drive that just turned Failed or Degraded is read at once).
 */
export function smartDue(
  resources: unknown,
  previousResources: unknown,
  ageMs: (d: { node: string; driveid: number }) => number | undefined,
  maxAgeMs: number,
): (d: { node: string; driveid: number }) => boolean {
  return smartDueAfter(resources, driveStatuses(previousResources), ageMs, maxAgeMs);
}

/** {@link smartDue} with the previous drive list's {@link driveStatuses} (kept by a poll rather than the list itself). */
export function smartDueAfter(
  resources: unknown,
  before: ReadonlyMap<string, string>,
  ageMs: (d: { node: string; driveid: number }) => number | undefined,
  maxAgeMs: number,
): (d: { node: string; driveid: number }) => boolean {
  const now = driveStatuses(resources);
  return (d) => {
    const age = ageMs(d);
    if (age === undefined || age >= maxAgeMs) return true;
    const k = driveKey(d);
    return now.get(k) !== before.get(k);
  };
}

/** Newest notification timestamp in a query answer, for the next incremental read. */
export function newestTimestamp(records: unknown): string | undefined {
  const data = (records as { Data?: unknown } | null)?.Data;
  if (!Array.isArray(data)) return undefined;
  let newest: string | undefined;
  let newestMs = -Infinity;
  for (const r of data as Array<{ Timestamp?: unknown }>) {
    // By instant, not by text: records cached by older versions may carry a zone suffix.
    const t = typeof r?.Timestamp === 'string' ? timeMs(r.Timestamp) : undefined;
    if (t !== undefined && t > newestMs) {
      newestMs = t;
      newest = r.Timestamp as string;
    }
  }
  return newest;
}
