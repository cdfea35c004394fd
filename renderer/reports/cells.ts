import { formatBytes, formatPercent } from '../../app/reports/format.js';
import type { Cell, ColumnType, Column as ReportColumn } from '../../app/reports/model.js';
import type { Column } from '../lib/table.js';

/**
 * A cell as a reader sees it, the same way the exported HTML and PDF show it (binary units,
 * yes/no, `—` for nothing, times as recorded), so the preview is what will be exported.
 */
export function cellText(type: ColumnType, v: Cell | undefined): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') {
    if (type === 'bytes') return formatBytes(v);
    if (type === 'percent') return formatPercent(v);
    return String(v);
  }
  return v;
}

/** A report row with its position, so a sorted virtual table keeps stable keys. */
export interface TableRow {
  i: number;
  cells: readonly Cell[];
}

export function tableRows(rows: readonly (readonly Cell[])[]): TableRow[] {
  return rows.map((cells, i) => ({ i, cells }));
}

const NUMERIC: ReadonlySet<ColumnType> = new Set(['number', 'bytes', 'percent']);

/** VirtualTable columns for a report table: sorting on the raw value, text as exported. */
export function tableColumns(columns: readonly ReportColumn[]): Column<TableRow>[] {
  return columns.map((c, j) => ({
    id: c.id,
    title: c.label,
    value: (r: TableRow) => r.cells[j] ?? null,
    text: (r: TableRow) => cellText(c.type, r.cells[j]),
    ...(NUMERIC.has(c.type) ? { align: 'end' as const, width: 'minmax(6rem, 0.7fr)' } : { width: c.type === 'time' ? 'minmax(11rem, 1fr)' : 'minmax(7rem, 1fr)' }),
  }));
}
