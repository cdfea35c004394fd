import type { OperationKey } from '../catalog/index.js';
import type { Baseline, Check, Condition, Precondition, Quantifier, Rule, Scope, Severity } from './baseline.js';

/**
 * A baseline's checks evaluated for one system from its cached answers, pure: no read is made.
 * A check passes only on data that shows it: an answer missing, unreadable or older than the
 * check's age limit, or a field it needs absent, *cannot tell*, never passes.
 */

export const CHECK_RESULTS = ['fail', 'cannot-tell', 'pass', 'not-applicable'] as const;
/** Worst first: the order a view or the CLI sorts by. */
export type CheckResult = (typeof CHECK_RESULTS)[number];

/** A cached answer as the evaluation reads it: its value and the ISO time it was read, or why it cannot be read. */
export type CachedAnswer = { value: unknown; at: string } | { unreadable: string };

/** Reads one cached answer of the system (the refresh plan's query for `op`); undefined when none is cached. */
export type AnswerSource = (op: OperationKey) => CachedAnswer | undefined;

/** The system a check is evaluated for: what a scope matches against. */
export interface ComplianceTarget {
  /** The site's name. */
  site: string;
  group?: string | undefined;
  tags: readonly string[];
}

/** One value the result rests on: the item it belongs to (its label), the field and its cached value (absent: not in the answer). */
export interface EvidenceValue {
  item?: string;
  field: string;
  value?: unknown;
}

/** What a result rests on: the operation read, when (ISO) and how old it was, and the values that decided. */
export interface Evidence {
  op: OperationKey;
  at?: string;
  ageSeconds?: number;
  /** Items the rule looked at (after `where`). */
  items: number;
  /** At most {@link MAX_EVIDENCE_VALUES}: those that failed, could not tell, or (on a pass) those that passed. */
  values: EvidenceValue[];
}

export interface CheckOutcome {
  id: string;
  title: string;
  severity: Severity;
  result: CheckResult;
  /** One sentence: why this result. */
  reason: string;
  /** Absent when the check is outside its scope for this system. */
  evidence?: Evidence;
}

export const MAX_EVIDENCE_VALUES = 10;

type Truth = 'true' | 'false' | 'unknown';

interface RuleOutcome {
  result: CheckResult;
  reason: string;
  evidence: Evidence;
}

/** Does the scope take in this system? No scope, or every field given matches. */
export function inScope(scope: Scope | undefined, target: ComplianceTarget): boolean {
  if (!scope) return true;
  if (scope.site !== undefined && scope.site !== target.site) return false;
  if (scope.group !== undefined && scope.group !== target.group) return false;
  if (scope.tag !== undefined && !target.tags.includes(scope.tag)) return false;
  return true;
}

/** Every check of the baseline for one system, in the baseline's order; `now` in ms since the epoch. */
export function evaluateSystem(baseline: Baseline, target: ComplianceTarget, answers: AnswerSource, now: number): CheckOutcome[] {
  return baseline.checks.map((check) => evaluateCheck(check, baseline.maxAgeHours, target, answers, now));
}

/** One check for one system. */
export function evaluateCheck(check: Check, defaultMaxAgeHours: number, target: ComplianceTarget, answers: AnswerSource, now: number): CheckOutcome {
  const head = { id: check.id, title: check.title, severity: check.severity };
  if (!inScope(check.scope, target)) return { ...head, result: 'not-applicable', reason: 'outside the check’s scope' };
  const maxAgeMs = (check.maxAgeHours ?? defaultMaxAgeHours) * 3_600_000;
  if (check.rule.when) {
    const pre = evaluateRule(check.rule.when, answers, now, maxAgeMs);
    if (pre.result === 'cannot-tell') return { ...head, ...pre, reason: `cannot tell whether the check applies: ${pre.reason}` };
    if (pre.result !== 'pass') return { ...head, ...pre, result: 'not-applicable', reason: `does not apply: ${pre.reason}` };
  }
  return { ...head, ...evaluateRule(check.rule, answers, now, maxAgeMs) };
}

/** Counts of each result, for a system or the fleet. */
export function countResults(outcomes: readonly { result: CheckResult }[]): Record<CheckResult, number> {
  const counts: Record<CheckResult, number> = { fail: 0, 'cannot-tell': 0, pass: 0, 'not-applicable': 0 };
  for (const o of outcomes) counts[o.result]++;
  return counts;
}

function evaluateRule(rule: Rule | Precondition, answers: AnswerSource, now: number, maxAgeMs: number): RuleOutcome {
  const op = rule.read;
  const answer = answers(op);
  if (!answer) return { result: 'cannot-tell', reason: `no cached answer of ${op}`, evidence: { op, items: 0, values: [] } };
  if ('unreadable' in answer) return { result: 'cannot-tell', reason: `the cached answer of ${op} cannot be read: ${answer.unreadable}`, evidence: { op, items: 0, values: [] } };
  const readAt = Date.parse(answer.at);
  const ageSeconds = Number.isNaN(readAt) ? undefined : Math.max(0, Math.round((now - readAt) / 1000));
  const base = { op, at: answer.at, ...(ageSeconds !== undefined ? { ageSeconds } : {}) };
  // Judged on the exact age; the whole seconds are for the evidence only.
  if (ageSeconds === undefined || now - readAt > maxAgeMs) {
    const why = ageSeconds === undefined ? 'its read time is unknown' : `read ${hoursText(ageSeconds)} ago, older than the ${hoursText(maxAgeMs / 1000)} allowed`;
    return { result: 'cannot-tell', reason: `the cached answer of ${op} is too old: ${why}`, evidence: { ...base, items: 0, values: [] } };
  }
  const all = rule.items === undefined ? [answer.value] : itemsAt(answer.value, rule.items);
  if (all === undefined) return { result: 'cannot-tell', reason: `${rule.items ?? ''} in the answer of ${op} is not a list of objects`, evidence: { ...base, items: 0, values: [] } };

  const where = rule.where === undefined ? undefined : asList(rule.where);
  const items: unknown[] = [];
  const unsure: unknown[] = [];
  for (const item of all) {
    const t = where ? testAll(where, item).truth : 'true';
    if (t === 'true') items.push(item);
    else if (t === 'unknown') unsure.push(item);
  }
  const [quantifier, conditions] = quantified(rule);
  const label = rule.label ?? 'Name';
  const tested = items.map((item) => ({ item, ...testAll(conditions, item) }));
  const by = (t: Truth) => tested.filter((x) => x.truth === t);
  const evidenceOf = (rows: typeof tested): EvidenceValue[] =>
    rows.slice(0, MAX_EVIDENCE_VALUES).map((r) => {
      const value = fieldValue(r.item, r.condition.field);
      const name = labelOf(r.item, label);
      return { ...(name !== undefined ? { item: name } : {}), field: r.condition.field, ...(value !== undefined ? { value } : {}) };
    });
  const evidence = (rows: typeof tested): Evidence => ({ ...base, items: items.length, values: evidenceOf(rows) });
  const what = conditionsText(conditions);
  const unsureWhere = unsure.length ? `; ${unsure.length} item${unsure.length > 1 ? 's' : ''} could not be sorted by ${conditionsText(where ?? [])}` : '';

  const failed = by('false');
  const unknown = by('unknown');
  const passed = by('true');
  if (quantifier === 'every') {
    if (failed.length) return { result: 'fail', reason: `${failed.length} of ${items.length} do not meet ${what}`, evidence: evidence(failed) };
    if (unknown.length || unsure.length) return { result: 'cannot-tell', reason: `${unknown.length} of ${items.length} lack what ${what} needs${unsureWhere}`, evidence: evidence(unknown) };
    if (!items.length) return { result: 'not-applicable', reason: `nothing to check in ${op}`, evidence: evidence([]) };
    return { result: 'pass', reason: items.length === 1 ? `1 of 1 meets ${what}` : `all ${items.length} meet ${what}`, evidence: evidence(passed) };
  }
  if (quantifier === 'some') {
    if (passed.length) return { result: 'pass', reason: `${passed.length} of ${items.length} meet ${what}`, evidence: evidence(passed) };
    if (unknown.length || unsure.length) return { result: 'cannot-tell', reason: `none shown to meet ${what}; ${unknown.length} lack the fields it needs${unsureWhere}`, evidence: evidence(unknown) };
    return { result: 'fail', reason: items.length ? `none of ${items.length} meets ${what}` : `none in ${op} meets ${what}`, evidence: evidence(failed) };
  }
  if (passed.length) return { result: 'fail', reason: `${passed.length} of ${items.length} match ${what}`, evidence: evidence(passed) };
  if (unknown.length || unsure.length) return { result: 'cannot-tell', reason: `${unknown.length} of ${items.length} lack what ${what} needs${unsureWhere}`, evidence: evidence(unknown) };
  return { result: 'pass', reason: items.length ? `none of ${items.length} matches ${what}` : `none in ${op} matches ${what}`, evidence: evidence(failed) };
}

function quantified(rule: Rule | Precondition): [Quantifier, Condition[]] {
  if (rule.every !== undefined) return ['every', asList(rule.every)];
  if (rule.some !== undefined) return ['some', asList(rule.some)];
  // The schema admits exactly one quantifier.
  return ['none', asList(rule.none as Condition | Condition[])];
}

const asList = (c: Condition | Condition[]): Condition[] => (Array.isArray(c) ? c : [c]);

/** All conditions on one item: the first that fails (or else cannot tell) is the one the evidence shows. */
function testAll(conditions: readonly Condition[], item: unknown): { truth: Truth; condition: Condition } {
  let unknown: Condition | undefined;
  for (const c of conditions) {
    const t = test(c, item);
    if (t === 'false') return { truth: 'false', condition: c };
    if (t === 'unknown') unknown ??= c;
  }
  return unknown ? { truth: 'unknown', condition: unknown } : { truth: 'true', condition: conditions[0] as Condition };
}

const patterns = new Map<string, RegExp>();

function test(c: Condition, item: unknown): Truth {
  const v = fieldValue(item, c.field);
  if (c.present !== undefined) return truth(isPresent(v) === c.present);
  if (v === undefined) return 'unknown';
  if (c.equals !== undefined) return typeof v === typeof c.equals ? truth(v === c.equals) : 'unknown';
  if (c.in !== undefined) return c.in.some((x) => typeof x === typeof v) ? truth(c.in.includes(v as string | number | boolean)) : 'unknown';
  if (c.atLeast !== undefined) return typeof v === 'number' ? truth(v >= c.atLeast) : 'unknown';
  if (c.atMost !== undefined) return typeof v === 'number' ? truth(v <= c.atMost) : 'unknown';
  if (c.matches !== undefined) {
    if (typeof v !== 'string') return 'unknown';
    let re = patterns.get(c.matches);
    if (!re) patterns.set(c.matches, (re = new RegExp(c.matches, 'i')));
    return truth(re.test(v));
  }
  return 'unknown';
}

const truth = (b: boolean): Truth => (b ? 'true' : 'false');

/** There and not empty: an empty string or list says nothing is set. */
function isPresent(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string' || Array.isArray(v)) return v.length > 0;
  return true;
}

/** The value at a dotted path inside one item; undefined where the path leaves the objects. */
export function fieldValue(item: unknown, path: string): unknown {
  let v: unknown = item;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/**
 * The items at a dotted path, lists met on the way flattened (`Data.Drives`: every drive of every
 * node). A path absent from the answer is no items (normalised answers drop empty and null
 * fields); a scalar where a list or object belongs makes it unreadable (undefined).
 */
export function itemsAt(answer: unknown, path: string): unknown[] | undefined {
  let level: unknown[] = [answer];
  for (const part of path.split('.')) {
    const next: unknown[] = [];
    for (const v of level) {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
      const child = (v as Record<string, unknown>)[part];
      if (child === undefined || child === null) continue;
      if (Array.isArray(child)) next.push(...(child as unknown[]));
      else next.push(child);
    }
    level = next;
  }
  return level.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v)) ? level : undefined;
}

function labelOf(item: unknown, path: string): string | undefined {
  const v = fieldValue(item, path);
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** A condition as an admin reads it: `TwoStepAuthenticationEnabled = true`, `MinEventLevel <= 3`. */
export function conditionText(c: Condition): string {
  if (c.present !== undefined) return `${c.field} ${c.present ? 'is set' : 'is not set'}`;
  if (c.equals !== undefined) return `${c.field} = ${JSON.stringify(c.equals)}`;
  if (c.in !== undefined) return `${c.field} in ${c.in.map((x) => JSON.stringify(x)).join(', ')}`;
  if (c.atLeast !== undefined) return `${c.field} >= ${c.atLeast}`;
  if (c.atMost !== undefined) return `${c.field} <= ${c.atMost}`;
  return `${c.field} matches /${c.matches ?? ''}/i`;
}

function conditionsText(conditions: readonly Condition[]): string {
  return conditions.map(conditionText).join(' and ');
}

function hoursText(seconds: number): string {
  const h = seconds / 3600;
  return h >= 48 ? `${Math.round(h / 24)} d` : h >= 1 ? `${Math.round(h * 10) / 10} h` : `${Math.round(seconds / 60)} min`;
}
