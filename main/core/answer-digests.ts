import { hash } from 'node:crypto';
import { FIELDS_NO_RULE_READS } from '../../app/alerts/evaluate.js';
import { refreshRead } from '../../app/fleet/refresh-plan.js';
import { cacheKey, readKey } from '../store/offline-cache.js';
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

/**
 * Where a member no reader reads begins in an answer's stored text, which is JSON.stringify's: its
 * name right after `{` or `,`. Inside a string such text cannot occur, since every quote there is
 * escaped.
 */
const UNREAD_MEMBER = new RegExp(`[{,](?:${FIELDS_NO_RULE_READS.map((k) => JSON.stringify(k).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}):`, 'g');

/**
 * An answer's stored text (JSON.stringify's, as the cache stores it: secret fields masked) without
 * the members no reader of the digest reads, at any depth: what {@link stableDigest} hashes. The
 * same as JSON.stringify of the value with a replacer leaving those members out, without walking
 * the value again.
 */
export function stableText(json: string): string {
  const pattern = new RegExp(UNREAD_MEMBER);
  const kept: string[] = [];
  let from = 0;
  // Whether every member so far of the object opened just before `from` was cut: the first one
  // left then loses its leading comma.
  let afterBrace = false;
  const take = (to: number): void => void kept.push(json.slice(afterBrace && json.charCodeAt(from) === COMMA ? from + 1 : from, to));
  for (let m = pattern.exec(json); m !== null; m = pattern.exec(json)) {
    const end = valueEnd(json, pattern.lastIndex);
    const afterComma = json.charCodeAt(m.index) === COMMA;
    // `,"Time":v` goes whole; of `{"Time":v` the brace stays.
    if (!(afterComma && afterBrace && m.index === from)) {
      take(afterComma ? m.index : m.index + 1);
      afterBrace = !afterComma;
    }
    from = end;
    pattern.lastIndex = end;
  }
  take(json.length);
  return kept.join('');
}

/**
 * The digest readers compare a volatile answer by: its {@link stableText} hashed. Taken from the
 * text a refresh writes, it is the one taken later from the same text read back.
 */
export function stableDigest(json: string): string {
  return hash('sha256', stableText(json), 'base64');
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where the JSON value starting at `i` ends (the index after it); the text's end when it does not. */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (depth === 0) return i;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      // A scalar's end is the bracket closing what holds it.
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (c === COMMA && depth === 0) return i;
    i++;
  }
  return text.length;
}

/** The index after the string whose opening quote is at `i`: its first quote not escaped. */
function stringEnd(text: string, i: number): number {
  for (let q = text.indexOf('"', i + 1); q !== -1; q = text.indexOf('"', q + 1)) {
    let escapes = 0;
    while (text.charCodeAt(q - 1 - escapes) === BACKSLASH) escapes++;
    if (escapes % 2 === 0) return q + 1;
  }
  return text.length;
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
    const key = readKey(read);
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
      JSON.parse(json);
    } catch {
      // Damaged text: its own hash, which the next good answer's digest differs from.
      return hash('sha256', json, 'base64');
    }
    return stableDigest(json);
  }

  /** Forgets every digest (the engine's evaluation of everything afresh). */
  clear(): void {
    this.#memo.clear();
  }
}
