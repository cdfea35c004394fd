import { smartRead } from '../../app/fleet/refresh-plan.js';
import { cacheKey, cacheKeyPrefix } from '../store/offline-cache.js';

const SMART_OP = smartRead('', 0).op;

/** What the cache key of every SMART read ({@link smartRead}) begins with, and no other read's. */
export const SMART_KEY_PREFIX = cacheKeyPrefix(SMART_OP);

/**
 * Which SMART texts a system's cache holds, as two numbers: how many, and the highest content
 * version among them. Whatever is read from those texts is a function of them, and the pair moves
 * whenever they do: a text stored (new or changed) takes a version above every one in the file (one
 * counter that only rises), and a text dropped without one stored lowers the count. Numbers, not a
 * string of the keys: a thousand systems' stamps are held for as long as the process runs.
 */
export interface SmartStamp {
  count: number;
  max: number;
}

/** The {@link SmartStamp} of a system's content versions (the cache's, by key). */
export function smartStamp(versions: ReadonlyMap<string, number> | undefined): SmartStamp {
  let count = 0;
  let max = -1;
  if (versions) {
    for (const [k, v] of versions) {
      if (!k.startsWith(SMART_KEY_PREFIX)) continue;
      count++;
      if (v > max) max = v;
    }
  }
  return { count, max };
}

/**
 * The cache key of each drive's SMART read, `cacheKey` of {@link smartRead}'s operation and query,
 * made without sorting and encoding a query per drive: a poll and a SMART lookup ask for the key of
 * every drive of a system. For an integer drive id, the key is the node's key with drive id 0, the
 * id's digits in place of that 0: the position is where the node's keys with ids 0 and 1 differ, so
 * it follows `smartRead`'s field names and `cacheKey`'s order and encoding (an integer is its own
 * text). Each node's two keys are made once per process (node names repeat across a fleet's
 * systems), up to {@link MAX_TEMPLATES} nodes.
 */
export function smartKey(node: string, driveid: number): string {
  if (!Number.isSafeInteger(driveid)) return smartKeyOf(node, driveid);
  let t = TEMPLATES.get(node);
  if (t === undefined) {
    if (TEMPLATES.size >= MAX_TEMPLATES) TEMPLATES.clear();
    TEMPLATES.set(node, (t = templateOf(node)));
  }
  return t ? `${t.head}${driveid}${t.tail}` : smartKeyOf(node, driveid);
}

const TEMPLATES = new Map<string, { head: string; tail: string } | null>();
const MAX_TEMPLATES = 10_000;

/** The node's key split around its drive id's text; `null` when the id is not found there as its digits (then each key is made whole). */
function templateOf(node: string): { head: string; tail: string } | null {
  const zero = smartKeyOf(node, 0);
  const one = smartKeyOf(node, 1);
  let at = 0;
  while (at < zero.length && zero[at] === one[at]) at++;
  if (zero[at] !== '0' || one[at] !== '1' || zero.slice(at + 1) !== one.slice(at + 1)) return null;
  return { head: zero.slice(0, at), tail: zero.slice(at + 1) };
}

function smartKeyOf(node: string, driveid: number): string {
  const r = smartRead(node, driveid);
  return cacheKey(r.op, r.query);
}
