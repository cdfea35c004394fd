import { z } from 'zod';

/*
 * A bulk change as it crosses IPC: one write with the same parameters sent to several systems by
 * a job in main (`main/core/bulk.ts`). Declared once here; the job builds exactly this shape.
 */

/**
 * Where one system of a bulk change stands: `pending` not started, `running` being sent, `ok`
 * applied, `refused` the system said no or it was never sent (safe to send again), `unknown` sent
 * without a usable answer (never resent: check the system), `skipped` not sent (the job was
 * cancelled or stopped at a failure; safe to send again).
 */
export const BULK_OUTCOMES = ['pending', 'running', 'ok', 'refused', 'unknown', 'skipped'] as const;
export type BulkOutcome = (typeof BULK_OUTCOMES)[number];

/** The outcomes a retry sends again: what was certainly not applied. `unknown` is never among them. */
export const RETRYABLE_OUTCOMES: readonly BulkOutcome[] = ['refused', 'skipped'];

export const bulkTargetSchema = z.object({
  siteId: z.string(),
  system: z.string(),
  outcome: z.enum(BULK_OUTCOMES),
  /** The system's answer or refusal, or why it was not sent (secrets masked). */
  message: z.string().optional(),
  /** How many times the write was sent (or attempted) to this system. */
  attempts: z.number().int(),
  /** ISO time the last attempt ended. */
  at: z.string().optional(),
});
export type BulkTarget = z.infer<typeof bulkTargetSchema>;

export const bulkJobSchema = z.object({
  id: z.string(),
  /** `METHOD /path` of the catalog operation sent to every system. */
  operation: z.string(),
  destructive: z.boolean(),
  /** The parameters every system receives, secrets masked. */
  request: z.object({ query: z.record(z.string(), z.unknown()), headers: z.record(z.string(), z.unknown()), body: z.unknown().optional() }),
  maxInFlight: z.number().int(),
  stopOnFailure: z.boolean(),
  /** `running` while any system is pending or being sent; then `done`, `stopped` (at a failure) or `cancelled`. */
  state: z.enum(['running', 'done', 'stopped', 'cancelled']),
  /** 1 for the first run, one more per retry. */
  run: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  targets: z.array(bulkTargetSchema),
});
export type BulkJobView = z.infer<typeof bulkJobSchema>;

/** In a window scoped to one site, only bulk changes on that site alone are visible. */
export function bulkInScopeOf(scopedSite: string | undefined): (job: Pick<BulkJobView, 'targets'>) => boolean {
  return (job) => !scopedSite || job.targets.every((t) => t.siteId === scopedSite);
}
