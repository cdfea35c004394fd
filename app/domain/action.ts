import { z } from 'zod';

/*
 * The action log's record, declared once: the store lists it, IPC carries it (without the chain
 * link), reports show it. Its variants are derived here.
 */

/** How a write ended: applied, refused (by the system, or not sent at all), or unknown (no answer). */
export const WRITE_RESULTS = ['ok', 'refused', 'unknown'] as const;
export type WriteResult = (typeof WRITE_RESULTS)[number];

/**
 * The result a listed write shows: `ok` applied; `refused` not applied (the system said no, or it
 * was never sent); `unknown` no answer, or no outcome recorded (the app stopped mid-write); `error`
 * only on records from before intents were kept.
 */
export const actionResultSchema = z.enum([...WRITE_RESULTS, 'error']);
export type ActionResult = z.infer<typeof actionResultSchema>;

/** One write as the log lists it: its intent joined with its outcome. */
export const actionRecordSchema = z.object({
  /** Seq of the write's intent (or of the imported record), 1-based. */
  seq: z.number(),
  /** ISO time the write was sent. */
  at: z.string(),
  user: z.string(),
  siteId: z.string(),
  system: z.string(),
  /** Operation key, `METHOD /path`. */
  operation: z.string(),
  /** Redacted parameters (the raw text if the stored JSON no longer parses). */
  params: z.unknown(),
  result: actionResultSchema,
  message: z.string(),
  /** ISO time the outcome was recorded; absent when none was (and on imported records). */
  completedAt: z.string().optional(),
  /** Hash of the record before the intent (the genesis hash for the first). */
  prevHash: z.string(),
  /** SHA-256 (lowercase hex) of the intent record. */
  hash: z.string(),
});
export type ActionRecord = z.infer<typeof actionRecordSchema>;

/** A record as it crosses IPC: the chain link stays in main. */
export const actionEntrySchema = actionRecordSchema.omit({ prevHash: true });
export type ActionEntry = z.infer<typeof actionEntrySchema>;

/** A record as a report shows it (already redacted by the log). */
export type ActionReportRecord = Omit<ActionRecord, 'prevHash' | 'completedAt' | 'result'> & { result: string };

/** The result of walking the log's hash chain. */
export const actionLogVerificationSchema = z.object({
  ok: z.boolean(),
  count: z.number(),
  problems: z.array(z.object({ seq: z.number(), reason: z.string() })),
});
export type ActionLogVerification = z.infer<typeof actionLogVerificationSchema>;
