import type { Cell, Column, ReportModel, ReportTable } from './model.js';

/** One changed cell of a row present in both reports. */
export interface CellChange {
  column: string;
  label: string;
  before: Cell;
  after: Cell;
}

/** A row present in both reports whose non-key cells differ. */
export interface RowChange {
  /** Values of the table's key columns, in `keyColumns` order. */
  key: Cell[];
  changes: CellChange[];
}

/** The differences in one table between two reports. */
export interface TableDiff {
  id: string;
  title: string;
  keyColumns: string[];
  /** Columns of the newer report's table (of the older one if the table is gone). */
  columns: Column[];
  added: Cell[][];
  removed: Cell[][];
  changed: RowChange[];
}

/** Which stored report a side of a diff is. */
export interface ReportRef {
  id: number;
  kind: string;
  generatedAt: string;
}

/** What changed between two configuration snapshots. */
export interface ReportDiff {
  from: ReportRef;
  to: ReportRef;
  /** Only tables with a difference. */
  tables: TableDiff[];
  summary: { added: number; removed: number; changed: number };
}

/** The configuration tables of a report (a configuration snapshot or an audit pack). */
function configTables(model: ReportModel): Map<string, ReportTable> {
  return new Map(model.sections.filter((s) => s.kind === 'config').flatMap((s) => s.tables.map((t) => [t.id, t] as const)));
}

/**
 * What changed between two configuration snapshots: per table, rows added, removed and changed,
 * matching rows by the table's key columns (host name, application and volume …) within each
 * site and system.
 * @throws Error when either report holds no configuration snapshot.
 */
export function diffReports(from: ReportModel & { id: number }, to: ReportModel & { id: number }): ReportDiff {
  const a = configTables(from);
  const b = configTables(to);
  for (const [m, t] of [[from, a], [to, b]] as const) {
    if (t.size === 0) throw new Error(`report ${m.id} (${m.kind}) holds no configuration snapshot: compare config or audit reports`);
  }
  const tables: TableDiff[] = [];
  for (const id of [...new Set([...b.keys(), ...a.keys()])]) {
    const d = diffTable(a.get(id), b.get(id));
    if (d.added.length || d.removed.length || d.changed.length) tables.push(d);
  }
  const sum = (f: (t: TableDiff) => number): number => tables.reduce((n, t) => n + f(t), 0);
  return {
    from: { id: from.id, kind: from.kind, generatedAt: from.generatedAt },
    to: { id: to.id, kind: to.kind, generatedAt: to.generatedAt },
    tables,
    summary: { added: sum((t) => t.added.length), removed: sum((t) => t.removed.length), changed: sum((t) => t.changed.length) },
  };
}

/** Diff of one table; either side may be missing (a table that appeared or disappeared). */
export function diffTable(before: ReportTable | undefined, after: ReportTable | undefined): TableDiff {
  const ref = (after ?? before) as ReportTable;
  const keyColumns = ref.key;
  const older = indexRows(before, keyColumns);
  const newer = indexRows(after, keyColumns);
  const out: TableDiff = { id: ref.id, title: ref.title, keyColumns, columns: ref.columns, added: [], removed: [], changed: [] };
  for (const [k, row] of newer) {
    const old = older.get(k);
    if (!old) {
      out.added.push(row.cells);
      continue;
    }
    const changes: CellChange[] = [];
    for (const col of ref.columns) {
      if (keyColumns.includes(col.id)) continue;
      const x = old.get(col.id);
      const y = row.get(col.id);
      if (!sameCell(x, y)) changes.push({ column: col.id, label: col.label, before: x, after: y });
    }
    if (changes.length) out.changed.push({ key: row.key, changes });
  }
  for (const [k, row] of older) if (!newer.has(k)) out.removed.push(row.cells);
  return out;
}

interface IndexedRow {
  key: Cell[];
  cells: Cell[];
  get(column: string): Cell;
}

function indexRows(table: ReportTable | undefined, keyColumns: readonly string[]): Map<string, IndexedRow> {
  const out = new Map<string, IndexedRow>();
  if (!table) return out;
  const pos = new Map(table.columns.map((c, i) => [c.id, i]));
  const seen = new Map<string, number>();
  for (const cells of table.rows) {
    const get = (column: string): Cell => {
      const i = pos.get(column);
      return i === undefined ? null : (cells[i] ?? null);
    };
    const key = keyColumns.map(get);
    const base = JSON.stringify(key);
    // Duplicate keys (a system listing the same name twice) are matched by occurrence.
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.set(n ? `${base}#${n}` : base, { key, cells, get });
  }
  return out;
}

function sameCell(a: Cell, b: Cell): boolean {
  return a === b || (a === null && b === undefined) || (a === undefined && b === null);
}
