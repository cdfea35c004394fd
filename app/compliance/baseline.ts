import { z } from 'zod';
import { OPERATIONS } from '../catalog/operations.js';
import { REFRESH_READS } from '../fleet/refresh-plan.js';
import { severitySchema } from './severity.js';

/**
 * A compliance baseline: a versioned list of checks, each a rule over the answers a refresh caches.
 * The rule vocabulary is small and closed (every object is strict, every operator known), so a
 * baseline is data an admin can read and review, never code. `baseline.schema.json` is the
 * published JSON Schema of this zod schema (a test keeps the two equal).
 */

/** Format of baseline files this version reads. */
export const BASELINE_FORMAT = 1;

/** The operations a rule may read: those a refresh caches under a fixed query (see `REFRESH_READS`). */
export const COMPLIANCE_READS = REFRESH_READS.map((r) => r.op) as [(typeof REFRESH_READS)[number]['op'], ...Array<(typeof REFRESH_READS)[number]['op']>];

/** A dotted path into an answer (`TargetChap.ChapName`); lists met on the way are flattened. */
const pathSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, 'a dotted field path such as "TargetChap.ChapName"');

const scalarSchema = z.union([z.string(), z.number(), z.boolean()]);

const OPERATORS = ['equals', 'in', 'atLeast', 'atMost', 'present', 'matches'] as const;

/**
 * One test of one field of an item, with exactly one operator: `equals` (a string, number or
 * boolean), `in` (one of a list), `atLeast` / `atMost` (numbers), `present` (the field is there and not
 * empty, or with false is not) or `matches` (a case-insensitive regular expression over a string).
 */
export const conditionSchema = z
  .strictObject({
    field: pathSchema,
    equals: scalarSchema.optional(),
    in: z.array(scalarSchema).min(1).optional(),
    atLeast: z.number().optional(),
    atMost: z.number().optional(),
    present: z.boolean().optional(),
    matches: z
      .string()
      .min(1)
      .refine((p) => compiles(p), 'not a valid regular expression')
      .optional(),
  })
  .refine((c) => OPERATORS.filter((o) => c[o] !== undefined).length === 1, { message: `a condition has exactly one of ${OPERATORS.join(', ')}` });
export type Condition = z.infer<typeof conditionSchema>;

const conditionsSchema = z.union([conditionSchema, z.array(conditionSchema).min(1)]);

const QUANTIFIERS = ['every', 'some', 'none'] as const;
export type Quantifier = (typeof QUANTIFIERS)[number];

const ruleShape = {
  /** The cached read the rule looks at (its query is the refresh plan's). */
  read: z.enum(COMPLIANCE_READS),
  /** Path to the list of items in the answer (`Data`, `Data.Drives`); omitted: the answer is the one item. */
  items: pathSchema.optional(),
  /** Keeps only the items these conditions hold for (all of them). */
  where: conditionsSchema.optional(),
  /** The field that names an item in the evidence (default `Name`). */
  label: pathSchema.optional(),
  /** Every item meets the conditions (no item: not applicable). */
  every: conditionsSchema.optional(),
  /** At least one item meets them (no item: fails). */
  some: conditionsSchema.optional(),
  /** No item meets them (no item: passes). */
  none: conditionsSchema.optional(),
};

const exactlyOneQuantifier = {
  message: `a rule has exactly one of ${QUANTIFIERS.join(', ')}`,
};
const oneQuantifier = (r: Partial<Record<Quantifier, unknown>>): boolean => QUANTIFIERS.filter((q) => r[q] !== undefined).length === 1;

/** A precondition: when it does not pass, the check is not applicable to the system. */
export const preconditionSchema = z.strictObject(ruleShape).refine(oneQuantifier, exactlyOneQuantifier);
export type Precondition = z.infer<typeof preconditionSchema>;

export const ruleSchema = z.strictObject({ ...ruleShape, when: preconditionSchema.optional() }).refine(oneQuantifier, exactlyOneQuantifier);
export type Rule = z.infer<typeof ruleSchema>;

export { SEVERITIES, severitySchema, type Severity } from './severity.js';

/** Which systems a check applies to: every one given must match (a site by name, the site's group, one of its tags); none: all systems. */
export const scopeSchema = z.strictObject({
  site: z.string().min(1).optional(),
  group: z.string().min(1).optional(),
  tag: z.string().min(1).optional(),
});
export type Scope = z.infer<typeof scopeSchema>;

const hoursSchema = z.number().positive().max(24 * 366);

/** The writes a fix may send: every catalog operation that writes and destroys nothing. */
export const FIX_OPERATIONS = OPERATIONS.filter((o) => o.writes && !o.destructive).map((o) => o.key) as [(typeof OPERATIONS)[number]['key'], ...Array<(typeof OPERATIONS)[number]['key']>];

/** The body value replaced by the label of each failing item (a node's name): one write per failing item. */
export const FIX_ITEM = '{item}';

/**
 * The one write that makes a failing check pass, sent to each failing system only after the admin
 * has seen it in a preview. A body value `{item}` stands for each failing item's label (one write
 * per item, such as per node); otherwise one write per system.
 */
export const fixSchema = z
  .strictObject({
    op: z.enum(FIX_OPERATIONS),
    body: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), scalarSchema),
    /** What the write does, in admin language. */
    title: z.string().min(1).max(200),
  })
  .superRefine((f, ctx) => {
    const op = OPERATIONS.find((o) => o.key === f.op);
    const known = new Set(op?.body.map((b) => b.name) ?? []);
    for (const field of Object.keys(f.body)) {
      if (!known.has(field)) ctx.addIssue({ code: 'custom', path: ['body', field], message: `${f.op} has no body field "${field}"` });
    }
  });
export type Fix = z.infer<typeof fixSchema>;

export const checkSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lowercase letters, digits and dashes, at most 64'),
  title: z.string().min(1).max(200),
  rationale: z.string().min(1),
  severity: severitySchema,
  scope: scopeSchema.optional(),
  /** Answers older than this cannot tell; default the baseline's. */
  maxAgeHours: hoursSchema.optional(),
  rule: ruleSchema,
  fix: fixSchema.optional(),
});
export type Check = z.infer<typeof checkSchema>;

export const baselineSchema = z
  .strictObject({
    /** Where an editor finds the JSON Schema; not read. */
    $schema: z.string().optional(),
    format: z.literal(BASELINE_FORMAT),
    name: z.string().min(1).max(100),
    version: z.string().min(1).max(50),
    description: z.string().optional(),
    /** Answers older than this cannot tell (hours). */
    maxAgeHours: hoursSchema,
    checks: z.array(checkSchema).min(1),
  })
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.checks.forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: ['checks', i, 'id'], message: `check id "${c.id}" is used twice` });
      seen.add(c.id);
    });
  });
export type Baseline = z.infer<typeof baselineSchema>;

/**
 * Every field name a baseline's rules look at (each segment of their `items`, `label` and condition
 * paths): whoever compares answers without some of their fields (the alert engine) must not leave
 * out one a check reads.
 */
export function fieldsRead(baseline: Pick<Baseline, 'checks'>): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, key: string): void => {
    if (typeof v === 'string') {
      if (key === 'items' || key === 'label' || key === 'field') for (const part of v.split('.')) out.add(part);
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  for (const c of baseline.checks) walk(c.rule, '');
  return out;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}
