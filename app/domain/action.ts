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
  /** Records walked: each write is an intent, then its outcome once known. */
  count: z.number(),
  /** Writes sent to systems that those records are of (an intent and its outcome are one). */
  writes: z.number(),
  /** In chain order, so the first is the first broken record; `seq` 0 concerns the log as a whole, `at` is the record's time when it is there to read. */
  problems: z.array(z.object({ seq: z.number(), reason: z.string(), at: z.string().optional() })),
  /**
   * In a window scoped to one site: how many of the `count` records are that site's. The chain links
   * every site's records in one sequence, so it is always verified whole; this says how much of it
   * is the site's.
   */
  site: z.object({ id: z.string(), count: z.number() }).optional(),
});
export type ActionLogVerification = z.infer<typeof actionLogVerificationSchema>;

/** Every result a listed write can show, in the order the view offers them. */
export const ACTION_RESULTS = actionResultSchema.options;

/**
 * Which writes to list or export: every field narrows (all of them together), none means every
 * write. `siteId` and `system` match exactly, `operation` is a case-insensitive part of the key
 * (`users/create`), `results` any of those outcomes, `since` inclusive and `until` exclusive (ISO).
 * Bounded so a filter cannot become an expensive query.
 */
export const actionLogFilterSchema = z.object({
  siteId: z.string().min(1).max(200).optional(),
  system: z.string().min(1).max(200).optional(),
  operation: z.string().min(1).max(200).optional(),
  results: z.array(actionResultSchema).min(1).max(ACTION_RESULTS.length).optional(),
  since: z.string().max(40).optional(),
  until: z.string().max(40).optional(),
});
export type ActionLogFilter = z.infer<typeof actionLogFilterSchema>;

/** One page of filtered writes, newest first, with how many match in all and when they were read. */
export const actionLogPageSchema = z.object({
  total: z.number(),
  offset: z.number(),
  records: z.array(actionEntrySchema),
  /** ISO time the log was read (the data age of the page). */
  at: z.string(),
});
export type ActionLogPage = z.infer<typeof actionLogPageSchema>;

/** Formats the filtered records export to. */
export const ACTION_EXPORT_FORMATS = ['csv', 'json'] as const;
export type ActionExportFormat = (typeof ACTION_EXPORT_FORMATS)[number];

/**
 * What an export did: saved to a file the admin chose (Electron's save dialog), cancelled there, or
 * the file's text handed to the window to download (the browser shell has no dialog of its own).
 */
export const actionLogExportSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), path: z.string(), count: z.number() }),
  z.object({ kind: z.literal('cancelled') }),
  z.object({ kind: z.literal('download'), fileName: z.string(), mimeType: z.string(), content: z.string(), count: z.number() }),
]);
export type ActionLogExport = z.infer<typeof actionLogExportSchema>;
