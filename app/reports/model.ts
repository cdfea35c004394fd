/**
 * The report model: what every report kind produces and every format (PDF, HTML, CSV, JSON) renders.
 * Plain data only (no functions, no Dates), so it is stored as JSON in the report history, sent over
 * IPC, and compared between two reports.
 */

/** The report kinds. `audit` contains the sections of all the others. */
export const REPORT_KINDS = ['inventory', 'health', 'smart', 'config', 'actions', 'audit'] as const;
/** One of {@link REPORT_KINDS}. */
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The kinds an audit pack is made of, in the order they appear in it. */
export const AUDIT_PARTS: readonly Exclude<ReportKind, 'audit'>[] = ['inventory', 'health', 'smart', 'config', 'actions'];

/** Human titles of the kinds. */
export const KIND_TITLES: Readonly<Record<ReportKind, string>> = {
  inventory: 'Fleet inventory',
  health: 'Health and capacity',
  smart: 'Hardware and SMART risk',
  config: 'Configuration snapshot',
  actions: 'Action log',
  audit: 'Audit pack',
};

/** True when `text` names a report kind. */
export function isReportKind(text: string): text is ReportKind {
  return (REPORT_KINDS as readonly string[]).includes(text);
}

/** Where the data came from: the offline cache only, or the cache right after a refresh. */
export type ReportSource = 'cache' | 'fresh';

/** A table cell: numbers stay numbers (so CSV and diffs see values, not formatted text). */
export type Cell = string | number | boolean | null;

/**
 * How a column is shown. `bytes` and `percent` are numbers formatted by the HTML/PDF renderer;
 * `time` is an ISO 8601 string; CSV and JSON keep the raw value.
 */
export type ColumnType = 'text' | 'number' | 'bytes' | 'percent' | 'time' | 'bool';

/** A table column. */
export interface Column {
  /** Stable id, used as the CSV header and to match columns between two reports. */
  id: string;
  label: string;
  type: ColumnType;
}

/** A titled table: columns, rows of cells, and the key columns a diff matches rows by. */
export interface ReportTable {
  /** Stable id unique in a report, e.g. `config.hosts`: CSV file name and diff key. */
  id: string;
  title: string;
  columns: Column[];
  rows: Cell[][];
  /** Column ids that identify a row (site, system, host name …): what a diff matches rows by. */
  key: string[];
  /** Shown under the table when there are no rows. */
  empty?: string;
}

/** How old one system's data is in a section. */
export interface DataAge {
  siteId: string;
  siteName: string;
  system: string;
  /** ISO time of the oldest answer the section used for this system; null when nothing is cached. */
  at: string | null;
  /** Seconds between `at` and the report's generation; null when nothing is cached. */
  ageSeconds: number | null;
  /** The system's state when the report was made (ok, unreachable, stale …). */
  state: string;
}

/** One part of a report: a kind's tables with the per-system data ages behind them. */
export interface ReportSection {
  /** Stable id, e.g. `config`. */
  id: string;
  /** The kind this section belongs to (in an audit pack, each part keeps its own kind). */
  kind: Exclude<ReportKind, 'audit'>;
  title: string;
  /** What the section shows and where its numbers come from. */
  description: string;
  tables: ReportTable[];
  /** Per system, how old the data behind this section is (empty for the action log: it is local). */
  dataAges: DataAge[];
}

/** A system in a report's scope. */
export interface ScopeSystem {
  siteId: string;
  siteName: string;
  system: string;
}

/** The sites and systems a report covers. */
export interface ReportScope {
  sites: Array<{ id: string; name: string }>;
  systems: ScopeSystem[];
}

/** Format marker of the model, bumped if its shape ever changes incompatibly. */
export const REPORT_FORMAT = 'fleetdeck-report/1';

/** A complete report, as stored, sent over IPC and rendered into every format. */
export interface ReportModel {
  format: typeof REPORT_FORMAT;
  kind: ReportKind;
  title: string;
  /** ISO time the report was built. */
  generatedAt: string;
  /** OS user who built it. */
  generatedBy: string;
  appVersion: string;
  source: ReportSource;
  scope: ReportScope;
  /** The period of the action log part (ISO; absent bound = open). */
  period: { since: string | null; until: string | null };
  sections: ReportSection[];
  /** Facts an auditor must know, e.g. systems with no cached data or a refresh that failed. */
  notes: string[];
}

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
