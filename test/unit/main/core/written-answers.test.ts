// A refresh hands what it wrote to the readers of its status event (summary, alert engine,
// compliance, digests, search index): each text parsed once for all of them, equal to what the
// cache gives back, and nothing handed that was not written.
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerDigests, VOLATILE_READS, stableDigest } from '../../../../main/core/answer-digests.js';
import { redactedJson } from '../../../../app/redact.js';
import { WrittenAnswers } from '../../../../main/core/written-answers.js';
import { OfflineCache, cacheKey, openDatabase, type Database } from '../../../../main/store/index.js';
import { steppingClock, useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});
function cache(): OfflineCache {
  const db = openDatabase(tempDir());
  open.push(db);
  return new OfflineCache({ db, clock: steppingClock() });
}

const [RESOURCES] = VOLATILE_READS;
const RESOURCES_KEY = cacheKey(RESOURCES.op, RESOURCES.query);

describe('WrittenAnswers', () => {
  it('parses each written text once for every reader, as the cache gives it back (masked)', () => {
    const c = cache();
    const drives = { Data: [{ Name: 'd1', Secret: { ChapSecret: 'hunter2hunter2' } }] };
    const rows = [c.rowOf('drives', drives, '2025-03-01T10:00:00Z'), c.rowOf('health', { State: 'Normal' }, '2025-03-01T10:00:00Z', true)];
    c.putRows('lab', 'sys1', rows);
    const written = new WrittenAnswers(rows);
    const first = written.get('drives');
    expect(written.get('drives')?.value).toBe(first?.value);
    expect(first).toEqual({ value: c.get('lab', 'sys1', 'drives')?.value, at: '2025-03-01T10:00:00.000Z' });
    expect(JSON.stringify(first?.value)).not.toContain('hunter2');
    // A value the writer kept (redaction masked nothing in it) is handed as it is.
    expect(written.get('health')?.value).toEqual({ State: 'Normal' });
    expect(written.text('health')?.json).toBe('{"State":"Normal"}');
  });

  it('hands nothing the write did not hold: a renewed answer, another key', () => {
    const c = cache();
    c.put('lab', 'sys1', 'kept', { a: 1 });
    const rows = [c.renewRow('kept'), c.rowOf('new', { b: 2 })];
    c.putRows('lab', 'sys1', rows);
    const written = new WrittenAnswers(rows, new Map([['kept', 'digest-of-kept'], ['new', 'digest-of-new']]));
    expect(written.get('kept')).toBeUndefined();
    expect(written.get('other')).toBeUndefined();
    expect(written.digest('kept')).toBeUndefined();
    expect(written.digest('new')).toBe('digest-of-new');
  });

  it('gives the digests the one taken when written, equal to the one taken from the stored text', () => {
    const c = cache();
    const list = { Data: [{ Name: 'n1', Time: '12:00', Password: 'pw-hunter2', Drives: [{ Id: 1, State: 'OK' }] }] };
    const rows = [c.rowOf(RESOURCES_KEY, list)];
    c.putRows('lab', 'sys1', rows);
    const reads: string[] = [];
    const source = {
      cachedText: (siteId: string, system: string, op: string, query: Record<string, unknown> = {}) => {
        reads.push(op);
        const hit = c.getText(siteId, system, cacheKey(op, query));
        return hit && { json: hit.json };
      },
    };
    const versions = c.versions('lab', 'sys1');
    const handed = new AnswerDigests(source).seen('lab', 'sys1', RESOURCES, versions, new WrittenAnswers(rows, new Map([[RESOURCES_KEY, stableDigest(redactedJson(list) ?? '')]])));
    expect(reads).toEqual([]);
    const fromText = new AnswerDigests(source).seen('lab', 'sys1', RESOURCES, versions);
    expect(reads).toEqual([RESOURCES.op]);
    expect(handed).toBe(fromText);
  });

  it("keeps the system's capacity as its first reader assessed it, for the others", () => {
    const w = new WrittenAnswers([]);
    const first = { pools: [], total: undefined, level: 'ok' as const, reasons: ['first'] };
    let assessed = 0;
    const assess = () => {
      assessed++;
      return assessed === 1 ? first : { ...first, reasons: ['again'] };
    };
    expect(w.capacity(assess)).toBe(first);
    expect(w.capacity(assess)).toBe(first);
    expect(assessed).toBe(1);
    // Another write's readers assess their own.
    expect(new WrittenAnswers([]).capacity(assess).reasons).toEqual(['again']);
  });
});
