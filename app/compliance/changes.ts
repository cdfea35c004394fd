import { z } from 'zod';
import type { CheckResult } from './evaluate.js';
import { EFFECTIVE_RESULTS, effectiveResult } from './waivers.js';

/**
 * What changed in a system's compliance between two kept evaluations, check by check. Each kept
 * evaluation stores every check's state (its effective result, or `waiver-expired` for a check
 * failing again because its waiver ended); comparing the current states with the last kept ones
 * gives the changes. A check absent from either (the baseline changed) is no change.
 */

/** A check's state as kept per evaluation: its effective result, or a failure whose waiver has expired. */
export const CHECK_STATES = [...EFFECTIVE_RESULTS, 'waiver-expired'] as const;
export type CheckState = (typeof CHECK_STATES)[number];
export const checkStateSchema = z.enum(CHECK_STATES);

/** What a change is, named by where the check went: it newly fails, its waiver expired, it became cannot-tell, it newly passes… */
export const CHANGE_KINDS = ['fails', 'waiver-expired', 'cannot-tell', 'passes', 'waived', 'not-applicable'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** How each kind reads where an admin reads it (the view, the CLI, the audit pack). */
export const CHANGE_WORDS: Record<ChangeKind, string> = {
  fails: 'newly fails',
  'waiver-expired': 'waiver expired',
  'cannot-tell': 'became cannot tell',
  passes: 'newly passes',
  waived: 'newly waived',
  'not-applicable': 'no longer applies',
};

/** One check's change: from the state kept at the previous evaluation to the one now. */
export const stateChangeSchema = z.object({ check: z.string(), from: checkStateSchema, to: checkStateSchema });
export type StateChange = z.infer<typeof stateChangeSchema>;

/** A system's last change as kept: the evaluation compared with (`since`), the one that first showed it (`at`), and each check that moved. */
export const keptChangeSchema = z.object({ since: z.string(), at: z.string(), checks: z.array(stateChangeSchema) });
export type KeptChange = z.infer<typeof keptChangeSchema>;

/** Each check's state, by id, in the order given. */
export function checkStates(checks: Iterable<{ id: string; result: CheckResult; waiver?: { active: boolean } | undefined }>): Record<string, CheckState> {
  const out: Record<string, CheckState> = {};
  for (const c of checks) out[c.id] = c.result === 'fail' && c.waiver && !c.waiver.active ? 'waiver-expired' : effectiveResult(c);
  return out;
}

/**
 * The checks whose state differs between two evaluations, in the order of `now`. A check that
 * failed with an expired waiver and now fails without one (the waiver was revoked) still fails:
 * no change.
 */
export function stateChanges(before: Readonly<Record<string, CheckState>>, now: Readonly<Record<string, CheckState>>): StateChange[] {
  const out: StateChange[] = [];
  for (const [check, to] of Object.entries(now)) {
    const from = before[check];
    if (from === undefined || from === to || (from === 'waiver-expired' && to === 'fail')) continue;
    out.push({ check, from, to });
  }
  return out;
}

/** The kind of a change, from the state it went to. */
export function changeKind(to: CheckState): ChangeKind {
  return to === 'fail' ? 'fails' : to === 'pass' ? 'passes' : to;
}
