import type { Snippet } from 'svelte';

/** A column of `VirtualTable`. */
export interface Column<T> {
  id: string;
  title: string;
  /** The sort key (and the cell text when there is neither `text` nor `cell`). */
  value: (row: T) => string | number | boolean | null | undefined;
  text?: (row: T) => string;
  cell?: Snippet<[T]>;
  /** A CSS grid track: `8rem`, `minmax(12rem, 2fr)`. Default `minmax(6rem, 1fr)`. */
  width?: string;
  align?: 'start' | 'end';
  sortable?: boolean;
}

export interface SortState {
  column: string;
  dir: 'asc' | 'desc';
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

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
    const c = typeof a.k === 'number' && typeof b.k === 'number' ? a.k - b.k : collator.compare(String(a.k), String(b.k));
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
