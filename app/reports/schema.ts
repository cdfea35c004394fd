import { z } from 'zod';
import { AUDIT_PARTS_LIST, REPORT_FORMAT, REPORT_KINDS } from './kinds.js';

/**
 * The report model declared once: these schemas (for the IPC contract and for reading stored
 * reports back), from which `model.ts` infers its types; history entries derived from the model.
 * Diffs mirror `diff.ts`.
 */

export const cellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const cell = cellSchema;

/** A report kind. */
export const reportKindSchema = z.enum(REPORT_KINDS);
/** An export format. */
export const reportFormatSchema = z.enum(['pdf', 'html', 'csv', 'json']);

export const columnTypeSchema = z.enum(['text', 'number', 'bytes', 'percent', 'time', 'bool']);
export const columnSchema = z.object({
  /** Stable id, used as the CSV header and to match columns between two reports. */
  id: z.string(),
  label: z.string(),
  type: columnTypeSchema,
});
const column = columnSchema;

export const reportSourceSchema = z.enum(['cache', 'fresh']);

export const reportTableSchema = z.object({
  /** Stable id unique in a report, e.g. `config.hosts`: CSV file name and diff key. */
  id: z.string(),
  title: z.string(),
  columns: z.array(column),
  rows: z.array(z.array(cell)),
  /** Column ids that identify a row (site, system, host name …): what a diff matches rows by. */
  key: z.array(z.string()),
  /** Shown under the table when there are no rows. */
  empty: z.string().optional(),
});
const table = reportTableSchema;

export const dataAgeSchema = z.object({
  siteId: z.string(),
  siteName: z.string(),
  system: z.string(),
  /** ISO time of the oldest answer the section used for this system; null when nothing is cached. */
  at: z.string().nullable(),
  /** Seconds between `at` and the report's generation; null when nothing is cached. */
  ageSeconds: z.number().nullable(),
  /** The system's state when the report was made (ok, unreachable, stale …). */
  state: z.string(),
});
const dataAge = dataAgeSchema;

export const reportSectionSchema = z.object({
  /** Stable id, e.g. `config`. */
  id: z.string(),
  /** The kind this section belongs to (in an audit pack, each part keeps its own kind). */
  kind: z.enum(AUDIT_PARTS_LIST),
  title: z.string(),
  /** What the section shows and where its numbers come from. */
  description: z.string(),
  tables: z.array(table),
  /** Per system, how old the data behind this section is (empty for the action log: it is local). */
  dataAges: z.array(dataAge),
});
const section = reportSectionSchema;

export const scopeSystemSchema = z.object({ siteId: z.string(), siteName: z.string(), system: z.string() });
export const reportScopeSchema = z.object({
  sites: z.array(z.object({ id: z.string(), name: z.string() })),
  systems: z.array(scopeSystemSchema),
});

/** A {@link ReportModel} (see model.ts). */
export const reportModelSchema = z.object({
  format: z.literal(REPORT_FORMAT),
  kind: reportKindSchema,
  title: z.string(),
  /** ISO time the report was built. */
  generatedAt: z.string(),
  /** OS user who built it. */
  generatedBy: z.string(),
  appVersion: z.string(),
  source: reportSourceSchema,
  scope: reportScopeSchema,
  /** The period of the action log part (ISO; absent bound = open). */
  period: z.object({ since: z.string().nullable(), until: z.string().nullable() }),
  sections: z.array(section),
  /** Facts an auditor must know, e.g. systems with no cached data or a refresh that failed. */
  notes: z.array(z.string()),
});

/** A stored report as listed (without its model). */
export const reportSummarySchema = reportModelSchema.pick({ kind: true, title: true, generatedAt: true, generatedBy: true, source: true }).extend({
  id: z.number().int(),
  /** Names of the sites in scope, and their ids (same order). */
  sites: z.array(z.string()),
  siteIds: z.array(z.string()),
  /** Systems in scope. */
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

/**
 * How a one-file export ended: saved where the admin chose in main's dialog (Electron), cancelled
 * there, or handed to the window to download (browser shell) with its size and SHA-256.
 */
export const fileExportSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), path: z.string(), bytes: z.number().int(), sha256: z.string() }),
  z.object({ kind: z.literal('cancelled') }),
  z.object({ kind: z.literal('download'), fileName: z.string(), mimeType: z.string(), content: z.string(), bytes: z.number().int(), sha256: z.string() }),
]);

/**
 * How a report export ended: written to a new folder inside the one the admin chose in main's
 * dialog (Electron), cancelled there, or handed to the window as one ZIP (base64) holding that
 * folder (browser shell). Either way with every file's SHA-256 and the manifest's own.
 */
export const reportExportSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), dir: z.string(), files: z.array(exportedFileSchema), manifestSha256: z.string() }),
  z.object({ kind: z.literal('cancelled') }),
  z.object({ kind: z.literal('download'), fileName: z.string(), mimeType: z.string(), base64: z.string(), files: z.array(exportedFileSchema), manifestSha256: z.string() }),
]);
