import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../../../app/domain/site.js';
import { AlertEngine, type AlertChange, type AlertFleet } from '../../../../main/alerts/alert-engine.js';
import { AlertStore } from '../../../../main/alerts/alert-store.js';
import type { FleetEvent } from '../../../../main/core/fleet-state.js';
import { ActionLog } from '../../../../main/store/action-log.js';
import { openAlertsDatabase, openLogDatabase, type Database } from '../../../../main/store/database.js';
import { cacheKey } from '../../../../main/store/offline-cache.js';
import { StoreError } from '../../../../main/store/store-error.js';
import { steppingClock, useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

/** A fleet of one system whose status and cached drive list the test sets, emitting status events like FleetState. */
function fakeFleet() {
  const listeners = new Set<(e: FleetEvent) => void>();
  let status: SystemStatus = { siteId: 'lab', system: 'sys1', state: 'ok' };
  let drives: Array<{ Id: number; Name: string; ResourceStatus: string }> = [{ Id: 1, Name: 'd1', ResourceStatus: 'OK' }];
  const fleet: AlertFleet = {
    on: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    status: () => [status],
    cached: (_site, _system, op) => (op === 'GET /resources/list' ? { value: { Data: [{ Name: 'n1', Drives: drives }] }, at: '2026-01-01T00:00:00.000Z' } : undefined),
  };
  return {
    fleet,
    siteIds: ['lab', 'gone'],
    set(s: Partial<SystemStatus>, d?: typeof drives) {
      status = { ...status, ...s };
      if (d) drives = d;
      for (const l of listeners) l({ type: 'status', status });
    },
  };
}

function engine(o: { log?: ActionLog } = {}) {
  const dir = tempDir();
  const db = openAlertsDatabase(dir);
  open.push(db);
  let log = o.log;
  if (!log) {
    const logDb = openLogDatabase(dir);
    open.push(logDb);
    log = new ActionLog({ db: logDb, file: path.join(dir, 'actions.db'), clock: steppingClock() });
  }
  const f = fakeFleet();
  const clock = steppingClock('2026-01-01T00:00:00.000Z');
  const warnings: string[] = [];
  const e = new AlertEngine({ store: new AlertStore(db), fleet: f.fleet, actionLog: log, user: 'admin', siteIds: () => f.siteIds, clock, warn: (m) => warnings.push(m) });
  e.start();
  const changes: AlertChange[] = [];
  e.on((c) => changes.push(c));
  return { e, f, changes, warnings, log };
}

describe('the alert engine', () => {
  it('evaluates at the end of each refresh (not while refreshing) and tells its listeners only of changes', () => {
    const { e, f, changes } = engine();
    f.set({ state: 'refreshing' }, [{ Id: 1, Name: 'd1', ResourceStatus: 'Failed' }]);
    expect(changes).toEqual([]);
    f.set({ state: 'ok' });
    expect(changes.map((c) => c.raised.map((a) => a.subject))).toEqual([['n1/d1']]);
    expect(changes[0]?.openCount).toBe(1);
    f.set({ state: 'ok' });
    expect(changes).toHaveLength(1);
    f.set({ state: 'ok' }, [{ Id: 1, Name: 'd1', ResourceStatus: 'OK' }]);
    expect(changes[1]?.cleared.map((a) => a.subject)).toEqual(['n1/d1']);
    expect(e.openCount()).toBe(0);
  });

  it('clears the alerts of a removed site and of a system its site no longer lists, and keeps those of a site it knows nothing of', () => {
    const { e, f } = engine();
    f.set({ siteId: 'gone', system: 'old', state: 'unreachable' });
    f.set({ siteId: 'lab', system: 'sys1', state: 'ok' }, [{ Id: 1, Name: 'd1', ResourceStatus: 'Failed' }]);
    f.set({ system: 'sys2', state: 'unreachable' });
    // The fleet now knows lab/sys2 alone: lab/sys1 is no longer listed; "gone" is still saved but nothing of it is known.
    e.evaluateAll();
    expect(e.list({ state: 'cleared' }).map((a) => `${a.siteId}/${a.system} ${a.rule}`)).toEqual(['lab/sys1 drive']);
    expect(e.list({ state: 'active' }).map((a) => `${a.siteId}/${a.system}`).sort()).toEqual(['gone/old', 'lab/sys2']);
    // The site removed: its alerts end too.
    f.siteIds = ['lab'];
    e.evaluateAll();
    expect(e.list({ state: 'active' }).map((a) => `${a.siteId}/${a.system}`)).toEqual(['lab/sys2']);
  });

  it('reads the cache without counting as use, and a SMART text again only when its read time changed', () => {
    const dir = tempDir();
    const db = openAlertsDatabase(dir);
    open.push(db);
    const logDb = openLogDatabase(dir);
    open.push(logDb);
    const listeners = new Set<(e: FleetEvent) => void>();
    const status: SystemStatus = { siteId: 'lab', system: 'sys1', state: 'ok' };
    const smartKey = cacheKey('GET /resources/drives/smart', { node: 'n1', driveid: 1 });
    let smartAt = '2026-01-01T00:00:00.000Z';
    const reads: Array<{ op: string; recordUse: boolean | undefined }> = [];
    const fleet: AlertFleet = {
      on: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      status: () => [status],
      cached: (_site, _system, op, _query, options) => {
        reads.push({ op, recordUse: options?.recordUse });
        if (op === 'GET /resources/list') return { value: { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'OK' }] }] }, at: '2026-01-01T00:00:00.000Z' };
        if (op === 'GET /resources/drives/smart') return { value: 'SMART overall-health self-assessment test result: PASSED', at: smartAt };
        return undefined;
      },
      cachedTimes: () => new Map([[smartKey, smartAt]]),
    };
    const e = new AlertEngine({ store: new AlertStore(db), fleet, actionLog: new ActionLog({ db: logDb, file: path.join(dir, 'actions.db'), clock: steppingClock() }), user: 'admin', siteIds: () => ['lab'], clock: steppingClock() });
    const smartReads = (): number => reads.filter((r) => r.op === 'GET /resources/drives/smart').length;
    e.evaluate(status);
    expect(smartReads()).toBe(1);
    // A steady poll re-read the drive list but not the SMART text (its time is the same): not read again.
    e.evaluate(status);
    expect(smartReads()).toBe(1);
    smartAt = '2026-01-02T00:00:00.000Z';
    e.evaluate(status);
    expect(smartReads()).toBe(2);
    expect(reads.length).toBeGreaterThan(2);
    expect(reads.every((r) => r.recordUse === false)).toBe(true);
  });

  it('stops listening when stopped', () => {
    const { e, f, changes } = engine();
    e.stop();
    f.set({ state: 'unreachable' });
    expect(changes).toEqual([]);
  });

  it('records a rule change in the action log before applying it, and evaluates again at once', () => {
    const { e, f, changes, log } = engine();
    f.set({ state: 'ok' }, [{ Id: 1, Name: 'd1', ResourceStatus: 'Failed' }]);
    e.setRules({ level: 'system', siteId: 'lab', system: 'sys1' }, { drive: { enabled: false } });
    expect(changes.at(-1)?.cleared.map((a) => a.rule)).toEqual(['drive']);
    expect(log.list().map((r) => [r.operation, r.siteId, r.system])).toEqual([['alerts rules set', 'lab', 'sys1']]);
    expect(e.rules().overrides).toEqual([{ scope: { level: 'system', siteId: 'lab', system: 'sys1' }, override: { drive: { enabled: false } } }]);
  });

  it('makes no rule change the action log cannot record', () => {
    const problem = new StoreError('actions.db (the action log) is damaged', 'actions.db', 'damaged');
    const { e } = engine({ log: new ActionLog({ problem }) });
    expect(() => e.setRules({ level: 'fleet' }, { ha: { enabled: false } })).toThrow(/damaged/);
    expect(() => e.setNotify(false)).toThrow(/damaged/);
    expect(e.rules().overrides).toEqual([]);
    expect(e.notify).toBe(true);
  });
});
