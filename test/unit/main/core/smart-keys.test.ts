import { describe, expect, it } from 'vitest';
import { NOTIFICATIONS_CACHE, REFRESH_READS, refreshPlan, smartRead } from '../../../../app/fleet/refresh-plan.js';
import { SMART_KEY_PREFIX, smartKey } from '../../../../main/core/smart-keys.js';
import { cacheKey } from '../../../../main/store/offline-cache.js';

const NODES = ['n1', '', '0', '1', '10', 'node with space', 'a&b=c?d', 'drive%20id', 'ünïcödé-節點', 'lone \uD800 surrogate', 'driveid=1&node=x'];
const IDS = [0, 1, 7, 10, 99, -3, -0, 123_456_789, Number.MAX_SAFE_INTEGER, 1.5, Number.NaN, 2 ** 60, Number.POSITIVE_INFINITY];

const whole = (node: string, driveid: number): string => {
  const r = smartRead(node, driveid);
  return cacheKey(r.op, r.query);
};

describe('smartKey', () => {
  it('gives the key cacheKey makes of every SMART read, whatever the node name and drive id', () => {
    // Twice over: the second pass uses each node's template made by the first.
    for (let pass = 0; pass < 2; pass++) for (const node of NODES) for (const id of IDS) expect(smartKey(node, id)).toBe(whole(node, id));
  });

  it('keeps the drives of different nodes apart', () => {
    const keys = new Set(NODES.flatMap((node) => [0, 1, 12].map((id) => smartKey(node, id))));
    expect(keys.size).toBe(NODES.length * 3);
  });

  it('gives the same keys past the bound on the nodes whose templates it keeps', () => {
    const many = Array.from({ length: 10_050 }, (_, i) => `node-${i}`);
    for (const node of many) expect(smartKey(node, 3)).toBe(whole(node, 3));
    for (const node of NODES) expect(smartKey(node, 12)).toBe(whole(node, 12));
  });
});

describe('SMART_KEY_PREFIX', () => {
  it('begins the key of every SMART read', () => {
    for (const node of NODES) for (const id of IDS) expect(whole(node, id).startsWith(SMART_KEY_PREFIX)).toBe(true);
  });

  it('begins no key of another read the refresh caches', () => {
    const others = [...REFRESH_READS, ...refreshPlan(new Date('2026-03-01T00:00:00Z'), '2026-02-01T00:00:00Z'), NOTIFICATIONS_CACHE];
    for (const r of others) {
      expect(cacheKey(r.op, r.query).startsWith(SMART_KEY_PREFIX)).toBe(false);
      if ('cacheQuery' in r && r.cacheQuery) expect(cacheKey(r.op, r.cacheQuery).startsWith(SMART_KEY_PREFIX)).toBe(false);
    }
  });
});
