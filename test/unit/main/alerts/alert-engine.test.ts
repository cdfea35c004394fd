import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fullGc } from '../../../support/full-gc.js';
import type { SystemStatus } from '../../../../app/domain/site.js';
import { AlertEngine, type AlertChange, type AlertEngineOptions, type AlertFleet } from '../../../../main/alerts/alert-engine.js';
import { stableDigest } from '../../../../main/core/answer-digests.js';
import { redactedJson } from '../../../../app/redact.js';
import { AlertStore } from '../../../../main/alerts/alert-store.js';
import type { FleetEvent } from '../../../../main/core/fleet-state.js';
import { ActionLog } from '../../../../main/store/action-log.js';
import type { Database } from '../../../../main/store/driver.js';
import { openAlertsDatabase, openLogDatabase } from '../../../../main/store/open.js';
import { cacheKey } from '../../../../main/store/offline-cache.js';
import { StoreError } from '../../../../main/store/store-error.js';
import { steppingClock, useTempDirs } from '../store/temp-dir.js';

/** The digest of a value as the cache would store it. */
const ruleDigest = (value: unknown): string => stableDigest(redactedJson(value) ?? '');

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

const RESOURCES_KEY = cacheKey('GET /resources/list', { details: true, sensors: true });
const NOTES_KEY = cacheKey('GET /notifications/query', {});
const smartKey = (driveid: number): string => cacheKey('GET /resources/drives/smart', { node: 'n1', driveid });

/** An ATA SMART report as smartctl prints it, with the reallocated sector count and self-assessment given. */
function ataText(o: { reallocated: number; health?: string }): string {
  return [
    '=== START OF READ SMART DATA SECTION ===',
    `SMART overall-health self-assessment test result: ${o.health ?? 'PASSED'}`,
    '',
    'ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE',
    `  5 Reallocated_Sector_Ct   0x0033   100   100   010    Pre-fail  Always       -       ${o.reallocated}`,
    '  9 Power_On_Hours          0x0032   097   097   000    Old_age   Always       -       31234',
    '',
  ].join('\n');
}

/** A fleet whose cache holds the answers the test sets, each with a content version, recording the keys read. */
function versionedFleet() {
  const held = new Map<string, { value: unknown; version: number }>();
  let next = 1;
  const reads: string[] = [];
  const fleet: AlertFleet = {
    on: () => () => undefined,
    status: () => [],
    cached: (_site, _system, op, query) => {
      const key = cacheKey(op, query ?? {});
      reads.push(key);
      const hit = held.get(key);
      return hit ? { value: structuredClone(hit.value), at: '2026-01-01T12:00:00.000Z' } : undefined;
    },
    cachedVersions: () => new Map([...held].map(([k, v]) => [k, v.version])),
    cachedText: (_site, _system, op, query) => {
      const key = cacheKey(op, query ?? {});
      reads.push(key);
      const hit = held.get(key);
      return hit ? { json: JSON.stringify(hit.value) } : undefined;
    },
  };
  return {
    fleet,
    reads,
    set(key: string, value: unknown) {
      held.set(key, { value, version: next++ });
    },
    delete(key: string) {
      held.delete(key);
    },
  };
}

/** The versioned engines' start time. */
const NOON = Date.parse('2026-01-01T12:00:00.000Z');

/**
 * An engine over {@link versionedFleet} on a clock the test sets (`clock.now`), counting the rows
 * written to alerts.db; `extra` adds or replaces engine options.
 */
function versionedEngine<C extends { now: number }>(extra: Partial<AlertEngineOptions>, clock: C) {
  const dir = tempDir();
  const db = openAlertsDatabase(dir);
  const logDb = openLogDatabase(dir);
  open.push(db, logDb);
  const answers = versionedFleet();
  const e = new AlertEngine({
    store: new AlertStore(db),
    fleet: answers.fleet,
    actionLog: new ActionLog({ db: logDb, file: path.join(dir, 'actions.db'), clock: steppingClock() }),
    user: 'admin',
    siteIds: () => ['lab'],
    clock: () => new Date(clock.now),
    ...extra,
  });
  const writes = (): number => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  return { e, answers, writes, clock };
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
      cachedVersions: () => new Map([[smartKey, smartAt === "2026-01-01T00:00:00.000Z" ? 1 : 2]]),
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

  it('raises a drive whose SMART worsens between two evaluations, and does not raise again one that stays as it was', () => {
    const { e, answers, clock } = versionedEngine({ maxUnchangedMs: 2 * 86_400_000 }, { now: NOON });
    const status: SystemStatus = { siteId: 'lab', system: 'sys1', state: 'ok' };
    answers.set(RESOURCES_KEY, { Data: [{ Name: 'n1', Drives: [1, 2, 3].map((Id) => ({ Id, Name: `d${Id}`, ResourceStatus: 'OK' })) }] });
    for (const id of [1, 2, 3]) answers.set(smartKey(id), ataText({ reallocated: 0 }));
    expect(e.evaluate(status)).toEqual({ raised: [], cleared: [] });
    // Drive 1 grows reallocated sectors: its alert is raised, with the finding that says why.
    answers.set(smartKey(1), ataText({ reallocated: 12 }));
    clock.now += 60_000;
    const first = e.evaluate(status).raised;
    expect(first.map((a) => [a.subject, a.level, a.message])).toEqual([['n1/d1', 'warning', 'SMART risk warning on drive d1 of n1: 5 Reallocated_Sector_Ct: raw count 12 is above 0']]);
    // Drive 2 fails its self-assessment; drive 1 is read again unchanged: only drive 2 is raised, drive 1 stays open.
    answers.set(smartKey(2), ataText({ reallocated: 0, health: 'FAILED!' }));
    answers.set(smartKey(1), ataText({ reallocated: 12 }));
    clock.now += 60_000;
    const second = e.evaluate(status);
    expect(second.raised.map((a) => [a.subject, a.level])).toEqual([['n1/d2', 'critical']]);
    expect(second.cleared).toEqual([]);
    expect(e.list({ state: 'active' }).map((a) => a.subject).sort()).toEqual(['n1/d1', 'n1/d2']);
    // Drive 1 healed: cleared; drive 2, unchanged, neither raised nor cleared.
    answers.set(smartKey(1), ataText({ reallocated: 0 }));
    clock.now += 60_000;
    const third = e.evaluate(status);
    expect(third.raised).toEqual([]);
    expect(third.cleared.map((a) => a.subject)).toEqual(['n1/d1']);
  });

  it('evaluates again when a SMART text is dropped or replaced, though no other answer moved', () => {
    const { e, answers, clock } = versionedEngine({ maxUnchangedMs: 2 * 86_400_000 }, { now: NOON });
    const status: SystemStatus = { siteId: 'lab', system: 'sys1', state: 'ok' };
    answers.set(RESOURCES_KEY, { Data: [{ Name: 'n1', Drives: [1, 2].map((Id) => ({ Id, Name: `d${Id}`, ResourceStatus: 'OK' })) }] });
    answers.set(smartKey(1), ataText({ reallocated: 12 }));
    answers.set(smartKey(2), ataText({ reallocated: 0 }));
    expect(e.evaluate(status).raised.map((a) => a.subject)).toEqual(['n1/d1']);
    // Drive 1's text is dropped (evicted): nothing else moved, yet what the rules see did.
    answers.delete(smartKey(1));
    clock.now += 60_000;
    expect(e.evaluate(status).cleared.map((a) => a.subject)).toEqual(['n1/d1']);
    // One text dropped and another stored in one write: as many texts as before, one of them new.
    answers.set(smartKey(1), ataText({ reallocated: 0 }));
    clock.now += 60_000;
    expect(e.evaluate(status)).toEqual({ raised: [], cleared: [] });
    answers.delete(smartKey(1));
    answers.set(smartKey(2), ataText({ reallocated: 0, health: 'FAILED!' }));
    clock.now += 60_000;
    expect(e.evaluate(status).raised.map((a) => [a.subject, a.level])).toEqual([['n1/d2', 'critical']]);
  });

  it('parses no SMART text whose version did not move when the system is evaluated again for another answer', () => {
    const { e, answers, clock } = versionedEngine({ maxUnchangedMs: 2 * 86_400_000 }, { now: NOON });
    const status: SystemStatus = { siteId: 'lab', system: 'sys1', state: 'ok' };
    const drives = (statusOf2: string) => ({ Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'OK' }, { Id: 2, Name: 'd2', ResourceStatus: statusOf2 }] }] });
    answers.set(RESOURCES_KEY, drives('OK'));
    answers.set(smartKey(1), ataText({ reallocated: 12 }));
    answers.set(smartKey(2), ataText({ reallocated: 0 }));
    expect(e.evaluate(status).raised.map((a) => a.subject)).toEqual(['n1/d1']);
    const smartReads = (): string[] => answers.reads.filter((k) => k.startsWith(smartKey(1).slice(0, smartKey(1).indexOf('?'))));
    expect(smartReads()).toEqual([smartKey(1), smartKey(2)]);

    // The drive list changed (drive 2 failed): the system is evaluated again, its SMART texts are not
    // read (so not parsed), and drive 1's finding stands on the verdict kept from its version.
    answers.set(RESOURCES_KEY, drives('Failed'));
    answers.reads.length = 0;
    clock.now += 60_000;
    const again = e.evaluate(status);
    expect(again.raised.map((a) => [a.rule, a.subject])).toEqual([['drive', 'n1/d2']]);
    expect(again.cleared).toEqual([]);
    expect(answers.reads).toContain(RESOURCES_KEY);
    expect(smartReads()).toEqual([]);
    expect(e.list({ state: 'active' }).map((a) => a.subject).sort()).toEqual(['n1/d1', 'n1/d2']);

    // A new version of one text: that text alone is read again.
    answers.set(smartKey(1), ataText({ reallocated: 0 }));
    answers.reads.length = 0;
    clock.now += 60_000;
    expect(e.evaluate(status).cleared.map((a) => a.subject)).toEqual(['n1/d1']);
    expect(smartReads()).toEqual([smartKey(1)]);
  });

  it('keeps no part of a SMART text once evaluated: the texts of a fleet of drives can be collected', () => {
    // Twenty drives whose texts are 1 MB each (padding lines after the report, as a long error log
    // would be), generated afresh at each read so that only the engine could keep one.
    const DRIVES = 20;
    const padding = (id: number): string => Array.from({ length: 2048 }, (_, i) => `# log ${id}:${i} ${'.'.repeat(500)}`).join('\n');
    const fleet: AlertFleet = {
      on: () => () => undefined,
      status: () => [],
      cached: (_site, _system, op, query) => {
        if (op === 'GET /resources/list') return { value: { Data: [{ Name: 'n1', Drives: Array.from({ length: DRIVES }, (_, i) => ({ Id: i + 1, Name: `d${i + 1}`, ResourceStatus: 'OK' })) }] }, at: 'x' };
        if (op !== 'GET /resources/drives/smart') return undefined;
        const id = Number(query?.['driveid']);
        return { value: `${ataText({ reallocated: id % 2 ? 0 : id })}\n${padding(id)}`, at: 'x' };
      },
      cachedVersions: () => new Map([[RESOURCES_KEY, 1], ...Array.from({ length: DRIVES }, (_, i): [string, number] => [smartKey(i + 1), 1])]),
    };
    const dir = tempDir();
    const db = openAlertsDatabase(dir);
    const logDb = openLogDatabase(dir);
    open.push(db, logDb);
    const e = new AlertEngine({ store: new AlertStore(db), fleet, actionLog: new ActionLog({ db: logDb, file: path.join(dir, 'actions.db'), clock: steppingClock() }), user: 'admin', siteIds: () => ['lab'], clock: steppingClock() });
    const gc = fullGc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const raised = e.evaluate({ siteId: 'lab', system: 'sys1', state: 'ok' }).raised;
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    // The even drives' findings are kept (and reported), their texts not: 20 MB of text, well under 4 MB kept.
    expect(raised.map((a) => a.subject)).toHaveLength(DRIVES / 2);
    expect(raised[0]?.message).toBe('SMART risk warning on drive d2 of n1: 5 Reallocated_Sector_Ct: raw count 2 is above 0');
    expect(kept).toBeLessThan(4 * 1024 * 1024);
    // Still what later evaluations use: nothing raised again while the texts' versions stand.
    expect(e.evaluate({ siteId: 'lab', system: 'sys1', state: 'stale' }).raised).toEqual([]);
  });

  it('keeps a few hundred bytes per system of what its last evaluation depended on, however many drives it has', () => {
    // Sixty drives with SMART texts per system: what an evaluation depends on names each of them.
    // Enough systems that what the first evaluations leave once (compiled code, its feedback, caches) is a few bytes each.
    const SYSTEMS = 2000;
    const DRIVES = 60;
    const versions = new Map([[RESOURCES_KEY, 1], ...Array.from({ length: DRIVES }, (_, i): [string, number] => [smartKey(i + 1), i + 1])]);
    const fleet: AlertFleet = {
      on: () => () => undefined,
      status: () => [],
      cached: (_site, _system, op) => (op === 'GET /resources/list' ? { value: { Data: [] }, at: 'x' } : undefined),
      cachedVersions: () => versions,
    };
    const dir = tempDir();
    const db = openAlertsDatabase(dir);
    const logDb = openLogDatabase(dir);
    open.push(db, logDb);
    const e = new AlertEngine({ store: new AlertStore(db), fleet, actionLog: new ActionLog({ db: logDb, file: path.join(dir, 'actions.db'), clock: steppingClock() }), user: 'admin', siteIds: () => ['lab'], clock: () => new Date(NOON) });
    for (let i = 0; i < 50; i++) e.evaluate({ siteId: 'lab', system: `warm-up${i}`, state: 'ok' });
    const gc = fullGc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < SYSTEMS; i++) e.evaluate({ siteId: 'lab', system: `sys${i}`, state: 'ok' });
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    // Its text is some 4 kB a system (the rules, a key per drive): 8 MB here if it were kept.
    expect(kept / SYSTEMS).toBeLessThan(1024);
    // Still what decides: an unchanged system is skipped, a changed one evaluated again.
    let reconciled = 0;
    const store = new AlertStore(db);
    const counted = new AlertEngine({ store, fleet, actionLog: new ActionLog({ db: logDb, file: path.join(dir, 'actions.db'), clock: steppingClock() }), user: 'admin', siteIds: () => ['lab'], clock: () => new Date(NOON) });
    const reconcile = store.reconcile.bind(store);
    store.reconcile = (...a) => {
      reconciled++;
      return reconcile(...a);
    };
    counted.evaluate({ siteId: 'lab', system: 'sys0', state: 'ok' });
    counted.evaluate({ siteId: 'lab', system: 'sys0', state: 'ok' });
    expect(reconciled).toBe(1);
    versions.set(smartKey(DRIVES), DRIVES + 1);
    counted.evaluate({ siteId: 'lab', system: 'sys0', state: 'ok' });
    expect(reconciled).toBe(2);
  });

  it('skips a system whose state, rules and answers are as at its last evaluation: nothing read again, nothing written', () => {
    // Two days: here only the notification window ends what an evaluation holds.
    const { e, answers, writes, clock } = versionedEngine({ maxUnchangedMs: 2 * 86_400_000 }, { now: NOON });
    const status: SystemStatus = { siteId: 'lab', system: 'sys1', state: 'ok' };
    answers.set(RESOURCES_KEY, { Data: [{ Name: 'n1', Time: '2026-01-01T12:00:00Z', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Failed' }] }] });
    answers.set(NOTES_KEY, { Data: [{ Id: 7, Level: 5, Timestamp: '2026-01-01T11:00:00Z', Message: 'pool offline' }] });
    expect(e.evaluate(status).raised.map((a) => a.rule).sort()).toEqual(['drive', 'notification']);
    const written = writes();

    // The next poll read the same answers (same versions): not one of them read again, nothing written.
    answers.reads.length = 0;
    clock.now += 60_000;
    expect(e.evaluate(status)).toEqual({ raised: [], cleared: [] });
    expect(answers.reads).toEqual([]);
    expect(writes()).toBe(written);

    // The node's clock and sensor readings moved (a new version of the drive list): that answer alone is read, nothing written.
    answers.set(RESOURCES_KEY, { Data: [{ Name: 'n1', Time: '2026-01-01T12:02:00Z', Sensors: [{ Name: 'temp', Reading: '41' }], Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Failed' }] }] });
    clock.now += 60_000;
    expect(e.evaluate(status)).toEqual({ raised: [], cleared: [] });
    expect(answers.reads).toEqual([RESOURCES_KEY]);
    expect(writes()).toBe(written);

    // A changed answer is evaluated as before: the drive came back, its alert clears.
    answers.set(RESOURCES_KEY, { Data: [{ Name: 'n1', Time: '2026-01-01T12:03:00Z', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'OK' }] }] });
    clock.now += 60_000;
    expect(e.evaluate(status).cleared.map((a) => a.rule)).toEqual(['drive']);

    // So is a new state, with no answer changed.
    expect(e.evaluate({ ...status, state: 'unreachable', lastError: 'timed out' }).raised.map((a) => a.rule)).toEqual(['unreachable']);
    expect(e.evaluate(status).cleared.map((a) => a.rule)).toEqual(['unreachable']);

    // Time alone: the notification leaves the rule's 24 h window at 11:00 the next day, and its alert clears then.
    answers.reads.length = 0;
    clock.now = Date.parse('2026-01-02T11:00:00.000Z');
    expect(e.evaluate(status)).toEqual({ raised: [], cleared: [] });
    expect(answers.reads).toEqual([]);
    clock.now += 1;
    expect(e.evaluate(status).cleared.map((a) => a.rule)).toEqual(['notification']);
  });

  it('judges a paused or unreachable system by its state alone: none of its answers is read, its data alerts stay as they were', () => {
    // A start marks every system of a paused site 'paused': 200 systems' answers must not be read for it.
    const { e, answers } = versionedEngine({ maxUnchangedMs: 60_000 }, { now: NOON });
    const status: SystemStatus = { siteId: 'lab', system: 'sys1', state: 'ok' };
    answers.set(RESOURCES_KEY, { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Failed' }] }] });
    expect(e.evaluate(status).raised.map((a) => a.rule)).toEqual(['drive']);

    answers.reads.length = 0;
    expect(e.evaluate({ ...status, state: 'paused' })).toEqual({ raised: [], cleared: [] });
    expect(e.evaluate({ ...status, state: 'unreachable', lastError: 'timed out' }).raised.map((a) => a.rule)).toEqual(['unreachable']);
    expect(answers.reads).toEqual([]);
    // What the cache said stays open while nothing newer can be known.
    expect(e.list({ state: 'open' }).map((a) => a.rule).sort()).toEqual(['drive', 'unreachable']);

    // Back to ok: the answers are read again and the connection alert clears.
    expect(e.evaluate(status).cleared.map((a) => a.rule)).toEqual(['unreachable']);
    expect(answers.reads).toContain(RESOURCES_KEY);
  });

  it('compares node and drive lists without the members no rule reads, wherever they sit and whatever their shape', () => {
    const list = (time: string, reading: string, status: string, message = 'ok'): unknown => ({
      Data: [{ Name: 'n1', Time: time, Sensors: [{ Name: 'temp', Reading: reading, EventMessage: `[${reading}] "Time":x` }], Drives: [{ Id: 1, Name: 'd1', ResourceStatus: status, ErrMsg: message, Sensors: [] }] }],
    });
    const now = ruleDigest(list('2026-01-01T12:00:00Z', '41', 'OK'));
    expect(ruleDigest(list('2026-01-01T12:01:00Z', '44', 'OK'))).toBe(now);
    expect(ruleDigest(list('2026-01-01T12:01:00Z', '44', 'Failed'))).not.toBe(now);
    // Text that only looks like a member inside a string is not cut.
    expect(ruleDigest(list('2026-01-01T12:00:00Z', '41', 'OK', '{,"Time":"1"}'))).not.toBe(ruleDigest(list('2026-01-01T12:00:00Z', '41', 'OK', '{,"Time":"2"}')));
    expect(ruleDigest({ Time: { at: [1] }, State: 'OK' })).toBe(ruleDigest({ Time: { at: [2] }, State: 'OK' }));
    // The health answer's load figures are left out too.
    expect(ruleDigest({ State: 'Normal', HardwareUtilization: { CPUInPercentage: 55.5 }, Volumes: 3 })).toBe(ruleDigest({ State: 'Normal', HardwareUtilization: { CPUInPercentage: 49 }, Volumes: 3 }));
    // The value a refresh wrote and the text the cache stores (secret fields masked) digest alike.
    const written = { Data: [{ Name: 'n1', Password: 'hunter2-secret', Time: 'x' }] };
    expect(ruleDigest(JSON.parse(JSON.stringify({ Data: [{ Name: 'n1', Password: '[redacted]', Time: 'y' }] })) as unknown)).toBe(ruleDigest(written));
  });

  it('evaluates an unchanged system again once its last evaluation is maxUnchangedMs old (forecasts move with time)', () => {
    const { e, answers, clock } = versionedEngine({ maxUnchangedMs: 5 * 60_000 }, { now: NOON });
    const status: SystemStatus = { siteId: 'lab', system: 'sys1', state: 'ok' };
    answers.set(RESOURCES_KEY, { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'OK' }] }] });
    e.evaluate(status);
    answers.reads.length = 0;
    clock.now += 5 * 60_000;
    e.evaluate(status);
    expect(answers.reads).toEqual([]);
    clock.now += 1;
    e.evaluate(status);
    expect(answers.reads).toContain(RESOURCES_KEY);
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

describe('the compliance rule in the engine', () => {
  function complianceEngine() {
    const TUNNEL = { op: 'GET /nodes/support/tunnel/status', query: {} };
    const state = { waived: false, revision: 'r1', calls: 0, now: NOON, waiverEnds: undefined as number | undefined, scope: 'lab' };
    const { e, answers } = versionedEngine({
      compliance: {
        system: () => {
          state.calls++;
          const active = state.waived && (state.waiverEnds === undefined || state.now < state.waiverEnds);
          return { checks: [{ id: 'support-tunnel-off', title: 'Tunnel closed', severity: 'critical', result: 'fail', reason: 'open on n1', evidence: { op: TUNNEL.op, items: 1, values: [{ item: 'n1', field: 'SupportTunnelStatus', value: 'Enabled' }] }, ...(state.waived ? { waiver: { active, reason: 'change window', until: '2026-02-01T00:00:00Z' } } : {}) }] };
        },
        reads: () => [TUNNEL],
        revision: () => state.revision,
        scopeOf: () => state.scope,
        nextChange: (now) => (state.waiverEnds !== undefined && state.waiverEnds > now ? state.waiverEnds : undefined),
      },
    }, state);
    return { e, answers, state, tunnelKey: cacheKey(TUNNEL.op, TUNNEL.query) };
  }
  const status: SystemStatus = { siteId: 'lab', system: 'sys1', state: 'ok' };

  it('raises a failing check at its level, re-evaluates when its answers or a waiver change, and clears when waived', () => {
    const { e, answers, state, tunnelKey } = complianceEngine();
    answers.set(tunnelKey, { Data: [{ Name: 'n1', SupportTunnelStatus: 'Enabled' }] });
    expect(e.evaluate(status).raised.map((a) => [a.rule, a.subject, a.level])).toEqual([['compliance', 'support-tunnel-off', 'critical']]);
    expect(state.calls).toBe(1);
    // Nothing changed: not evaluated again.
    e.evaluate(status);
    expect(state.calls).toBe(1);
    // A new version of an answer the baseline reads: evaluated again.
    answers.set(tunnelKey, { Data: [{ Name: 'n1', SupportTunnelStatus: 'Enabled ' }] });
    e.evaluate(status);
    expect(state.calls).toBe(2);
    // A waiver recorded: the revision moves, the alert clears.
    state.waived = true;
    state.revision = 'r2';
    expect(e.evaluate(status).cleared.map((a) => a.subject)).toEqual(['support-tunnel-off']);
    // What the metrics serve: the checks this evaluation read.
    expect(e.complianceOf('lab', 'sys1')?.map((c) => [c.id, c.result, c.waiver?.active])).toEqual([['support-tunnel-off', 'fail', true]]);
    expect(e.complianceOf('lab', 'other')).toBeUndefined();
    // Held between evaluations: what the rule and the metrics read, not the evidence or the waiver's detail.
    expect(e.complianceOf('lab', 'sys1')).toEqual([{ id: 'support-tunnel-off', title: 'Tunnel closed', severity: 'critical', result: 'fail', reason: 'open on n1', waiver: { active: true } }]);
  });

  it('evaluates no check again when only answers the baseline does not read changed, until its site’s scope or maxUnchangedMs moves', () => {
    const { e, answers, state, tunnelKey } = complianceEngine();
    answers.set(tunnelKey, { Data: [{ Name: 'n1', SupportTunnelStatus: 'Enabled' }] });
    e.evaluate(status);
    expect(state.calls).toBe(1);
    // A new notification: the engine evaluates again, the checks stay as they were.
    answers.set(cacheKey('GET /notifications/query', {}), { Data: [{ Id: 1, Severity: 'Info', Message: 'hello', Timestamp: '2026-01-01T11:59:00Z' }] });
    const r = e.evaluate(status);
    expect(r.raised).toEqual([]);
    expect(r.cleared).toEqual([]);
    expect(state.calls).toBe(1);
    expect(e.list({ rule: 'compliance', state: 'active' })).toHaveLength(1);
    // The site's group or tags changed: what a check's scope matches moved, evaluated again.
    state.scope = 'lab, tagged';
    e.evaluate(status);
    expect(state.calls).toBe(2);
    // Old enough: evaluated again with nothing changed (forecasts and ages move with time).
    state.now += 60 * 60_000;
    e.evaluate(status);
    expect(state.calls).toBe(3);
  });

  it('leaves compliance alerts alone on a system whose data is not read (unreachable)', () => {
    const { e, answers, tunnelKey } = complianceEngine();
    answers.set(tunnelKey, { Data: [] });
    e.evaluate(status);
    const read = e.complianceOf('lab', 'sys1');
    expect(read).toHaveLength(1);
    const r = e.evaluate({ ...status, state: 'unreachable' });
    expect(r.cleared).toEqual([]);
    // The checks last read are kept, as the alerts are.
    expect(e.complianceOf('lab', 'sys1')).toBe(read);
    expect(e.list({ rule: 'compliance', state: 'active' })).toHaveLength(1);
  });

  it('raises the alert again the moment a waiver ends, though nothing else changed', () => {
    const { e, answers, state, tunnelKey } = complianceEngine();
    answers.set(tunnelKey, { Data: [] });
    state.waived = true;
    state.waiverEnds = state.now + 60_000;
    expect(e.evaluate(status).raised).toEqual([]);
    state.now += 30_000;
    e.evaluate(status);
    expect(state.calls).toBe(1);
    state.now += 30_000;
    expect(e.evaluate(status).raised.map((a) => a.subject)).toEqual(['support-tunnel-off']);
  });
});
