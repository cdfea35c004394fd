import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { redact } from '../../../../app/redact.js';
import { connect } from '../../../../main/store/driver.js';
import { MIGRATIONS } from '../../../../main/store/migrations.js';
import { OfflineCache, openDatabase, openReportsDatabase, openStores, SCHEMA_VERSION, type Database } from '../../../../main/store/index.js';
import { useTempDirs } from './temp-dir.js';

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

describe('openDatabase', () => {
  it('creates a private data dir and the database with the expected settings', () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    const db = openDb(dir);
    expect(fs.existsSync(path.join(dir, 'fleetdeck.db'))).toBe(true);
    if (process.platform !== 'win32') expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  });

  it('reopens an existing database without migrating again, keeping its data', () => {
    const dir = tempDir();
    const first = openDb(dir);
    first.prepare("INSERT INTO cache_entries (site_id, system, key, value, bytes, at) VALUES ('s', 'y', 'k', '1', 1, 'a')").run();
    first.close();
    const again = openDb(dir);
    expect(again.prepare('SELECT COUNT(*) AS n FROM cache_entries').get()).toEqual({ n: 1 });
  });

  it("lists the cached systems from an index, without reading the stored answers (a start's first read)", () => {
    // OfflineCache.systems' query: `at` lies past each row's answer, so read from the table the
    // listing walked the whole cache (cold start).
    const db = openDb(tempDir());
    const plan = db
      .prepare<[], { detail: string }>('EXPLAIN QUERY PLAN SELECT site_id AS siteId, system, MAX(at) AS at FROM cache_entries GROUP BY site_id, system ORDER BY site_id, system')
      .all()
      .map((r) => r.detail);
    expect(plan).toEqual(['SCAN cache_entries USING COVERING INDEX cache_entries_system_at']);
  });

  it('brings a version-1 cache forward: entries, sizes and LRU order kept, reads recorded apart from the values', () => {
    const dir = tempDir();
    const v1 = connect(path.join(dir, 'fleetdeck.db'));
    v1.exec(MIGRATIONS[0] as string);
    v1.pragma('user_version = 1');
    const insert = v1.prepare('INSERT INTO cache_entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    // Used in the order c, a, b.
    insert.run('s', 'y', 'a', '{"n":1}', 7, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:02.000Z', 2);
    insert.run('s', 'y', 'b', '{"n":22}', 8, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:03.000Z', 3);
    insert.run('s', 'y', 'c', '{"n":333}', 9, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:01.000Z', 1);
    v1.close();

    const db = openDb(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const cache = new OfflineCache({ db, maxBytes: 24 });
    expect(cache.sizeBytes()).toBe(24);
    expect(cache.get('s', 'y', 'b')?.value).toEqual({ n: 22 });
    // A new entry pushes the cache over its bound: the least recently used go first (c, then a).
    cache.put('s', 'y', 'd', { n: 4 });
    expect(cache.entries('s', 'y').map((e) => e.key)).toEqual(['b', 'd']);
    // Deleting an entry takes its read bookkeeping with it.
    cache.deleteSystem('s', 'y');
    expect(db.prepare('SELECT COUNT(*) AS n FROM cache_use').get()).toEqual({ n: 0 });
  });

  it('opens a data dir written by the better-sqlite3 build (SQLite 3.53) and keeps its cache and action log', () => {
    // test/fixtures/better-sqlite3-data-dir: made by Fleetdeck's store on better-sqlite3 12.11 at
    // schema version 3 (three cached answers, three action-log records), the driver before libsql.
    const dir = tempDir();
    fs.copyFileSync(fileURLToPath(new URL('../../../fixtures/better-sqlite3-data-dir/fleetdeck.db', import.meta.url)), path.join(dir, 'fleetdeck.db'));
    const stores = openStores(dir);
    try {
      expect(stores.warnings).toEqual([]);
      const db = stores.cacheDb;
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const cache = stores.cache;
      expect(cache.get('site-alpha', 'prod-a', 'GET /Version|[]')?.value).toEqual({ Version: '9.1.0' });
      expect(cache.getText('site-beta', 'dr-b', 'GET /pools/list|[]')?.json).toBe('[{"Name":"pool-1","Size":1099511627776}]');
      // The log moved to actions.db with its chain intact.
      const log = stores.actionLog;
      expect(log.verify()).toEqual({ ok: true, count: 3, writes: 3, problems: [] });
      // The cache-size triggers written by the old build still hold; the moved log stays append-only.
      const before = cache.sizeBytes();
      cache.deleteSystem('site-alpha', 'prod-a');
      expect(cache.sizeBytes()).toBeLessThan(before);
      const logDb = connect(path.join(dir, 'actions.db'));
      try {
        expect(() => logDb.exec('DELETE FROM action_log')).toThrow(/append-only/);
      } finally {
        logDb.close();
      }
      log.append({ user: 'admin', siteId: 'site-beta', system: 'dr-b', operation: 'POST /hosts/create', params: redact({ Name: 'h' }), result: 'ok', message: redact('created') });
      expect(log.verify()).toMatchObject({ ok: true, count: 5 });
    } finally {
      stores.close();
    }
  });

  it('runs transactions as better-sqlite3 did: the original error reaches the caller, nested calls are savepoints', () => {
    const db = connect(':memory:');
    open.push(db);
    db.exec('CREATE TABLE t (x TEXT)');
    const pages = Number(db.pragma('page_count', { simple: true }));
    db.pragma(`max_page_count = ${pages + 1}`);
    // SQLite ends the transaction itself on SQLITE_FULL; a blind ROLLBACK would hide that error.
    const fill = db.transaction(() => db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(1 << 20)));
    expect(() => fill.immediate()).toThrow(/full/i);
    db.pragma('max_page_count = 1000000');
    const inner = db.transaction((v: string) => {
      db.prepare('INSERT INTO t VALUES (?)').run(v);
      if (v === 'bad') throw new Error('refused');
    });
    const outer = db.transaction(() => {
      inner('kept');
      expect(() => inner('bad')).toThrow('refused');
    });
    outer();
    expect(db.prepare('SELECT x FROM t').all()).toEqual([{ x: 'kept' }]);
  });

  it('refuses a read or write after close with a clear error, writing nothing (libsql aborted the process or wrote on)', () => {
    const file = path.join(tempDir(), 'closed.db');
    const db = connect(file);
    db.exec('CREATE TABLE t (x TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const select = db.prepare('SELECT x FROM t');
    const write = db.transaction((v: string) => insert.run(v));
    write('before');
    db.close();
    // A poll's answers arriving while the app shuts down: a statement prepared before, a transaction.
    const closed = { name: 'StoreError', reason: 'closed', file, message: expect.stringContaining(`cannot use ${file}: it is closed`) };
    expect(() => insert.run('after')).toThrow(expect.objectContaining(closed));
    expect(() => write('after')).toThrow(expect.objectContaining(closed));
    expect(() => select.all()).toThrow(expect.objectContaining(closed));
    expect(() => select.get()).toThrow(expect.objectContaining(closed));
    const again = connect(file);
    open.push(again);
    expect(again.prepare('SELECT x FROM t').all()).toEqual([{ x: 'before' }]);
  });

  it('checks stored JSON with json_valid and keeps the cache size by triggers', () => {
    const db = openDb(tempDir());
    const cache = new OfflineCache({ db });
    cache.put('s', 'y', 'k', { a: [1, 2] });
    expect(cache.sizeBytes()).toBe('{"a":[1,2]}'.length);
    db.prepare("UPDATE cache_entries SET value = '{\"a\":' WHERE key = 'k'").run();
    expect(() => cache.getText('s', 'y', 'k')).toThrow(/damaged/);
  });

  it('waits for another process\'s write lock (busy timeout) instead of failing at once', async () => {
    const dir = tempDir();
    openReportsDatabase(dir).close();
    // Another process takes the write lock and holds it until this test lets it go (a file appears):
    // however slow the machine, the lock is held for the first attempt and given up during the second.
    const libsql = createRequire(import.meta.url).resolve('libsql');
    const release = path.join(dir, 'release');
    const holder = spawn(process.execPath, [
      '-e',
      `const fs = require('node:fs');
       const db = new (require(${JSON.stringify(libsql) }))(${JSON.stringify(path.join(dir, 'reports.db')) });
       db.exec('BEGIN IMMEDIATE'); db.exec("INSERT INTO reports (kind, title, generated_at, generated_by, source, sites, systems, model, sha256) VALUES ('audit', 'other process', 'a', 'b', 'cache', '[]', 0, '{}', 'x')");
       const watcher = fs.watch(${JSON.stringify(dir)}, () => {
         if (!fs.existsSync(${JSON.stringify(release)})) return;
         watcher.close(); db.exec('COMMIT'); db.close();
       });
       process.stdout.write('locked\\n');`,
    ]);
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      holder.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
    });
    const impatient = connect(path.join(dir, 'reports.db'));
    open.push(impatient);
    impatient.pragma('busy_timeout = 0');
    expect(() => impatient.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
    // The app's connection waits for the other process to commit, then writes. Its wait blocks this
    // thread, so the other process is told to commit first (a file written before the wait begins).
    fs.writeFileSync(release, '');
    const db = openReportsDatabase(dir);
    open.push(db);
    db.transaction(() => db.prepare("INSERT INTO reports (kind, title, generated_at, generated_by, source, sites, systems, model, sha256) VALUES ('audit', 'this process', 'a', 'b', 'cache', '[]', 0, '{}', 'y')").run()).immediate();
    expect(db.prepare('SELECT title FROM reports ORDER BY id').all()).toEqual([{ title: 'other process' }, { title: 'this process' }]);
  });

  it('refuses a database written by a newer Fleetdeck', () => {
    const dir = tempDir();
    const db = openDb(dir);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase(dir)).toThrow(/newer Fleetdeck/);
  });
});
