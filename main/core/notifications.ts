import { INCOMPLETE_FIELD, incompleteOf } from '../../app/answers/incomplete.js';
import { formatWireTime, timeMs } from '../../app/answers/time.js';
import type { Site } from '../../app/domain/site.js';
import { notificationRank } from '../../app/health/notification-level.js';
import { HIGH_LEVEL } from '../../app/health/rollup.js';
import { newestTimestamp } from '../../app/fleet/refresh-plan.js';
import { cacheKey } from '../store/offline-cache.js';
import type { FleetEvent } from './fleet-state.js';

export const NOTIFICATIONS_OP = 'GET /notifications/query';
/** The cache key of a system's merged notification records. */
export const MERGED_NOTIFICATIONS_KEY = cacheKey(NOTIFICATIONS_OP, {});

/**
 * One read of a system's refresh: the answer, or undefined when it could not be used. It is cached
 * under `key` (by default the read's own cache key); `null` leaves it out of the cache.
 */
export type RefreshRead = (op: string, q: Record<string, unknown>, key?: string | null) => Promise<unknown>;

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
  return { since, ids: data.filter((r) => r?.Timestamp === since).map(recordKey) };
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

type Rec = { Id?: unknown; Timestamp?: unknown; Level?: unknown; Node?: unknown; Module?: unknown; Message?: unknown };

/**
 * What tells two records apart: the id the system gave (a number, or text such as a GUID), or,
 * for a record sent without one, what it says (time, node, module, level, message): records
 * without ids are then never all taken for one record already held.
 */
export function recordKey(r: Rec | undefined): unknown {
  if (r?.Id !== undefined && r.Id !== null && r.Id !== '') return r.Id;
  return `\u0000${JSON.stringify([r?.Timestamp, r?.Node, r?.Module, r?.Level, r?.Message])}`;
}

/**
 * How a read of what is new learns the system's clock from its records (see `freshRecordOffset`):
 * a record not held before was created after the held records were last read (`sinceMs`).
 */
export interface FreshRecordClock {
  /** A record's stamp as sent when it had no zone (UTC ms, before any offset); undefined otherwise. */
  stampOf(record: object): number | undefined;
  /** When the records held were last read; undefined when that is not known. */
  sinceMs(): number | undefined;
  /** Learns from these stamps of fresh records; returns the system's clock offset now in force. */
  learn(stampsMs: number[], sinceMs: number): number | undefined;
}

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
 * (the merged list's `Skipped`, at least so many, and `paging.onSkipped`). A first read (nothing
 * held) the system cut short is read back to `top` records the same way.
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
  freshClock?: FreshRecordClock,
): Promise<NotificationMark | undefined> {
  // What is new is not cached itself: the merged records hold it.
  const fresh = await read(NOTIFICATIONS_OP, query, null);
  if (fresh === undefined) return mark;
  const add = ((fresh as { Data?: unknown[] } | undefined)?.Data ?? []) as Rec[];
  if (mark && add.every((r) => r?.Timestamp === mark.since && mark.ids.includes(recordKey(r)))) {
    deps.cache.renew(site.id, system, MERGED_NOTIFICATIONS_KEY, deps.clock());
    return mark;
  }
  let skipped = 0;
  if (paging) {
    const top = typeof query.top === 'number' ? query.top : Infinity;
    const older = (utc: string): Promise<unknown> => read(NOTIFICATIONS_OP, paging.olderThan(utc), null);
    if (mark) {
      skipped = await pageByTime(older, 'older', top, fresh, add);
      if (skipped) paging.onSkipped(skipped);
    } else if (incompleteOf(fresh)) {
      // A first read holds the newest `top` records however the system pages them, and claims nothing of older history.
      await pageByTime(older, 'older', Infinity, fresh, add, top);
      add.splice(top);
    }
  }
  const held = previous() as { Data?: unknown[]; Skipped?: unknown } | undefined;
  const old = (held?.Data ?? []) as Rec[];
  const seen = new Set(old.map(recordKey));
  const newOnes = add.filter((r) => !seen.has(recordKey(r)));
  if (held !== undefined && freshClock) placeFreshRecords(newOnes, freshClock);
  const before = typeof held?.Skipped === 'number' ? held.Skipped : 0;
  const merged = { Data: keep([...newOnes, ...old]), ...(before + skipped > 0 ? { Skipped: before + skipped } : {}) };
  deps.cache.put(site.id, system, MERGED_NOTIFICATIONS_KEY, merged, deps.clock());
  // The first read of a system's records is where Fleetdeck starts, not news: nothing was held before.
  const news = held === undefined ? 0 : newOnes.filter((r) => !ownRecord(r, site)).length;
  if (news) deps.emit({ type: 'notifications', siteId: site.id, system, count: news });
  return notificationMark(merged);
}

/**
 * Learns the system's clock from records seen for the first time (their zone-less stamps) and
 * places them by the offset then in force: they were read with the offset known before, which the
 * records themselves may have just corrected.
 */
function placeFreshRecords(records: Rec[], clock: FreshRecordClock): void {
  const since = clock.sinceMs();
  if (since === undefined) return;
  const stamped = records.flatMap((r) => {
    const ms = clock.stampOf(r);
    return ms === undefined ? [] : [{ r, ms }];
  });
  if (stamped.length === 0) return;
  const offset = clock.learn(stamped.map((x) => x.ms), since) ?? 0;
  for (const { r, ms } of stamped) r.Timestamp = formatWireTime(ms - offset);
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
 * Pages on by time from a first page that is full (`top` records) or says it is incomplete, adding
 * each page's records to `add` (ids seen once): to older records (`readAt` asked for those up to the
 * oldest time read) or newer ones (from the newest), until a page is neither full nor incomplete,
 * `enough` records are held, or {@link MAX_NOTIFICATION_PAGES} pages were read. Returns how many
 * records at least were not read: 0 when the end was reached; the last page's total beyond what it
 * held, else 1, when a page could not be read, time could not move (a full page of records of one
 * second, all read before), or the page limit was met.
 */
export async function pageByTime(
  readAt: (utc: string) => Promise<unknown>,
  direction: 'older' | 'newer',
  top: number,
  first: unknown,
  add: Rec[],
  enough = Infinity,
): Promise<number> {
  const ids = new Set(add.map(recordKey));
  let page = first;
  let rows = add;
  for (let n = 1; ; n++) {
    const said = incompleteOf(page);
    if ((rows.length < top && said === undefined) || add.length >= enough) return 0;
    // What the last page said it left out, else at least one record.
    const atLeast = said?.Total !== undefined ? Math.max(1, said.Total - said.Read) : 1;
    const from = direction === 'older' ? edgeTime(rows, -1) : edgeTime(rows, 1);
    // No time to page on from, or the page limit: what is left is skipped.
    if (from === undefined || n >= MAX_NOTIFICATION_PAGES) return atLeast;
    try {
      page = await readAt(from);
    } catch {
      return atLeast;
    }
    if (page === undefined) return atLeast;
    rows = ((page as { Data?: unknown[] }).Data ?? []) as Rec[];
    const before = add.length;
    for (const r of rows) {
      const key = recordKey(r);
      if (ids.has(key)) continue;
      ids.add(key);
      add.push(r);
    }
    // A full page of records all at one time, all read before: time cannot page past them.
    if (add.length === before && (rows.length >= top || incompleteOf(page) !== undefined)) return atLeast;
  }
}

/**
 * A notification query's answer read to its end: when the system says the answer is incomplete
 * (`Incomplete`, from its total, next-page token or 206), the further pages are read by time
 * (`readPage`: the same query with `endTimestamp` at the oldest record read, or with
 * `descendingOrder: false` `startTimestamp` at the newest), as the interface's only paging allows,
 * until the list ends or holds the query's `top`, within {@link MAX_NOTIFICATION_PAGES} pages.
 * The records come in the query's order, each once; the answer keeps its `Incomplete` mark (what
 * it holds, of what total) only when the end was not reached.
 */
export async function readQueryToEnd(readPage: (query: Record<string, unknown>) => Promise<unknown>, query: Record<string, unknown>, first: unknown): Promise<unknown> {
  const said = incompleteOf(first);
  if (!said || typeof first !== 'object' || first === null) return first;
  const top = typeof query.top === 'number' ? query.top : Infinity;
  const add = [...(((first as { Data?: unknown[] }).Data ?? []) as Rec[])];
  const older = query.descendingOrder !== false;
  const skipped = await pageByTime((utc) => readPage(older ? { ...query, endTimestamp: utc } : { ...query, startTimestamp: utc }), older ? 'older' : 'newer', Infinity, first, add, top);
  const { [INCOMPLETE_FIELD]: _mark, ...rest } = first as Record<string, unknown>;
  const data = add.slice(0, top);
  if (!skipped) return { ...rest, Data: data };
  const total = said.Total !== undefined && said.Total > data.length ? { Total: said.Total } : {};
  return { ...rest, Data: data, [INCOMPLETE_FIELD]: { Read: data.length, ...total } };
}

/** The oldest (`sign` -1) or newest (1) readable time of records (UTC, as records carry it). */
function edgeTime(records: readonly Rec[], sign: -1 | 1): string | undefined {
  let edge: string | undefined;
  let ms = sign < 0 ? Infinity : -Infinity;
  for (const r of records) {
    const t = timeMs(r.Timestamp);
    if (t !== undefined && (sign < 0 ? t < ms : t > ms)) {
      ms = t;
      edge = r.Timestamp as string;
    }
  }
  return edge;
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
