import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateAlerts } from '../../../app/alerts/evaluate.js';
import { DEFAULT_RULES } from '../../../app/alerts/rules.js';
import type { NotificationRecord } from '../../../app/catalog/index.js';
import type { Dialect } from '../../../simulator/index.js';
import { rowsOf } from '../../unit/app/reports/helpers.js';
import { reportHarness, type ReportHarness } from '../reports/support.js';

/**
 * Notification records whose ids are not the document's integers (GUIDs) or that come without
 * one: a record that arrives between two refreshes is still new, kept once, alerted and reported.
 */
describe.each<Dialect>(['guid-ids', 'no-record-ids'])('records with %s', (dialect) => {
  let h: ReportHarness;
  const merged = (): NotificationRecord[] =>
    (h.fleet.cached(h.saved[0]?.id ?? '', h.sim.manifest.sites[0]?.systems[0] ?? '', 'GET /notifications/query', {})?.value as { Data: NotificationRecord[] }).Data;
  const failed = (): NotificationRecord[] => merged().filter((r) => r.Level === 5 && /Drive .* failed/.test(r.Message ?? ''));
  beforeAll(async () => {
    h = await reportHarness({ sites: 1, systems: 1, dialects: [dialect] });
    await h.fleet.refresh();
  }, 120_000);
  afterAll(async () => {
    await h.close();
  });

  it('keeps a Critical record that arrived since the last refresh, alerts it and reports it', async () => {
    const before = merged().length;
    h.sim.control.failDrive({ site: 0 });
    h.sim.control.advanceClock(60);
    const [status] = await h.fleet.refresh();
    expect(status?.state).toBe('ok');
    expect(failed()).toHaveLength(1);
    expect(merged().length).toBeGreaterThan(before);
    const alerts = evaluateAlerts({ now: h.sim.clock.now(), state: 'ok', rollup: {}, notifications: { Data: merged() } }, DEFAULT_RULES).conditions;
    expect(alerts.filter((a) => a.rule === 'notification' && a.level === 'critical' && /failed/.test(a.message))).toHaveLength(1);
    const report = (await h.reports.generate({ kind: 'health', offline: true })).model;
    expect(rowsOf(report, 'health.notifications').filter((x) => /Drive .* failed/.test(String(x.message))).map((x) => x.level)).toEqual(['Critical']);
  }, 120_000);

  it('keeps each record once when the next refresh reads it again', async () => {
    const count = merged().length;
    h.sim.control.advanceClock(60);
    await h.fleet.refresh();
    expect(merged().length).toBe(count);
    expect(failed()).toHaveLength(1);
    if (dialect === 'guid-ids') expect(new Set(merged().map((r) => r.Id)).size).toBe(count);
  }, 120_000);
});
