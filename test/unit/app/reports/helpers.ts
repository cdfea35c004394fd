import type { Cell, ReportModel, ReportTable } from '../../../../app/reports/model.js';

/** The table with this id in a report; throws when absent, so a renamed table fails loudly. */
export function tableOf(model: ReportModel, id: string): ReportTable {
  for (const s of model.sections) for (const t of s.tables) if (t.id === id) return t;
  throw new Error(`no table ${id} in ${model.kind} report`);
}

/** A table's rows as objects keyed by column id. */
export function rowsOf(model: ReportModel, id: string): Array<Record<string, Cell>> {
  const t = tableOf(model, id);
  return t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c.id, r[i] ?? null])));
}
