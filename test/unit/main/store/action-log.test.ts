import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED, redact } from '../../../../app/redact.js';
import { ActionLog, GENESIS_HASH, NO_OUTCOME_MESSAGE, StoreError, hashAction, openLogDatabase, type ActionInput, type Database } from '../../../../main/store/index.js';
import { hashOfRow } from '../../../../main/store/action-log.js';
import { steppingClock, useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});
function openDb(dir: string): Database {
  const db = openLogDatabase(dir);
  open.push(db);
  return db;
}

function action(n: number, over: Partial<ActionInput> = {}): ActionInput {
  return { user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /volumes/create', params: redact({ body: { Name: `vol-${String(n).padStart(4, '0')}`, Size: n } }), result: 'ok', message: redact(`created ${n}`), ...over };
}

function setup(records = 0): { dir: string; db: Database; log: ActionLog } {
  const dir = tempDir();
  const db = openDb(dir);
  const log = new ActionLog({ db, file: path.join(dir, 'actions.db'), clock: steppingClock() });
  for (let i = 1; i <= records; i++) log.append(action(i));
  return { dir, db, log };
}

describe('ActionLog: append and list', () => {
  it('stores each write as a chained record and returns it', () => {
    const { log } = setup();
    const first = log.append(action(1));
    const second = log.append(action(2, { result: 'refused', message: redact('no space'), at: new Date('2025-06-01T12:00:00Z') }));
    expect(first).toMatchObject({ seq: 1, at: '2025-01-01T00:00:00.000Z', user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /volumes/create', params: { body: { Name: 'vol-0001', Size: 1 } }, result: 'ok', message: 'created 1', completedAt: '2025-01-01T00:00:00.000Z', prevHash: GENESIS_HASH });
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    // Each write is two records (intent, outcome): the second write's intent follows the first's outcome.
    expect(second).toMatchObject({ seq: 3, at: '2025-06-01T12:00:00.000Z', result: 'refused', message: 'no space' });
    expect(log.list()).toEqual([first, second]);
  });

  it('stores params and message as the caller redacted them, literal secrets included (the type takes nothing else)', () => {
    const { log } = setup();
    const rec = log.append(action(1, { params: redact({ body: { Name: 'u1', Password: 'pw-1', Chap: { ChapSecret: 's' } } }), message: redact('token tok-12345 rejected', ['tok-12345']) }));
    expect(rec.params).toEqual({ body: { Chap: { ChapSecret: REDACTED }, Name: 'u1', Password: REDACTED } });
    expect(rec.message).toBe(`token ${REDACTED} rejected`);
    expect(JSON.stringify(log.list())).not.toMatch(/pw-1|tok-12345/);
  });

  it('filters by site and time, and limits to the newest records', () => {
    const { log } = setup();
    log.append(action(1, { at: '2025-01-01T00:00:00Z' }));
    log.append(action(2, { at: '2025-01-02T00:00:00Z', siteId: 'prod' }));
    log.append(action(3, { at: '2025-01-03T00:00:00Z' }));
    log.append(action(4, { at: '2025-01-04T00:00:00Z' }));
    const names = (q: Parameters<ActionLog['list']>[0]): unknown[] => log.list(q).map((r) => (r.params as { body: { Size: number } }).body.Size);
    expect(names({ siteId: 'lab' })).toEqual([1, 3, 4]);
    expect(names({ since: '2025-01-02T00:00:00Z', until: new Date('2025-01-04T00:00:00Z') })).toEqual([2, 3]);
    expect(names({ limit: 2 })).toEqual([3, 4]);
    expect(names({ limit: 2, newestFirst: true })).toEqual([4, 3]);
    expect(log.count()).toBe(4);
  });

  it('refuses a result other than ok/refused/unknown', () => {
    const { log } = setup();
    expect(() => log.append(action(1, { result: 'maybe' as 'ok' }))).toThrow(/'ok', 'refused' or 'unknown'/);
    expect(log.count()).toBe(0);
  });

  it('commits with synchronous FULL and leaves the connection at NORMAL for cache writes', () => {
    const { db, log } = setup();
    // Observe the setting inside the append's transaction: a temp trigger records it on insert.
    db.exec('CREATE TEMP TABLE observed (sync INTEGER)');
    db.exec('CREATE TEMP TRIGGER observe AFTER INSERT ON main.action_log BEGIN INSERT INTO observed SELECT synchronous FROM pragma_synchronous; END');
    log.append(action(1));
    expect(db.prepare('SELECT sync FROM observed').all()).toEqual([{ sync: 2 }, { sync: 2 }]); // FULL, for the intent and the outcome
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
  });
});

describe('ActionLog: tamper evidence', () => {
  it('verifies an intact chain, and an empty one', () => {
    expect(setup().log.verify()).toEqual({ ok: true, count: 0, writes: 0, problems: [] });
    expect(setup(5).log.verify()).toEqual({ ok: true, count: 10, writes: 5, problems: [] });
  });

  it('refuses UPDATE and DELETE at the SQL level', () => {
    const { db } = setup(2);
    expect(() => db.prepare("UPDATE action_log SET message = 'x' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM action_log WHERE seq = 2').run()).toThrow(/append-only/);
    expect(db.prepare('SELECT COUNT(*) AS n FROM action_log').get()).toEqual({ n: 4 });
  });

  it('names the one record whose params were edited after dropping the trigger', () => {
    const { db, log } = setup(5);
    db.exec('DROP TRIGGER action_log_no_update');
    db.prepare("UPDATE action_log SET params = replace(params, 'vol-0003', 'vol-0008') WHERE seq = 5").run();
    const result = log.verify();
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([{ seq: 5, reason: expect.stringMatching(/edited/), at: '2025-01-01T00:00:02.000Z' }]);
  });

  it('detects an edit of the file bytes, made with the database closed', () => {
    const { dir, db } = setup(5);
    db.close(); // checkpoints the WAL into the main file
    const file = path.join(dir, 'actions.db');
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('vol-0004');
    expect(at).toBeGreaterThan(0);
    bytes[at + 7] = '9'.charCodeAt(0); // vol-0004 → vol-0009, same length: still a valid database
    fs.writeFileSync(file, bytes);
    const result = new ActionLog({ db: openDb(dir) }).verify();
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => p.seq)).toEqual([7]); // the fourth write's intent
  });

  it('detects a deleted record as a gap', () => {
    const { db, log } = setup(5);
    db.exec('DROP TRIGGER action_log_no_delete');
    db.prepare('DELETE FROM action_log WHERE seq = 2').run();
    const result = log.verify();
    expect(result).toMatchObject({ ok: false, count: 9 });
    expect(result.problems).toEqual([{ seq: 2, reason: 'record 2 is missing' }]);
  });

  it('detects a truncated tail, and keeps the gap visible after further appends', () => {
    const { db, log } = setup(5);
    db.exec('DROP TRIGGER action_log_no_delete');
    db.prepare('DELETE FROM action_log WHERE seq >= 4').run();
    expect(log.verify().problems).toEqual([{ seq: 4, reason: expect.stringMatching(/records 4–10 are missing.*truncated/) }]);
    expect(log.append(action(6)).seq).toBe(11);
    expect(log.verify().problems).toEqual([{ seq: 4, reason: 'records 4–10 are missing' }]);
  });

  it('detects the last record replaced by one whose hash and link are both right: only the head still knows', () => {
    const { db, log } = setup(3);
    db.exec('DROP TRIGGER action_log_no_update');
    const row = db.prepare('SELECT * FROM action_log WHERE seq = 6').get() as Parameters<typeof hashOfRow>[0];
    const forged = { ...row, result: 'refused', message: 'not applied' };
    db.prepare('UPDATE action_log SET result = ?, message = ?, hash = ? WHERE seq = 6').run(forged.result, forged.message, hashOfRow(forged));
    expect(log.verify()).toEqual({ ok: false, count: 6, writes: 3, problems: [{ seq: 6, reason: 'the last record does not match the head of the chain: it was replaced' }] });
  });

  it('detects a missing head, and an empty log without one is intact', () => {
    const { db, log } = setup(2);
    db.exec('DELETE FROM action_log_head');
    expect(log.verify()).toEqual({ ok: false, count: 4, writes: 2, problems: [{ seq: 0, reason: 'the head record of the chain is missing' }] });
    const empty = setup(0);
    empty.db.exec('DELETE FROM action_log_head');
    expect(empty.log.verify()).toEqual({ ok: true, count: 0, writes: 0, problems: [] });
  });

  it('hashes each format over its own fields: a legacy record ignores kind and intent, a new one covers every field', () => {
    const base = { seq: 3, at: '2025-01-01T00:00:00.000Z', user: 'u', siteId: 's', system: 'y', operation: 'op', paramsJson: '{}', result: 'ok', message: 'm', prevHash: GENESIS_HASH };
    const v1 = hashAction({ ...base, format: 1 });
    expect(hashAction(base)).toBe(v1);
    expect(hashAction({ ...base, format: 1, kind: 'intent', intentSeq: 2 })).toBe(v1);
    const v2 = hashAction({ ...base, format: 2 });
    expect(v2).not.toBe(v1);
    expect(hashAction({ ...base, format: 2, kind: '', intentSeq: null })).toBe(v2);
    expect(hashAction({ ...base, format: 2, kind: 'intent' })).not.toBe(v2);
    expect(hashAction({ ...base, format: 2, intentSeq: 0 })).not.toBe(v2);
    for (const [k, v] of Object.entries({ seq: 4, at: 'x', user: 'v', siteId: 't', system: 'z', operation: 'op2', paramsJson: '[]', result: 'refused', message: 'n', prevHash: 'f'.repeat(64) })) {
      expect(hashAction({ ...base, format: 2, [k]: v }), k).not.toBe(v2);
      expect(hashAction({ ...base, format: 1, [k]: v }), k).not.toBe(v1);
    }
    expect(v2).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stores params as canonical JSON: keys sorted at every depth, so equal params hash alike', () => {
    const { db, log } = setup();
    log.append(action(1, { params: redact({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }) }));
    log.append(action(2, { params: redact({ a: { c: null, d: [{ y: 2, z: 1 }] }, b: 1 }) }));
    const stored = db.prepare('SELECT params FROM action_log ORDER BY seq').all() as Array<{ params: string }>;
    expect(stored[0]?.params).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
    expect(stored.filter((r) => r.params === stored[0]?.params).length).toBeGreaterThanOrEqual(2);
  });

  it('detects reordered records', () => {
    const { db, log } = setup(4);
    db.exec('DROP TRIGGER action_log_no_update');
    // Swap two intents (seq 3 and 5) with everything they carry.
    const cols = 'at, user, site_id, system, operation, params, result, message, prev_hash, hash';
    const rows = db.prepare(`SELECT seq, ${cols} FROM action_log WHERE seq IN (3, 5) ORDER BY seq`).all() as Array<Record<string, unknown>>;
    const set = db.prepare(`UPDATE action_log SET (${cols}) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) WHERE seq = ?`);
    const values = (r: Record<string, unknown>): unknown[] => cols.split(', ').map((c) => r[c]);
    set.run(...values(rows[1]), 3);
    set.run(...values(rows[0]), 5);
    const result = log.verify();
    expect(result.ok).toBe(false);
    // 3 and 5 no longer match their hashes; 4 and 6 no longer link to the record before them.
    expect(result.problems.map((p) => p.seq)).toEqual([3, 4, 5, 6]);
  });

  it('detects a record inserted with a correctly computed hash behind the app’s back', () => {
    const { db, log } = setup(3);
    const last = db.prepare('SELECT hash FROM action_log WHERE seq = 6').get() as { hash: string };
    const forged = { format: 2 as const, seq: 7, kind: 'intent', at: '2025-01-01T00:00:10.000Z', user: 'admin', siteId: 'lab', system: 'sys1', operation: 'DELETE /volumes/delete', paramsJson: '{}', result: 'pending', message: '', intentSeq: null, prevHash: last.hash };
    db.prepare('INSERT INTO action_log VALUES (?, 2, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)').run(
      forged.seq,
      forged.kind,
      forged.at,
      forged.user,
      forged.siteId,
      forged.system,
      forged.operation,
      forged.paramsJson,
      forged.result,
      forged.message,
      forged.prevHash,
      hashAction(forged),
    );
    expect(log.verify().problems).toEqual([{ seq: 7, reason: expect.stringMatching(/added outside the app/) }]);
  });

  it('keeps one valid chain when two connections append interleaved', () => {
    const dir = tempDir();
    const a = new ActionLog({ db: openDb(dir) });
    const b = new ActionLog({ db: openDb(dir) });
    for (let i = 0; i < 20; i++) (i % 3 === 0 ? b : a).append(action(i));
    const result = a.verify();
    expect(result).toEqual({ ok: true, count: 40, writes: 20, problems: [] });
    expect(b.list().map((r) => (r.params as { body: { Size: number } }).body.Size)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});

describe('ActionLog: intent before sending, outcome after', () => {
  it('lists a begun write as "outcome unknown" until its outcome is recorded', () => {
    const { log } = setup();
    const pending = log.begin({ user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /hosts/create', params: redact({ body: { Name: 'h1', ChapSecret: 'chap-secret-1' } }) });
    expect(pending.params).toEqual({ body: { ChapSecret: REDACTED, Name: 'h1' } });
    expect(log.list()).toEqual([expect.objectContaining({ seq: pending.seq, result: 'unknown', message: NO_OUTCOME_MESSAGE })]);
    expect(log.list()[0]).not.toHaveProperty('completedAt');
    log.complete(pending, { result: 'refused', message: redact('Host h1 already exists') });
    expect(log.list()).toEqual([expect.objectContaining({ seq: pending.seq, result: 'refused', message: 'Host h1 already exists', completedAt: expect.any(String) })]);
    expect(log.count()).toBe(1);
    expect(log.verify()).toEqual({ ok: true, count: 2, writes: 1, problems: [] });
    expect(JSON.stringify(log.list())).not.toContain('chap-secret-1');
  });

  it('refuses a second outcome for the same write', () => {
    const { log } = setup();
    const pending = log.begin({ user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /hosts/create', params: redact({}) });
    log.complete(pending, { result: 'ok', message: redact('') });
    expect(() => log.complete(pending, { result: 'refused', message: redact('changed my mind') })).toThrow(StoreError);
    expect(log.list()[0]?.result).toBe('ok');
  });

  it('chains outcomes too: an outcome edited from refused to ok is flagged', () => {
    const { db, log } = setup();
    log.append(action(1, { result: 'refused', message: redact('Permission denied') }));
    db.exec('DROP TRIGGER action_log_no_update');
    db.prepare("UPDATE action_log SET result = 'ok', message = '' WHERE kind = 'outcome'").run();
    expect(log.verify().problems).toEqual([{ seq: 2, reason: expect.stringMatching(/edited/), at: '2025-01-01T00:00:00.000Z' }]);
  });

  it('flags an outcome that completes no earlier intent', () => {
    const { db, log } = setup(1);
    const head = db.prepare('SELECT hash FROM action_log WHERE seq = 2').get() as { hash: string };
    const stray = { format: 2 as const, seq: 3, kind: 'outcome', at: '2025-01-02T00:00:00.000Z', user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /volumes/create', paramsJson: 'null', result: 'ok', message: '', intentSeq: 99, prevHash: head.hash };
    const hash = hashAction(stray);
    db.prepare("INSERT INTO action_log VALUES (3, 2, 'outcome', ?, 'admin', 'lab', 'sys1', 'POST /volumes/create', 'null', 'ok', '', 99, ?, ?)").run(stray.at, stray.prevHash, hash);
    db.prepare('UPDATE action_log_head SET seq = 3, hash = ? WHERE id = 1').run(hash);
    expect(log.verify().problems).toEqual([{ seq: 3, reason: expect.stringMatching(/no intent/), at: '2025-01-02T00:00:00.000Z' }]);
  });

  it('refuses to record an intent on a full disk, naming the file and saying nothing was sent', () => {
    const { dir, db, log } = setup(2);
    // SQLite's own cap stands in for a full disk: the next page cannot be allocated.
    const pages = Number(db.pragma('page_count', { simple: true }));
    db.pragma(`max_page_count = ${pages}`);
    const big = { body: { Name: 'x', Pad: 'p'.repeat(64 * 1024) } };
    let error: unknown;
    try {
      log.begin({ user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /hosts/create', params: redact(big) });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).reason).toBe('full');
    expect((error as Error).message).toContain(path.join(dir, 'actions.db'));
    expect((error as Error).message).toMatch(/not sent/);
    expect((error as Error).message).toMatch(/free space/);
    expect(log.count()).toBe(2);
  });

  it('refuses every write, and reports the problem, when constructed without a usable file', () => {
    const problem = new StoreError('/data/actions.db (the action log) is damaged: file is not a database. Writes to systems are refused…', '/data/actions.db', 'damaged');
    const log = new ActionLog({ problem });
    expect(() => log.begin({ user: 'a', siteId: 's', system: 'y', operation: 'POST /hosts/create', params: redact({}) })).toThrow(problem);
    expect(log.verify()).toEqual({ ok: false, count: 0, writes: 0, problems: [{ seq: 0, reason: problem.message }] });
    expect(() => log.list()).toThrow(problem);
  });
});
