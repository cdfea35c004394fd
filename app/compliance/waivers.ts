import { z } from 'zod';
import type { Level } from '../health/level.js';
import type { Severity } from './severity.js';
import type { CheckOutcome, CheckResult } from './evaluate.js';

/**
 * Waivers: an admin's decision that a failing check is an accepted exception for a system (or
 * every system of a site, or of the fleet) until a date. A waiver is a record of the action log's
 * hash chain (main keeps none elsewhere), so who decided, when and why is as tamper-evident as a
 * write. The newest record for one check and scope wins: a later waiver replaces an earlier one,
 * a revocation ends it. An expired waiver no longer applies, and the check says it fails again.
 */

/** Action-log operation of a waiver granted, and of one revoked. */
export const WAIVE_OPERATION = 'compliance waive';
export const UNWAIVE_OPERATION = 'compliance unwaive';

const siteNamed = { message: 'a waiver of one system names its site' };

const checkId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a check id: lowercase letters, digits and dashes');

/** What a waiver is about: one check, on one system, every system of a site (`system` ''), or the fleet (both ''). */
export const waiverScopeSchema = z
  .strictObject({
    check: checkId,
    siteId: z.string().max(200),
    system: z.string().max(200),
  })
  .refine((s) => s.siteId !== '' || s.system === '', siteNamed);
export type WaiverScope = z.infer<typeof waiverScopeSchema>;

const grantShape = z.strictObject({
  check: checkId,
  siteId: z.string().max(200),
  system: z.string().max(200),
  /** Why the exception is accepted, in the admin's words. */
  reason: z.string().trim().min(1, 'give the reason for the waiver').max(500),
  /** ISO time the waiver ends. */
  until: z.string().max(40).refine((t) => !Number.isNaN(Date.parse(t)), 'not a time (ISO 8601, such as 2027-01-31T00:00:00Z)'),
});

/** The parameters of a waiver record, as the action log keeps them. */
export const waiverGrantSchema = grantShape.refine((s) => s.siteId !== '' || s.system === '', siteNamed);
export type WaiverGrant = z.infer<typeof waiverGrantSchema>;

/** A waiver in force or expired, as read back from the log: the grant, who granted it and when. */
export const waiverSchema = grantShape.extend({
  by: z.string(),
  /** ISO time it was granted. */
  at: z.string(),
  /** Its record's seq in the action log. */
  seq: z.number().int(),
});
export type Waiver = z.infer<typeof waiverSchema>;

/** A waiver as a check outcome shows it: `active` false once it has expired. */
export const appliedWaiverSchema = waiverSchema.extend({ active: z.boolean() });
export type AppliedWaiver = z.infer<typeof appliedWaiverSchema>;

/** A log record as the waiver reader needs it (the action log's listed record has these fields). */
export interface WaiverRecord {
  seq: number;
  at: string;
  user: string;
  operation: string;
  params: unknown;
}

/**
 * The waivers in force or expired after replaying the log's waiver records in order: per check and
 * scope the newest grant, unless revoked after it. Records whose params do not read are skipped.
 */
export function waiversFromLog(records: readonly WaiverRecord[]): Waiver[] {
  const byScope = new Map<string, Waiver | undefined>();
  for (const r of [...records].sort((a, b) => a.seq - b.seq)) {
    if (r.operation === WAIVE_OPERATION) {
      const g = waiverGrantSchema.safeParse(r.params);
      if (g.success) byScope.set(scopeKey(g.data), { ...g.data, by: r.user, at: r.at, seq: r.seq });
    } else if (r.operation === UNWAIVE_OPERATION) {
      const s = waiverScopeSchema.safeParse(r.params);
      if (s.success) byScope.set(scopeKey(s.data), undefined);
    }
  }
  return [...byScope.values()].filter((w): w is Waiver => w !== undefined);
}

export function scopeKey(s: Pick<WaiverScope, 'check' | 'siteId' | 'system'>): string {
  return JSON.stringify([s.check, s.siteId, s.system]);
}

/** Whether a waiver's scope takes in a system. */
export function waiverCovers(w: Pick<WaiverScope, 'siteId' | 'system'>, siteId: string, system: string): boolean {
  return (w.siteId === '' || w.siteId === siteId) && (w.system === '' || w.system === system);
}

/** A check outcome with the waiver that applies to it, if any. */
export type WaivedOutcome = CheckOutcome & { waiver?: AppliedWaiver };

/**
 * The waiver of each failing check of one system: one in force (the most specific, then the one
 * lasting longest), else the most recently expired one, which the reason then names. Checks that do
 * not fail carry no waiver: there is nothing to excuse.
 */
export function applyWaivers(outcomes: readonly CheckOutcome[], waivers: readonly Waiver[], siteId: string, system: string, now: number): WaivedOutcome[] {
  return outcomes.map((o) => {
    if (o.result !== 'fail') return o;
    const mine = waivers.filter((w) => w.check === o.id && waiverCovers(w, siteId, system));
    if (!mine.length) return o;
    const until = (w: Waiver): number => Date.parse(w.until);
    const active = mine.filter((w) => until(w) > now).sort((a, b) => specificity(b) - specificity(a) || until(b) - until(a))[0];
    if (active) return { ...o, waiver: { ...active, active: true } };
    const expired = mine.sort((a, b) => until(b) - until(a))[0] as Waiver;
    return { ...o, reason: `${o.reason}; the waiver granted by ${expired.by} expired ${expired.until}`, waiver: { ...expired, active: false } };
  });
}

const specificity = (w: Waiver): number => (w.system !== '' ? 2 : w.siteId !== '' ? 1 : 0);

/** What an outcome counts as: a failing check with a waiver in force is `waived`, no longer failing. */
export const EFFECTIVE_RESULTS = ['fail', 'cannot-tell', 'waived', 'pass', 'not-applicable'] as const;
export type EffectiveResult = (typeof EFFECTIVE_RESULTS)[number];

export function effectiveResult(o: { result: CheckResult; waiver?: { active: boolean } | undefined }): EffectiveResult {
  return o.result === 'fail' && o.waiver?.active ? 'waived' : o.result;
}

export type ResultCounts = Record<EffectiveResult, number>;

/** Counts of each effective result, for a system or the fleet. */
export function countEffective(outcomes: Iterable<{ result: CheckResult; waiver?: { active: boolean } | undefined }>): ResultCounts {
  const counts: ResultCounts = { fail: 0, 'cannot-tell': 0, waived: 0, pass: 0, 'not-applicable': 0 };
  for (const o of outcomes) counts[effectiveResult(o)]++;
  return counts;
}

/**
 * The compliance score in percent (one decimal): checks shown to comply (passing, or failing under
 * a waiver in force) among those that apply. A check that cannot tell counts against it, since it
 * is never a pass. Undefined when no check applies.
 */
export function complianceScore(c: ResultCounts): number | undefined {
  const applicable = c.pass + c.waived + c.fail + c['cannot-tell'];
  return applicable === 0 ? undefined : Math.round(((c.pass + c.waived) / applicable) * 1000) / 10;
}

/** A waiver as one line: `waived (reason, by alice, until 2027-01-31T00:00:00.000Z)`, or `waiver expired (…)`. */
export function waiverText(w: AppliedWaiver): string {
  return `${w.active ? 'waived' : 'waiver expired'} (${w.reason}, by ${w.by}, until ${w.until})`;
}

/**
 * A check's level in the app's one scheme (`app/health/level.ts`): the tone the view shows and the
 * level an alert of it takes. A failing check of critical severity is critical, any other failing
 * one a warning; not being able to tell is `unknown`; a pass, a waiver in force or not applying is ok.
 */
export function checkLevel(o: { result: CheckResult; severity: Severity; waiver?: { active: boolean } | undefined }): Level {
  const r = effectiveResult(o);
  if (r === 'fail') return o.severity === 'critical' ? 'critical' : 'warning';
  return r === 'cannot-tell' ? 'unknown' : 'ok';
}
