import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incompleteOf } from '../../../app/answers/incomplete.js';
import type { NotificationRecord } from '../../../app/catalog/index.js';
import type { SystemStatus } from '../../../app/domain/site.js';
import { refreshRead } from '../../../app/fleet/refresh-plan.js';
import type { ReportModel } from '../../../app/reports/model.js';
import type { Dialect } from '../../../simulator/index.js';
import { notify } from '../../../simulator/state/notifications.js';
import { MAX_NOTIFICATION_PAGES } from '../../../main/core/notifications.js';
import { reportHarness, type ReportHarness } from '../reports/support.js';

/**
 * Lists that say they are partial, and notifications that arrive faster than one page per poll:
 * the app either reads the whole list or says, wherever it is shown and counted, how much it read.
 */
describe.each<Dialect>(['paged-lists', 'partial-content', 'link-header-paging', 'nested-paging'])('the %s dialect', (dialect) => {
  // `nested-paging` counts pages, not items: the list is "3 of more".
  const totalSaid = dialect !== 'nested-paging';
  let h: ReportHarness;
  let statuses: SystemStatus[];
  let report: ReportModel;
  beforeAll(async () => {
    h = await reportHarness({ sites: 1, systems: 1, dialects: [dialect] });
    statuses = await h.fleet.refresh();
    report = (await h.reports.generate({ kind: 'audit', offline: true })).model;
  }, 120_000);
  afterAll(async () => {
    await h.close();
  });

  it('caches the part it read marked incomplete, with the total the system gave', () => {
    const system = statuses[0]?.system ?? '';
    const hosts = h.fleet.cached(h.saved[0]?.id ?? '', system, 'GET /hosts/list', refreshRead('GET /hosts/list').query)?.value as { Data: unknown[] };
    const total = h.sim.fleet.sites[0]?.systems[0]?.hosts.length ?? 0;
    expect(total).toBeGreaterThan(3);
    expect(hosts.Data).toHaveLength(3);
    expect(incompleteOf(hosts)).toEqual(totalSaid ? { Read: 3, Total: total } : { Read: 3 });
  });

  it('says so on the system (status, CLI) and in the report notes', () => {
    expect(statuses[0]?.state).toBe('ok');
    const of = totalSaid ? '\\d+' : 'more';
    expect(statuses[0]?.truncated).toMatch(new RegExp(`GET /hosts/list incomplete: 3 of ${of}`));
    expect(report.notes.some((n) => new RegExp(`GET /hosts/list is incomplete: 3 of ${of}`).test(n))).toBe(true);
  });
});

describe('notifications arriving faster than a page per poll', () => {
  let h: ReportHarness;
  afterAll(async () => {
    await h.close();
  });

  it('pages back to the previous poll and keeps the Critical record among 1,200 new ones', async () => {
    h = await reportHarness({ sites: 1, systems: 1 });
    await h.fleet.refresh();
    const sys = h.sim.fleet.sites[0]?.systems[0];
    if (!sys) throw new Error('no system');
    const start = h.sim.clock.now();
    for (let i = 1; i <= 1200; i++) {
      notify(sys, 'c', start + i * 1000, { level: i === 500 ? 5 : 2, module: 'Management', message: i === 500 ? 'Pool p1 went offline' : `routine ${i}` });
    }
    h.sim.control.advanceClock(1300);
    const [status] = await h.fleet.refresh();
    const records = (h.fleet.cached(h.saved[0]?.id ?? '', status?.system ?? '', 'GET /notifications/query', {})?.value as { Data: NotificationRecord[]; Skipped?: number }) ?? { Data: [] };
    expect(records.Data.filter((r) => r.Message === 'Pool p1 went offline').map((r) => r.Level)).toEqual([5]);
    expect(records.Skipped).toBeUndefined();
    expect(status?.truncated ?? '').not.toMatch(/notifications/);
  }, 120_000);
});

/**
 * The notification query is the one list the document gives a way to page (its time range): an
 * answer the system cut short and says so (`notification-pages`: 25 records with `TotalCount`) is
 * read on by time, as the notifications view and `fleetdeck call` ask it, until it ends or holds the
 * query's `top`; past the page limit it keeps its mark, saying how much it holds of what total.
 */
describe('a notification query the system answers in pages of 25 (notification-pages)', () => {
  let h: ReportHarness;
  let siteId: string;
  let system: string;
  beforeAll(async () => {
    h = await reportHarness({ sites: 1, systems: 1 });
    const sys = h.sim.fleet.sites[0]?.systems[0];
    if (!sys) throw new Error('no system');
    const start = h.sim.clock.now();
    for (let i = 1; i <= 700; i++) notify(sys, 'c', start + i * 1000, { level: i % 7 === 0 ? 4 : 2, module: 'Management', message: `routine ${i}` });
    h.sim.control.advanceClock(800);
    siteId = h.saved[0]?.id ?? '';
    system = sys.name;
  }, 120_000);
  afterAll(async () => {
    await h.close();
  });

  const query = async (q: Record<string, unknown>, dialects: Dialect[]): Promise<{ Data: NotificationRecord[] }> => {
    h.sim.control.setDialects(dialects);
    return (await h.fleet.call(siteId, system, 'GET /notifications/query', { query: q })) as { Data: NotificationRecord[] };
  };
  const ids = (a: { Data: NotificationRecord[] }): unknown[] => a.Data.map((r) => r.Id);

  it('reads on by time to the top asked, newest first, each record once, and caches it whole', async () => {
    const q = { top: 200, descendingOrder: true, minLevel: '2' };
    const whole = await query(q, []);
    const paged = await query(q, ['notification-pages']);
    expect(whole.Data).toHaveLength(200);
    expect(ids(paged)).toEqual(ids(whole));
    expect(incompleteOf(paged)).toBeUndefined();
    expect(incompleteOf(h.fleet.cached(siteId, system, 'GET /notifications/query', q)?.value)).toBeUndefined();
    expect((h.fleet.cached(siteId, system, 'GET /notifications/query', q)?.value as { Data: unknown[] }).Data).toHaveLength(200);
    // A filter that matches fewer records than asked for: read to the list's end.
    const errors = { top: 1000, descendingOrder: true, minLevel: '4' };
    const all = await query(errors, []);
    expect(all.Data.length).toBeGreaterThan(25);
    expect(ids(await query(errors, ['notification-pages']))).toEqual(ids(all));
  });

  it('reads on to newer records when the query asks oldest first', async () => {
    const q = { top: 90, descendingOrder: false };
    const whole = await query(q, []);
    const paged = await query(q, ['notification-pages']);
    expect(ids(paged)).toEqual(ids(whole));
    expect(incompleteOf(paged)).toBeUndefined();
  });

  it("reads a refresh's first notifications back to the plan's 500, and what arrived since the last poll to its end", async () => {
    h.sim.control.setDialects(['notification-pages']);
    const [first] = await h.fleet.refresh();
    const merged = () => (h.fleet.cached(siteId, system, 'GET /notifications/query', {})?.value as { Data: NotificationRecord[]; Skipped?: number }) ?? { Data: [] };
    expect(first?.state).toBe('ok');
    // Up to the plan's 500, within the page limit: 20 pages of 25, each from the previous page's oldest second.
    expect(merged().Data.length).toBeGreaterThan((MAX_NOTIFICATION_PAGES - 1) * 24);
    expect(merged().Data.length).toBeLessThanOrEqual(500);
    const sys = h.sim.fleet.sites[0]!.systems[0]!;
    const start = h.sim.clock.now();
    for (let i = 1; i <= 90; i++) notify(sys, 'c', start + i * 1000, { level: 2, module: 'Management', message: `later ${i}` });
    h.sim.control.advanceClock(100);
    const [second] = await h.fleet.refresh();
    expect(merged().Data.filter((r) => String(r.Message).startsWith('later ')).length).toBe(90);
    expect(merged().Skipped).toBeUndefined();
    expect(second?.truncated ?? '').not.toMatch(/notifications/);
  });

  it('keeps the mark, with what it holds of the total, when the page limit ends the reading', async () => {
    const matching = (await query({ top: 10_000 }, [])).Data.length;
    const paged = await query({ top: 10_000, descendingOrder: true }, ['notification-pages']);
    expect(matching).toBeGreaterThan(MAX_NOTIFICATION_PAGES * 25);
    expect(new Set(ids(paged)).size).toBe(paged.Data.length);
    expect(paged.Data.length).toBeGreaterThan(25);
    expect(incompleteOf(paged)).toEqual({ Read: paged.Data.length, Total: matching });
  });
});
