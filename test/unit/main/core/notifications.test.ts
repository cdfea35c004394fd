import { describe, expect, it } from 'vitest';
import type { Site } from '../../../../app/domain/site.js';
import type { FleetEvent } from '../../../../main/core/fleet-state.js';
import { MERGED_NOTIFICATIONS_KEY, notificationMark, readNotifications, type NotificationMark } from '../../../../main/core/notifications.js';

/**
 * The incremental notification read of a refresh: what is new is merged with the records held; a
 * poll that keeps the mark of the records held renews their read time without reading them back
 * when the system sent only what it already holds.
 */

const site = { id: 's1', name: 'site', username: 'fleet-admin' } as Site;
const AT = new Date('2026-11-27T03:00:00Z');

function world(fresh: unknown, held: unknown) {
  const puts: Array<{ key: string; value: unknown }> = [];
  const renewed: string[] = [];
  const events: FleetEvent[] = [];
  let previousReads = 0;
  const deps = {
    cache: {
      put: (_s: string, _y: string, key: string, value: unknown) => void puts.push({ key, value }),
      renew: (_s: string, _y: string, key: string) => void renewed.push(key),
    },
    clock: () => AT,
    emit: (e: FleetEvent) => void events.push(e),
  };
  const read = async (_op: string, _q: Record<string, unknown>, key?: string | null): Promise<unknown> => {
    if (fresh !== undefined && key !== null) puts.push({ key: key ?? '', value: fresh });
    return fresh;
  };
  const previous = (): unknown => {
    previousReads++;
    return held;
  };
  return {
    run: (mark: NotificationMark | undefined) => readNotifications(deps, site, 'sys', read, {}, previous, mark),
    puts,
    renewed,
    events,
    previousReads: () => previousReads,
  };
}

const held = { Data: [{ Id: 3, Timestamp: '2026-11-27T02:59:00Z', Level: 4 }, { Id: 2, Timestamp: '2026-11-27T02:59:00Z' }, { Id: 1, Timestamp: '2026-11-27T02:00:00Z' }] };

describe('readNotifications', () => {
  it('marks the newest time held and the records at it', () => {
    expect(notificationMark(held)).toEqual({ since: '2026-11-27T02:59:00Z', ids: [3, 2] });
    expect(notificationMark({ Data: [] })).toBeUndefined();
  });

  it('with the mark, an answer of records already held renews the merged list’s read time: nothing read back, nothing merged', async () => {
    const w = world({ Data: [{ Id: 3, Timestamp: '2026-11-27T02:59:00Z' }, { Id: 2, Timestamp: '2026-11-27T02:59:00Z' }] }, held);
    const mark = notificationMark(held);
    expect(await w.run(mark)).toBe(mark);
    expect(w.previousReads()).toBe(0);
    expect(w.renewed).toEqual([MERGED_NOTIFICATIONS_KEY]);
    // Nothing is cached: what the system sent is held already, and its answer is not stored itself.
    expect(w.puts).toEqual([]);
    expect(w.events).toEqual([]);
  });

  it('a new record at the mark’s own time is merged, cached and told', async () => {
    const w = world({ Data: [{ Id: 4, Timestamp: '2026-11-27T02:59:00Z' }, { Id: 3, Timestamp: '2026-11-27T02:59:00Z' }] }, held);
    const next = await w.run(notificationMark(held));
    expect(w.previousReads()).toBe(1);
    expect(w.renewed).toEqual([]);
    const merged = w.puts.find((p) => p.key === MERGED_NOTIFICATIONS_KEY)?.value as { Data: Array<{ Id: number }> };
    expect(merged.Data.map((r) => r.Id)).toEqual([4, 3, 2, 1]);
    expect(w.events).toEqual([{ type: 'notifications', siteId: 's1', system: 'sys', count: 1 }]);
    expect(next).toEqual({ since: '2026-11-27T02:59:00Z', ids: [4, 3, 2] });
  });

  it('a record older than the mark (a system that ignores the start time) is compared with every record held', async () => {
    const w = world({ Data: [{ Id: 1, Timestamp: '2026-11-27T02:00:00Z' }, { Id: 0, Timestamp: '2026-11-27T01:00:00Z' }] }, held);
    await w.run(notificationMark(held));
    expect(w.previousReads()).toBe(1);
    const merged = w.puts.find((p) => p.key === MERGED_NOTIFICATIONS_KEY)?.value as { Data: Array<{ Id: number }> };
    expect(merged.Data.map((r) => r.Id)).toEqual([0, 3, 2, 1]);
    expect(w.events).toEqual([{ type: 'notifications', siteId: 's1', system: 'sys', count: 1 }]);
  });

  it('without a mark (a first poll), the records held are read and merged as before', async () => {
    const w = world({ Data: [] }, held);
    expect(await w.run(undefined)).toEqual(notificationMark(held));
    expect(w.previousReads()).toBe(1);
    expect(w.renewed).toEqual([]);
    expect(w.puts.find((p) => p.key === MERGED_NOTIFICATIONS_KEY)?.value).toEqual(held);
  });

  it('an answer that could not be read leaves the records held and their mark', async () => {
    const w = world(undefined, held);
    const mark = notificationMark(held);
    expect(await w.run(mark)).toBe(mark);
    expect(w.puts).toEqual([]);
    expect(w.renewed).toEqual([]);
  });

  it('does not count the records of the admin’s own writes as new', async () => {
    const own = { Id: 5, Timestamp: '2026-11-27T03:00:00Z', Message: 'Host esx09 created.', Properties: { User: 'Fleet-Admin' } };
    const other = { Id: 4, Timestamp: '2026-11-27T03:00:00Z', Message: 'Drive sdj missing.', Properties: { User: 'someone-else' } };
    const w = world({ Data: [own, other] }, held);
    await w.run(notificationMark(held));
    expect(w.events).toEqual([{ type: 'notifications', siteId: 's1', system: 'sys', count: 1 }]);
    // Still merged and cached with the rest.
    expect((w.puts.find((p) => p.key === MERGED_NOTIFICATIONS_KEY)?.value as { Data: unknown[] }).Data).toHaveLength(5);

    const mine = world({ Data: [own] }, held);
    await mine.run(notificationMark(held));
    expect(mine.events).toEqual([]);
  });
});

describe('readNotifications paging back', () => {
  const page = (from: number, n: number) => ({ Data: Array.from({ length: n }, (_, i) => ({ Id: from - i, Timestamp: new Date(Date.UTC(2026, 10, 27, 2, 0, 0) + (from - i) * 1000).toISOString().slice(0, 19), Level: 2 })) });

  function paged(pages: unknown[]) {
    const puts: Array<{ key: string; value: unknown }> = [];
    const queries: Array<Record<string, unknown>> = [];
    const skipped: number[] = [];
    const deps = {
      cache: { put: (_s: string, _y: string, key: string, value: unknown) => void puts.push({ key, value }), renew: () => undefined },
      clock: () => AT,
      emit: () => undefined,
    };
    let i = 0;
    const read = async (_op: string, q: Record<string, unknown>): Promise<unknown> => {
      queries.push(q);
      return pages[i++] ?? { Data: [] };
    };
    const paging = { olderThan: (utc: string) => ({ top: 3, endTimestamp: utc }), onSkipped: (n: number) => void skipped.push(n) };
    return { run: () => readNotifications(deps, site, 'sys', read, { top: 3 }, () => held, notificationMark(held), paging), puts, queries, skipped };
  }

  it('pages back by time while pages are full, and merges every page', async () => {
    const w = paged([page(100, 3), page(98, 3), page(95, 1)]);
    await w.run();
    expect(w.queries.map((q) => q.endTimestamp)).toEqual([undefined, '2026-11-27T02:01:38', '2026-11-27T02:01:36']);
    const merged = w.puts.find((p) => p.key === MERGED_NOTIFICATIONS_KEY)?.value as { Data: Array<{ Id: number }>; Skipped?: number };
    expect(merged.Data.map((r) => r.Id).slice(0, 6)).toEqual([100, 99, 98, 97, 96, 95]);
    expect(merged.Skipped).toBeUndefined();
    expect(w.skipped).toEqual([]);
  });

  it('says records were skipped when time cannot page past a full page', async () => {
    const same = { Data: [{ Id: 9, Timestamp: '2026-11-27T02:30:00', Level: 2 }, { Id: 8, Timestamp: '2026-11-27T02:30:00', Level: 2 }, { Id: 7, Timestamp: '2026-11-27T02:30:00', Level: 2 }] };
    const w = paged([same, same]);
    await w.run();
    expect(w.skipped).toEqual([1]);
    const merged = w.puts.find((p) => p.key === MERGED_NOTIFICATIONS_KEY)?.value as { Skipped?: number };
    expect(merged.Skipped).toBe(1);
  });
});
