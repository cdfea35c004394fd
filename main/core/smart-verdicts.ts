import { smartRead } from '../../app/fleet/refresh-plan.js';
import { smartVerdictOf, type SmartLookup, type SmartVerdict } from '../../app/smart/verdict.js';
import { smartKey } from './smart-keys.js';
import type { WrittenAnswers } from './written-answers.js';

/** Where the verdicts read the cached SMART texts (the fleet). */
export interface SmartSource {
  cached(siteId: string, system: string, opKey: string, query?: Record<string, unknown>, options?: { recordUse?: boolean }): { value: unknown; at: string } | undefined;
}

const NO_USE = { recordUse: false } as const;

type Entry = { readonly stamp: number | string; readonly verdict: SmartVerdict | undefined };
const NONE: ReadonlyMap<string, Entry> = new Map();

/**
 * Every drive's SMART verdict ({@link smartVerdictOf}) as the health summaries and the alert rules
 * read it, parsed once per cached text: a steady poll reads SMART only when old, so most lookups find
 * the same text and parse nothing. One instance serves both readers, so a drive's SMART rates the
 * same in the tree and in its alert. Kept for every drive of the fleet, so never the parsed report
 * nor any piece of the text. A verdict is kept while its text is: a pass that asks for fewer drives
 * (a poll whose summary kept its drive list) drops none; a text the cache no longer holds drops its.
 */
export class SmartVerdicts {
  /**
   * Per system, per cache key: the verdict and the content version (a number) or read time (a
   * string) of the text it came from. Copied on change, never changed in place once handed out:
   * the map of a system is the same object until one of its verdicts changes.
   */
  readonly #memo = new Map<string, ReadonlyMap<string, Entry>>();

  constructor(private readonly source: SmartSource) {}

  /**
   * A lookup of the system's verdicts for one reader's pass. `versions` (the cache's content
   * versions of the system) tells a text unchanged without reading it, and a drive without SMART
   * text without asking the cache; without it, each text is read and compared by its read time.
   * A text the refresh or poll just wrote is taken from `written`, not read back.
   */
  lookup(siteId: string, system: string, versions?: ReadonlyMap<string, number>, written?: WrittenAnswers): SmartLookup {
    const systemKey = `${siteId}\u0000${system}`;
    if (versions) this.#prune(systemKey, versions);
    // The map this pass copied (at its first change), changed in place while it is the one held.
    let own: Map<string, Entry> | undefined;
    const change = (key: string, entry: Entry | undefined): void => {
      const held = this.#memo.get(systemKey) ?? NONE;
      if (held !== own) this.#memo.set(systemKey, (own = new Map(held)));
      if (entry) own.set(key, entry);
      else own.delete(key);
    };
    return (node, driveId) => {
      const key = smartKey(node, driveId);
      const before = this.#memo.get(systemKey)?.get(key);
      const version = versions?.get(key);
      if (versions && version === undefined) return undefined;
      if (version !== undefined && before?.stamp === version) return before.verdict;
      const r = smartRead(node, driveId);
      const hit = written?.get(key) ?? this.source.cached(siteId, system, r.op, r.query, NO_USE);
      if (!hit) {
        if (before) change(key, undefined);
        return undefined;
      }
      const stamp = version ?? hit.at;
      if (before?.stamp === stamp) return before.verdict;
      const entry = { stamp, verdict: smartVerdictOf(hit.value) };
      change(key, entry);
      return entry.verdict;
    };
  }

  /**
   * The verdicts of the system's drives, by the SMART answer's cache key: the same map until one
   * changes, so a reader (the metrics) can tell when they may have.
   */
  verdictsOf(siteId: string, system: string): ReadonlyMap<string, { readonly verdict: SmartVerdict | undefined }> | undefined {
    return this.#memo.get(`${siteId}\u0000${system}`);
  }

  /** Drops the verdicts of texts the cache no longer holds (a drive gone, an answer evicted). */
  #prune(systemKey: string, versions: ReadonlyMap<string, number>): void {
    const held = this.#memo.get(systemKey);
    if (!held) return;
    for (const k of held.keys()) {
      if (versions.has(k)) continue;
      const kept = new Map([...held].filter(([key]) => versions.has(key)));
      if (kept.size) this.#memo.set(systemKey, kept);
      else this.#memo.delete(systemKey);
      return;
    }
  }
}
