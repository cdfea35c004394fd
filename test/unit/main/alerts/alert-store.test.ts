import { redact } from '../../../../app/redact.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Evaluation } from '../../../../app/alerts/evaluate.js';
import { AlertStore, SEEN_PRECISION_MS } from '../../../../main/alerts/alert-store.js';
import { connect, type Database } from '../../../../main/store/driver.js';
import { ALERT_MIGRATIONS, LOG_MIGRATIONS } from '../../../../main/store/migrations.js';
import { ALERTS_FILE, createDatabaseFile, openAlertsDatabase, openLogDatabase } from '../../../../main/store/open.js';
import { ActionLog } from '../../../../main/store/action-log.js';
import { steppingClock, useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});
function store(dir: string): AlertStore {
  const db = openAlertsDatabase(dir);
  open.push(db);
  return new AlertStore(db);
}

const T = (minutes: number): Date => new Date(Date.UTC(2026, 0, 1, 12, minutes));
const failedDrive: Evaluation = { conditions: [{ rule: 'drive', subject: 'n1/d1', level: 'critical', message: 'drive d1 on n1 is Failed' }], assessed: ['drive', 'pool-used'] };
const nothing: Evaluation = { conditions: [], assessed: ['drive', 'pool-used'] };

describe('the alert store', () => {
  it('raises a condition once while it lasts, keeps its message current, and clears it when an evaluation no longer sees it', () => {
    const s = store(tempDir());
    expect(s.reconcile('lab', 'sys1', failedDrive, T(0)).raised.map((a) => a.subject)).toEqual(['n1/d1']);
    const again = s.reconcile('lab', 'sys1', { ...failedDrive, conditions: [{ ...failedDrive.conditions[0]!, message: 'still failed' }] }, T(5));
    expect(again).toEqual({ raised: [], cleared: [] });
    expect(s.list({}, T(5).getTime())).toMatchObject([{ subject: 'n1/d1', state: 'open', message: 'still failed', raisedAt: T(0).toISOString(), lastSeenAt: T(5).toISOString() }]);
    const cleared = s.reconcile('lab', 'sys1', nothing, T(10)).cleared;
    expect(cleared).toMatchObject([{ subject: 'n1/d1', state: 'cleared', clearedAt: T(10).toISOString() }]);
    // Kept as history; the same condition coming back is a new alert.
    expect(s.reconcile('lab', 'sys1', failedDrive, T(15)).raised).toHaveLength(1);
    expect(s.list({ state: 'cleared' }, T(15).getTime())).toHaveLength(1);
    expect(s.list({ state: 'active' }, T(15).getTime())).toHaveLength(1);
  });

  it('keeps an alert about a system whose answers are not understood at its level, unknown, beside the others', () => {
    const dir = tempDir();
    const s = store(dir);
    const notUnderstood: Evaluation = { conditions: [{ rule: 'protocol-error', subject: '', level: 'unknown', message: 'answers not understood' }], assessed: ['protocol-error'] };
    expect(s.reconcile('lab', 'sys1', failedDrive, T(0)).raised).toHaveLength(1);
    expect(s.reconcile('lab', 'sys2', notUnderstood, T(0)).raised.map((a) => a.level)).toEqual(['unknown']);
    expect(s.list({ state: 'active' }, T(1).getTime()).map((a) => [a.system, a.level])).toEqual(
      expect.arrayContaining([
        ['sys1', 'critical'],
        ['sys2', 'unknown'],
      ]),
    );
  });

  it('writes nothing for an evaluation that changes nothing, and keeps "last seen" to within SEEN_PRECISION_MS', () => {
    const db = openAlertsDatabase(tempDir());
    open.push(db);
    const s = new AlertStore(db);
    const writes = (): number => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    s.reconcile('lab', 'sys1', failedDrive, T(0));
    const afterRaise = writes();
    // Polls within the precision that see the same condition: no row written.
    expect(s.reconcile('lab', 'sys1', failedDrive, T(1))).toEqual({ raised: [], cleared: [] });
    expect(s.reconcile('lab', 'sys1', failedDrive, T(9))).toEqual({ raised: [], cleared: [] });
    expect(writes()).toBe(afterRaise);
    expect(s.list({}, T(9).getTime())[0]?.lastSeenAt).toBe(T(0).toISOString());
    // Once the stored time is that old, it is written again.
    expect(SEEN_PRECISION_MS).toBe(10 * 60_000);
    s.reconcile('lab', 'sys1', failedDrive, T(10));
    expect(writes()).toBe(afterRaise + 1);
    expect(s.list({}, T(10).getTime())[0]?.lastSeenAt).toBe(T(10).toISOString());
    // A new level or message is written at once.
    s.reconcile('lab', 'sys1', { ...failedDrive, conditions: [{ ...failedDrive.conditions[0]!, level: 'warning' }] }, T(11));
    expect(s.list({}, T(11).getTime())[0]).toMatchObject({ level: 'warning', lastSeenAt: T(11).toISOString() });
  });

  it('leaves alerts of rules that could not look as they are', () => {
    const s = store(tempDir());
    s.reconcile('lab', 'sys1', failedDrive, T(0));
    expect(s.reconcile('lab', 'sys1', { conditions: [], assessed: ['unreachable'] }, T(1)).cleared).toEqual([]);
    expect(s.openCount(T(1).getTime())).toBe(1);
  });

  it('keeps systems apart: the same drive name on another system is its own alert', () => {
    const s = store(tempDir());
    s.reconcile('lab', 'sys1', failedDrive, T(0));
    s.reconcile('lab', 'sys2', failedDrive, T(0));
    s.reconcile('lab', 'sys1', nothing, T(1));
    expect(s.list({ state: 'active' }, T(1).getTime()).map((a) => a.system)).toEqual(['sys2']);
  });

  it('acknowledges and snoozes; a snooze that has run out is open again; both survive reopening the file', () => {
    const dir = tempDir();
    const s = store(dir);
    const [a] = s.reconcile('lab', 'sys1', failedDrive, T(0)).raised;
    const [b] = s.reconcile('lab', 'sys2', failedDrive, T(0)).raised;
    expect(s.acknowledge([a!.id], 'admin', T(1))).toMatchObject([{ state: 'acknowledged', acknowledgedBy: 'admin' }]);
    expect(s.snooze([b!.id], T(60), T(1))).toMatchObject([{ state: 'snoozed', snoozedUntil: T(60).toISOString() }]);
    expect(s.openCount(T(2).getTime())).toBe(0);
    open.splice(0).forEach((db) => db.close());
    const reopened = store(dir);
    expect(reopened.list({}, T(2).getTime()).map((x) => [x.id, x.state])).toEqual([
      [b!.id, 'snoozed'],
      [a!.id, 'acknowledged'],
    ]);
    expect(reopened.list({}, T(61).getTime()).find((x) => x.id === b!.id)?.state).toBe('open');
    expect(reopened.openCount(T(61).getTime())).toBe(1);
    // Still the same alert for the same condition: acknowledging does not make it raise again.
    expect(reopened.reconcile('lab', 'sys1', failedDrive, T(62)).raised).toEqual([]);
  });

  it('counts as open what the list shows open: not cleared, not acknowledged (even once its snooze ran out), not snoozed', () => {
    const s = store(tempDir());
    const ids = ['sys1', 'sys2', 'sys3', 'sys4', 'sys5'].map((system) => s.reconcile('lab', system, failedDrive, T(0)).raised[0]!.id);
    s.acknowledge([ids[0]!], 'admin', T(1));
    s.snooze([ids[0]!, ids[1]!], T(30), T(1));
    s.snooze([ids[2]!], T(90), T(1));
    s.reconcile('lab', 'sys4', nothing, T(2));
    for (const t of [T(2), T(60), T(120)]) expect(s.openCount(t.getTime())).toBe(s.list({ state: 'open' }, t.getTime()).length);
    // At 60: sys2 (its snooze over) and sys5; sys1 acknowledged, sys3 snoozed, sys4 cleared.
    expect(s.openCount(T(60).getTime())).toBe(2);
  });

  it('keeps its open count right through every change it makes: raise, clear, acknowledge, snooze, a snooze ended, a system gone', () => {
    const s = store(tempDir());
    const openAt = (t: Date): number => s.list({ state: 'open' }, t.getTime()).length;
    const check = (t: Date, expected: number): void => {
      expect(s.openCount(t.getTime())).toBe(expected);
      expect(openAt(t)).toBe(expected);
    };
    check(T(0), 0);
    const [a] = s.reconcile('lab', 'sys1', failedDrive, T(0)).raised;
    const [b] = s.reconcile('lab', 'sys2', failedDrive, T(0)).raised;
    const [c] = s.reconcile('lab', 'sys3', failedDrive, T(0)).raised;
    check(T(0), 3);
    s.acknowledge([a!.id], 'admin', T(1));
    check(T(1), 2);
    // An acknowledged alert cleared: the count does not move again.
    s.reconcile('lab', 'sys1', nothing, T(2));
    check(T(2), 2);
    s.snooze([b!.id], T(30), T(3));
    check(T(3), 1);
    check(T(31), 2);
    // A snoozed alert cleared: its snooze no longer counts, before its end or after.
    s.reconcile('lab', 'sys2', nothing, T(4));
    check(T(4), 1);
    check(T(31), 1);
    s.snooze([c!.id], T(40), T(5));
    check(T(5), 0);
    s.snooze([c!.id], null, T(6));
    check(T(6), 1);
    // Raised again on a system whose alert was cleared: a new alert, open.
    s.reconcile('lab', 'sys2', failedDrive, T(7));
    check(T(7), 2);
    s.clearWhere((_site, system) => system === 'sys3', T(8));
    check(T(8), 1);
  });

  it('answers what another process wrote since: its alerts raised, acknowledged, snoozed or cleared count, and none is raised twice', () => {
    const dir = tempDir();
    const mine = store(dir);
    const theirs = store(dir);
    const [a] = mine.reconcile('lab', 'sys1', failedDrive, T(0)).raised;
    expect(mine.openCount(T(0).getTime())).toBe(1);
    // The other process sees this one's alert, and raises none of its own for the same condition.
    expect(theirs.reconcile('lab', 'sys1', failedDrive, T(1))).toEqual({ raised: [], cleared: [] });
    const [b] = theirs.reconcile('lab', 'sys2', failedDrive, T(1)).raised;
    expect(mine.openCount(T(1).getTime())).toBe(2);
    // Counted again after the other's write, then moved by this one's own raise.
    mine.reconcile('lab', 'sys3', failedDrive, T(2));
    expect(mine.openCount(T(2).getTime())).toBe(3);
    expect(mine.reconcile('lab', 'sys2', failedDrive, T(2)).raised).toEqual([]);
    theirs.acknowledge([a!.id], 'admin', T(3));
    expect(mine.openCount(T(3).getTime())).toBe(2);
    theirs.snooze([b!.id], T(30), T(3));
    expect(mine.openCount(T(3).getTime())).toBe(1);
    expect(mine.openCount(T(31).getTime())).toBe(2);
    // The other's write lands between this one's count and its next reconciliation: counted again, not moved from a stale count.
    expect(theirs.reconcile('lab', 'sys2', nothing, T(4)).cleared.map((x) => x.id)).toEqual([b!.id]);
    mine.reconcile('lab', 'sys4', failedDrive, T(5));
    expect(mine.openCount(T(31).getTime())).toBe(2);
    const [again] = mine.reconcile('lab', 'sys2', failedDrive, T(5)).raised;
    expect(again?.id).not.toBe(b!.id);
    // What this store answers is what the file holds.
    for (const t of [T(5), T(40)]) {
      expect(mine.openCount(t.getTime())).toBe(theirs.list({ state: 'open' }, t.getTime()).length);
      expect(theirs.openCount(t.getTime())).toBe(mine.list({ state: 'open' }, t.getTime()).length);
    }
  });

  it('answers raised and cleared alerts as the file holds them, and keeps its count through a write that failed', () => {
    const db = openAlertsDatabase(tempDir());
    open.push(db);
    const s = new AlertStore(db);
    const two: Evaluation = { conditions: [...failedDrive.conditions, { rule: 'pool-used', subject: 'p1', level: 'warning', message: 'pool p1 is 91 % allocated' }], assessed: ['drive', 'pool-used'] };
    const raised = s.reconcile('lab', 'sys1', two, T(0)).raised;
    expect(raised).toEqual(s.list({ state: 'active' }, T(0).getTime()).sort((x, y) => x.id - y.id));
    s.acknowledge([raised[1]!.id], 'admin', T(1));
    const cleared = s.reconcile('lab', 'sys1', { conditions: [failedDrive.conditions[0]!], assessed: ['drive', 'pool-used'] }, T(2)).cleared;
    expect(cleared).toEqual(s.list({ state: 'cleared' }, T(2).getTime()));
    expect(s.openCount(T(2).getTime())).toBe(1);
    // A reconciliation whose write fails leaves the count as the file holds it.
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON alerts BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    expect(() => s.reconcile('lab', 'sys2', failedDrive, T(3))).toThrow(/disk full/);
    expect(s.openCount(T(3).getTime())).toBe(1);
    db.exec('DROP TRIGGER refuse');
    expect(s.reconcile('lab', 'sys2', failedDrive, T(4)).raised).toHaveLength(1);
    expect(s.openCount(T(4).getTime())).toBe(2);
  });

  it('refuses a snooze that ends in the past and an id that names no alert', () => {
    const s = store(tempDir());
    const [a] = s.reconcile('lab', 'sys1', failedDrive, T(10)).raised;
    expect(() => s.snooze([a!.id], T(5), T(10))).toThrow(/after now/);
    expect(() => s.acknowledge([a!.id, 999], 'admin', T(10))).toThrow(/no alert with id 999/);
    expect(s.list({}, T(10).getTime())[0]?.state).toBe('open');
  });

  it('filters by state, level, site, system and rule', () => {
    const s = store(tempDir());
    s.reconcile('lab', 'sys1', { conditions: [...failedDrive.conditions, { rule: 'pool-used', subject: 'p', level: 'warning', message: 'p 95 %' }], assessed: ['drive', 'pool-used'] }, T(0));
    s.reconcile('prod', 'sys9', failedDrive, T(0));
    const now = T(1).getTime();
    expect(s.list({ level: 'warning' }, now).map((a) => a.rule)).toEqual(['pool-used']);
    expect(s.list({ site: 'prod' }, now).map((a) => a.system)).toEqual(['sys9']);
    expect(s.list({ rule: 'drive', system: 'sys1' }, now)).toHaveLength(1);
    expect(s.list({ state: 'acknowledged' }, now)).toEqual([]);
  });

  it('stores rule overrides per scope; an empty override removes it', () => {
    const s = store(tempDir());
    s.setOverride({ level: 'fleet' }, { 'pool-used': { percent: 80 } });
    s.setOverride({ level: 'site', siteId: 'lab' }, { ha: { enabled: false } });
    s.setOverride({ level: 'system', siteId: 'lab', system: 'sys1' }, { drive: { minSmartRisk: 'critical' } });
    expect(s.overrides().map((o) => o.scope)).toEqual([{ level: 'fleet' }, { level: 'site', siteId: 'lab' }, { level: 'system', siteId: 'lab', system: 'sys1' }]);
    s.setOverride({ level: 'site', siteId: 'lab' }, {});
    expect(s.overrides()).toHaveLength(2);
    // Read once while the file stands; what another process stores since is seen at the next ask.
    expect(s.overrides()).toBe(s.overrides());
    const dir = tempDir();
    const [mine, theirs] = [store(dir), store(dir)];
    expect(mine.overrides()).toEqual([]);
    theirs.setOverride({ level: 'site', siteId: 'lab' }, { ha: { enabled: false } });
    expect(mine.overrides().map((o) => o.scope)).toEqual([{ level: 'site', siteId: 'lab' }]);
    theirs.setOverride({ level: 'site', siteId: 'lab' }, null);
    expect(mine.overrides()).toEqual([]);
    expect(s.notify).toBe(true);
    s.notify = false;
    expect(s.notify).toBe(false);
  });

  it('finds a system\'s alerts not cleared by an index, in a file made before it existed too', () => {
    const dir = tempDir();
    const file = path.join(dir, ALERTS_FILE);
    createDatabaseFile(file, { label: 'the alerts', migrations: ALERT_MIGRATIONS.slice(0, 2) });
    const before = connect(file);
    before.prepare("INSERT INTO alerts (rule, site_id, system, subject, level, message, raised_at, last_seen_at) VALUES ('drive', 'lab', 'sys1', 'n1/d1', 'critical', 'failed', 'x', 'x')").run();
    before.close();
    const db = openAlertsDatabase(dir);
    open.push(db);
    const plan = db.prepare<[string, string], { detail: string }>('EXPLAIN QUERY PLAN SELECT * FROM alerts WHERE site_id = ? AND system = ? AND cleared_at IS NULL').get('lab', 'sys1')?.detail ?? '';
    expect(plan).toMatch(/USING INDEX alerts_system_active/);
    const s = new AlertStore(db);
    expect(s.reconcile('lab', 'sys1', failedDrive, T(0))).toEqual({ raised: [], cleared: [] });
    expect(s.reconcile('lab', 'sys1', nothing, T(1)).cleared.map((a) => a.subject)).toEqual(['n1/d1']);
  });

  it('lives in alerts.db of the data directory, not in the cache that is rebuilt when damaged', () => {
    const dir = tempDir();
    store(dir).notify = false;
    expect(fs.existsSync(path.join(dir, ALERTS_FILE))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'fleetdeck.db'))).toBe(false);
  });
});

describe('local records of the action log', () => {
  it('migrates a log of the first schema with its chain intact, then takes local records in the chain', () => {
    const dir = tempDir();
    const file = path.join(dir, 'actions.db');
    createDatabaseFile(file, { label: 'the action log', migrations: LOG_MIGRATIONS.slice(0, 1) });
    // What an installed app left: a write recorded in the first schema, which knows no local kind.
    const v1 = connect(file);
    const clock = steppingClock();
    new ActionLog({ db: v1, file, clock }).append({ user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /hosts/create', params: redact({ body: { Name: 'h' } }), result: 'ok', message: redact('created') });
    expect(() => v1.prepare("INSERT INTO action_log (seq, format, kind, at, user, site_id, system, operation, params, result, message, prev_hash, hash) VALUES (99, 2, 'local', '', '', '', '', '', '', 'ok', '', '', '')").run()).toThrow(/CHECK/);
    v1.close();
    const db = openLogDatabase(dir);
    open.push(db);
    const log = new ActionLog({ db, file, clock });
    const rec = log.recordLocal({ user: 'admin', siteId: 'lab', operation: 'alerts rules set', params: redact({ scope: { level: 'site', siteId: 'lab' }, override: { ha: { enabled: false } }, Password: 'not-kept' }), message: redact('alert rules of site lab changed') });
    expect(rec).toMatchObject({ operation: 'alerts rules set', result: 'ok', siteId: 'lab' });
    expect(JSON.stringify(rec.params)).not.toContain('not-kept');
    expect(log.verify()).toEqual({ ok: true, count: 3, writes: 1, problems: [] });
    expect(log.list({ siteId: 'lab' }).map((r) => r.operation)).toEqual(['POST /hosts/create', 'alerts rules set']);
    expect(db.pragma('user_version', { simple: true })).toBe(LOG_MIGRATIONS.length);
  });
});
