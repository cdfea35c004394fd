import { z } from 'zod';
import { OPERATION_KEYS } from '../catalog/operations.js';
import { severitySchema } from './baseline.js';
import { CHANGE_KINDS, checkStateSchema } from './changes.js';
import { CHECK_RESULTS, type CheckOutcome } from './evaluate.js';
import { appliedWaiverSchema, waiverSchema } from './waivers.js';

/**
 * A fleet's compliance as main answers it to the window, the CLI's `--json` and the audit pack:
 * the baseline in force, every system's checks with evidence and waivers, counts and scores, and
 * the kept score history. Declared once here; main builds exactly this shape.
 */

export const evidenceSchema = z.object({
  op: z.enum(OPERATION_KEYS),
  at: z.string().optional(),
  ageSeconds: z.number().optional(),
  items: z.number(),
  values: z.array(z.object({ item: z.string().optional(), field: z.string(), value: z.unknown().optional() })),
});

export const checkOutcomeSchema = z.object({
  id: z.string(),
  title: z.string(),
  severity: severitySchema,
  result: z.enum(CHECK_RESULTS),
  reason: z.string(),
  evidence: evidenceSchema.optional(),
  waiver: appliedWaiverSchema.optional(),
});
export type CheckOutcomeView = z.infer<typeof checkOutcomeSchema>;
// The evaluation's outcome is one of these (checked by the compiler).
const outcomeFits: CheckOutcomeView = {} as CheckOutcome;
void outcomeFits;

export const resultCountsSchema = z.object({
  fail: z.number().int(),
  'cannot-tell': z.number().int(),
  waived: z.number().int(),
  pass: z.number().int(),
  'not-applicable': z.number().int(),
});

export const systemComplianceSchema = z.object({
  siteId: z.string(),
  site: z.string(),
  system: z.string(),
  /** Effective counts: a failing check under a waiver in force counts as `waived`. */
  counts: resultCountsSchema,
  /** Percent of applicable checks shown to comply; absent when none applies. */
  score: z.number().optional(),
  checks: z.array(checkOutcomeSchema),
});
export type SystemComplianceView = z.infer<typeof systemComplianceSchema>;

/** The baseline in force and how to recognise it. */
export const baselineMetaSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** SHA-256 of the baseline file's bytes (of its JSON text for the shipped one). */
  sha256: z.string(),
  file: z.string().optional(),
  /** Each check: what it is, why, how severe, and whether Fleetdeck can fix it with one write. */
  checks: z.array(z.object({ id: z.string(), title: z.string(), rationale: z.string(), severity: severitySchema, fixable: z.boolean() })),
});
export type BaselineMeta = z.infer<typeof baselineMetaSchema>;

/** One kept score: of one system, or of the scope evaluated (`system` '': the fleet, or a site's systems). */
export const scorePointSchema = z.object({
  at: z.string(),
  siteId: z.string(),
  system: z.string(),
  counts: resultCountsSchema,
  score: z.number().optional(),
});
export type ScorePoint = z.infer<typeof scorePointSchema>;

/**
 * One check of one system that changed at the system's last change: what it was at the previous
 * kept evaluation (`since`) and what it is from the evaluation that first showed it (`at`). A
 * system keeps showing its last change until another one replaces it.
 */
export const checkChangeSchema = z.object({
  siteId: z.string(),
  site: z.string(),
  system: z.string(),
  check: z.string(),
  title: z.string(),
  severity: severitySchema,
  kind: z.enum(CHANGE_KINDS),
  from: checkStateSchema,
  to: checkStateSchema,
  since: z.string(),
  at: z.string(),
});
export type CheckChange = z.infer<typeof checkChangeSchema>;

export const fleetComplianceSchema = z.object({
  baseline: baselineMetaSchema,
  evaluatedAt: z.string(),
  /** Counts and score over every system evaluated. */
  counts: resultCountsSchema,
  score: z.number().optional(),
  systems: z.array(systemComplianceSchema),
  /** Every waiver recorded in the action log that is in force or has expired (revoked ones are gone). */
  waivers: z.array(waiverSchema),
  /** The scope's kept scores, oldest first (at most the last 50). */
  history: z.array(scorePointSchema),
  /** What changed since the previous kept evaluation: each system's last change, newest first, then by site, system and the baseline's order. */
  changes: z.array(checkChangeSchema),
});
export type FleetComplianceView = z.infer<typeof fleetComplianceSchema>;
