import { z } from 'zod';
import { REPORT_FORMAT, REPORT_KINDS } from './model.js';

/**
 * Schemas of the report model, its history entries and diffs, for the IPC contract and for
 * reading stored reports back. They mirror the types in `model.ts` and `diff.ts`.
 */

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** A report kind. */
export const reportKindSchema = z.enum(REPORT_KINDS);
/** An export format. */
export const reportFormatSchema = z.enum(['pdf', 'html', 'csv', 'json']);

const column = z.object({ id: z.string(), label: z.string(), type: z.enum(['text', 'number', 'bytes', 'percent', 'time', 'bool']) });

const table = z.object({
  id: z.string(),
  title: z.string(),
  columns: z.array(column),
  rows: z.array(z.array(cell)),
  key: z.array(z.string()),
  empty: z.string().optional(),
});

const dataAge = z.object({
  siteId: z.string(),
  siteName: z.string(),
  system: z.string(),
  at: z.string().nullable(),
  ageSeconds: z.number().nullable(),
  state: z.string(),
});

const section = z.object({
  id: z.string(),
  kind: z.enum(['inventory', 'health', 'smart', 'config', 'actions']),
  title: z.string(),
  description: z.string(),
  tables: z.array(table),
  dataAges: z.array(dataAge),
});

/** A {@link ReportModel} (see model.ts). */
export const reportModelSchema = z.object({
  format: z.literal(REPORT_FORMAT),
  kind: reportKindSchema,
  title: z.string(),
  generatedAt: z.string(),
  generatedBy: z.string(),
  appVersion: z.string(),
  source: z.enum(['cache', 'fresh']),
  scope: z.object({
    sites: z.array(z.object({ id: z.string(), name: z.string() })),
    systems: z.array(z.object({ siteId: z.string(), siteName: z.string(), system: z.string() })),
  }),
  period: z.object({ since: z.string().nullable(), until: z.string().nullable() }),
  sections: z.array(section),
  notes: z.array(z.string()),
});

/** A stored report as listed (without its model). */
export const reportSummarySchema = z.object({
  id: z.number().int(),
  kind: reportKindSchema,
  title: z.string(),
  generatedAt: z.string(),
  generatedBy: z.string(),
  source: z.enum(['cache', 'fresh']),
  /** Names of the sites in scope, and their ids (same order). */
  sites: z.array(z.string()),
  siteIds: z.array(z.string()),
  systems: z.number().int(),
  /** SHA-256 of the stored model JSON, to tell two copies apart. */
  sha256: z.string(),
});
/** A history entry. */
export type ReportSummary = z.infer<typeof reportSummarySchema>;

const ref = z.object({ id: z.number().int(), kind: z.string(), generatedAt: z.string() });

/** A ReportDiff (see diff.ts). */
export const reportDiffSchema = z.object({
  from: ref,
  to: ref,
  tables: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      keyColumns: z.array(z.string()),
      columns: z.array(column),
      added: z.array(z.array(cell)),
      removed: z.array(z.array(cell)),
      changed: z.array(z.object({ key: z.array(cell), changes: z.array(z.object({ column: z.string(), label: z.string(), before: cell, after: cell })) })),
    }),
  ),
  summary: z.object({ added: z.number(), removed: z.number(), changed: z.number() }),
});

/** One exported file as the manifest lists it. */
export const exportedFileSchema = z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() });
