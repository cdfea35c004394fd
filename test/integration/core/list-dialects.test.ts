import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incompleteOf } from '../../../app/answers/incomplete.js';
import type { NotificationRecord } from '../../../app/catalog/index.js';
import type { SystemStatus } from '../../../app/domain/site.js';
import { refreshRead } from '../../../app/fleet/refresh-plan.js';
import type { ReportModel } from '../../../app/reports/model.js';
import type { Dialect } from '../../../simulator/index.js';
import { notify } from '../../../simulator/state/notifications.js';
import { reportHarness, type ReportHarness } from '../reports/support.js';

/**
 * Lists that say they are partial, and notifications that arrive faster than one page per poll:
 * the app either reads the whole list or says, wherever it is shown and counted, how much it read.
 */
describe.each<Dialect>(['paged-lists', 'partial-content'])('the %s dialect', (dialect) => {
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
    expect(incompleteOf(hosts)).toEqual({ Read: 3, Total: total });
  });

  it('says so on the system (status, CLI) and in the report notes', () => {
    expect(statuses[0]?.state).toBe('ok');
    expect(statuses[0]?.truncated).toMatch(/GET \/hosts\/list incomplete: 3 of \d+/);
    expect(report.notes.some((n) => /GET \/hosts\/list is incomplete: 3 of \d+/.test(n))).toBe(true);
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
