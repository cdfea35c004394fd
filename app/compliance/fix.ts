import { z } from 'zod';
import { FIX_ITEM, FIX_OPERATIONS, type Check } from './baseline.js';
import type { SystemComplianceView } from './results.js';
import { effectiveResult } from './waivers.js';

/**
 * The preview of a check's fix: the exact writes that would make it pass on the systems where it
 * fails (without a waiver in force), grouped so that each group is one bulk change (the same
 * write, the same body, on several systems). Pure: nothing here sends anything.
 */

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const fixWriteSchema = z.object({
  op: z.enum(FIX_OPERATIONS),
  body: z.record(z.string(), scalar),
  /** Each system this exact write goes to, with the failing item it is for (when per item). */
  targets: z.array(z.object({ siteId: z.string(), site: z.string(), system: z.string(), item: z.string().optional() })),
});
export type FixWrite = z.infer<typeof fixWriteSchema>;

export const fixPlanSchema = z.object({
  check: z.string(),
  title: z.string(),
  /** What the fix does, in the baseline's words. */
  fixTitle: z.string(),
  writes: z.array(fixWriteSchema),
  /** Failing systems the fix cannot reach: an item without a name to put in the write, for instance. */
  left: z.array(z.object({ siteId: z.string(), site: z.string(), system: z.string(), why: z.string() })),
});
export type FixPlan = z.infer<typeof fixPlanSchema>;

/**
 * The writes of a check's fix over the evaluated systems. A body value {@link FIX_ITEM} is each
 * failing item's label from the evidence (one write per item: a node's name); otherwise one write
 * per failing system. Equal writes are grouped.
 * @returns undefined when the check has no fix
 */
export function fixPlan(check: Check, systems: readonly SystemComplianceView[]): FixPlan | undefined {
  const fix = check.fix;
  if (!fix) return undefined;
  const perItem = Object.values(fix.body).includes(FIX_ITEM);
  const groups = new Map<string, FixWrite>();
  const left: FixPlan['left'] = [];
  const add = (body: FixWrite['body'], target: FixWrite['targets'][number]): void => {
    const key = JSON.stringify(body);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { op: fix.op, body, targets: [] }));
    if (!g.targets.some((t) => t.siteId === target.siteId && t.system === target.system && t.item === target.item)) g.targets.push(target);
  };
  for (const s of systems) {
    const outcome = s.checks.find((c) => c.id === check.id);
    if (!outcome || effectiveResult(outcome) !== 'fail') continue;
    const where = { siteId: s.siteId, site: s.site, system: s.system };
    if (!perItem) {
      add({ ...fix.body }, where);
      continue;
    }
    const items = (outcome.evidence?.values ?? []).map((v) => v.item).filter((i): i is string => i !== undefined);
    if (!items.length) {
      left.push({ ...where, why: 'the evidence names no failing item to put in the write' });
      continue;
    }
    for (const item of items) {
      const body = Object.fromEntries(Object.entries(fix.body).map(([k, v]) => [k, v === FIX_ITEM ? item : v]));
      add(body, { ...where, item });
    }
  }
  return { check: check.id, title: check.title, fixTitle: fix.title, writes: [...groups.values()], left };
}
