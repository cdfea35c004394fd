import { describe, expect, it } from 'vitest';
import { smartRead } from '../../../../app/fleet/refresh-plan.js';
import { smartVerdictOf } from '../../../../app/smart/verdict.js';
import { SmartVerdicts } from '../../../../main/core/smart-verdicts.js';
import { cacheKey } from '../../../../main/store/offline-cache.js';

const PASSED = 'SMART overall-health self-assessment test result: PASSED\n';
const FAILED = 'SMART overall-health self-assessment test result: FAILED!\n';

describe('SmartVerdicts', () => {
  it("finds each drive's text under the key the cache stores it by, whatever its node's name and drive id", () => {
    const drives: Array<[string, number]> = [['n1', 1], ['node a&b=c/ü', 2], ['n1', 1.5], ['n\uD800x', 3], ['', 0], ['n1', -4]];
    const held = new Map(drives.map(([node, driveid], i) => [cacheKey(smartRead(node, driveid).op, smartRead(node, driveid).query), { text: i % 2 ? FAILED : PASSED, version: i + 1 }]));
    const asked: string[] = [];
    const source = {
      cached: (_s: string, _y: string, op: string, query: Record<string, unknown> = {}) => {
        const k = cacheKey(op, query);
        asked.push(k);
        const hit = held.get(k);
        return hit && { value: hit.text, at: '2026-01-01T00:00:00.000Z' };
      },
    };
    const versions = new Map([...held].map(([k, v]) => [k, v.version]));
    const lookup = new SmartVerdicts(source).lookup('lab', 'sys', versions);
    const risks = drives.map(([node, id]) => lookup(node, id)?.risk);
    expect(risks).toEqual(drives.map((_, i) => smartVerdictOf(i % 2 ? FAILED : PASSED)?.risk));
    expect(new Set(risks).size).toBe(2);
    expect(asked.sort()).toEqual([...held.keys()].sort());
  });

  it('keeps a verdict while its text is held, whatever a pass asks for, and parses a text once', () => {
    const key = (node: string, id: number) => cacheKey(smartRead(node, id).op, smartRead(node, id).query);
    const texts = new Map([[key('n1', 1), PASSED], [key('n1', 2), FAILED]]);
    let reads = 0;
    const source = {
      cached: (_s: string, _y: string, op: string, query: Record<string, unknown> = {}) => {
        reads++;
        const text = texts.get(cacheKey(op, query));
        return text === undefined ? undefined : { value: text, at: '2026-01-01T00:00:00.000Z' };
      },
    };
    const verdicts = new SmartVerdicts(source);
    let versions = new Map([[key('n1', 1), 1], [key('n1', 2), 2]]);
    const first = verdicts.lookup('lab', 'sys', versions);
    expect([first('n1', 1)?.risk, first('n1', 2)?.risk]).toEqual([smartVerdictOf(PASSED)?.risk, smartVerdictOf(FAILED)?.risk]);
    const held = verdicts.verdictsOf('lab', 'sys');
    expect(held?.size).toBe(2);
    // A pass that asks for no drive (a summary that kept its drive list) drops nothing.
    verdicts.lookup('lab', 'sys', versions);
    expect(verdicts.verdictsOf('lab', 'sys')).toBe(held);
    // A later pass over every drive reads and parses nothing, and changes nothing.
    const again = verdicts.lookup('lab', 'sys', versions);
    expect([again('n1', 1)?.risk, again('n1', 2)?.risk]).toEqual([first('n1', 1)?.risk, first('n1', 2)?.risk]);
    expect(reads).toBe(2);
    expect(verdicts.verdictsOf('lab', 'sys')).toBe(held);
    // A text stored again (new version) is read again; the map handed out before stays as it was.
    texts.set(key('n1', 1), FAILED);
    versions = new Map([[key('n1', 1), 3], [key('n1', 2), 2]]);
    expect(verdicts.lookup('lab', 'sys', versions)('n1', 1)?.risk).toBe(smartVerdictOf(FAILED)?.risk);
    expect(reads).toBe(3);
    expect(verdicts.verdictsOf('lab', 'sys')).not.toBe(held);
    expect(held?.get(key('n1', 1))?.verdict?.risk).toBe(smartVerdictOf(PASSED)?.risk);
    // A text the cache no longer holds takes its verdict with it.
    verdicts.lookup('lab', 'sys', new Map([[key('n1', 2), 2]]));
    expect([...(verdicts.verdictsOf('lab', 'sys')?.keys() ?? [])]).toEqual([key('n1', 2)]);
    verdicts.lookup('lab', 'sys', new Map());
    expect(verdicts.verdictsOf('lab', 'sys')).toBeUndefined();
  });
});
