import { afterEach, describe, expect, it } from 'vitest';
import { DataVersionMemo } from '../../../../main/store/data-version-memo.js';
import { openDatabase, type Database } from '../../../../main/store/index.js';
import { useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

/** Two connections to one cache file (as two processes have), a scratch table, and a memo on the first that counts its `data_version` reads. */
function setup() {
  const dir = tempDir();
  const mine = openDatabase(dir);
  const theirs = openDatabase(dir);
  open.push(mine, theirs);
  mine.exec('CREATE TABLE scratch (n INTEGER)');
  let versionReads = 0;
  const counting: Pick<Database, 'prepare'> = {
    prepare: <P extends unknown[], R>(sql: string) => {
      const stmt = mine.prepare<P, R>(sql);
      if (!/data_version/i.test(sql)) return stmt;
      return {
        get: (...params: P) => {
          versionReads++;
          return stmt.get(...params);
        },
        run: stmt.run.bind(stmt),
        all: stmt.all.bind(stmt),
        iterate: stmt.iterate.bind(stmt),
      };
    },
  };
  let makes = 0;
  const sum = (db: Database): number => db.prepare<[], { n: number }>('SELECT COALESCE(SUM(n), 0) AS n FROM scratch').get()?.n ?? 0;
  const make = (): { sum: number } => {
    makes++;
    return { sum: sum(mine) };
  };
  return { mine, theirs, memo: new DataVersionMemo<{ sum: number }>(counting), make, makes: () => makes, versionReads: () => versionReads };
}

const insert = (db: Database, n: number): void => {
  db.prepare<[number]>('INSERT INTO scratch (n) VALUES (?)').run(n);
};

describe('DataVersionMemo', () => {
  it('makes the value once and keeps it while no connection commits; reads do not count', () => {
    const t = setup();
    const first = t.memo.get(t.make);
    expect(first).toEqual({ sum: 0 });
    t.theirs.prepare('SELECT COUNT(*) FROM scratch').get();
    expect(t.memo.get(t.make)).toBe(first);
    expect(t.makes()).toBe(1);
  });

  it("makes it again once another connection committed, and keeps that one", () => {
    const t = setup();
    t.memo.get(t.make);
    insert(t.theirs, 5);
    const again = t.memo.get(t.make);
    expect(again).toEqual({ sum: 5 });
    expect(t.makes()).toBe(2);
    expect(t.memo.get(t.make)).toBe(again);
    expect(t.makes()).toBe(2);
  });

  it("keeps it across a commit of its own connection: its holder keeps it right, through held()", () => {
    const t = setup();
    const value = t.memo.get(t.make);
    insert(t.mine, 3);
    t.mine.transaction(() => insert(t.mine, 4))();
    const held = t.memo.held();
    expect(held).toBe(value);
    if (held) held.sum += 7;
    expect(t.memo.get(t.make)).toEqual({ sum: 7 });
    expect(t.makes()).toBe(1);
  });

  it('reads the version before making: a commit that lands while it makes is seen by the next call', () => {
    const t = setup();
    const value = t.memo.get(() => {
      const made = t.make();
      // Another process commits after the value was read from the file, before get returns.
      insert(t.theirs, 2);
      return made;
    });
    expect(value).toEqual({ sum: 0 });
    // The version kept is the one before that commit: the next call makes the value again.
    expect(t.memo.get(t.make)).toEqual({ sum: 2 });
    expect(t.makes()).toBe(2);
  });

  it('reads data_version once per get and never for held() or clear()', () => {
    const t = setup();
    expect(t.memo.held()).toBeUndefined();
    expect(t.versionReads()).toBe(0);
    for (let i = 0; i < 3; i++) t.memo.get(t.make);
    expect(t.versionReads()).toBe(3);
    insert(t.theirs, 1);
    t.memo.get(t.make);
    expect(t.versionReads()).toBe(4);
    t.memo.held();
    t.memo.clear();
    expect(t.versionReads()).toBe(4);
  });

  it('clear() drops the value: the next get makes it again', () => {
    const t = setup();
    t.memo.get(t.make);
    insert(t.mine, 6);
    t.memo.clear();
    expect(t.memo.held()).toBeUndefined();
    expect(t.memo.get(t.make)).toEqual({ sum: 6 });
    expect(t.makes()).toBe(2);
  });

  it('holds nothing when making fails, so the stale value is not served after the failure', () => {
    const t = setup();
    t.memo.get(t.make);
    insert(t.theirs, 8);
    expect(() =>
      t.memo.get(() => {
        throw new Error('disk I/O error');
      }),
    ).toThrow('disk I/O error');
    expect(t.memo.held()).toBeUndefined();
    expect(t.memo.get(t.make)).toEqual({ sum: 8 });
  });

  it('serves a value that is undefined as held', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    open.push(db);
    const memo = new DataVersionMemo<undefined>(db);
    let makes = 0;
    const make = (): undefined => {
      makes++;
      return undefined;
    };
    memo.get(make);
    memo.get(make);
    expect(makes).toBe(1);
  });
});
