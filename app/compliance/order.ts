import type { CheckState } from './changes.js';
import { SEVERITIES } from './severity.js';
import { EFFECTIVE_RESULTS, effectiveResult } from './waivers.js';
import type { CheckOutcomeView, SystemComplianceView } from './results.js';

/** What each effective result is called where an admin reads it (the CLI, the view, the audit pack). */
export const RESULT_WORDS = { fail: 'FAIL', 'cannot-tell': 'CANNOT TELL', waived: 'waived', pass: 'pass', 'not-applicable': 'n/a' } as const;

/** A check's kept state in the same words (what changed since the previous evaluation). */
export function stateWord(s: CheckState): string {
  return s === 'waiver-expired' ? 'FAIL (waiver expired)' : RESULT_WORDS[s];
}

/** Checks worst first: effective result (fail, cannot tell, waived, pass, n/a), then severity highest first, then the baseline's order. */
export function worstFirst<T extends Pick<CheckOutcomeView, 'result' | 'severity' | 'waiver'>>(checks: readonly T[]): T[] {
  const rank = (c: T): number => EFFECTIVE_RESULTS.indexOf(effectiveResult(c)) * 10 + (SEVERITIES.length - SEVERITIES.indexOf(c.severity));
  return checks.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map((x) => x.c);
}

/** Systems worst first: most failing checks, then most that cannot tell, then lowest score, then by site and name. */
export function systemsWorstFirst<T extends Pick<SystemComplianceView, 'counts' | 'score' | 'site' | 'system'>>(systems: readonly T[]): T[] {
  return [...systems].sort(
    (a, b) =>
      b.counts.fail - a.counts.fail ||
      b.counts['cannot-tell'] - a.counts['cannot-tell'] ||
      (a.score ?? 101) - (b.score ?? 101) ||
      a.site.localeCompare(b.site) ||
      a.system.localeCompare(b.system),
  );
}
