import { createHash } from 'node:crypto';
import { FIELDS_NO_RULE_READS } from '../../app/alerts/evaluate.js';
import { refreshRead } from '../../app/fleet/refresh-plan.js';
import { REDACTED, isSecretField } from '../../app/redact.js';
import { cacheKey } from '../store/offline-cache.js';
import type { WrittenAnswers } from './written-answers.js';

/**
 * The answers that move at every read in members neither the alert rules nor the fleet search read
 * (`FIELDS_NO_RULE_READS`: each node's clock, sensor readings, load, each volume's I/O figures): the
 * node and drive lists, the health answer and the replication list. Their content version moves at
 * every poll, so whoever skips work on unchanged input compares their {@link stableDigest} instead.
 */
export const VOLATILE_READS = [
  refreshRead('GET /resources/list'),
  refreshRead('GET /nodes/list'),
  refreshRead('GET /monitoring/health/current'),
  refreshRead('GET /replication/list'),
] as const;
const VOLATILE_KEYS: ReadonlySet<string> = new Set(VOLATILE_READS.map((r) => cacheKey(r.op, r.query)));

/** Whether the answer under this cache key has a {@link stableDigest} (one of {@link VOLATILE_READS}). */
export function isVolatileKey(key: string): boolean {
  return VOLATILE_KEYS.has(key);
}

const UNREAD: ReadonlySet<string> = new Set(FIELDS_NO_RULE_READS);

const KEEP = 0;
const LEAVE_OUT = 1;
const MASK = 2;
/**
 * What {@link stableMember} does with a member, by its name: the same few hundred names recur in
 * every answer, so each is classified once rather than at every member. Bounded (an answer may
 * name its members anything): past the bound, a new name is classified each time it is met.
 */
const MEMBER_KINDS = new Map<string, number>();
const MAX_MEMBER_KINDS = 4096;

function memberKind(key: string): number {
  let kind = MEMBER_KINDS.get(key);
  if (kind === undefined) {
    kind = UNREAD.has(key) ? LEAVE_OUT : isSecretField(key) ? MASK : KEEP;
    if (MEMBER_KINDS.size < MAX_MEMBER_KINDS) MEMBER_KINDS.set(key, kind);
  }
  return kind;
}

/** Leaves out the unread members at any depth, and masks secret fields as the cache stores them. */
function stableMember(this: unknown, key: string, v: unknown): unknown {
  if (key === '' || Array.isArray(this)) return v;
  const kind = memberKind(key);
  if (kind === KEEP) return v;
  if (kind === LEAVE_OUT) return undefined;
  return v !== null && v !== undefined && v !== '' ? REDACTED : v;
}

/**
 * An answer without the members no reader of the digest reads, hashed: the same for the value a
 * refresh wrote and for the value parsed back from the text the cache stores (redacted alike).
 */
export function stableDigest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value, stableMember) ?? '').digest('base64');
}

/** Where the digests read an answer's stored text (the fleet's cache) when it was not handed to them. */
export interface DigestSource {
  cachedText(siteId: string, system: string, opKey: string, query?: Record<string, unknown>, options?: { recordUse?: boolean }): { json: string } | undefined;
}

const NO_USE = { recordUse: false } as const;

/**
 * What a reader that skips unchanged input (the alert engine, the search index) sees of a system's
 * cached answer: its content version, or for a {@link VOLATILE_READS} answer its digest. One
 * instance serves them all. A refresh or poll computes the digests of what it writes and hands them
 * over with its status event ({@link WrittenAnswers}); only an answer written by another process
 * (or before this one started) has its text read back and parsed, once per content version.
 */
export class AnswerDigests {
  /** Per system, per cache key: the digest and the content version it was taken from. */
  readonly #memo = new Map<string, Map<string, { version: number; digest: string }>>();

  constructor(private readonly source: DigestSource) {}

  /**
   * The answer of `read` as readers compare it: null when nothing is cached, its content version
   * (from `versions`, the cache's versions of the system), or a volatile answer's digest: the one
   * `written` hands over, else the one kept for its version, else taken from its stored text.
   */
  seen(siteId: string, system: string, read: { op: string; query: Record<string, unknown> }, versions: ReadonlyMap<string, number>, written?: WrittenAnswers): string | number | null {
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
    const handed = written?.digest(key);
    if (handed === undefined && held?.version === version) return held.digest;
    const digest = handed ?? this.#fromText(siteId, system, read);
    const memo = known ?? new Map<string, { version: number; digest: string }>();
    memo.set(key, { version, digest });
    this.#memo.set(systemKey, memo);
    return digest;
  }

  #fromText(siteId: string, system: string, read: { op: string; query: Record<string, unknown> }): string {
    const json = this.source.cachedText(siteId, system, read.op, read.query, NO_USE)?.json ?? '';
    try {
      return stableDigest(JSON.parse(json) as unknown);
    } catch {
      // Damaged text: its own hash, which the next good answer's digest differs from.
      return createHash('sha256').update(json).digest('base64');
    }
  }

  /** Forgets every digest (the engine's evaluation of everything afresh). */
  clear(): void {
    this.#memo.clear();
  }
}
