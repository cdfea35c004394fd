import { createHash } from 'node:crypto';
import { FIELDS_NO_RULE_READS } from '../../app/alerts/evaluate.js';
import { refreshRead } from '../../app/fleet/refresh-plan.js';
import { cacheKey } from '../store/offline-cache.js';

/**
 * The answers that move at every read in members neither the alert rules nor the fleet search read
 * (`FIELDS_NO_RULE_READS`: each node's clock, sensor readings, load): the node and drive lists and
 * the health answer. Their content version moves at every poll, so whoever skips work on unchanged
 * input compares their {@link stableDigest} instead.
 */
export const VOLATILE_READS = [refreshRead('GET /resources/list'), refreshRead('GET /nodes/list'), refreshRead('GET /monitoring/health/current')] as const;
const VOLATILE_KEYS: ReadonlySet<string> = new Set(VOLATILE_READS.map((r) => cacheKey(r.op, r.query)));

/** A JSON string, a flat array (no array inside: sensor records), a flat object (load figures) or a scalar. */
const JSON_VALUE = String.raw`\{(?:[^{}[\]"]|"(?:[^"\\]|\\.)*")*\}|"(?:[^"\\]|\\.)*"|\[(?:[^[\]"]|"(?:[^"\\]|\\.)*")*\]|[-\w.+]+`;
/**
 * The members named in {@link FIELDS_NO_RULE_READS} with the comma after them, in JSON text as the
 * cache stores it (no whitespace): a key follows `{` or `,` (an escaped quote inside a string
 * follows a backslash), so a list with and without them compares equal.
 * A value of another shape (nested objects or arrays) is not matched and stays: the comparison
 * then sees more change than there is, never less.
 */
const UNREAD_MEMBERS = new RegExp(String.raw`(?<=[{,])"(?:${FIELDS_NO_RULE_READS.join('|')})":(?:${JSON_VALUE}),?`, 'g');

/** An answer's stored JSON text without the members no reader of the digest reads, hashed. */
export function stableDigest(json: string): string {
  return createHash('sha256').update(json.replace(UNREAD_MEMBERS, '')).digest('base64');
}

/** Where the digests read an answer's stored text (the fleet's cache). */
export interface DigestSource {
  cachedText(siteId: string, system: string, opKey: string, query?: Record<string, unknown>, options?: { recordUse?: boolean }): { json: string } | undefined;
}

const NO_USE = { recordUse: false } as const;

/**
 * What a reader that skips unchanged input (the alert engine, the search index) sees of a system's
 * cached answer: its content version, or for a {@link VOLATILE_READS} answer the digest of its text
 * without the members they do not read. One instance serves them all, so a poll that moved a node
 * list has its text read and hashed once (by the first reader after the poll), not once per reader.
 */
export class AnswerDigests {
  /** Per system, per cache key: the digest and the content version it was taken from. */
  readonly #memo = new Map<string, Map<string, { version: number; digest: string }>>();

  constructor(private readonly source: DigestSource) {}

  /**
   * The answer of `read` as readers compare it: null when nothing is cached, its content version
   * (from `versions`, the cache's versions of the system), or a volatile answer's digest, taken
   * again only when its version moved.
   */
  seen(siteId: string, system: string, read: { op: string; query: Record<string, unknown> }, versions: ReadonlyMap<string, number>): string | number | null {
    const key = cacheKey(read.op, read.query);
    const version = versions.get(key);
    const systemKey = `${siteId}\u0000${system}`;
    const known = this.#memo.get(systemKey);
    if (version === undefined) {
      known?.delete(key);
      return null;
    }
    if (!VOLATILE_KEYS.has(key)) return version;
    const held = known?.get(key);
    if (held?.version === version) return held.digest;
    const digest = stableDigest(this.source.cachedText(siteId, system, read.op, read.query, NO_USE)?.json ?? '');
    const memo = known ?? new Map<string, { version: number; digest: string }>();
    memo.set(key, { version, digest });
    this.#memo.set(systemKey, memo);
    return digest;
  }

  /** Forgets every digest (the engine's evaluation of everything afresh). */
  clear(): void {
    this.#memo.clear();
  }
}
