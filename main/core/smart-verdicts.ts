import { smartRead } from '../../app/fleet/refresh-plan.js';
import { smartVerdictOf, type SmartLookup, type SmartVerdict } from '../../app/smart/verdict.js';
import { smartKeys } from './smart-keys.js';
import type { WrittenAnswers } from './written-answers.js';

/** Where the verdicts read the cached SMART texts (the fleet). */
export interface SmartSource {
  cached(siteId: string, system: string, opKey: string, query?: Record<string, unknown>, options?: { recordUse?: boolean }): { value: unknown; at: string } | undefined;
}

const NO_USE = { recordUse: false } as const;

/**
 * Every drive's SMART verdict ({@link smartVerdictOf}) as the health summaries and the alert rules
 * read it, parsed once per cached text: a steady poll reads SMART only when old, so most lookups find
 * the same text and parse nothing. One instance serves both readers, so a drive's SMART rates the
 * same in the tree and in its alert. Kept for every drive of the fleet, so never the parsed report
 * nor any piece of the text; the drives a system's last lookup did not ask for are dropped with it.
 */
export class SmartVerdicts {
  /** Per system, per cache key: the verdict and the content version (a number) or read time (a string) of the text it came from. */
  readonly #memo = new Map<string, Map<string, { stamp: number | string; verdict: SmartVerdict | undefined }>>();

  constructor(private readonly source: SmartSource) {}

  /**
   * A lookup of the system's verdicts for one reader's pass. `versions` (the cache's content
   * versions of the system) tells a text unchanged without reading it, and a drive without SMART
   * text without asking the cache; without it, each text is read and compared by its read time.
   * A text the refresh or poll just wrote is taken from `written`, not read back.
   */
  lookup(siteId: string, system: string, versions?: ReadonlyMap<string, number>, written?: WrittenAnswers): SmartLookup {
    const systemKey = `${siteId}\u0000${system}`;
    const known = this.#memo.get(systemKey);
    const kept = new Map<string, { stamp: number | string; verdict: SmartVerdict | undefined }>();
    this.#memo.set(systemKey, kept);
    const keyOf = smartKeys();
    return (node, driveId) => {
      const key = keyOf(node, driveId);
      const before = kept.get(key) ?? known?.get(key);
      const version = versions?.get(key);
      if (versions && version === undefined) return undefined;
      let entry = version !== undefined && before?.stamp === version ? before : undefined;
      if (!entry) {
        const r = smartRead(node, driveId);
        const hit = written?.get(key) ?? this.source.cached(siteId, system, r.op, r.query, NO_USE);
        if (!hit) return undefined;
        const stamp = version ?? hit.at;
        entry = before?.stamp === stamp ? before : { stamp, verdict: smartVerdictOf(hit.value) };
      }
      kept.set(key, entry);
      return entry.verdict;
    };
  }

  /**
   * The verdicts the system's last lookup read, by the SMART answer's cache key: a new map after
   * each lookup, so a reader (the metrics) can tell they may have changed.
   */
  verdictsOf(siteId: string, system: string): ReadonlyMap<string, { readonly verdict: SmartVerdict | undefined }> | undefined {
    return this.#memo.get(`${siteId}\u0000${system}`);
  }

}
