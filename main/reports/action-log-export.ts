import type { ActionExportFormat, ActionLogFilter, ActionRecord } from '../../app/domain/action.js';
import type { Redacted } from '../../app/redact.js';
import { toCsv } from './csv.js';

/** The file an action log export becomes: its suggested name, type and text. */
export interface ActionLogFile {
  fileName: string;
  mimeType: string;
  content: string;
}

/** A time as it appears in an export's file name (no characters a file system refuses). */
export function fileStamp(at: Date): string {
  return at.toISOString().replace(/[:.]/g, '-');
}

/** Names the JSON export's layout, so a reader can tell versions apart. */
export const ACTION_EXPORT_FORMAT = 'fleetdeck-action-log-export/1';

const CSV_HEADER = ['Seq', 'Sent (UTC)', 'Completed (UTC)', 'Site', 'Site id', 'System', 'User', 'Operation', 'Outcome', 'Parameters', 'Answer', 'SHA-256'];

/**
 * The filtered writes as a file: CSV through the reports' writer (RFC 4180, every text cell
 * formula-neutralised, since messages and names come from systems) or JSON with the filter it
 * answers. Records come from the action log, which stores them redacted: an export never walks
 * them again and can carry nothing the log does not.
 */
export function actionLogFile(
  format: ActionExportFormat,
  records: Redacted<readonly ActionRecord[]>,
  context: { filter: ActionLogFilter; exportedAt: Date; exportedBy: string; siteName: (siteId: string) => string | undefined },
): ActionLogFile {
  const stamp = fileStamp(context.exportedAt);
  const siteName = (id: string): string => (id ? (context.siteName(id) ?? id) : '');
  if (format === 'csv') {
    const rows = records.map((r) => [r.seq, r.at, r.completedAt ?? null, siteName(r.siteId), r.siteId, r.system, r.user, r.operation, r.result, paramsText(r.params), r.message, r.hash]);
    return { fileName: `fleetdeck-actions-${stamp}.csv`, mimeType: 'text/csv; charset=utf-8', content: toCsv(CSV_HEADER, rows) };
  }
  const body = {
    format: ACTION_EXPORT_FORMAT,
    exportedAt: context.exportedAt.toISOString(),
    exportedBy: context.exportedBy,
    filter: context.filter,
    count: records.length,
    records: records.map(({ prevHash: _link, ...r }) => ({ ...r, siteName: siteName(r.siteId) })),
  };
  return { fileName: `fleetdeck-actions-${stamp}.json`, mimeType: 'application/json', content: `${JSON.stringify(body, null, 2)}\n` };
}

/** Parameters as one cell: the stored JSON text (the raw text when it no longer parsed). */
function paramsText(params: unknown): string {
  return typeof params === 'string' ? params : (JSON.stringify(params) ?? '');
}
