import { incompleteOf } from '../../app/answers/incomplete.js';
import { timeMs } from '../../app/answers/time.js';
import type { Site } from '../../app/domain/site.js';
import { notificationRank } from '../../app/health/notification-level.js';
import { HIGH_LEVEL } from '../../app/health/rollup.js';
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

/** Records the merged list keeps: the newest, and beyond them up to as many more at Error level or above. */
export const MERGED_NOTIFICATIONS_MAX = 1000;
/** Pages of one read of what is new (each of the plan's `top`): beyond them, records are said to be skipped. */
export const MAX_NOTIFICATION_PAGES = 20;

/** How a read of what is new pages back: the query of the records older than a time (UTC, as records carry it). */
export interface NotificationPaging {
  olderThan(utc: string): Record<string, unknown>;
  /** Hears records that were not read: at least this many arrived since the last poll and were skipped. */
  onSkipped(atLeast: number): void;
}

type Rec = { Id?: unknown; Timestamp?: unknown; Level?: unknown };

/**
 * Reads a system's notifications incrementally: what is new since the newest record held, merged
 * with it (the latest 1000 kept, newest first, and older records at Error level or above beyond
 * them) and cached; listeners hear how many are new, the records of the admin's own writes
 * (`ownRecord`) left out.
 * With the `mark` of the records held, an answer holding only records at the mark's time already
 * held (a quiet system's usual answer) costs no read of the held records: their read time moves.
 * When an answer is a full page (`top` records, or it says it is incomplete) and records were held,
 * more arrived since the last poll than one page: it pages back by time (`paging`) until a page
 * is not full, at most {@link MAX_NOTIFICATION_PAGES}; what it could not reach is said skipped
 * (the merged list's `Skipped`, at least so many, and `paging.onSkipped`).
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
  paging?: NotificationPaging,
): Promise<NotificationMark | undefined> {
  const fresh = await read(NOTIFICATIONS_OP, query, `${MERGED_NOTIFICATIONS_KEY}#new`);
  if (fresh === undefined) return mark;
  const add = ((fresh as { Data?: unknown[] } | undefined)?.Data ?? []) as Rec[];
  if (mark && add.every((r) => r?.Timestamp === mark.since && mark.ids.includes(r.Id))) {
    deps.cache.renew(site.id, system, MERGED_NOTIFICATIONS_KEY, deps.clock());
    return mark;
  }
  const skipped = mark && paging ? await pageBack(read, query, fresh, add, paging) : 0;
  const held = previous() as { Data?: unknown[]; Skipped?: unknown } | undefined;
  const old = (held?.Data ?? []) as Rec[];
  const seen = new Set(old.map((r) => r.Id));
  const newOnes = add.filter((r) => !seen.has(r.Id));
  const before = typeof held?.Skipped === 'number' ? held.Skipped : 0;
  const merged = { Data: keep([...newOnes, ...old]), ...(before + skipped > 0 ? { Skipped: before + skipped } : {}) };
  deps.cache.put(site.id, system, MERGED_NOTIFICATIONS_KEY, merged, deps.clock());
  // The first read of a system's records is where Fleetdeck starts, not news: nothing was held before.
  const news = held === undefined ? 0 : newOnes.filter((r) => !ownRecord(r, site)).length;
  if (news) deps.emit({ type: 'notifications', siteId: site.id, system, count: news });
  return notificationMark(merged);
}

/** The newest records, and older ones at Error level or above (up to as many again): a flood of information records never pushes out an error. */
function keep(records: Rec[]): Rec[] {
  if (records.length <= MERGED_NOTIFICATIONS_MAX) return records;
  const out = records.slice(0, MERGED_NOTIFICATIONS_MAX);
  for (const r of records.slice(MERGED_NOTIFICATIONS_MAX)) {
    if (out.length >= 2 * MERGED_NOTIFICATIONS_MAX) break;
    if (notificationRank(r.Level) >= HIGH_LEVEL) out.push(r);
  }
  return out;
}

/**
 * Pages back from a full first page, adding each page's records to `add` (ids seen once); returns
 * how many records at least were not read (0 when a page that was not full was reached).
 */
async function pageBack(read: RefreshRead, query: Record<string, unknown>, first: unknown, add: Rec[], paging: NotificationPaging): Promise<number> {
  const top = typeof query.top === 'number' ? query.top : Infinity;
  const ids = new Set(add.map((r) => r.Id));
  let page = first;
  let rows = add;
  for (let n = 1; ; n++) {
    const more = rows.length >= top || incompleteOf(page) !== undefined;
    if (!more) return 0;
    const oldest = oldestTime(rows);
    const said = incompleteOf(page);
    const atLeast = said?.Total !== undefined ? Math.max(1, said.Total - said.Read) : 1;
    // No time to page back from, or the page limit: what is left is skipped.
    if (oldest === undefined || n >= MAX_NOTIFICATION_PAGES) {
      paging.onSkipped(atLeast);
      return atLeast;
    }
    page = await read(NOTIFICATIONS_OP, paging.olderThan(oldest), `${MERGED_NOTIFICATIONS_KEY}#new`);
    if (page === undefined) {
      paging.onSkipped(atLeast);
      return atLeast;
    }
    rows = ((page as { Data?: unknown[] }).Data ?? []) as Rec[];
    const before = add.length;
    for (const r of rows) {
      if (ids.has(r.Id)) continue;
      ids.add(r.Id);
      add.push(r);
    }
    // A full page of records all at one time, all read before: time cannot page past them.
    if (add.length === before && rows.length >= top) {
      paging.onSkipped(atLeast);
      return atLeast;
    }
  }
}

/** The oldest readable time of records (UTC, as records carry it). */
function oldestTime(records: readonly Rec[]): string | undefined {
  let oldest: string | undefined;
  let ms = Infinity;
  for (const r of records) {
    const t = timeMs(r.Timestamp);
    if (t !== undefined && t < ms) {
      ms = t;
      oldest = r.Timestamp as string;
    }
  }
  return oldest;
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
