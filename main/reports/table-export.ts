import { InputError } from '../../app/errors.js';
import type { TableExport } from '../../app/ipc/contract.js';
import { fileStamp, type ActionLogFile } from './action-log-export.js';
import { toCsv } from './csv.js';

/**
 * One table a fleet view shows (capacity planning, version drift, a configuration comparison) as a
 * file: CSV (formula-neutralized, like report CSVs) or JSON (one object per row, keyed by the column
 * labels), named after its title and the time. The table holds only what the view shows from the
 * redacted cache: secrets appear there as "set"/"not set" at most.
 */
export function tableFile(t: Omit<TableExport, 'file'>, now: Date = new Date()): ActionLogFile {
  for (const r of t.rows) if (r.length !== t.columns.length) throw new InputError(`a row has ${r.length} cells for ${t.columns.length} columns`);
  const slug = t.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'table';
  const fileName = `fleetdeck-${slug}-${fileStamp(now)}.${t.format}`;
  if (t.format === 'csv') return { fileName, mimeType: 'text/csv; charset=utf-8', content: toCsv(t.columns, t.rows) };
  const body = { title: t.title, exportedAt: now.toISOString(), columns: t.columns, rows: t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i] ?? null]))) };
  return { fileName, mimeType: 'application/json', content: `${JSON.stringify(body, null, 2)}\n` };
}
