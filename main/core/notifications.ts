import type { Site } from '../../app/domain/site.js';
import { newestTimestamp } from '../../app/fleet/refresh-plan.js';
import { cacheKey } from '../store/offline-cache.js';
import type { FleetEvent } from './fleet-state.js';

export const NOTIFICATIONS_OP = 'GET /notifications/query';
/** The cache key of a system's merged notification records. */
export const MERGED_NOTIFICATIONS_KEY = cacheKey(NOTIFICATIONS_OP, {});

/** One read of a system's refresh: the answer, or undefined when it could not be used. */
export type RefreshRead = (op: string, q: Record<string, unknown>, key?: string) => Promise<unknown>;

/**
 * What the next incremental read needs of the merged records a system holds: the newest timestamp
 * (asked from) and the ids of the records at it (which the system sends again). A poll keeps it
 * instead of reading and parsing up to 1000 records back from the cache.
 */
export interface NotificationMark {
  since: string;
  ids: readonly unknown[];
}

/** The mark of merged records (newest first or not); undefined when none has a timestamp. */
export function notificationMark(records: unknown): NotificationMark | undefined {
  const since = newestTimestamp(records);
  if (since === undefined) return undefined;
  const data = ((records as { Data?: unknown[] } | undefined)?.Data ?? []) as Array<{ Id?: unknown; Timestamp?: unknown }>;
  return { since, ids: data.filter((r) => r?.Timestamp === since).map((r) => r.Id) };
}

/** Where the merged records go: a changed list is put, an unchanged one only takes the new read time. */
export interface NotificationCache {
  put(siteId: string, system: string, key: string, value: unknown, at: Date): void;
  renew(siteId: string, system: string, key: string, at: Date): void;
}

/**
 * Reads a system's notifications incrementally: what is new since the newest record held, merged
 * with it (the latest 1000 kept, newest first) and cached; listeners hear how many are new, the
 * records of the admin's own writes (`ownRecord`) left out.
 * With the `mark` of the records held, an answer holding only records at the mark's time already
 * held (a quiet system's usual answer) costs no read of the held records: their read time moves.
 * @param previous the merged records held (read from the cache only when something is new)
 * @returns the mark of what the cache holds afterwards
 */
export async function readNotifications(
  deps: { cache: NotificationCache; clock: () => Date; emit: (e: FleetEvent) => void },
  site: Site,
  system: string,
  read: RefreshRead,
  query: Record<string, unknown>,
  previous: () => unknown,
  mark: NotificationMark | undefined,
): Promise<NotificationMark | undefined> {
  const fresh = await read(NOTIFICATIONS_OP, query, `${MERGED_NOTIFICATIONS_KEY}#new`);
  if (fresh === undefined) return mark;
  const add = ((fresh as { Data?: unknown[] } | undefined)?.Data ?? []) as Array<{ Id?: unknown; Timestamp?: unknown }>;
  if (mark && add.every((r) => r?.Timestamp === mark.since && mark.ids.includes(r.Id))) {
    deps.cache.renew(site.id, system, MERGED_NOTIFICATIONS_KEY, deps.clock());
    return mark;
  }
  const old = ((previous() as { Data?: unknown[] } | undefined)?.Data ?? []) as Array<{ Id?: unknown }>;
  const seen = new Set(old.map((r) => r.Id));
  const newOnes = add.filter((r) => !seen.has(r.Id));
  const merged = { Data: [...newOnes, ...old].slice(0, 1000) };
  deps.cache.put(site.id, system, MERGED_NOTIFICATIONS_KEY, merged, deps.clock());
  const news = newOnes.filter((r) => !ownRecord(r, site)).length;
  if (news) deps.emit({ type: 'notifications', siteId: site.id, system, count: news });
  return notificationMark(merged);
}

/**
 * A record the system wrote about a change made through this site's own account (its `User`
 * property names the account Fleetdeck signs in with): the admin's own write, cached with the rest
 * but not news to the admin who made it.
 */
export function ownRecord(record: unknown, site: Pick<Site, 'username'>): boolean {
  const user = (record as { Properties?: Record<string, unknown> } | undefined)?.Properties?.['User'];
  return typeof user === 'string' && site.username !== undefined && user.toLowerCase() === site.username.toLowerCase();
}
