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
});
