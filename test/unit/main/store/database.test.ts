import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { MIGRATIONS } from '../../../../main/store/database.js';
import { OfflineCache, openDatabase, SCHEMA_VERSION, type Database } from '../../../../main/store/index.js';
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

  it('brings a version-1 cache forward: entries, sizes and LRU order kept, reads recorded apart from the values', () => {
    const dir = tempDir();
    const v1 = new BetterSqlite3(path.join(dir, 'fleetdeck.db'));
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

  it('refuses a database written by a newer Fleetdeck', () => {
    const dir = tempDir();
    const db = openDb(dir);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase(dir)).toThrow(/newer Fleetdeck/);
  });
});
