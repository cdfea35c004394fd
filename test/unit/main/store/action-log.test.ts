import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED } from '../../../../app/redact.js';
import { ActionLog, GENESIS_HASH, hashAction, openDatabase, type ActionInput, type Database } from '../../../../main/store/index.js';
import { steppingClock, useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});
function openDb(dir: string): Database {
  const db = openDatabase(dir);
  open.push(db);
  return db;
}

function action(n: number, over: Partial<ActionInput> = {}): ActionInput {
  return { user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /volumes/create', params: { body: { Name: `vol-${String(n).padStart(4, '0')}`, Size: n } }, result: 'ok', message: `created ${n}`, ...over };
}

function setup(records = 0): { dir: string; db: Database; log: ActionLog } {
  const dir = tempDir();
  const db = openDb(dir);
  const log = new ActionLog({ db, clock: steppingClock() });
  for (let i = 1; i <= records; i++) log.append(action(i));
  return { dir, db, log };
}

describe('ActionLog: append and list', () => {
  it('stores each write as a chained record and returns it', () => {
    const { log } = setup();
    const first = log.append(action(1));
    const second = log.append(action(2, { result: 'error', message: 'no space', at: new Date('2025-06-01T12:00:00Z') }));
    expect(first).toMatchObject({ seq: 1, at: '2025-01-01T00:00:00.000Z', user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /volumes/create', params: { body: { Name: 'vol-0001', Size: 1 } }, result: 'ok', message: 'created 1', prevHash: GENESIS_HASH });
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toMatchObject({ seq: 2, at: '2025-06-01T12:00:00.000Z', result: 'error', message: 'no space', prevHash: first.hash });
    expect(log.list()).toEqual([first, second]);
  });

  it('redacts params and message, including literal secrets given with the action', () => {
    const { log } = setup();
    const rec = log.append(action(1, { params: { body: { Name: 'u1', Password: 'pw-1', Chap: { ChapSecret: 's' } } }, message: 'token tok-12345 rejected', extraSecrets: ['tok-12345'] }));
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
    const seqs = (q: Parameters<ActionLog['list']>[0]): number[] => log.list(q).map((r) => r.seq);
    expect(seqs({ siteId: 'lab' })).toEqual([1, 3, 4]);
    expect(seqs({ since: '2025-01-02T00:00:00Z', until: new Date('2025-01-04T00:00:00Z') })).toEqual([2, 3]);
    expect(seqs({ limit: 2 })).toEqual([3, 4]);
    expect(seqs({ limit: 2, newestFirst: true })).toEqual([4, 3]);
    expect(log.count()).toBe(4);
  });

  it('refuses a result other than ok/error', () => {
    const { log } = setup();
    expect(() => log.append(action(1, { result: 'maybe' as 'ok' }))).toThrow(/'ok' or 'error'/);
    expect(log.count()).toBe(0);
  });

  it('commits with synchronous FULL and leaves the connection at NORMAL for cache writes', () => {
    const { db, log } = setup();
    // Observe the setting inside the append's transaction: a temp trigger records it on insert.
    db.exec('CREATE TEMP TABLE observed (sync INTEGER)');
    db.exec('CREATE TEMP TRIGGER observe AFTER INSERT ON main.action_log BEGIN INSERT INTO observed SELECT synchronous FROM pragma_synchronous; END');
    log.append(action(1));
    expect(db.prepare('SELECT sync FROM observed').all()).toEqual([{ sync: 2 }]); // FULL
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
  });
});

describe('ActionLog: tamper evidence', () => {
  it('verifies an intact chain, and an empty one', () => {
    expect(setup().log.verify()).toEqual({ ok: true, count: 0, problems: [] });
    expect(setup(5).log.verify()).toEqual({ ok: true, count: 5, problems: [] });
  });

  it('refuses UPDATE and DELETE at the SQL level', () => {
    const { db } = setup(2);
    expect(() => db.prepare("UPDATE action_log SET message = 'x' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM action_log WHERE seq = 2').run()).toThrow(/append-only/);
    expect(db.prepare('SELECT COUNT(*) AS n FROM action_log').get()).toEqual({ n: 2 });
  });

  it('names the one record whose params were edited after dropping the trigger', () => {
    const { db, log } = setup(5);
    db.exec('DROP TRIGGER action_log_no_update');
    db.prepare("UPDATE action_log SET params = replace(params, 'vol-0003', 'vol-0008') WHERE seq = 3").run();
    const result = log.verify();
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([{ seq: 3, reason: expect.stringMatching(/edited/) }]);
  });

  it('detects an edit of the file bytes, made with the database closed', () => {
    const { dir, db } = setup(5);
    db.close(); // checkpoints the WAL into the main file
    const file = path.join(dir, 'fleetdeck.db');
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('vol-0004');
    expect(at).toBeGreaterThan(0);
    bytes[at + 7] = '9'.charCodeAt(0); // vol-0004 → vol-0009, same length: still a valid database
    fs.writeFileSync(file, bytes);
    const result = new ActionLog({ db: openDb(dir) }).verify();
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => p.seq)).toEqual([4]);
  });

  it('detects a deleted record as a gap', () => {
    const { db, log } = setup(5);
    db.exec('DROP TRIGGER action_log_no_delete');
    db.prepare('DELETE FROM action_log WHERE seq = 2').run();
    const result = log.verify();
    expect(result).toMatchObject({ ok: false, count: 4 });
    expect(result.problems).toEqual([{ seq: 2, reason: 'record 2 is missing' }]);
  });

  it('detects a truncated tail, and keeps the gap visible after further appends', () => {
    const { db, log } = setup(5);
    db.exec('DROP TRIGGER action_log_no_delete');
    db.prepare('DELETE FROM action_log WHERE seq >= 4').run();
    expect(log.verify().problems).toEqual([{ seq: 4, reason: expect.stringMatching(/records 4–5 are missing.*truncated/) }]);
    expect(log.append(action(6)).seq).toBe(6);
    expect(log.verify().problems).toEqual([{ seq: 4, reason: 'records 4–5 are missing' }]);
  });

  it('detects reordered records', () => {
    const { db, log } = setup(4);
    db.exec('DROP TRIGGER action_log_no_update');
    const cols = 'at, user, site_id, system, operation, params, result, message, prev_hash, hash';
    const rows = db.prepare(`SELECT seq, ${cols} FROM action_log WHERE seq IN (2, 3) ORDER BY seq`).all() as Array<Record<string, unknown>>;
    const set = db.prepare(`UPDATE action_log SET (${cols}) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) WHERE seq = ?`);
    const values = (r: Record<string, unknown>): unknown[] => cols.split(', ').map((c) => r[c]);
    set.run(...values(rows[1]), 2);
    set.run(...values(rows[0]), 3);
    const result = log.verify();
    expect(result.ok).toBe(false);
    // 2 and 3 no longer match their hashes; 4 no longer links to the record before it.
    expect(result.problems.map((p) => p.seq)).toEqual([2, 3, 4]);
  });

  it('detects a record inserted with a correctly computed hash behind the app’s back', () => {
    const { db, log } = setup(3);
    const last = log.list().at(-1);
    const forged = { seq: 4, at: '2025-01-01T00:00:10.000Z', user: 'admin', siteId: 'lab', system: 'sys1', operation: 'DELETE /volumes/delete', paramsJson: '{}', result: 'ok', message: '', prevHash: last?.hash ?? '' };
    db.prepare('INSERT INTO action_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(forged.seq, forged.at, forged.user, forged.siteId, forged.system, forged.operation, forged.paramsJson, forged.result, forged.message, forged.prevHash, hashAction(forged));
    expect(log.verify().problems).toEqual([{ seq: 4, reason: expect.stringMatching(/added outside the app/) }]);
  });

  it('keeps one valid chain when two connections append interleaved', () => {
    const dir = tempDir();
    const a = new ActionLog({ db: openDb(dir) });
    const b = new ActionLog({ db: openDb(dir) });
    for (let i = 0; i < 20; i++) (i % 3 === 0 ? b : a).append(action(i));
    const result = a.verify();
    expect(result).toEqual({ ok: true, count: 20, problems: [] });
    expect(b.list().map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
