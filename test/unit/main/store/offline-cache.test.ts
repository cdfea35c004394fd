import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { normaliseStoredAnswer } from '../../../../app/answers/normalise.js';
import { REDACTED } from '../../../../app/redact.js';
import { OfflineCache, cacheKey, openDatabase, type Database } from '../../../../main/store/index.js';
import { readKey, USE_PRECISION_MS } from '../../../../main/store/offline-cache.js';
import { steppingClock, useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});
function setup(maxBytes?: number): { dir: string; db: Database; cache: OfflineCache } {
  const dir = tempDir();
  const db = openDatabase(dir);
  open.push(db);
  return { dir, db, cache: new OfflineCache({ db, clock: steppingClock(), ...(maxBytes ? { maxBytes } : {}) }) };
}

/** Several answers of one system written at once, as a refresh writes them: each a row (`rowOf`, value kept), or only a new read time (`renewRow`). */
function putMany(cache: OfflineCache, siteId: string, system: string, entries: ReadonlyArray<{ key: string; value: unknown; at?: Date | string } | { key: string; unchanged: true; at?: Date | string }>): void {
  cache.putRows(siteId, system, entries.map((e) => ('unchanged' in e ? cache.renewRow(e.key, e.at) : cache.rowOf(e.key, e.value, e.at, true))));
}

/** A value whose stored JSON is exactly `bytes` long: `{"pad":"xxx…"}`. */
function sized(bytes: number): { pad: string } {
  return { pad: 'x'.repeat(bytes - 10) };
}

describe('cacheKey', () => {
  it('is the same whatever the parameter order, and sorts by name', () => {
    expect(cacheKey('GET /hosts/list', { name: 'esx 01', mapping: true })).toBe('GET /hosts/list?mapping=true&name=esx%2001');
    expect(cacheKey('GET /hosts/list', [['name', 'esx 01'], ['mapping', 'true']])).toBe(cacheKey('GET /hosts/list', { mapping: 'true', name: 'esx 01' }));
  });

  it('keeps repeated values in order, leaves out undefined, and is the bare key without a query', () => {
    expect(cacheKey('GET /x', { id: ['b', 'a'], skip: undefined })).toBe('GET /x?id=b&id=a');
    expect(cacheKey('GET /systems/list', {})).toBe('GET /systems/list');
  });

  it('never carries a secret parameter value', () => {
    expect(cacheKey('GET /x', { Password: 'hunter2' })).not.toContain('hunter2');
  });
});

describe('readKey', () => {
  it("is the read's cacheKey, made once per read object", () => {
    const read = { op: 'GET /hosts/list', query: { mapping: true, iqn: true } };
    expect(readKey(read)).toBe(cacheKey(read.op, read.query));
    expect(readKey(read)).toBe(readKey(read));
    expect(readKey({ op: 'GET /Version', query: {} })).toBe('GET /Version');
  });
});

describe('OfflineCache', () => {
  it('returns what was put, with its read time and size', () => {
    const { cache } = setup();
    const value = { Data: [{ Name: 'vol1', Size: 10 }] };
    cache.put('lab', 'sys1', 'GET /volumes/list', value, new Date('2025-03-01T10:00:00Z'));
    expect(cache.get('lab', 'sys1', 'GET /volumes/list')).toEqual({ value, at: '2025-03-01T10:00:00.000Z', bytes: JSON.stringify(value).length });
    expect(cache.get('lab', 'sys2', 'GET /volumes/list')).toBeUndefined();
  });

  it('hands out the stored JSON text unparsed, and refuses text that was damaged on disk', () => {
    const { db, cache } = setup();
    const value = { Data: [{ Name: 'vol1', Password: 'pw' }] };
    cache.put('lab', 'sys1', 'GET /volumes/list', value, new Date('2025-03-01T10:00:00Z'));
    const hit = cache.getText('lab', 'sys1', 'GET /volumes/list');
    expect(hit).toEqual({ json: JSON.stringify({ Data: [{ Name: 'vol1', Password: REDACTED }] }), at: '2025-03-01T10:00:00.000Z', bytes: hit?.json.length });
    expect(cache.getText('lab', 'sys2', 'GET /volumes/list')).toBeUndefined();
    db.prepare("UPDATE cache_entries SET value = '{\"Data\": [' WHERE key = 'GET /volumes/list'").run();
    expect(() => cache.getText('lab', 'sys1', 'GET /volumes/list')).toThrow(/GET \/volumes\/list is damaged/);
  });

  it('replaces the previous result of the same read and lists entries and systems', () => {
    const { cache } = setup();
    cache.put('lab', 'sys1', 'GET /a', 1, new Date('2025-03-01T10:00:00Z'));
    cache.put('lab', 'sys1', 'GET /a', 2, new Date('2025-03-01T11:00:00Z'));
    cache.put('lab', 'sys1', 'GET /b', [1, 2], new Date('2025-03-01T09:00:00Z'));
    cache.put('lab', 'sys2', 'GET /a', 'x', new Date('2025-03-02T00:00:00Z'));
    expect(cache.get('lab', 'sys1', 'GET /a')?.value).toBe(2);
    expect(cache.entries('lab', 'sys1')).toEqual([
      { key: 'GET /a', at: '2025-03-01T11:00:00.000Z', bytes: 1 },
      { key: 'GET /b', at: '2025-03-01T09:00:00.000Z', bytes: 5 },
    ]);
    expect(cache.systems()).toEqual([
      { siteId: 'lab', system: 'sys1', at: '2025-03-01T11:00:00.000Z' },
      { siteId: 'lab', system: 'sys2', at: '2025-03-02T00:00:00.000Z' },
    ]);
    expect(cache.sizeBytes()).toBe(1 + 5 + 3);
  });

  it('redacts secrets before writing: they are in no database file', () => {
    const { dir, db, cache } = setup();
    cache.put('lab', 'sys1', 'GET /hosts/list', {
      Data: [{ Name: 'MARKER-VISIBLE-1', TargetChap: { ChapName: 'n', ChapSecret: 'MARKER-CHAP-1' }, Login: { user: 'a', Password: 'MARKER-PASSWORD-1' } }],
    });
    expect(cache.get('lab', 'sys1', 'GET /hosts/list')?.value).toEqual({
      Data: [{ Name: 'MARKER-VISIBLE-1', TargetChap: { ChapName: 'n', ChapSecret: REDACTED }, Login: { user: 'a', Password: REDACTED } }],
    });
    // Bytes of every file SQLite writes, while still open (WAL) and after a checkpoint (main file).
    const rawFiles = (): Buffer => Buffer.concat(['fleetdeck.db', 'fleetdeck.db-wal', 'fleetdeck.db-shm'].map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
    for (const bytes of [rawFiles(), (db.close(), rawFiles())]) {
      expect(bytes.includes('MARKER-VISIBLE-1')).toBe(true); // proves we read where the data lands
      expect(bytes.includes('MARKER-CHAP-1')).toBe(false);
      expect(bytes.includes('MARKER-PASSWORD-1')).toBe(false);
    }
  });

  it('refuses a value that is not JSON', () => {
    const { cache } = setup();
    expect(() => cache.put('lab', 'sys1', 'GET /a', undefined)).toThrow(TypeError);
    expect(() => cache.put('lab', 'sys1', 'GET /a', 1n)).toThrow(TypeError);
  });

  it('stays within its bound by evicting the least recently used entries to about 90 %', () => {
    const { cache } = setup(1000);
    for (const k of ['a', 'b', 'c', 'd', 'e']) cache.put('lab', 'sys1', k, sized(200));
    expect(cache.sizeBytes()).toBe(1000); // at the bound, not over: nothing evicted yet
    expect(cache.get('lab', 'sys1', 'a')).toBeDefined(); // a is now the most recently used of the five
    cache.put('lab', 'sys1', 'f', sized(200));
    // 1200 > 1000: b and c (least recently used) go, leaving 800 ≤ 900.
    expect(cache.entries('lab', 'sys1').map((e) => e.key)).toEqual(['a', 'd', 'e', 'f']);
    expect(cache.sizeBytes()).toBe(800);
  });

  it('never evicts the entry just written, even when it alone exceeds the bound', () => {
    const { cache } = setup(1000);
    cache.put('lab', 'sys1', 'small', sized(100));
    cache.put('lab', 'sys1', 'huge', sized(1500));
    expect(cache.entries('lab', 'sys1').map((e) => e.key)).toEqual(['huge']);
    expect(cache.get('lab', 'sys1', 'huge')?.bytes).toBe(1500);
  });

  it('stores several answers of one system at once, each with its own read time, none evicting another', () => {
    const { cache } = setup(1000);
    cache.put('lab', 'sys1', 'old', sized(300));
    putMany(cache, 'lab', 'sys1', [
      { key: 'a', value: sized(400), at: new Date('2025-03-01T10:00:00Z') },
      { key: 'b', value: { Password: 'hunter2' }, at: '2025-03-01T10:00:05Z' },
      { key: 'c', value: sized(400), at: new Date('2025-03-01T10:00:09Z') },
    ]);
    // Over the bound: the older entry goes, none of the three just written.
    expect(cache.entries('lab', 'sys1').map((e) => [e.key, e.at])).toEqual([
      ['a', '2025-03-01T10:00:00.000Z'],
      ['b', '2025-03-01T10:00:05.000Z'],
      ['c', '2025-03-01T10:00:09.000Z'],
    ]);
    expect(cache.get('lab', 'sys1', 'b')?.value).toEqual({ Password: REDACTED });
    // One value that is not JSON: nothing of the batch is written.
    expect(() => putMany(cache, 'lab', 'sys1', [{ key: 'd', value: sized(10) }, { key: 'e', value: 1n }])).toThrow(TypeError);
    expect(cache.get('lab', 'sys1', 'd')).toBeUndefined();
  });

  it('a reader right after a write (no use recorded) gets what the file holds, a secret masked', () => {
    const { cache } = setup();
    const nodes = { Data: [{ Name: 'n1', TargetChap: { ChapName: 'iqn', ChapSecret: 'hunter2hunter2' } }] };
    const health = { Data: [{ State: 'Normal', Used: 10 }] };
    putMany(cache, 'lab', 'sys1', [
      { key: 'nodes', value: nodes, at: '2025-03-01T10:00:00Z' },
      { key: 'health', value: health, at: '2025-03-01T10:00:00Z' },
    ]);
    for (const key of ['nodes', 'health']) {
      const fromFile = cache.get('lab', 'sys1', key, { recordUse: true });
      expect(cache.get('lab', 'sys1', key, { recordUse: false })).toEqual(fromFile);
      expect(cache.getText('lab', 'sys1', key, { recordUse: false })).toEqual(cache.getText('lab', 'sys1', key));
    }
    expect(JSON.stringify(cache.get('lab', 'sys1', 'nodes', { recordUse: false }))).not.toContain('hunter2');
    expect(cache.getText('lab', 'sys1', 'nodes', { recordUse: false })?.json).toContain(REDACTED);
    // Another system written, or this one forgotten: the file answers again.
    cache.deleteSystem('lab', 'sys1');
    expect(cache.get('lab', 'sys1', 'health', { recordUse: false })).toBeUndefined();
  });

  it('counts the answers of one write as used in their order: the first of them is evicted first', () => {
    let now = Date.parse('2025-03-01T10:00:00Z');
    const db = openDatabase(tempDir());
    open.push(db);
    const cache = new OfflineCache({ db, clock: () => new Date(now), maxBytes: 1000 });
    cache.putRows('lab', 'sys1', ['a', 'b', 'c'].map((k) => cache.rowOf(k, sized(300))));
    now += USE_PRECISION_MS;
    cache.putRows('lab', 'sys1', [cache.renewRow('a'), cache.renewRow('nothing held')]);
    cache.put('lab', 'sys2', 'd', sized(300));
    // 1200 > 1000: b, the least recently used (a was renewed after it), goes; 900 ≤ 900.
    expect(cache.entries('lab', 'sys1').map((e) => e.key)).toEqual(['a', 'c']);
    expect(cache.entries('lab', 'sys1').map((e) => e.key)).not.toContain('nothing held');
  });

  it('an answer its caller knows unchanged takes the new read time only: same value and version, nothing written when nothing is held', () => {
    const { cache } = setup();
    const merged = { Data: [{ Id: 1, Level: 4 }] };
    putMany(cache, 'lab', 'sys1', [{ key: 'notifications', value: merged, at: '2025-03-01T10:00:00Z' }]);
    const version = cache.versions('lab', 'sys1').get('notifications');
    putMany(cache, 'lab', 'sys1', [
      { key: 'notifications', unchanged: true, at: '2025-03-01T10:01:00Z' },
      { key: 'gone', unchanged: true, at: '2025-03-01T10:01:00Z' },
    ]);
    expect(cache.versions('lab', 'sys1')).toEqual(new Map([['notifications', version]]));
    expect(cache.get('lab', 'sys1', 'notifications')).toEqual({ value: merged, at: '2025-03-01T10:01:00.000Z', bytes: JSON.stringify(merged).length });
    expect(cache.get('lab', 'sys1', 'gone')).toBeUndefined();
    expect(cache.sizeBytes()).toBe(JSON.stringify(merged).length);
  });

  it('keeps the content version of an answer read again unchanged, and moves its read time (the data age shown)', () => {
    const { cache } = setup();
    const health = { Data: [{ State: 'Normal', Used: 10 }] };
    putMany(cache, 'lab', 'sys1', [
      { key: 'health', value: health, at: '2025-03-01T10:00:00Z' },
      { key: 'drives', value: { Data: [{ Id: 1, Status: 'OK' }] }, at: '2025-03-01T10:00:00Z' },
    ]);
    const first = cache.versions('lab', 'sys1');
    expect(first.get('health')).toEqual(expect.any(Number));
    expect(first.get('drives')).not.toBe(first.get('health'));

    // The next poll: the same health (a new object, equal text), a drive that failed.
    putMany(cache, 'lab', 'sys1', [
      { key: 'health', value: structuredClone(health), at: '2025-03-01T10:01:00Z' },
      { key: 'drives', value: { Data: [{ Id: 1, Status: 'Failed' }] }, at: '2025-03-01T10:01:00Z' },
    ]);
    const next = cache.versions('lab', 'sys1');
    expect(next.get('health')).toBe(first.get('health'));
    expect(next.get('drives')).toBeGreaterThan(first.get('drives')!);
    // Both were read from the system now: the data age of each is the new read time.
    expect(cache.get('lab', 'sys1', 'health')).toEqual({ value: health, at: '2025-03-01T10:01:00.000Z', bytes: JSON.stringify(health).length });
    expect(cache.get('lab', 'sys1', 'drives')?.at).toBe('2025-03-01T10:01:00.000Z');
    expect(cache.sizeBytes()).toBe(JSON.stringify(health).length + JSON.stringify({ Data: [{ Id: 1, Status: 'Failed' }] }).length);

    // Dropped and stored again with the same text: a new version (a reader cannot have seen it).
    cache.deleteSystem('lab', 'sys1');
    expect(cache.versions('lab', 'sys1').size).toBe(0);
    cache.put('lab', 'sys1', 'health', health);
    expect(cache.versions('lab', 'sys1').get('health')).toBeGreaterThan(next.get('drives')!);
  });

  it("answers a system's read times from what it wrote, and sees another connection's writes", () => {
    const { dir, cache } = setup();
    putMany(cache, 'lab', 'sys1', [
      { key: 'health', value: { State: 'Normal' }, at: '2025-03-01T10:00:00Z' },
      { key: 'drives', value: { Data: [] }, at: '2025-03-01T09:00:00Z' },
    ]);
    expect(cache.readTimes('lab', 'sys1')).toEqual(new Map([['health', Date.parse('2025-03-01T10:00:00Z')], ['drives', Date.parse('2025-03-01T09:00:00Z')]]));
    putMany(cache, 'lab', 'sys1', [{ key: 'health', unchanged: true, at: '2025-03-01T10:01:00Z' }]);
    expect(cache.readTimes('lab', 'sys1').get('health')).toBe(Date.parse('2025-03-01T10:01:00Z'));
    // Another process (the app, the CLI) on the same file.
    const otherDb = openDatabase(dir);
    open.push(otherDb);
    const healthVersion = cache.versions('lab', 'sys1').get('health');
    const other = new OfflineCache({ db: otherDb });
    other.put('lab', 'sys1', 'volumes', { Data: [] }, '2025-03-01T10:02:00Z');
    expect([...cache.readTimes('lab', 'sys1').keys()].sort()).toEqual(['drives', 'health', 'volumes']);
    other.put('lab', 'sys1', 'health', { State: 'Degraded' }, '2025-03-01T10:03:00Z');
    // The versions as the file has them, whoever wrote: the other's write moved health's.
    expect(cache.versions('lab', 'sys1')).toEqual(other.versions('lab', 'sys1'));
    expect(cache.versions('lab', 'sys1').get('health')).toBeGreaterThan(healthVersion!);
    cache.deleteSystem('lab', 'sys1');
    expect(cache.readTimes('lab', 'sys1').size).toBe(0);
  });

  it("answers a system's content versions from what it wrote as the file holds them, through every kind of write", () => {
    const { dir, db, cache } = setup(1000);
    // What the file holds, read by a cache that has held nothing.
    const fromFile = (system: string): ReadonlyMap<string, number> => new OfflineCache({ db }).versions('lab', system);
    const timesInFile = (system: string): ReadonlyMap<string, number> => new OfflineCache({ db }).readTimes('lab', system);
    const check = (): void => {
      for (const system of ['sys1', 'sys2']) {
        expect(cache.versions('lab', system)).toEqual(fromFile(system));
        expect(cache.readTimes('lab', system)).toEqual(timesInFile(system));
      }
    };
    putMany(cache, 'lab', 'sys1', [
      { key: 'health', value: { State: 'Normal' }, at: '2025-03-01T10:00:00Z' },
      { key: 'drives', value: { Data: [] }, at: '2025-03-01T10:00:00Z' },
    ]);
    check();
    // The same text, a new one, a renewal, and a key written twice in one write.
    putMany(cache, 'lab', 'sys1', [
      { key: 'health', value: { State: 'Normal' }, at: '2025-03-01T10:01:00Z' },
      { key: 'drives', value: { Data: [{ Id: 1 }] }, at: '2025-03-01T10:01:00Z' },
      { key: 'drives', value: { Data: [{ Id: 2 }] }, at: '2025-03-01T10:01:10Z' },
      { key: 'gone', unchanged: true },
    ]);
    check();
    // Another connection's write: its versions are read from the file.
    const otherDb = openDatabase(dir);
    open.push(otherDb);
    new OfflineCache({ db: otherDb }).put('lab', 'sys1', 'health', { State: 'Degraded' }, '2025-03-01T10:02:00Z');
    check();
    // Then this one's again, compared by SQLite (the digest is not known after the other's write).
    putMany(cache, 'lab', 'sys1', [
      { key: 'health', value: { State: 'Degraded' }, at: '2025-03-01T10:03:00Z' },
      { key: 'drives', value: { Data: [{ Id: 3 }] }, at: '2025-03-01T10:03:00Z' },
    ]);
    check();
    // Evicted past the bound, and deleted.
    cache.put('lab', 'sys2', 'big', sized(900));
    check();
    cache.deleteSystem('lab', 'sys2');
    check();
  });

  it('forgets what it held of a write that was rolled back: the next write of the same text stores it', () => {
    const { db, cache } = setup();
    putMany(cache, 'lab', 'sys1', [{ key: 'health', value: { State: 'Normal' }, at: '2025-03-01T10:00:00Z' }]);
    const before = cache.versions('lab', 'sys1');
    // The second row of the next write fails (a disk full, say): the whole write is rolled back.
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON cache_entries WHEN NEW.key = 'boom' BEGIN SELECT RAISE(ABORT, 'refused'); END");
    expect(() =>
      putMany(cache, 'lab', 'sys1', [
        { key: 'health', value: { State: 'Failed' }, at: '2025-03-01T10:01:00Z' },
        { key: 'boom', value: {}, at: '2025-03-01T10:01:00Z' },
      ]),
    ).toThrow(/refused/);
    expect(cache.versions('lab', 'sys1')).toEqual(before);
    expect(cache.readTimes('lab', 'sys1').get('health')).toBe(Date.parse('2025-03-01T10:00:00Z'));
    db.exec('DROP TRIGGER refuse');
    putMany(cache, 'lab', 'sys1', [{ key: 'health', value: { State: 'Failed' }, at: '2025-03-01T10:02:00Z' }]);
    expect(cache.get('lab', 'sys1', 'health')?.value).toEqual({ State: 'Failed' });
    expect(cache.versions('lab', 'sys1').get('health')).toBeGreaterThan(before.get('health')!);
  });

  it('writes what it is given along with the answers in their transaction: both or neither', () => {
    const { db, cache } = setup();
    const mark = db.prepare<[string]>('INSERT INTO system_outcomes (site_id, system, status) VALUES (\'lab\', \'sys1\', ?) ON CONFLICT (site_id, system) DO UPDATE SET status = excluded.status');
    const outcome = (): unknown => db.prepare('SELECT status FROM system_outcomes').get();
    let inTransaction = false;
    cache.putRows('lab', 'sys1', [cache.rowOf('health', { State: 'Normal' }, '2025-03-01T10:00:00Z')], () => {
      inTransaction = (db as unknown as { inTransaction: boolean }).inTransaction;
      mark.run('first');
    });
    expect(inTransaction).toBe(true);
    expect(outcome()).toEqual({ status: 'first' });
    // With no answers, the transaction still runs for it.
    cache.putRows('lab', 'sys1', [], () => mark.run('second'));
    expect(outcome()).toEqual({ status: 'second' });
    // A failure of either leaves neither.
    expect(() =>
      cache.putRows('lab', 'sys1', [cache.rowOf('health', { State: 'Failed' }, '2025-03-01T10:01:00Z')], () => {
        mark.run('third');
        throw new Error('outcome refused');
      }),
    ).toThrow(/outcome refused/);
    expect(cache.get('lab', 'sys1', 'health')).toMatchObject({ value: { State: 'Normal' }, at: '2025-03-01T10:00:00.000Z' });
    expect(outcome()).toEqual({ status: 'second' });
    db.exec("CREATE TRIGGER refuse BEFORE UPDATE ON cache_entries BEGIN SELECT RAISE(ABORT, 'refused'); END");
    expect(() => cache.putRows('lab', 'sys1', [cache.rowOf('health', { State: 'Failed' }, '2025-03-01T10:02:00Z')], () => mark.run('fourth'))).toThrow(/refused/);
    expect(outcome()).toEqual({ status: 'second' });
  });

  it('stores the last text and read time of a key written twice in one write', () => {
    const { cache } = setup();
    putMany(cache, 'lab', 'sys1', [{ key: 'health', value: { State: 'Normal' }, at: '2025-03-01T10:00:00Z' }]);
    const held = cache.versions('lab', 'sys1').get('health')!;
    // A new text, then the same again later, then only renewed: the new text with the last time.
    putMany(cache, 'lab', 'sys1', [
      { key: 'health', value: { State: 'Degraded' }, at: '2025-03-01T10:01:00Z' },
      { key: 'health', value: { State: 'Degraded' }, at: '2025-03-01T10:01:10Z' },
      { key: 'health', unchanged: true, at: '2025-03-01T10:01:20Z' },
    ]);
    expect(cache.get('lab', 'sys1', 'health')).toEqual({ value: { State: 'Degraded' }, at: '2025-03-01T10:01:20.000Z', bytes: 20 });
    const changed = cache.versions('lab', 'sys1').get('health')!;
    expect(changed).toBeGreaterThan(held);
    // Two texts in one write: the last one is stored, with one new version.
    putMany(cache, 'lab', 'sys1', [
      { key: 'health', value: { State: 'Failed' }, at: '2025-03-01T10:02:00Z' },
      { key: 'health', value: { State: 'Normal' }, at: '2025-03-01T10:02:10Z' },
    ]);
    expect(cache.get('lab', 'sys1', 'health')).toEqual({ value: { State: 'Normal' }, at: '2025-03-01T10:02:10.000Z', bytes: 18 });
    expect(cache.versions('lab', 'sys1').get('health')).toBe(changed + 1);
    expect(cache.sizeBytes()).toBe(18);
  });

  it('writes an answer whose text is the one it last wrote when another connection has replaced it since', () => {
    const { dir, cache } = setup();
    const mine = { Data: [{ Id: 1, Status: 'OK' }] };
    cache.put('lab', 'sys1', 'drives', mine, '2025-03-01T10:00:00Z');
    cache.put('lab', 'sys1', 'drives', structuredClone(mine), '2025-03-01T10:01:00Z');
    const held = cache.versions('lab', 'sys1').get('drives');
    const otherDb = openDatabase(dir);
    open.push(otherDb);
    new OfflineCache({ db: otherDb }).put('lab', 'sys1', 'drives', { Data: [{ Id: 1, Status: 'Failed' }] }, '2025-03-01T10:02:00Z');
    // The system says OK again: that is what the file must hold, not the other's text with this read time.
    cache.put('lab', 'sys1', 'drives', structuredClone(mine), '2025-03-01T10:03:00Z');
    expect(cache.get('lab', 'sys1', 'drives')).toEqual({ value: mine, at: '2025-03-01T10:03:00.000Z', bytes: JSON.stringify(mine).length });
    expect(cache.versions('lab', 'sys1').get('drives')).toBeGreaterThan(held!);
  });

  it('writes again an answer it wrote once its entry was evicted, and forgets its read time meanwhile', () => {
    const { cache } = setup(1000);
    cache.put('lab', 'sys1', 'a', sized(600), '2025-03-01T10:00:00Z');
    // Past the bound: "a", the least recently used, is evicted.
    cache.put('lab', 'sys2', 'b', sized(600));
    expect(cache.get('lab', 'sys1', 'a')).toBeUndefined();
    expect(cache.readTimes('lab', 'sys1').size).toBe(0);
    cache.put('lab', 'sys1', 'a', sized(600), '2025-03-01T10:05:00Z');
    expect(cache.get('lab', 'sys1', 'a')).toEqual({ value: sized(600), at: '2025-03-01T10:05:00.000Z', bytes: 600 });
  });

  it('counts a replaced entry once in its size', () => {
    const { cache } = setup();
    cache.put('lab', 'sys1', 'k', sized(300));
    cache.put('lab', 'sys1', 'k', sized(100));
    expect(cache.sizeBytes()).toBe(100);
  });

  it('forgets a site or one system', () => {
    const { cache } = setup();
    cache.put('lab', 'sys1', 'k', 1);
    cache.put('lab', 'sys2', 'k', 2);
    cache.put('prod', 'sys1', 'k', 3);
    expect(cache.deleteSystem('lab', 'sys2')).toBe(1);
    expect(cache.systems().map((s) => `${s.siteId}/${s.system}`)).toEqual(['lab/sys1', 'prod/sys1']);
    expect(cache.deleteSite('lab')).toBe(1);
    expect(cache.get('lab', 'sys1', 'k')).toBeUndefined();
    expect(cache.get('prod', 'sys1', 'k')?.value).toBe(3);
    expect(cache.sizeBytes()).toBe(1);
  });
});

describe('OfflineCache: the use order of puts, to within USE_PRECISION_MS', () => {
  /** A clock the test moves: `t.ms` is now. */
  function setupAt(maxBytes?: number): { dir: string; db: Database; cache: OfflineCache; t: { ms: number } } {
    const dir = tempDir();
    const db = openDatabase(dir);
    open.push(db);
    const t = { ms: Date.parse('2025-03-01T10:00:00Z') };
    return { dir, db, t, cache: new OfflineCache({ db, clock: () => new Date(t.ms), ...(maxBytes ? { maxBytes } : {}) }) };
  }
  const uses = (db: Database): unknown => db.prepare('SELECT system, key, last_read_at FROM cache_use ORDER BY use_seq').all();

  it('records the use of a new answer at once, and of an answer put again only once the recorded one is older than the precision', () => {
    const { db, cache, t } = setupAt();
    cache.putRows('lab', 'sys1', ['a', 'b'].map((k) => cache.rowOf(k, sized(100))));
    const first = [
      { system: 'sys1', key: 'a', last_read_at: '2025-03-01T10:00:00.000Z' },
      { system: 'sys1', key: 'b', last_read_at: '2025-03-01T10:00:00.000Z' },
    ];
    expect(uses(db)).toEqual(first);
    // A poll a minute later: one answer the same, one changed, one new. Only the new one's use is written.
    t.ms += 60_000;
    cache.putRows('lab', 'sys1', [cache.renewRow('a'), cache.rowOf('b', sized(120)), cache.rowOf('c', sized(100))]);
    expect(uses(db)).toEqual([...first, { system: 'sys1', key: 'c', last_read_at: '2025-03-01T10:01:00.000Z' }]);
    // The precision past a's and b's recorded use: the next poll records theirs, in its rows' order.
    t.ms = Date.parse('2025-03-01T10:00:00Z') + USE_PRECISION_MS;
    cache.putRows('lab', 'sys1', [cache.renewRow('b'), cache.renewRow('a'), cache.renewRow('c')]);
    expect(uses(db)).toEqual([
      { system: 'sys1', key: 'c', last_read_at: '2025-03-01T10:01:00.000Z' },
      { system: 'sys1', key: 'b', last_read_at: '2025-03-01T10:10:00.000Z' },
      { system: 'sys1', key: 'a', last_read_at: '2025-03-01T10:10:00.000Z' },
    ]);
  });

  it('evicts by the uses recorded: an answer polled on stays, one no longer polled goes first', () => {
    const { cache, t } = setupAt(1000);
    cache.putRows('lab', 'sys1', ['a', 'b', 'c'].map((k) => cache.rowOf(k, sized(300))));
    // a and c are polled on for a while; b is no longer read.
    for (let minute = 1; minute <= 12; minute++) {
      t.ms += 60_000;
      cache.putRows('lab', 'sys1', [cache.renewRow('a'), cache.renewRow('c')]);
    }
    cache.put('lab', 'sys2', 'd', sized(300));
    // 1200 > 1000: b, the least recently used, goes; 900 ≤ 900.
    expect(cache.entries('lab', 'sys1').map((e) => e.key)).toEqual(['a', 'c']);
  });

  it("records the uses again once another connection has written: it does not know what that one recorded", () => {
    const { dir, db, cache, t } = setupAt();
    cache.putRows('lab', 'sys1', [cache.rowOf('a', sized(100))]);
    const otherDb = openDatabase(dir);
    open.push(otherDb);
    new OfflineCache({ db: otherDb, clock: () => new Date(t.ms) }).put('lab', 'sys2', 'x', 1);
    t.ms += 60_000;
    cache.putRows('lab', 'sys1', [cache.renewRow('a')]);
    expect(uses(db)).toEqual([
      { system: 'sys2', key: 'x', last_read_at: '2025-03-01T10:00:00.000Z' },
      { system: 'sys1', key: 'a', last_read_at: '2025-03-01T10:01:00.000Z' },
    ]);
  });
});

describe('cacheKey with text that is not well-formed', () => {
  it("reads every answer of one system at once, as stored, and that read does not keep them from eviction", () => {
    const { cache } = setup(1000);
    cache.put('lab', 'sys1', 'a', sized(200), new Date('2025-03-01T10:00:00Z'));
    cache.put('lab', 'sys1', 'b', { Data: [{ Name: 'h', Password: 'pw' }] }, new Date('2025-03-01T11:00:00Z'));
    cache.put('lab', 'sys2', 'a', sized(200));
    cache.put('other', 'sys1', 'a', sized(200));
    const all = cache.systemEntries('lab', 'sys1');
    expect([...all.keys()].sort()).toEqual(['a', 'b']);
    expect(all.get('b')).toEqual({ json: JSON.stringify({ Data: [{ Name: 'h', Password: REDACTED }] }), at: '2025-03-01T11:00:00.000Z', bytes: all.get('b')?.json.length });
    expect(JSON.parse(all.get('a')?.json ?? 'null')).toEqual(sized(200));
    expect(cache.systemEntries('lab', 'nothing').size).toBe(0);
    // sys1's "a" stays the least recently used entry: the next put past the bound evicts it first.
    cache.put('lab', 'sys3', 'c', sized(400));
    expect(cache.entries('lab', 'sys1').map((e) => e.key)).toEqual(['b']);
  });

  it('keys a lone surrogate instead of throwing', () => {
    expect(cacheKey('GET /hosts/list', { name: 'a\uD800b' })).toBe('GET /hosts/list?name=a%EF%BF%BDb');
  });
});

describe('OfflineCache: answers stored by an earlier version', () => {
  /** An entry as versions before the normaliser stored it: the answer as the system sent it (format 1). */
  function storeOld(db: Database, key: string, value: unknown): void {
    const json = JSON.stringify(value);
    db.prepare("INSERT INTO cache_entries (site_id, system, key, value, bytes, at, format) VALUES ('s', 'a', ?, ?, ?, '2025-01-01T00:00:00.000Z', 1)").run(key, json, Buffer.byteLength(json));
  }

  it('normalises them on first read, keeps their read time, and stores them normalised', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    open.push(db);
    const cache = new OfflineCache({ db, clock: steppingClock(), upgrade: normaliseStoredAnswer });
    storeOld(db, 'GET /hosts/list?mapping=true', { Result: { Data: [{ name: 'esx01', Mappings: null }] } });
    storeOld(db, 'GET /monitoring/health/current', { Volumes: { VolumesHealthInPercentage: null, HealthyVolumes: '4' } });
    expect(cache.get('s', 'a', 'GET /hosts/list?mapping=true')).toMatchObject({ value: { Data: [{ Name: 'esx01' }] }, at: '2025-01-01T00:00:00.000Z' });
    expect(JSON.parse(cache.getText('s', 'a', 'GET /monitoring/health/current')?.json ?? 'null')).toEqual({ Volumes: { HealthyVolumes: 4 } });
    const rows = db.prepare('SELECT key, format, value FROM cache_entries ORDER BY key').all() as Array<{ key: string; format: number; value: string }>;
    expect(rows.map((r) => [r.key, r.format])).toEqual([
      ['GET /hosts/list?mapping=true', 2],
      ['GET /monitoring/health/current', 2],
    ]);
    expect(cache.sizeBytes()).toBe(rows.reduce((n, r) => n + Buffer.byteLength(r.value), 0));
  });

  it('drops one whose shape is not recognised rather than serve it as an empty list', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    open.push(db);
    const cache = new OfflineCache({ db, clock: steppingClock(), upgrade: normaliseStoredAnswer });
    storeOld(db, 'GET /hosts/list', { items: [{ Name: 'esx01' }], total: 1 });
    expect(cache.getText('s', 'a', 'GET /hosts/list')).toBeUndefined();
    expect(cache.entries('s', 'a')).toEqual([]);
    expect(cache.sizeBytes()).toBe(0);
  });

  it('normalises them when a whole system is read, as when they are read one by one', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    open.push(db);
    const cache = new OfflineCache({ db, clock: steppingClock(), upgrade: normaliseStoredAnswer });
    storeOld(db, 'GET /hosts/list?mapping=true', { Result: { Data: [{ name: 'esx01', Mappings: null }] } });
    storeOld(db, 'GET /hosts/list', { items: [{ Name: 'esx01' }], total: 1 });
    const all = cache.systemEntries('s', 'a');
    expect([...all.keys()]).toEqual(['GET /hosts/list?mapping=true']);
    expect(JSON.parse(all.get('GET /hosts/list?mapping=true')?.json ?? 'null')).toMatchObject({ Data: [{ Name: 'esx01' }] });
    expect(all.get('GET /hosts/list?mapping=true')?.at).toBe('2025-01-01T00:00:00.000Z');
    expect(db.prepare('SELECT key, format FROM cache_entries').all()).toEqual([{ key: 'GET /hosts/list?mapping=true', format: 2 }]);
  });

  it('leaves what this version stored alone', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    open.push(db);
    const upgrade = vi.fn(normaliseStoredAnswer);
    const cache = new OfflineCache({ db, clock: steppingClock(), upgrade });
    cache.put('s', 'a', 'GET /hosts/list', { Data: [{ Name: 'h', Extra: 'kept' }] });
    expect(cache.get('s', 'a', 'GET /hosts/list')?.value).toEqual({ Data: [{ Name: 'h', Extra: 'kept' }] });
    expect(upgrade).not.toHaveBeenCalled();
  });
});
