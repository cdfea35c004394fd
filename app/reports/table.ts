import type { Cell, Column, ColumnType, DataAge, ReportTable } from './model.js';
import type { ReportInput, SystemSnapshot } from './snapshot.js';

/** A column as `[id, label]` or `[id, label, type]` (text by default). */
export type ColumnSpec = readonly [string, string] | readonly [string, string, ColumnType];

/** The site and system columns every per-system table starts with. */
export const SITE_SYSTEM: readonly ColumnSpec[] = [
  ['site', 'Site'],
  ['system', 'System'],
];

/** Builds a table; `key` defaults to every text column when not given. */
export function makeTable(id: string, title: string, columns: readonly ColumnSpec[], key: readonly string[], rows: Cell[][], empty?: string): ReportTable {
  const cols: Column[] = columns.map(([cid, label, type]) => ({ id: cid, label, type: type ?? 'text' }));
  for (const k of key) if (!cols.some((c) => c.id === k)) throw new Error(`table ${id}: key column ${k} is not a column`);
  for (const r of rows) if (r.length !== cols.length) throw new Error(`table ${id}: a row has ${r.length} cells for ${cols.length} columns`);
  return { id, title, columns: cols, rows, key: [...key], ...(empty ? { empty } : {}) };
}

/** A string cell: null for anything that is not a non-empty string or a number. */
export function text(v: unknown): string | null {
  if (typeof v === 'string') return v === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** A number cell: null unless a finite number. */
export function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** `part` as a percentage of `whole`, to two decimals; null when either is missing or whole is 0. */
export function percentOf(part: number | null | undefined, whole: number | null | undefined): number | null {
  if (typeof part !== 'number' || typeof whole !== 'number' || !Number.isFinite(part) || !Number.isFinite(whole) || whole === 0) return null;
  return Math.round((part / whole) * 10_000) / 100;
}

/** A boolean cell: null unless a boolean. */
export function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

/** A list joined with `, `; null when empty or not a list. */
export function list(v: unknown): string | null {
  if (!Array.isArray(v)) return null;
  const items = v.map((x) => text(x)).filter((x): x is string => x !== null);
  return items.length ? items.join(', ') : null;
}

/** Array or empty: answers are untrusted, any field may be missing or of another type. */
export function arr<T>(v: T[] | null | undefined): T[] {
  return Array.isArray(v) ? v : [];
}

/**
 * Per system, the time of the oldest answer among `ops` (and SMART texts when `withSmart`): the
 * conservative age of a section that combines them. Systems with none of them cached get `null`.
 */
export function dataAgesFor(input: ReportInput, ops: readonly string[], withSmart = false): DataAge[] {
  const now = Date.parse(input.generatedAt);
  return input.systems.map((s) => {
    const times = ops.map((op) => s.answers[op]?.at).filter((t): t is string => typeof t === 'string');
    if (withSmart) for (const sm of s.smart) times.push(sm.at);
    const at = times.length ? times.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a)) : null;
    const ageSeconds = at === null ? null : Math.max(0, Math.round((now - Date.parse(at)) / 1000));
    return { siteId: s.siteId, siteName: s.siteName, system: s.system, at, ageSeconds, state: s.state };
  });
}

/** The site and system cells of a row. */
export function where(s: SystemSnapshot): [string, string] {
  return [s.siteName, s.system];
}
