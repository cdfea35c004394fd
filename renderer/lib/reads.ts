import type { OperationKey } from '../../app/catalog/index.js';
import { CAPACITY_HISTORY_CACHE, NOTIFICATIONS_CACHE, refreshRead, smartRead } from '../../app/fleet/refresh-plan.js';

/** A read of the offline cache: the operation and the exact query it was cached under. */
export interface CacheRead<K extends OperationKey = OperationKey> {
  op: K;
  query: Record<string, unknown>;
}

/**
 * The reads views take from the offline cache, with exactly the queries the refresh uses (the cache
 * key is operation + query). Capacity history and notifications are cached under the empty query.
 */
export const READS = {
  nodes: refreshRead('GET /nodes/list'),
  resources: refreshRead('GET /resources/list'),
  network: refreshRead('GET /resources/network/list'),
  tunnel: refreshRead('GET /nodes/support/tunnel/status'),
  health: refreshRead('GET /monitoring/health/current'),
  poolsCurrent: refreshRead('GET /monitoring/capacity/pools/current'),
  provisioning: refreshRead('GET /monitoring/capacity/provisioning'),
  volumeCapacity: refreshRead('GET /monitoring/capacity/volumes'),
  reserve: refreshRead('GET /monitoring/reserve/current'),
  evacuations: refreshRead('GET /monitoring/evacuations/live'),
  applications: refreshRead('GET /applications/list'),
  filesystems: refreshRead('GET /applications/filesystems/list'),
  templates: refreshRead('GET /templates/list'),
  hosts: refreshRead('GET /hosts/list'),
  hostMappings: refreshRead('GET /hosts/mappings/list'),
  replication: refreshRead('GET /replication/list'),
  floatingIps: refreshRead('GET /floatingips/list'),
  nasServers: refreshRead('GET /nas_servers/list'),
  users: refreshRead('GET /users/list'),
  notificationSettings: refreshRead('GET /notifications/settings/show'),
  anomalyDetection: refreshRead('GET /settings/anomaly_detection/show'),
  version: refreshRead('GET /Version'),
  capacityHistory: { op: CAPACITY_HISTORY_CACHE.op, query: { ...CAPACITY_HISTORY_CACHE.query } },
  notifications: { op: NOTIFICATIONS_CACHE.op, query: { ...NOTIFICATIONS_CACHE.query } },
} as const satisfies Record<string, CacheRead>;

/** SMART text of one drive, as the refresh caches it. */
export function smartCacheRead(node: string, driveId: number): CacheRead<'GET /resources/drives/smart'> {
  return smartRead(node, driveId);
}
