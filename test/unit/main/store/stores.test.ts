import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redact } from '../../../../app/redact.js';
import { connect } from '../../../../main/store/driver.js';
import { MIGRATIONS } from '../../../../main/store/migrations.js';
import { GENESIS_HASH, StoreError, hashAction, openStores, startNewLog, type DataStores } from '../../../../main/store/index.js';
import { useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const opened: DataStores[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});
function open(dir: string): DataStores {
  const s = openStores(dir);
  opened.push(s);
  return s;
}
const posix = process.platform !== 'win32';
const modeOf = (p: string): number => fs.statSync(p).mode & 0o777;
const write = { user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /hosts/create', params: redact({ body: { Name: 'h1' } })};

/** A fleetdeck.db as Fleetdeck 0.1 left it (schema 3): cache, action log (chain format 1) and report history in one file. */
function legacyDataDir(records = 3): { dir: string; hashes: string[] } {
  const dir = tempDir();
  const db = connect(path.join(dir, 'fleetdeck.db'));
  for (const m of MIGRATIONS.slice(0, 3)) db.exec(m);
  db.pragma('user_version = 3');
  const hashes: string[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= records; seq++) {
    const f = { seq, at: `2025-01-0${seq}T00:00:00.000Z`, user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /hosts/create', paramsJson: `{"body":{"Name":"old-${seq}"}}`, result: seq === 2 ? 'error' : 'ok', message: '', prevHash };
    const hash = hashAction(f);
    db.prepare('INSERT INTO action_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(seq, f.at, f.user, f.siteId, f.system, f.operation, f.paramsJson, f.result, f.message, prevHash, hash);
    db.prepare('INSERT INTO action_log_head (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash').run(seq, hash);
    hashes.push(hash);
    prevHash = hash;
  }
  db.prepare("INSERT INTO reports (id, kind, title, generated_at, generated_by, source, sites, systems, model, sha256) VALUES (7, 'audit', 'Audit', '2025-01-04T00:00:00.000Z', 'admin', 'cache', '[]', 0, '{}', 'x')").run();
  // Stored as the system sent it (before answers were normalised): an envelope and camelCase names.
  const sent = '{"result":{"versions":[{"component":"Management","version":"1.0"}]}}';
  db.prepare("INSERT INTO cache_entries (site_id, system, key, value, bytes, at) VALUES ('lab', 'sys1', 'GET /Version', ?, ?, '2025-01-01T00:00:00.000Z')").run(sent, sent.length);
  db.close();
  return { dir, hashes };
}

describe('openStores: three files, private', () => {
  it.runIf(posix)('creates every data file 0600 and the data directory 0700, and narrows looser ones left by earlier versions', () => {
    const dir = path.join(tempDir(), 'data');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    const stores = open(dir);
    stores.actionLog.append({ ...write, result: 'ok', message: redact('') });
    stores.cache.put('lab', 'sys1', 'GET /Version', { v: 1 });
    expect(modeOf(dir)).toBe(0o700);
    const files = fs.readdirSync(dir).filter((f) => /\.db(-wal|-shm)?$/.test(f));
    expect(files).toEqual(expect.arrayContaining(['fleetdeck.db', 'actions.db', 'reports.db', 'fleetdeck.db-wal', 'actions.db-wal']));
    for (const f of files) expect(modeOf(path.join(dir, f)), f).toBe(0o600);
    stores.close();

    fs.chmodSync(dir, 0o755);
    fs.chmodSync(path.join(dir, 'fleetdeck.db'), 0o644);
    open(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(path.join(dir, 'fleetdeck.db'))).toBe(0o600);
  });

  it('moves the action log and report history out of an earlier fleetdeck.db, chain and ids unchanged, once', () => {
    const { dir, hashes } = legacyDataDir();
    const backup = fs.readFileSync(path.join(dir, 'fleetdeck.db'));
    const stores = open(dir);
    expect(stores.warnings).toEqual([]);
    expect(stores.actionLog.verify()).toEqual({ ok: true, count: 3, writes: 3, problems: [] });
    expect(stores.actionLog.list().map((r) => [r.seq, r.result, r.hash])).toEqual([
      [1, 'ok', hashes[0]],
      [2, 'error', hashes[1]],
      [3, 'ok', hashes[2]],
    ]);
    // New writes continue the same chain, now as intent and outcome.
    stores.actionLog.append({ ...write, result: 'ok', message: redact('') });
    expect(stores.actionLog.verify()).toMatchObject({ ok: true, count: 5 });
    expect(stores.reportsDb.prepare('SELECT id, kind FROM reports').all()).toEqual([{ id: 7, kind: 'audit' }]);
    const tables = stores.cacheDb.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => (r as { name: string }).name);
    expect(tables).not.toContain('action_log');
    expect(tables).not.toContain('reports');
    // Read as this version stores answers: normalised, with the time it was read.
    expect(stores.cache.get('lab', 'sys1', 'GET /Version')).toMatchObject({ value: { Versions: [{ Component: 'Management', Version: '1.0' }] }, at: '2025-01-01T00:00:00.000Z' });
    stores.close();

    // A start that copied the rows and stopped before the cache's migration committed: the copy is recognised.
    const { dir: again } = legacyDataDir();
    open(again).close();
    const copied = fs.readFileSync(path.join(again, 'actions.db'));
    // Put back as a new file (rename), as a crashed process leaves it: the closed connection's file
    // is not written over in place (libsql 0.5 may keep a closed handle on it until collected).
    fs.writeFileSync(path.join(again, 'fleetdeck.db.restore'), backup);
    fs.renameSync(path.join(again, 'fleetdeck.db.restore'), path.join(again, 'fleetdeck.db'));
    for (const f of ['fleetdeck.db-wal', 'fleetdeck.db-shm']) fs.rmSync(path.join(again, f), { force: true });
    const reopened = open(again);
    expect(reopened.warnings).toEqual([]);
    expect(reopened.actionLog.verify()).toEqual({ ok: true, count: 3, writes: 3, problems: [] });
    expect(fs.readFileSync(path.join(again, 'actions.db')).equals(copied)).toBe(true);
  });
});

describe('openStores: a damaged file stops nothing else', () => {
  it('moves a cache full of random bytes aside, names it, rebuilds it, and keeps the log', () => {
    const dir = tempDir();
    const first = open(dir);
    first.actionLog.append({ ...write, result: 'ok', message: redact('created') });
    first.close();
    fs.writeFileSync(path.join(dir, 'fleetdeck.db'), randomBytes(64 * 1024));
    fs.rmSync(path.join(dir, 'fleetdeck.db-wal'), { force: true });

    const stores = open(dir);
    expect(stores.warnings).toHaveLength(1);
    const aside = /moved aside as (\S+) and rebuilt/.exec(stores.warnings[0] ?? '')?.[1];
    expect(stores.warnings[0]).toContain(path.join(dir, 'fleetdeck.db'));
    expect(aside && fs.existsSync(aside)).toBe(true);
    stores.cache.put('lab', 'sys1', 'GET /Version', { v: 2 });
    expect(stores.cache.get('lab', 'sys1', 'GET /Version')?.value).toEqual({ v: 2 });
    expect(stores.actionLog.list().map((r) => r.message)).toEqual(['created']);
    expect(stores.actionLog.verify().ok).toBe(true);
  });

  it('moves an emptied cache aside and rebuilds it', () => {
    const dir = tempDir();
    open(dir).close();
    fs.truncateSync(path.join(dir, 'fleetdeck.db'), 0);
    const stores = open(dir);
    expect(stores.warnings).toEqual([expect.stringMatching(/fleetdeck\.db \(the offline cache\) was damaged .*empty \(0 bytes\).*moved aside as .*fleetdeck\.db\.damaged-\S+ and rebuilt/)]);
    stores.cache.put('lab', 'sys1', 'k', 1);
    expect(stores.cache.sizeBytes()).toBe(1);
  });

  it('moves aside, at the next start, a cache found damaged while running', () => {
    const dir = tempDir();
    const stores = open(dir);
    for (let i = 0; i < 200; i++) stores.cache.put('lab', 'sys1', `k${i}`, { pad: 'x'.repeat(2000), i });
    stores.close();
    // Garbage over the pages after the first (the schema stays readable, so opening still works).
    const file = path.join(dir, 'fleetdeck.db');
    const bytes = fs.readFileSync(file);
    randomBytes(bytes.length - 8192).copy(bytes, 8192);
    fs.writeFileSync(file, bytes);

    const damaged = open(dir);
    let error: unknown;
    try {
      for (let i = 0; i < 200; i++) damaged.cache.get('lab', 'sys1', `k${i}`);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/moved aside and rebuilt when Fleetdeck next starts/);
    damaged.close();

    const next = open(dir);
    expect(next.warnings).toEqual([expect.stringMatching(/found damaged during an earlier run: moved aside as .*fleetdeck\.db\.damaged-/)]);
    expect(next.cache.entries('lab', 'sys1')).toEqual([]);
  });

  it.each([
    ['random bytes', (file: string) => fs.writeFileSync(file, randomBytes(32 * 1024)), /is damaged/],
    ['emptied', (file: string) => fs.truncateSync(file, 0), /empty \(0 bytes\)/],
    ['deleted', (file: string) => fs.rmSync(file), /is missing although this data directory was used before/],
  ])('never replaces a log that was %s: it is reported, writes are refused, reading commands work, until "log start-new"', (_what, damage, reason) => {
    const dir = tempDir();
    const first = open(dir);
    first.actionLog.append({ ...write, result: 'ok', message: redact('before') });
    first.close();
    const file = path.join(dir, 'actions.db');
    for (const f of ['actions.db-wal', 'actions.db-shm']) fs.rmSync(path.join(dir, f), { force: true });
    damage(file);
    const left = fs.existsSync(file) ? fs.readFileSync(file) : undefined;

    const stores = open(dir);
    expect(stores.warnings).toEqual([expect.stringMatching(reason)]);
    expect(stores.warnings[0]).toContain(file);
    expect(stores.warnings[0]).toMatch(/Writes to systems are refused.*fleetdeck log start-new/);
    expect(() => stores.actionLog.begin(write)).toThrow(StoreError);
    expect(stores.actionLog.verify()).toMatchObject({ ok: false, problems: [{ seq: 0, reason: expect.stringMatching(reason) }] });
    // The cache still works; the damaged file was not touched, let alone replaced by a fresh log.
    stores.cache.put('lab', 'sys1', 'k', 1);
    expect(stores.cache.get('lab', 'sys1', 'k')?.value).toBe(1);
    stores.close();
    const kept = fs.existsSync(file) ? fs.readFileSync(file) : undefined;
    expect(kept === undefined ? left === undefined : left !== undefined && kept.equals(left)).toBe(true);

    const started = startNewLog(dir, 'alice', () => new Date('2026-01-15T10:30:00Z'));
    if (kept) {
      expect(started.keptAs).toBe(`${file}.damaged-20260115T103000Z`);
      expect(fs.readFileSync(started.keptAs ?? '').equals(kept)).toBe(true);
      expect(started.sha256).toBe(createHash('sha256').update(kept).digest('hex'));
    } else {
      expect(started.keptAs).toBeUndefined();
    }
    const after = open(dir);
    expect(after.warnings).toEqual([]);
    const [restart] = after.actionLog.list();
    expect(restart).toMatchObject({ seq: 1, operation: 'fleetdeck log start-new', user: 'alice', result: 'ok', params: { previousFile: kept ? 'actions.db.damaged-20260115T103000Z' : null, previousSha256: started.sha256 ?? null } });
    expect(after.actionLog.begin(write).seq).toBe(2);
    expect(after.actionLog.verify().ok).toBe(true);
  });

  it('refuses "log start-new" while the log is readable', () => {
    const dir = tempDir();
    open(dir).close();
    expect(() => startNewLog(dir, 'alice')).toThrow(/can be read: there is nothing to start again/);
  });
});
