import type { OperationKey } from '../../app/catalog/index.js';
import { NOTIFICATIONS_CACHE, REFRESH_READS, smartRead, type PlannedRead } from '../../app/fleet/refresh-plan.js';

/** A read of the offline cache: the operation and the exact query it was cached under. */
export interface CacheRead<K extends OperationKey = OperationKey> {
  op: K;
  query: Record<string, unknown>;
}

function planned<K extends OperationKey>(op: K): CacheRead<K> {
  const found: PlannedRead | undefined = REFRESH_READS.find((r) => r.op === op);
  // A refresh plan that stops reading something a view needs must fail loudly, not show nothing.
  if (!found) throw new Error(`the refresh plan does not read ${op}`);
  return { op, query: found.query };
}

/**
 * The reads views take from the offline cache, with exactly the queries the refresh uses (the cache
 * key is operation + query). Capacity history and notifications are cached under the empty query.
 */
export const READS = {
  nodes: planned('GET /nodes/list'),
  resources: planned('GET /resources/list'),
  network: planned('GET /resources/network/list'),
  tunnel: planned('GET /nodes/support/tunnel/status'),
  health: planned('GET /monitoring/health/current'),
  poolsCurrent: planned('GET /monitoring/capacity/pools/current'),
  provisioning: planned('GET /monitoring/capacity/provisioning'),
  volumeCapacity: planned('GET /monitoring/capacity/volumes'),
  reserve: planned('GET /monitoring/reserve/current'),
  evacuations: planned('GET /monitoring/evacuations/live'),
  applications: planned('GET /applications/list'),
  filesystems: planned('GET /applications/filesystems/list'),
  templates: planned('GET /templates/list'),
  hosts: planned('GET /hosts/list'),
  hostMappings: planned('GET /hosts/mappings/list'),
  replication: planned('GET /replication/list'),
  floatingIps: planned('GET /floatingips/list'),
  nasServers: planned('GET /nas_servers/list'),
  users: planned('GET /users/list'),
  notificationSettings: planned('GET /notifications/settings/show'),
  anomalyDetection: planned('GET /settings/anomaly_detection/show'),
  version: planned('GET /Version'),
  capacityHistory: { op: 'GET /monitoring/capacity/pools/history', query: {} },
  notifications: { op: NOTIFICATIONS_CACHE.op, query: { ...NOTIFICATIONS_CACHE.query } },
} as const satisfies Record<string, CacheRead>;

/** SMART text of one drive, as the refresh caches it. */
export function smartCacheRead(node: string, driveId: number): CacheRead<'GET /resources/drives/smart'> {
  return smartRead(node, driveId);
}
