import { afterEach, describe, expect, it } from 'vitest';
import type { Site } from '../../../../app/domain/site.js';
import { refreshRead } from '../../../../app/fleet/refresh-plan.js';
import { ComplianceService } from '../../../../main/compliance/compliance-service.js';
import { ScoreHistory, UNCHANGED_KEEP_MS } from '../../../../main/compliance/score-history.js';
import { ActionLog, OfflineCache, cacheKey, openDatabase, openLogDatabase, openReportsDatabase, type Database } from '../../../../main/store/index.js';
import { useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();
const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const x of open.splice(0)) x.close();
});

const TUNNEL = cacheKey('GET /nodes/support/tunnel/status', refreshRead('GET /nodes/support/tunnel/status').query);
const SITES = [{ id: 's1', name: 'north', tags: [] }] as unknown as Site[];

function setup() {
  const dir = tempDir();
  let now = new Date('2026-03-01T12:00:00Z');
  const clock = () => now;
  const cacheDb = openDatabase(dir);
  const reportsDb: Database = openReportsDatabase(dir);
  const log = new ActionLog({ db: openLogDatabase(dir), clock });
  open.push(cacheDb, reportsDb, log);
  const cache = new OfflineCache({ db: cacheDb });
  const history = new ScoreHistory(reportsDb);
  const service = new ComplianceService({ cache, sites: () => SITES, actionLog: log, user: 'ann', history, clock });
  const tunnel = (status: string) => cache.put('s1', 'alpha', TUNNEL, { Data: [{ Name: 'n1', SupportTunnelStatus: status }] }, now.toISOString());
  return { service, log, history, tunnel, advance: (ms: number) => (now = new Date(now.getTime() + ms)), clock };
}

const tunnelOf = (s: ComplianceService) => s.evaluate({ keep: false }).systems[0]?.checks.find((c) => c.id === 'support-tunnel-off');

describe('the compliance service', () => {
  it('waives a failing check in the action log, and an expired waiver excuses nothing', () => {
    const { service, log, tunnel, advance } = setup();
    tunnel('Enabled');
    expect(tunnelOf(service)?.result).toBe('fail');
    const before = service.revision();
    const w = service.waive({ check: 'support-tunnel-off', siteId: 's1', system: 'alpha', reason: 'case 42', until: '2026-03-02T12:00:00Z' });
    expect(w).toMatchObject({ by: 'ann', until: '2026-03-02T12:00:00.000Z', seq: 1 });
    expect(service.revision()).not.toBe(before);
    expect(log.list()).toEqual([expect.objectContaining({ operation: 'compliance waive', user: 'ann', siteId: 's1', system: 'alpha', message: 'check support-tunnel-off waived for alpha of north until 2026-03-02T12:00:00.000Z: case 42' })]);
    expect(tunnelOf(service)?.waiver?.active).toBe(true);
    expect(service.evaluate({ keep: false }).counts).toMatchObject({ fail: 0, waived: 1 });

    advance(24 * 3_600_000);
    tunnel('Enabled');
    expect(tunnelOf(service)).toMatchObject({ result: 'fail', waiver: { active: false } });
    expect(tunnelOf(service)?.reason).toMatch(/the waiver granted by ann expired 2026-03-02T12:00:00.000Z$/);
    expect(log.verify().ok).toBe(true);
  });

  it('refuses a waiver without reason, ending in the past, of an unknown check or site, and a revocation of none', () => {
    const { service, log } = setup();
    const grant = { check: 'support-tunnel-off', siteId: 's1', system: 'alpha', reason: 'x', until: '2027-01-01T00:00:00Z' };
    expect(() => service.waive({ ...grant, reason: '  ' })).toThrow(/give the reason/);
    expect(() => service.waive({ ...grant, until: '2026-03-01T11:59:59Z' })).toThrow(/must end after now/);
    expect(() => service.waive({ ...grant, until: 'soon' })).toThrow(/not a time/);
    expect(() => service.waive({ ...grant, check: 'nope' })).toThrow(/has no check "nope"/);
    expect(() => service.waive({ ...grant, siteId: 's9' })).toThrow(/no saved site/);
    expect(() => service.unwaive({ check: 'support-tunnel-off', siteId: 's1', system: 'alpha' })).toThrow(/no waiver of check support-tunnel-off for alpha of north/);
    expect(log.list()).toEqual([]);
  });

  it('keeps a score when it changes, and an unchanged one at most once an hour', () => {
    const { service, history, tunnel, advance } = setup();
    tunnel('Enabled');
    service.evaluate();
    advance(60_000);
    service.evaluate();
    expect(history.of('', '')).toHaveLength(1);
    tunnel('Disabled');
    service.evaluate();
    const points = history.of('', '');
    expect(points).toHaveLength(2);
    expect(points[1]!.score).toBeGreaterThan(points[0]!.score!);
    expect(history.of('s1', 'alpha')).toHaveLength(2);
    advance(UNCHANGED_KEEP_MS);
    expect(service.evaluate().history).toHaveLength(3);
    // A site's evaluation is kept apart from the fleet's.
    service.evaluate({ siteIds: new Set(['s1']) });
    expect(history.of('s1', '')).toHaveLength(1);
    expect(history.of('', '')).toHaveLength(3);
  });

  it('says what changed since the previous kept evaluation, check by check, until the next change', () => {
    const { service, history, tunnel, advance } = setup();
    const changes = (keep = true) => service.evaluate({ keep }).changes.map((c) => [c.system, c.check, c.kind, c.from, c.to]);
    tunnel('Enabled');
    // The first evaluation has nothing to compare with.
    expect(changes()).toEqual([]);
    advance(60_000);
    tunnel('Disabled');
    expect(changes()).toEqual([['alpha', 'support-tunnel-off', 'passes', 'fail', 'pass']]);
    const passedAt = service.evaluate({ keep: false }).changes[0];
    expect(passedAt).toMatchObject({ site: 'north', since: '2026-03-01T12:00:00.000Z', at: '2026-03-01T12:01:00.000Z', severity: 'high' });
    // Nothing moved since: the last change still shows, from when it was first seen.
    advance(60_000);
    expect(service.evaluate().changes).toEqual([passedAt]);

    // Not kept, an evaluation still says what changed, and the kept one after it says the same.
    tunnel('Enabled');
    expect(changes(false)).toEqual([['alpha', 'support-tunnel-off', 'fails', 'pass', 'fail']]);
    expect(changes()).toEqual([['alpha', 'support-tunnel-off', 'fails', 'pass', 'fail']]);

    service.waive({ check: 'support-tunnel-off', siteId: 's1', system: 'alpha', reason: 'case 42', until: '2026-03-01T13:00:00Z' });
    advance(60_000);
    expect(changes()).toEqual([['alpha', 'support-tunnel-off', 'waived', 'fail', 'waived']]);
    advance(3_600_000);
    tunnel('Enabled');
    expect(changes()).toEqual([['alpha', 'support-tunnel-off', 'waiver-expired', 'waived', 'waiver-expired']]);
    // Revoking the expired waiver leaves the check failing: no change.
    service.unwaive({ check: 'support-tunnel-off', siteId: 's1', system: 'alpha' });
    expect(changes()).toEqual([['alpha', 'support-tunnel-off', 'waiver-expired', 'waived', 'waiver-expired']]);
    // Too old to judge.
    advance(25 * 3_600_000);
    expect(changes()).toEqual([['alpha', 'support-tunnel-off', 'cannot-tell', 'fail', 'cannot-tell']]);
    expect(history.of('s1', 'alpha').length).toBeGreaterThanOrEqual(6);
  });

  it('keeps an evaluation whose checks moved even when its counts did not, and compares only evaluations of one baseline', () => {
    const { history } = setup();
    const counts = { fail: 1, 'cannot-tell': 0, waived: 0, pass: 1, 'not-applicable': 0 };
    const at = new Date('2026-03-01T12:00:00Z');
    history.record(at, 'b', [{ siteId: 's1', system: 'alpha', counts, score: 50, results: { a: 'fail', b: 'pass' } }]);
    const next = history.record(new Date(at.getTime() + 1000), 'b', [{ siteId: 's1', system: 'alpha', counts, score: 50, results: { a: 'pass', b: 'fail' } }]);
    expect(next.kept).toBe(1);
    expect(next.changes.get(JSON.stringify(['s1', 'alpha']))?.checks).toEqual([
      { check: 'a', from: 'fail', to: 'pass' },
      { check: 'b', from: 'pass', to: 'fail' },
    ]);
    // Another baseline is no basis for what changed; the next evaluation of it is.
    const other = history.record(new Date(at.getTime() + 2000), 'c', [{ siteId: 's1', system: 'alpha', counts, score: 50, results: { a: 'fail', b: 'pass' } }]);
    expect(other.changes.size).toBe(0);
    const again = history.record(new Date(at.getTime() + 3000), 'c', [{ siteId: 's1', system: 'alpha', counts, score: 50, results: { a: 'pass', b: 'pass' } }]);
    expect(again.changes.get(JSON.stringify(['s1', 'alpha']))?.checks).toEqual([{ check: 'a', from: 'fail', to: 'pass' }]);
  });

  it('previews a fix only for a check that has one', () => {
    const { service, tunnel } = setup();
    tunnel('Enabled');
    expect(service.fixPlan('support-tunnel-off').writes).toEqual([{ op: 'PUT /nodes/support/tunnel/disable', body: { Node: 'n1' }, targets: [{ siteId: 's1', site: 'north', system: 'alpha', item: 'n1' }] }]);
    expect(() => service.fixPlan('users-two-step')).toThrow(/has no fix/);
  });
});
