import path from 'node:path';
import { redact } from '../../../../app/redact.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionLog, actionFilterSql, openLogDatabase, type ActionInput, type Database } from '../../../../main/store/index.js';
import { steppingClock, useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

function setup(): ActionLog {
  const dir = tempDir();
  const db = openLogDatabase(dir);
  open.push(db);
  return new ActionLog({ db, file: path.join(dir, 'actions.db'), clock: steppingClock() });
}

function write(n: number, over: Partial<Omit<ActionInput, 'message'>> & { message?: string } = {}): ActionInput {
  return { user: 'admin', siteId: 'lab', system: 'sys1', operation: 'POST /volumes/create', params: redact({ body: { Name: `w${n}` } }), at: `2025-03-0${n}T10:00:00Z`, result: 'ok', ...over, message: redact(over.message ?? `done ${n}`) };
}

/** The names of the writes listed, in the order listed. */
const names = (records: ReadonlyArray<{ params: unknown }>): string[] => records.map((r) => (r.params as { body: { Name: string } }).body.Name);

const HOSTILE = [`x' OR '1'='1`, `'); DROP TABLE action_log; --`, '%', '_', '\\', '" OR ""="'];

describe('actionFilterSql: a filter as SQL', () => {
  it('binds every value as a parameter: nothing typed reaches the SQL text', () => {
    const filter = (text: string): Parameters<typeof actionFilterSql>[0] => ({ siteId: text, system: text, operation: text, since: '2025-01-01T00:00:00Z', until: '2026-01-01T00:00:00Z', results: ['ok', 'unknown'] });
    const plain = actionFilterSql(filter('lab')).where;
    for (const text of HOSTILE) {
      const { where, args } = actionFilterSql(filter(text));
      // The SQL text is the same whatever was typed.
      expect(where).toBe(plain);
      // One placeholder per value, in order.
      expect(where.split('?').length - 1).toBe(args.length);
      const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      expect(args).toEqual([text, text, like, 'ok', 'unknown', '2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
    }
  });

  it('refuses a time that does not parse and a result the log does not know', () => {
    expect(() => actionFilterSql({ since: 'yesterday-ish' })).toThrow(TypeError);
    expect(() => actionFilterSql({ results: ['ok', 'maybe' as 'ok'] })).toThrow(/results must be among ok, refused, unknown, error/);
  });
});

describe('ActionLog.page and list: filtering in SQL', () => {
  function seeded(): ActionLog {
    const log = setup();
    log.append(write(1));
    log.append(write(2, { siteId: 'prod', system: 'sys9', operation: 'POST /users/create', result: 'refused', message: 'exists' }));
    log.append(write(3, { operation: 'DELETE /volumes/delete', result: 'unknown', message: 'timed out' }));
    // An intent whose outcome was never recorded (the app stopped mid-write) lists as unknown.
    log.begin(write(4, { operation: 'POST /users/create' }));
    log.append(write(5, { system: 'sys2', operation: 'POST /hosts/create' }));
    return log;
  }

  it('filters by site, system, operation (part of the key, any case), outcome and period; newest first', () => {
    const log = seeded();
    const page = (f: Parameters<ActionLog['page']>[0]): string[] => names(log.page(f, { offset: 0, limit: 50 }).records);
    expect(page({})).toEqual(['w5', 'w4', 'w3', 'w2', 'w1']);
    expect(page({ siteId: 'prod' })).toEqual(['w2']);
    expect(page({ system: 'sys1' })).toEqual(['w4', 'w3', 'w1']);
    expect(page({ operation: 'USERS/create' })).toEqual(['w4', 'w2']);
    expect(page({ results: ['unknown'] })).toEqual(['w4', 'w3']);
    expect(page({ results: ['refused', 'ok'] })).toEqual(['w5', 'w2', 'w1']);
    expect(page({ since: '2025-03-02T00:00:00Z', until: '2025-03-04T00:00:00Z' })).toEqual(['w3', 'w2']);
    expect(page({ siteId: 'lab', system: 'sys1', operation: 'volumes', results: ['ok'] })).toEqual(['w1']);
    expect(log.list({ operation: 'users/create', results: ['unknown'] }).map((r) => [r.seq, r.result])).toEqual([[7, 'unknown']]);
  });

  it('counts every match and pages through them in order', () => {
    const log = seeded();
    const first = log.page({ system: 'sys1' }, { offset: 0, limit: 2 });
    const second = log.page({ system: 'sys1' }, { offset: 2, limit: 2 });
    expect([first.total, second.total]).toEqual([3, 3]);
    expect([names(first.records), names(second.records)]).toEqual([['w4', 'w3'], ['w1']]);
    expect(() => log.page({}, { offset: -1, limit: 10 })).toThrow(RangeError);
    expect(() => log.page({}, { offset: 0, limit: 0 })).toThrow(RangeError);
  });

  it('matches what was typed literally: hostile text finds nothing and changes nothing', () => {
    const log = seeded();
    log.append(write(6, { operation: 'POST /x_y%z' }));
    for (const text of HOSTILE) {
      expect(log.page({ siteId: text }, { offset: 0, limit: 50 }).total).toBe(0);
      expect(log.page({ system: text }, { offset: 0, limit: 50 }).total).toBe(0);
    }
    // % and _ are not wildcards here: only the operation that contains them matches.
    expect(names(log.page({ operation: '_y%' }, { offset: 0, limit: 50 }).records)).toEqual(['w6']);
    expect(log.page({ operation: '%' }, { offset: 0, limit: 50 }).total).toBe(1);
    expect(log.count()).toBe(6);
    expect(log.verify()).toMatchObject({ ok: true });
  });
});
