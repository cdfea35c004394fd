import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, SCHEMA_VERSION, type Database } from '../../../../main/store/index.js';
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
    first.prepare("INSERT INTO cache_entries VALUES ('s', 'y', 'k', '1', 1, 'a', 'a', 1)").run();
    first.close();
    const again = openDb(dir);
    expect(again.prepare('SELECT COUNT(*) AS n FROM cache_entries').get()).toEqual({ n: 1 });
  });

  it('refuses a database written by a newer Fleetdeck', () => {
    const dir = tempDir();
    const db = openDb(dir);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase(dir)).toThrow(/newer Fleetdeck/);
  });
});
