import type { Site } from '../../app/domain/site.js';
import { cacheKey, type OfflineCache } from '../store/offline-cache.js';
import type { FleetEvent } from './fleet-state.js';

export const NOTIFICATIONS_OP = 'GET /notifications/query';

/** One read of a system's refresh: the answer, or undefined when it could not be used. */
export type RefreshRead = (op: string, q: Record<string, unknown>, key?: string) => Promise<unknown>;

/**
 * Reads a system's notifications incrementally: what is new since the newest record held, merged
 * with it (the latest 1000 kept, newest first) and cached; listeners hear how many are new.
 */
export async function readNotifications(
  deps: { cache: Pick<OfflineCache, 'put'>; clock: () => Date; emit: (e: FleetEvent) => void },
  site: Site,
  system: string,
  read: RefreshRead,
  query: Record<string, unknown>,
  previous: unknown,
): Promise<unknown> {
  const fresh = await read(NOTIFICATIONS_OP, query, `${cacheKey(NOTIFICATIONS_OP, {})}#new`);
  if (fresh === undefined) return previous;
  const old = ((previous as { Data?: unknown[] } | undefined)?.Data ?? []) as Array<{ Id?: unknown }>;
  const add = ((fresh as { Data?: unknown[] } | undefined)?.Data ?? []) as Array<{ Id?: unknown }>;
  const seen = new Set(old.map((r) => r.Id));
  const newOnes = add.filter((r) => !seen.has(r.Id));
  const merged = { Data: [...newOnes, ...old].slice(0, 1000) };
  deps.cache.put(site.id, system, cacheKey(NOTIFICATIONS_OP, {}), merged, deps.clock());
  if (newOnes.length) deps.emit({ type: 'notifications', siteId: site.id, system, count: newOnes.length });
  return merged;
}
