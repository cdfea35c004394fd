import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redact } from '../../../../app/redact.js';
import { hashOfRow } from '../../../../main/store/action-log.js';
import { ActionLog, NO_OUTCOME_MESSAGE, StoreError, hashAction, openLogDatabase, unusableLog, type ActionInput, type Database } from '../../../../main/store/index.js';
import { steppingClock, useTempDirs } from './temp-dir.js';
import { thrown } from '../../../support/thrown.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

function setup(records = 0): { dir: string; file: string; db: Database; log: ActionLog } {
  const dir = tempDir();
  const db = openLogDatabase(dir);
  open.push(db);
  const file = path.join(dir, 'actions.db');
  const log = new ActionLog({ db, file, clock: steppingClock() });
  for (let i = 1; i <= records; i++) log.append(write(i));
  return { dir, file, db, log };
}

function write(n: number, over: Partial<ActionInput> = {}): ActionInput {
  return { user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /volumes/create', params: redact({ body: { Name: `v${n}` } }), result: 'ok', message: redact(`created ${n}`), ...over };
}

/** A damaged-database error as SQLite raises it. */
function corrupt(): Error {
  return Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
}

describe('unusableLog: the message of a log that cannot be used', () => {
  it('says a damaged file is damaged, and offers a backup or a new log that keeps the damaged one aside', () => {
    const e = unusableLog(corrupt(), '/data/actions.db');
    expect(e).toBeInstanceOf(StoreError);
    expect(e.reason).toBe('damaged');
    expect(e.file).toBe('/data/actions.db');
    expect(e.cause).toBeInstanceOf(Error);
    expect(e.message).toBe(
      '/data/actions.db (the action log) is damaged: database disk image is malformed. Writes to systems are refused until this is resolved: restore it from a backup, or run "fleetdeck log start-new" to keep the damaged file aside and start a new log whose first record names it',
    );
  });

  it('says a missing file was moved or deleted, with no damaged file to keep aside', () => {
    const missing = new StoreError('gone', '/data/actions.db', 'missing');
    const e = unusableLog(missing, '/data/actions.db');
    expect(e.reason).toBe('missing');
    expect(e.message).toBe(
      '/data/actions.db (the action log) is missing although this data directory was used before: it was moved or deleted. Writes to systems are refused until this is resolved: restore it from a backup, or run "fleetdeck log start-new" to start a new log whose first record names it',
    );
  });

  it('says why another file cannot be used and what to do, for errors and for thrown non-errors', () => {
    const e = unusableLog(Object.assign(new Error('permission denied'), { code: 'EACCES' }), '/data/actions.db');
    expect(e.reason).toBe('read-only');
    expect(e.message).toBe('cannot use /data/actions.db (the action log): permission denied. Writes to systems are refused until it can be written: make /data and the files in it writable by this user (or choose another data directory with --data-dir or FLEETDECK_DATA_DIR)');
    expect(unusableLog('odd failure', '/data/actions.db').message).toMatch(/^cannot use \/data\/actions\.db \(the action log\): odd failure\. /);
  });
});

describe('ActionLog: construction and state', () => {
  it('needs a database or the problem that prevents one', () => {
    expect(() => new ActionLog({})).toThrow(TypeError);
    expect(() => new ActionLog({})).toThrow(/needs a database or the problem/);
  });

  it('names its file as given, else the problem’s file, else nothing', () => {
    const problem = new StoreError('damaged', '/data/actions.db', 'damaged');
    expect(new ActionLog({ problem }).file).toBe('/data/actions.db');
    expect(new ActionLog({ problem, file: '/elsewhere/actions.db' }).file).toBe('/elsewhere/actions.db');
    const dir = tempDir();
    const db = openLogDatabase(dir);
    open.push(db);
    expect(new ActionLog({ db }).file).toBe('');
  });

  it('is usable with a database and says why not without one', () => {
    expect(setup().log.unusable).toBeUndefined();
    const problem = new StoreError('damaged', '/data/actions.db', 'damaged');
    expect(new ActionLog({ problem }).unusable).toBe(problem);
  });

  it('refuses writes and reads with its problem even when a database was handed over too', () => {
    const { db } = setup(1);
    const problem = new StoreError('damaged', '/data/actions.db', 'damaged');
    const log = new ActionLog({ db, problem });
    expect(() => log.append(write(2))).toThrow(problem);
    expect(() => log.count()).toThrow(problem);
    expect(() => log.page({}, { offset: 0, limit: 10 })).toThrow(problem);
    expect(log.verify()).toEqual({ ok: false, count: 0, writes: 0, problems: [{ seq: 0, reason: 'damaged' }] });
    expect(db.prepare('SELECT COUNT(*) AS n FROM action_log').get()).toEqual({ n: 2 });
  });

  it('does not touch a database handed over with the problem that makes it unusable', () => {
    const { db } = setup();
    db.close();
    const problem = new StoreError('damaged', '/data/actions.db', 'damaged');
    expect(() => new ActionLog({ db, problem })).not.toThrow();
  });

  it('closes its connection once, and verifies a closed log as a problem rather than throwing', () => {
    const { db, log } = setup(1);
    log.close();
    expect(db.open).toBe(false);
    expect(() => log.close()).not.toThrow();
    const result = log.verify();
    expect(result).toMatchObject({ ok: false, count: 0, writes: 0 });
    expect(result.problems).toEqual([{ seq: 0, reason: expect.stringMatching(/closed/) }]);
    expect(() => new ActionLog({ problem: new StoreError('x', '/f', 'damaged') }).close()).not.toThrow();
  });
});

describe('ActionLog: records of other kinds', () => {
  it('records a log restart naming the file kept aside, listed whatever the site filter', () => {
    const { log } = setup();
    log.append(write(1, { siteId: 'prod' }));
    const restart = log.recordRestart({ user: 'root', reason: 'previous log damaged', previousFile: '/data/actions.db.damaged', previousSha256: 'ab'.repeat(32) });
    expect(restart).toMatchObject({ seq: 3, user: 'root', siteId: '', system: '', operation: 'fleetdeck log start-new', params: { previousFile: '/data/actions.db.damaged', previousSha256: 'ab'.repeat(32) }, result: 'ok', message: 'previous log damaged' });
    expect(restart).not.toHaveProperty('completedAt');
    expect(log.list({ siteId: 'lab' }).map((r) => r.seq)).toEqual([3]);
    expect(log.list({ siteId: 'prod' }).map((r) => r.seq)).toEqual([1, 3]);
    expect(log.recordRestart({ user: 'root', reason: 'lost' }).params).toEqual({ previousFile: null, previousSha256: null });
    expect(log.verify()).toEqual({ ok: true, count: 4, writes: 1, problems: [] });
  });

  it('records a local change with its scope, the whole fleet when none is given', () => {
    const { log } = setup();
    const rule = log.recordLocal({ user: 'admin', siteId: 'lab', system: 'sys1', operation: 'alert rule edit', params: redact({ rule: 'pool-full', threshold: 90 }), message: redact('threshold 85 → 90') });
    expect(rule).toMatchObject({ seq: 1, at: '2025-01-01T00:00:00.000Z', siteId: 'lab', system: 'sys1', operation: 'alert rule edit', params: { rule: 'pool-full', threshold: 90 }, result: 'ok', message: 'threshold 85 → 90' });
    const fleet = log.recordLocal({ user: 'admin', operation: 'alert rule edit', params: redact({ rule: 'x' }), message: redact('') });
    expect(fleet).toMatchObject({ siteId: '', system: '' });
    expect(log.list({ siteId: 'lab' }).map((r) => r.seq)).toEqual([1]);
    expect(log.count()).toBe(2);
  });

  it('lists a first-format record (a whole write in one) with its own result, an error as an error', () => {
    const { db, log } = setup();
    const rows = [
      { seq: 1, result: 'error', message: 'boom', params: '{"a":1}' },
      { seq: 2, result: 'ok', message: 'fine', params: 'not json' },
    ];
    let prev = '0'.repeat(64);
    for (const r of rows) {
      const at = `2024-01-0${r.seq}T00:00:00.000Z`;
      const hash = hashAction({ format: 1, seq: r.seq, at, user: 'old', siteId: 'lab', system: 's', operation: 'POST /x', paramsJson: r.params, result: r.result, message: r.message, prevHash: prev });
      db.prepare("INSERT INTO action_log VALUES (?, 1, 'write', ?, 'old', 'lab', 's', 'POST /x', ?, ?, ?, NULL, ?, ?)").run(r.seq, at, r.params, r.result, r.message, prev, hash);
      prev = hash;
    }
    db.prepare('INSERT INTO action_log_head (id, seq, hash) VALUES (1, 2, ?)').run(prev);
    const listed = log.list();
    expect(listed.map((r) => [r.result, r.message, r.params])).toEqual([
      ['error', 'boom', { a: 1 }],
      ['ok', 'fine', 'not json'],
    ]);
    expect(log.list({ results: ['error'] }).map((r) => r.seq)).toEqual([1]);
    expect(log.list({ results: ['ok'] }).map((r) => r.seq)).toEqual([2]);
    expect(log.verify()).toEqual({ ok: true, count: 2, writes: 2, problems: [] });
    // New records chain on from the old ones.
    expect(log.append(write(3)).prevHash).toBe(prev);
  });

  it('stores absent params as null, and keeps a completed write’s own time apart from its outcome’s', () => {
    const { log } = setup();
    const pending = log.begin({ user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /x', params: redact(undefined) });
    expect(pending.params).toBeNull();
    const done = log.complete(pending, { result: 'unknown', message: redact('timed out') });
    expect(done).toMatchObject({ at: '2025-01-01T00:00:00.000Z', completedAt: '2025-01-01T00:00:01.000Z', result: 'unknown', message: 'timed out', params: null });
    expect(log.list()).toEqual([done]);
  });
});

describe('ActionLog: bad arguments', () => {
  it('refuses an outcome other than ok/refused/unknown before writing anything', () => {
    const { db, log } = setup();
    const pending = log.begin({ user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /x', params: redact({}) });
    expect(() => log.complete(pending, { result: 'error' as 'ok', message: redact('') })).toThrow(/got error/);
    expect(db.prepare("SELECT COUNT(*) AS n FROM action_log WHERE kind = 'outcome'").get()).toEqual({ n: 0 });
    expect(log.list()[0]).toMatchObject({ result: 'unknown', message: NO_OUTCOME_MESSAGE });
  });

  it('refuses a time that does not parse as a TypeError, not as a disk problem', () => {
    const { log } = setup();
    const err = thrown(() => log.begin({ at: 'not a time', user: 'a', siteId: 's', system: 'y', operation: 'POST /x', params: redact({}) }));
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toBe('not a valid time: not a time');
    expect(log.count()).toBe(0);
  });

  it('checks list limits: a non-negative integer, 0 listing nothing', () => {
    const { log } = setup(3);
    expect(log.list({ limit: 0 })).toEqual([]);
    expect(log.list({ limit: 1 }).map((r) => r.seq)).toEqual([5]);
    expect(() => log.list({ limit: -1 })).toThrow('limit must be a non-negative integer, got -1');
    expect(() => log.list({ limit: 1.5 })).toThrow(RangeError);
  });

  it('checks page bounds: offset a non-negative integer, limit an integer from 1 to 10,000', () => {
    const { log } = setup(3);
    expect(log.page({}, { offset: 0, limit: 10_000 }).total).toBe(3);
    expect(log.page({}, { offset: 3, limit: 1 }).records).toEqual([]);
    expect(() => log.page({}, { offset: 0, limit: 10_001 })).toThrow('limit must be an integer from 1 to 10000, got 10001');
    expect(() => log.page({}, { offset: 0.5, limit: 10 })).toThrow('offset must be a non-negative integer, got 0.5');
    expect(() => log.page({}, { offset: 0, limit: 2.5 })).toThrow(RangeError);
    expect(() => log.page({}, { offset: 0, limit: 0 })).toThrow(RangeError);
  });

  it('pages newest first whatever the list options say, and stamps the page with the time it was read', () => {
    const { log } = setup(3);
    const page = log.page({ limit: 1, newestFirst: false }, { offset: 1, limit: 5 });
    expect(page).toMatchObject({ total: 3, offset: 1, at: '2025-01-01T00:00:03.000Z' });
    expect(page.records.map((r) => r.seq)).toEqual([3, 1]);
  });
});

describe('ActionLog: failures of the file', () => {
  it('names the file and the step when an outcome cannot be written, without saying the write was not sent', () => {
    const { dir, db, log } = setup();
    const pending = log.begin({ user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /x', params: redact({}) });
    db.exec('DROP TABLE action_log_head');
    const err = thrown(() => log.complete(pending, { result: 'ok', message: redact('') }));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).cause).toBeInstanceOf(Error);
    expect((err as StoreError).reason).toBe('io');
    expect((err as StoreError).message).toBe(`cannot record the outcome of the write in ${path.join(dir, 'actions.db')} (the action log): no such table: action_log_head; check the disk holding ${dir}`);
  });

  it('says an intent that cannot be written was not sent', () => {
    const { dir, db, log } = setup();
    db.exec('DROP TABLE action_log_head');
    const err = thrown(() => log.append(write(1)));
    expect((err as StoreError).message).toBe(`cannot record the write in ${path.join(dir, 'actions.db')} (the action log): no such table: action_log_head; check the disk holding ${dir} (the write was not sent)`);
    expect((err as StoreError).reason).toBe('io');
    expect((err as StoreError).cause).toBeInstanceOf(Error);
  });

  it('names the step of a restart or local change that cannot be written', () => {
    const { db, log } = setup();
    db.exec('DROP TABLE action_log_head');
    expect((thrown(() => log.recordRestart({ user: 'root', reason: 'x' })) as Error).message).toMatch(/^cannot write the first record of .*\(the action log\)/);
    expect((thrown(() => log.recordLocal({ user: 'root', operation: 'x', params: redact({}), message: redact('') })) as Error).message).toMatch(/^cannot record the change in .*\(the action log\)/);
  });

  it('names the file when it cannot be read, and reports the same in verify', () => {
    const { dir, db, log } = setup(2);
    db.exec('ALTER TABLE action_log RENAME TO gone');
    const expected = `cannot read ${path.join(dir, 'actions.db')} (the action log): no such table: action_log; check the disk holding ${dir}`;
    for (const read of [() => log.list(), () => log.count(), () => log.page({}, { offset: 0, limit: 5 })]) {
      const err = thrown(read);
      expect(err).toBeInstanceOf(StoreError);
      expect((err as Error).message).toBe(expected);
    }
    expect(log.verify()).toEqual({ ok: false, count: 0, writes: 0, problems: [{ seq: 0, reason: expected }] });
    // Not damage: writes are not refused for the rest of the run.
    expect(log.unusable).toBeUndefined();
  });

  it('refuses writes for the rest of the run once damage is found while reading', () => {
    const { file, db, log } = setup(1);
    const real = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      if (/COUNT\(\*\)/.test(sql)) throw corrupt();
      return real(sql);
    }) as typeof db.prepare;
    const err = thrown(() => log.page({}, { offset: 0, limit: 5 }));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).reason).toBe('damaged');
    expect(log.unusable).toBe(err);
    expect((err as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(the action log\\) is damaged`));
    expect(() => log.append(write(2))).toThrow(err as Error);
    // What a damaged file answers is not trusted either.
    expect(() => log.list()).toThrow(err as Error);
    expect(() => log.count()).toThrow(err as Error);
    expect(log.verify().problems).toEqual([{ seq: 0, reason: (err as Error).message }]);
  });

  it('keeps the first damage found as the reason', () => {
    const { db, log } = setup(1);
    const real = db.prepare.bind(db);
    let calls = 0;
    db.prepare = ((sql: string) => {
      if (/COUNT\(\*\)/.test(sql)) throw Object.assign(new Error(`malformed ${++calls}`), { code: 'SQLITE_CORRUPT' });
      return real(sql);
    }) as typeof db.prepare;
    const first = thrown(() => log.page({}, { offset: 0, limit: 5 }));
    const second = thrown(() => log.page({}, { offset: 0, limit: 5 }));
    expect(second).toBe(first);
    expect((first as Error).message).toMatch(/malformed 1/);
  });

  it('puts synchronous back to FULL when the connection already was at FULL', () => {
    const { db, log } = setup();
    db.pragma('synchronous = FULL');
    log.append(write(1));
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
  });
});

describe('ActionLog.verify: outcomes and scope', () => {
  function insertOutcome(db: Database, seq: number, intentSeq: number | null, over: { user?: string; siteId?: string; system?: string; operation?: string } = {}): void {
    const prev = (db.prepare('SELECT hash FROM action_log WHERE seq = ?').get(seq - 1) as { hash: string }).hash;
    const f = { format: 2 as const, seq, kind: 'outcome', at: '2025-02-01T00:00:00.000Z', user: over.user ?? 'admin', siteId: over.siteId ?? 'lab', system: over.system ?? 'sys1', operation: over.operation ?? 'POST /x', paramsJson: 'null', result: 'ok', message: '', intentSeq, prevHash: prev };
    const hash = hashAction(f);
    db.prepare("INSERT INTO action_log VALUES (?, 2, 'outcome', ?, ?, ?, ?, ?, 'null', 'ok', '', ?, ?, ?)").run(seq, f.at, f.user, f.siteId, f.system, f.operation, intentSeq, prev, hash);
    db.prepare('UPDATE action_log_head SET seq = ?, hash = ? WHERE id = 1').run(seq, hash);
  }

  function pendingOn(log: ActionLog): number {
    return log.begin({ user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /x', params: redact({}) }).seq;
  }

  it('flags an outcome whose user, site, system or operation differ from its intent’s', () => {
    for (const over of [{ user: 'eve' }, { siteId: 'prod' }, { system: 'sys2' }, { operation: 'DELETE /x' }]) {
      const { db, log } = setup();
      const seq = pendingOn(log);
      insertOutcome(db, 2, seq, over);
      expect(log.verify().problems, JSON.stringify(over)).toEqual([{ seq: 2, reason: 'outcome of a write that has no intent (seq 1) before it', at: '2025-02-01T00:00:00.000Z' }]);
    }
    const { db, log } = setup();
    insertOutcome(db, 2, pendingOn(log));
    expect(log.verify()).toEqual({ ok: true, count: 2, writes: 1, problems: [] });
  });

  it('counts a scoped window’s own records while walking the whole chain', () => {
    const { log } = setup();
    log.append(write(1));
    log.append(write(2, { siteId: 'prod' }));
    log.recordRestart({ user: 'root', reason: 'x' });
    expect(log.verify('prod')).toEqual({ ok: true, count: 5, writes: 2, problems: [], site: { id: 'prod', count: 2 } });
    expect(log.verify('lab')).toEqual({ ok: true, count: 5, writes: 2, problems: [], site: { id: 'lab', count: 2 } });
    expect(log.verify('none')).toMatchObject({ site: { id: 'none', count: 0 } });
    expect(log.verify()).not.toHaveProperty('site');
    expect(new ActionLog({ problem: new StoreError('x', '/f', 'damaged') }).verify('lab')).toMatchObject({ ok: false, site: { id: 'lab', count: 0 } });
  });

  it('reports records deleted after a gap only once, and several missing records as a range', () => {
    const { db, log } = setup(3);
    db.exec('DROP TRIGGER action_log_no_delete');
    db.prepare('DELETE FROM action_log WHERE seq IN (3, 4)').run();
    expect(log.verify().problems).toEqual([{ seq: 3, reason: 'records 3–4 are missing' }]);
  });
});


describe('ActionLog: what is stored', () => {
  it('stores an intent as pending with no message, and an outcome with null params naming its intent', () => {
    const { db, log } = setup();
    log.append(write(1, { result: 'refused', message: redact('no') }));
    const rows = db.prepare('SELECT seq, format, kind, params, result, message, intent_seq FROM action_log ORDER BY seq').all();
    expect(rows).toEqual([
      { seq: 1, format: 2, kind: 'intent', params: '{"body":{"Name":"v1"}}', result: 'pending', message: '', intent_seq: null },
      { seq: 2, format: 2, kind: 'outcome', params: 'null', result: 'refused', message: 'no', intent_seq: 1 },
    ]);
  });

  it('hashes which intent an outcome completes', () => {
    const f = { format: 2 as const, seq: 9, kind: 'outcome', at: 'a', user: 'u', siteId: 's', system: 'y', operation: 'o', paramsJson: 'null', result: 'ok', message: '', prevHash: 'p' };
    expect(hashAction({ ...f, intentSeq: 3 })).not.toBe(hashAction({ ...f, intentSeq: 4 }));
    expect(hashAction({ ...f, intentSeq: 3 })).not.toBe(hashAction({ ...f, intentSeq: null }));
  });

  it('sorts every key of the params, however many and in whatever order they came', () => {
    const { log } = setup();
    const keys = 'qwertyuiopasdfghjklzxcvbnm'.split('');
    const rec = log.append(write(1, { params: redact(Object.fromEntries(keys.map((k, i) => [k, i]))) }));
    expect(Object.keys(rec.params as object)).toEqual([...keys].sort());
  });

  it('chains a new record from the head, not from a record added behind the app’s back', () => {
    const { db, log } = setup(1);
    const head = db.prepare('SELECT seq, hash FROM action_log_head').get() as { seq: number; hash: string };
    db.prepare("INSERT INTO action_log VALUES (3, 2, 'intent', '2025-05-01T00:00:00.000Z', 'x', 'lab', 's', 'POST /x', '{}', 'pending', '', NULL, ?, ?)").run(head.hash, 'f'.repeat(64));
    const next = log.append(write(2));
    expect(next.seq).toBe(4);
    expect(next.prevHash).toBe(head.hash);
  });

  it('chains from the last record when the head is gone', () => {
    const { db, log } = setup(1);
    const last = db.prepare('SELECT hash FROM action_log WHERE seq = 2').get() as { hash: string };
    db.exec('DELETE FROM action_log_head');
    expect(log.append(write(2)).prevHash).toBe(last.hash);
    expect(log.verify()).toEqual({ ok: true, count: 4, writes: 2, problems: [] });
  });

  it('says why a record whose own hash is right no longer links to the one before it', () => {
    const { db, log } = setup(2);
    db.exec('DROP TRIGGER action_log_no_update');
    const row = db.prepare('SELECT * FROM action_log WHERE seq = 3').get() as Parameters<typeof hashOfRow>[0];
    const forged = { ...row, prev_hash: 'e'.repeat(64) };
    db.prepare('UPDATE action_log SET prev_hash = ?, hash = ? WHERE seq = 3').run(forged.prev_hash, hashOfRow(forged));
    expect(log.verify().problems).toEqual([
      { seq: 3, reason: 'prevHash does not match the previous record: records were inserted, reordered or replaced', at: '2025-01-01T00:00:01.000Z' },
      { seq: 4, reason: 'prevHash does not match the previous record: records were inserted, reordered or replaced', at: '2025-01-01T00:00:01.000Z' },
    ]);
  });
});
