import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateAlerts } from '../../../app/alerts/evaluate.js';
import { DEFAULT_RULES } from '../../../app/alerts/rules.js';
import { describeClockOffset, timeMs } from '../../../app/answers/time.js';
import type { NotificationRecord } from '../../../app/catalog/index.js';
import { highLevel } from '../../../app/health/rollup.js';
import type { SystemStatus } from '../../../app/domain/site.js';
import type { ReportModel } from '../../../app/reports/model.js';
import { SimClock, startSimulator, type Dialect, type SimulatorHandle } from '../../../simulator/index.js';
import { useFleetsOnDisk } from '../support/simulated-fleet.js';
import { rowsOf } from '../../unit/app/reports/helpers.js';
import { reportHarness, T0, type ReportHarness } from '../reports/support.js';

/**
 * Times and notification levels as real systems write them where the document is silent: a drive
 * fails a minute before the refresh, and in every dialect the app must show its Critical record at
 * the true time, list it as high-level, raise its alert and put it in the health report.
 */
interface Run {
  h: ReportHarness;
  statuses: SystemStatus[];
  records: NotificationRecord[];
  report: ReportModel;
}

const FAILED_AT = T0;
const REFRESHED_AT = T0 + 60_000;

async function run(dialects: Dialect[]): Promise<Run> {
  const h = await reportHarness({ sites: 1, systems: 1, dialects });
  h.sim.control.failDrive({ site: 0 });
  h.sim.control.advanceClock(60);
  const statuses = await h.fleet.refresh();
  const system = statuses[0]?.system ?? '';
  const records = ((h.fleet.cached(h.saved[0]?.id ?? '', system, 'GET /notifications/query', {})?.value as { Data?: NotificationRecord[] } | undefined)?.Data ?? []);
  const report = (await h.reports.generate({ kind: 'health', offline: true })).model;
  return { h, statuses, records, report };
}

const runs: Run[] = [];
afterAll(async () => {
  for (const r of runs) await r.h.close();
});

describe.each<Dialect[]>([[], ['local-time'], ['epoch-times'], ['dotnet-dates'], ['level-names'], ['local-time', 'level-names']])('dialects %j', (...dialects) => {
  let r: Run;
  beforeAll(async () => {
    r = await run(dialects);
    runs.push(r);
  }, 120_000);

  it('keeps the failed drive\'s Critical record at its true time', () => {
    expect(r.statuses.map((s) => s.state)).toEqual(['ok']);
    const critical = r.records.filter((x) => x.Level === 5 && /Drive .* failed/.test(x.Message ?? ''));
    expect(critical).toHaveLength(1);
    expect(timeMs(critical[0]?.Timestamp)).toBe(FAILED_AT);
    // Every record's time was read: none is left unreadable or missing.
    expect(r.records.filter((x) => timeMs(x.Timestamp) === undefined)).toEqual([]);
  });

  it('lists it as high-level, raises its alert and reports it', () => {
    expect(highLevel(r.records).some((x) => /Drive .* failed/.test(x.Message ?? ''))).toBe(true);
    const alerts = evaluateAlerts({ now: REFRESHED_AT, state: 'ok', rollup: {}, notifications: { Data: r.records } }, DEFAULT_RULES).conditions;
    expect(alerts.filter((a) => a.rule === 'notification' && a.level === 'critical' && /failed/.test(a.message))).toHaveLength(1);
    const rows = rowsOf(r.report, 'health.notifications').filter((x) => /failed/.test(String(x.message)));
    expect(rows.map((x) => [x.level, timeMs(x.time)])).toEqual([['Critical', FAILED_AT]]);
  });

  it('reads what is new at the next refresh, asked from the newest record in the system\'s clock', async () => {
    r.h.sim.control.failDrive({ site: 0 });
    r.h.sim.control.advanceClock(60);
    const [status] = await r.h.fleet.refresh();
    const merged = (r.h.fleet.cached(r.h.saved[0]?.id ?? '', status?.system ?? '', 'GET /notifications/query', {})?.value as { Data: NotificationRecord[] }).Data;
    const failed = merged.filter((x) => /Drive .* failed/.test(x.Message ?? ''));
    expect(failed.map((x) => [x.Level, timeMs(x.Timestamp)])).toEqual([
      [5, REFRESHED_AT],
      [5, FAILED_AT],
    ]);
    expect(new Set(merged.map((x) => x.Id)).size).toBe(merged.length);
  });

  it('says a clock that differs, on the system and in reports, and only then', () => {
    const local = dialects.includes('local-time');
    expect(r.statuses[0]?.clockOffsetMs).toBe(local ? -5 * 3_600_000 : undefined);
    const notes = r.report.notes.filter((n) => n.includes('clock differs'));
    expect(notes).toEqual(local ? [expect.stringContaining('clock differs by \u22125 h')] : []);
  });
});

/**
 * A host whose clock is wrong, on a system whose nodes stamp their `Time` with a zone (so the nodes
 * teach nothing of the clock): its answers' HTTP `Date` still shows it, and the system says so.
 */
describe("a host clock 10 minutes fast, seen in the HTTP Date of the system's answers", () => {
  const openFleet = useFleetsOnDisk('fd-date-clock-');
  let sim: SimulatorHandle | undefined;
  afterAll(async () => {
    await sim?.close();
  });

  it('shows the clock difference from the Date header when the nodes give none', async () => {
    sim = await startSimulator({ sites: 1, systems: 1, password: 'date-clock-pw', controlServer: false, clock: SimClock.frozen(T0 + 600_000), dialects: ['dotnet-dates'] });
    const { fleet } = await openFleet({ clock: () => new Date(T0) }, sim.manifest.sites);
    const [status] = await fleet.refresh();
    expect(status?.state).toBe('ok');
    // To the second: the header has whole seconds, and the answer took a moment.
    expect(Math.abs((status?.clockOffsetMs ?? 0) - 600_000)).toBeLessThanOrEqual(1000);
    expect(describeClockOffset(status?.clockOffsetMs)).toBe('clock differs by +10 min');
  }, 120_000);

  it('says nothing when the host clock agrees, whatever zone its times are written in', async () => {
    await sim?.close();
    sim = await startSimulator({ sites: 1, systems: 1, password: 'date-clock-pw', controlServer: false, clock: SimClock.frozen(T0), dialects: ['dotnet-dates'] });
    const { fleet } = await openFleet({ clock: () => new Date(T0) }, sim.manifest.sites);
    const [status] = await fleet.refresh();
    expect(status?.clockOffsetMs).toBeUndefined();
  }, 120_000);
});

/**
 * A system that stamps local time (UTC−5) with no `Date` header and no node `Time`: the first
 * refresh cannot tell its clock, but records created between two refreshes can (they were stamped
 * within that window), and the app must then place them at their true time and say the clock.
 */
describe('a local-time system whose records alone tell its clock', () => {
  let h: ReportHarness | undefined;
  afterAll(async () => {
    await h?.close();
  });

  it('learns the offset from fresh records, places them at their true time and says so', async () => {
    h = await reportHarness({ sites: 1, systems: 1, dialects: ['local-time', 'no-clock-hints'] });
    const [first] = await h.fleet.refresh();
    expect(first?.state).toBe('ok');
    // Nothing tells the clock yet: no Date header, no node Time, no record seen arrive.
    expect(first?.clockOffsetMs).toBeUndefined();
    h.sim.control.advanceClock(120);
    const failedAt = h.sim.clock.now();
    h.sim.control.failDrive({ site: 0 });
    h.sim.control.advanceClock(60);
    const [second] = await h.fleet.refresh();
    expect(second?.state).toBe('ok');
    expect([second?.clockOffsetMs, second?.clockSource]).toEqual([-5 * 3_600_000, 'records']);
    const merged = (h.fleet.cached(h.saved[0]?.id ?? '', second?.system ?? '', 'GET /notifications/query', {})?.value as { Data: NotificationRecord[] }).Data;
    const failed = merged.filter((x) => x.Level === 5 && /Drive .* failed/.test(x.Message ?? ''));
    expect(failed.map((x) => timeMs(x.Timestamp))).toEqual([failedAt]);
    const alerts = evaluateAlerts({ now: h.sim.clock.now(), state: 'ok', rollup: {}, notifications: { Data: merged } }, DEFAULT_RULES).conditions;
    expect(alerts.filter((a) => a.rule === 'notification' && a.level === 'critical' && /failed/.test(a.message))).toHaveLength(1);
    const report = (await h.reports.generate({ kind: 'health', offline: true })).model;
    expect(report.notes.filter((n) => n.includes('clock differs'))).toEqual([expect.stringContaining('clock differs by \u22125 h')]);
  }, 120_000);
});

/**
 * A system that writes dates day first (`dd/MM/yyyy`) on the 5th of January: every date is
 * ambiguous. Its nodes' `Time` (stamped now) tells the order, and a drive that failed a minute
 * ago is shown then, not on the 1st of May.
 */
describe('a system that writes slashed dates day first, early in the month', () => {
  const openFleet = useFleetsOnDisk('fd-day-first-');
  let sim: SimulatorHandle | undefined;
  afterAll(async () => {
    await sim?.close();
  });

  it('learns the order from the nodes\' Time and reads every ambiguous date by it', async () => {
    const fifth = Date.UTC(2025, 0, 5, 12, 0, 0);
    const clock = SimClock.frozen(fifth);
    sim = await startSimulator({ sites: 1, systems: 1, password: 'day-first-pw', controlServer: false, clock, dialects: ['day-first-dates'] });
    const { fleet } = await openFleet({ clock: () => new Date(clock.now()) }, sim.manifest.sites);
    sim.control.failDrive({ site: 0 });
    sim.control.advanceClock(60);
    const [status] = await fleet.refresh();
    expect(status?.state).toBe('ok');
    expect(status?.clockOffsetMs).toBeUndefined();
    const records = ((fleet.cached(status?.siteId ?? '', status?.system ?? '', 'GET /notifications/query', {})?.value as { Data?: NotificationRecord[] } | undefined)?.Data ?? []);
    const failed = records.filter((x) => x.Level === 5 && /Drive .* failed/.test(x.Message ?? ''));
    expect(failed.map((x) => timeMs(x.Timestamp))).toEqual([fifth]);
    const alerts = evaluateAlerts({ now: clock.now(), state: 'ok', rollup: {}, notifications: { Data: records } }, DEFAULT_RULES).conditions;
    expect(alerts.filter((a) => a.rule === 'notification' && a.level === 'critical' && /failed/.test(a.message))).toHaveLength(1);
  }, 120_000);
});

/**
 * A system that writes day first and whose nodes send no `Time` (nor an HTTP `Date`): its order is
 * learned from the answers themselves (a record whose day is over 12, a reading that would lie in
 * the future), never taken month first by default.
 */
describe.each([
  ['a record of the month before, dated 29/12', Date.UTC(2025, 0, 5, 12, 0, 0)],
  ['records whose month-first reading would lie in the future', Date.UTC(2025, 2, 10, 12, 0, 0)],
])('a day-first system without node Time: %s', (_what, now) => {
  const openFleet = useFleetsOnDisk('fd-day-first-bare-');
  let sim: SimulatorHandle | undefined;
  afterAll(async () => {
    await sim?.close();
  });

  it('reads every record at its true day and records the order on the system', async () => {
    const clock = SimClock.frozen(now);
    sim = await startSimulator({ sites: 1, systems: 1, password: 'day-first-pw', controlServer: false, clock, dialects: ['day-first-dates', 'no-clock-hints'] });
    const { fleet } = await openFleet({ clock: () => new Date(clock.now()) }, sim.manifest.sites);
    sim.control.failDrive({ site: 0 });
    sim.control.advanceClock(60);
    const [status] = await fleet.refresh();
    expect(status?.state).toBe('ok');
    const records = ((fleet.cached(status?.siteId ?? '', status?.system ?? '', 'GET /notifications/query', {})?.value as { Data?: NotificationRecord[] } | undefined)?.Data ?? []);
    const failed = records.filter((x) => x.Level === 5 && /Drive .* failed/.test(x.Message ?? ''));
    expect(failed.map((x) => timeMs(x.Timestamp))).toEqual([now]);
    // Every record read, none in the future, none more than the history's week old.
    expect(records.filter((x) => { const t = timeMs(x.Timestamp); return t === undefined || t > now + 60_000 || t < now - 8 * 86_400_000; })).toEqual([]);
    expect(status?.dayFirst).toBe(true);
  }, 120_000);
});
