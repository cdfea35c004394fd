import type { Snippet } from 'svelte';
import type { Level } from './health.js';
import { columnCollator } from './locale-formats.js';

/**
 * A cell the table draws itself, without a snippet (no component, block or effect per cell): its
 * text, plain, muted, on a tinted pill (LevelPill's markup) or as a state badge (StateBadge's).
 */
export interface CellLook {
  text: string;
  /** The cell's tooltip, if any. */
  title?: string | undefined;
  /** Draws the text on a pill of this tone (a `tone-*` class), as LevelPill does. */
  tone?: 'ok' | 'info' | 'warning' | 'critical' | 'muted' | undefined;
  /** The pill's `data-level`: the health level it shows. */
  level?: Level | undefined;
  /** Draws a system state (this one) as StateBadge does; `text` is then its label. */
  state?: string | undefined;
  /** Draws the text muted (a placeholder such as "—"). */
  muted?: boolean | undefined;
}

/** A health level's pill tone, as LevelPill gives it. */
export const LEVEL_TONE: Readonly<Record<Level, NonNullable<CellLook['tone']>>> = { critical: 'critical', unknown: 'muted', warning: 'warning', ok: 'ok' };

/** A health level as a pill cell (LevelPill's look): its text (the level unless given) and tooltip. */
export function levelLook(level: Level, text?: string, title?: string): CellLook {
  return { text: text ?? level, title, tone: LEVEL_TONE[level], level };
}

/** A column of `VirtualTable`. */
export interface Column<T> {
  id: string;
  title: string;
  /** The sort key (and the cell text when there is neither `text` nor `cell`). */
  value: (row: T) => string | number | boolean | null | undefined;
  text?: (row: T) => string;
  /** The cell's tooltip when it should say more than its text (a full name behind a short one). */
  tip?: (row: T) => string;
  cell?: Snippet<[T]>;
  /**
   * The cell as a look the table draws itself: cheaper than a `cell` snippet (a table whose columns
   * have no snippet draws its rows without a component, block or effect per cell; issue 17).
   */
  look?: (row: T) => CellLook;
  /** A CSS grid track: `8rem`, `minmax(12rem, 2fr)`. Default `minmax(6rem, 1fr)`. */
  width?: string;
  align?: 'start' | 'end';
  sortable?: boolean;
  /**
   * Descriptive columns a narrow table may drop, highest first, so identifiers and actions stay in
   * view; columns without it always show.
   */
  drop?: number;
}

/** The minimum width of a grid track in rem: `8rem` → 8, `minmax(12rem, 2fr)` → 12; 6 when it names none. */
export function minRem(width: string | undefined): number {
  const m = /(\d+(?:\.\d+)?)rem/.exec(width ?? '');
  return m ? Number(m[1]) : 6;
}

/**
 * The columns that fit `available` rem: while their minimum widths do not fit, the
 * droppable column with the highest `drop` goes first. Without a measured width every column stays.
 */
export function fittingColumns<T>(columns: readonly Column<T>[], available: number): readonly Column<T>[] {
  if (!(available > 0)) return columns;
  let shown = [...columns];
  const need = (cols: readonly Column<T>[]): number => cols.reduce((sum, c) => sum + minRem(c.width), 0);
  while (need(shown) > available) {
    const candidates = shown.filter((c) => c.drop !== undefined);
    if (candidates.length === 0) break;
    const top = candidates.reduce((a, b) => ((b.drop as number) >= (a.drop as number) ? b : a));
    shown = shown.filter((c) => c !== top);
  }
  return shown;
}

export interface SortState {
  column: string;
  dir: 'asc' | 'desc';
}

/** Rows sorted by a column; stable, undefined values last in both directions. */
export function sortRows<T>(rows: readonly T[], columns: readonly Column<T>[], sort: SortState | undefined): readonly T[] {
  const col = sort ? columns.find((c) => c.id === sort.column) : undefined;
  if (!col || !sort) return rows;
  const sign = sort.dir === 'asc' ? 1 : -1;
  const keyed = rows.map((row, i) => ({ row, i, k: col.value(row) }));
  keyed.sort((a, b) => {
    const ae = a.k === undefined || a.k === null || a.k === '';
    const be = b.k === undefined || b.k === null || b.k === '';
    if (ae || be) return ae === be ? a.i - b.i : ae ? 1 : -1;
    const c = typeof a.k === 'number' && typeof b.k === 'number' ? a.k - b.k : columnCollator().compare(String(a.k), String(b.k));
    return c !== 0 ? c * sign : a.i - b.i;
  });
  return keyed.map((k) => k.row);
}

/**
 * The rows to render for a scroll position: `[first, last)` with overscan on both sides. The
 * position is clamped to what the rows allow, so a list that just shrank under a deep scroll
 * still shows its end instead of nothing until the next scroll event.
 */
export function visibleWindow(count: number, rowHeight: number, scrollTop: number, viewport: number, overscan: number): { first: number; last: number } {
  const top = Math.max(0, Math.min(scrollTop, count * rowHeight - viewport));
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((top + viewport) / rowHeight) + overscan);
  return { first, last: Math.max(first, last) };
}
