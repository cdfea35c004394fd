import type { z } from 'zod';
import { AUDIT_PARTS_LIST, REPORT_KINDS } from './kinds.js';
import type { cellSchema, columnSchema, columnTypeSchema, dataAgeSchema, reportModelSchema, reportScopeSchema, reportSectionSchema, reportSourceSchema, reportTableSchema, scopeSystemSchema } from './schema.js';
/**
 * The report model: what every report kind produces and every format (PDF, HTML, CSV, JSON) renders.
 * Plain data only (no functions, no Dates), so it is stored as JSON in the report history, sent over
 * IPC, and compared between two reports.
 */

export { AUDIT_PARTS_LIST, REPORT_FORMAT, REPORT_KINDS } from './kinds.js';

/** One of {@link REPORT_KINDS}. */
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The kinds an audit pack is made of, in order ({@link AUDIT_PARTS_LIST}), as report kinds. */
export const AUDIT_PARTS: readonly Exclude<ReportKind, 'audit'>[] = AUDIT_PARTS_LIST;

/** Human titles of the kinds. */
export const KIND_TITLES: Readonly<Record<ReportKind, string>> = {
  inventory: 'Fleet inventory',
  health: 'Health and capacity',
  smart: 'Hardware and SMART risk',
  config: 'Configuration snapshot',
  actions: 'Action log',
  compliance: 'Compliance',
  audit: 'Audit pack',
};

/** True when `text` names a report kind. */
export function isReportKind(text: string): text is ReportKind {
  return (REPORT_KINDS as readonly string[]).includes(text);
}

/** Where the data came from: the offline cache only, or the cache right after a refresh. */
export type ReportSource = z.infer<typeof reportSourceSchema>;

/** A table cell: numbers stay numbers (so CSV and diffs see values, not formatted text). */
export type Cell = z.infer<typeof cellSchema>;

/**
 * How a column is shown. `bytes` and `percent` are numbers formatted by the HTML/PDF renderer;
 * `time` is an ISO 8601 string; CSV and JSON keep the raw value.
 */
export type ColumnType = z.infer<typeof columnTypeSchema>;

/** A table column. */
export type Column = z.infer<typeof columnSchema>;

/** A titled table: columns, rows of cells, and the key columns a diff matches rows by. */
export type ReportTable = z.infer<typeof reportTableSchema>;

/** How old one system's data is in a section. */
export type DataAge = z.infer<typeof dataAgeSchema>;

/** One part of a report: a kind's tables with the per-system data ages behind them. */
export type ReportSection = z.infer<typeof reportSectionSchema>;

/** A system in a report's scope. */
export type ScopeSystem = z.infer<typeof scopeSystemSchema>;

/** The sites and systems a report covers. */
export type ReportScope = z.infer<typeof reportScopeSchema>;


/** A complete report, as stored, sent over IPC and rendered into every format (schema: `schema.ts`). */
export type ReportModel = z.infer<typeof reportModelSchema>;

/**
 * Per system, the oldest data any section of a report used: the figure for the manifest and the
 * notes. `at` is null only when no section had any data of the system (a section missing some
 * data shows that in its own ages).
 */
export function overallDataAges(model: ReportModel): DataAge[] {
  const byKey = new Map<string, DataAge>();
  for (const section of model.sections) {
    for (const age of section.dataAges) {
      const k = `${age.siteId}\u0000${age.system}`;
      const prev = byKey.get(k);
      if (!prev || prev.at === null || (age.at !== null && Date.parse(age.at) < Date.parse(prev.at))) byKey.set(k, { ...(prev ?? age), at: age.at, ageSeconds: age.ageSeconds });
    }
  }
  return [...byKey.values()].sort((a, b) => a.siteName.localeCompare(b.siteName) || a.system.localeCompare(b.system));
}

/** Every table of a report with the section it is in, in order. */
export function allTables(model: ReportModel): Array<{ section: ReportSection; table: ReportTable }> {
  return model.sections.flatMap((section) => section.tables.map((table) => ({ section, table })));
}
