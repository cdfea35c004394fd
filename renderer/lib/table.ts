import type { Snippet } from 'svelte';
import type { Level } from './health.js';
import { columnCollator } from './locale-formats.js';
import { stateLook, type StateLook } from './states.js';

/**
 * What a drawn row shows in a place (`lookNode`, components/looks.ts): a table's cell (VirtualTable)
 * or a part of a fleet tree row after its name (FleetTree): its text, plain, muted, on a tinted pill
 * (a `LevelPill` when it shows a level) or as a `StateBadge`.
 */
export interface CellLook {
  text: string;
  /** The tooltip, if any: a table puts it on the cell; a badge adds it to its description. */
  title?: string | undefined;
  /** Draws the text on a pill of this tone (a `tone-*` class), as LevelPill does. */
  tone?: 'ok' | 'info' | 'warning' | 'critical' | 'muted' | undefined;
  /** The pill's `data-level`: the health level it shows. */
  level?: Level | undefined;
  /** Draws a system state (this one) as StateBadge does; `text` is then its label. */
  state?: string | undefined;
  /** Draws the text muted (a placeholder such as "—"). */
  muted?: boolean | undefined;
  /** The compact form: a state badge without its pill, a level pill of the tree's size. */
  compact?: boolean | undefined;
  /** A pill's `data-testid`. */
  testid?: string | undefined;
  /** Muted text as the count beside a tree heading (`count`). */
  count?: boolean | undefined;
}

/**
 * Each state's icon as at most two paths: the filled shape (`fill`) and the strokes, drawn in the
 * text's colour or knocked out of the fill (`on`: the page's background). Shapes differ per state
 * so the icon carries meaning without colour. Circles and rounded rectangles are written as paths,
 * so every badge is one template with a few attributes to set.
 */
const ICONS: Readonly<Record<StateLook['icon'], { fill?: string; stroke?: string; on?: boolean }>> = {
  check: { fill: 'M1 8a7 7 0 1 0 14 0a7 7 0 1 0-14 0z', stroke: 'M4.5 8.2l2.3 2.3 4.7-4.9', on: true },
  sync: { stroke: 'M13 8a5 5 0 1 1-1.5-3.6M13 2.5v3h-3' },
  clock: { stroke: 'M1.8 8a6.2 6.2 0 1 0 12.4 0a6.2 6.2 0 1 0-12.4 0zM8 4.5V8l2.5 1.6' },
  cross: { fill: 'M3 1h10a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H3a2 2 0 0 1-2-2V3a2 2 0 0 1 2-2z', stroke: 'M5 5l6 6M11 5l-6 6', on: true },
  lock: { fill: 'M4.2 7h7.6a1.2 1.2 0 0 1 1.2 1.2v5.1a1.2 1.2 0 0 1-1.2 1.2H4.2a1.2 1.2 0 0 1-1.2-1.2V8.2a1.2 1.2 0 0 1 1.2-1.2z', stroke: 'M5.2 7V5a2.8 2.8 0 0 1 5.6 0v2' },
  shield: { fill: 'M8 1l6 2.5V8c0 3.5-2.6 6-6 7-3.4-1-6-3.5-6-7V3.5z', stroke: 'M8 4.5v4.5M8 11v.8', on: true },
  question: { fill: 'M8 1l7 7-7 7-7-7z', stroke: 'M6.3 6.3a1.8 1.8 0 1 1 2.5 1.7c-.5.2-.8.6-.8 1.1v.5M8 11.2v.6', on: true },
  pause: { fill: 'M4.1 3h1.8a.6.6 0 0 1 .6.6v8.8a.6.6 0 0 1-.6.6H4.1a.6.6 0 0 1-.6-.6V3.6a.6.6 0 0 1 .6-.6zM10.1 3h1.8a.6.6 0 0 1 .6.6v8.8a.6.6 0 0 1-.6.6h-1.8a.6.6 0 0 1-.6-.6V3.6a.6.6 0 0 1 .6-.6z' },
};

/** What `<StateBadge>` draws for a state, and its tooltip with a detail. */
export function badgeParts(state: string | undefined, detail?: string | undefined): { look: StateLook; title: string; fill: string | undefined; stroke: string | undefined; strokeClass: string } {
  const look = stateLook(state);
  const shape = ICONS[look.icon];
  return { look, title: detail ? `${look.description} ${detail}` : look.description, fill: shape.fill, stroke: shape.stroke, strokeClass: shape.on ? 'stroke-on' : 'stroke' };
}

/** A health level's pill tone, as LevelPill gives it. */
export const LEVEL_TONE: Readonly<Record<Level, NonNullable<CellLook['tone']>>> = { critical: 'critical', unknown: 'muted', warning: 'warning', ok: 'ok' };

/** A level's reasons as one tooltip (LevelPill's and the looks' that show a level); none without reasons. */
export function reasonsTitle(reasons: readonly string[] | undefined): string | undefined {
  return reasons?.length ? reasons.join('; ') : undefined;
}

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
   * have no snippet draws its rows without a component, block or effect per cell).
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
 * The width a column's title needs in rem, whole: its characters in the header's 0.8rem bold
 * (up to about 0.6rem each in a wide font), the cell's padding and the sort arrow. A column is never narrower, so its
 * name is read whole rather than cut ("Drives not O…").
 */
export function titleRem(title: string): number {
  return title ? Math.ceil((title.length * 0.6 + 2) * 4) / 4 : 0;
}

/**
 * A column's grid track: its `width` (default `minmax(6rem, 1fr)`) with the minimum raised to what
 * its title needs.
 */
export function columnTrack(column: { title: string; width?: string | undefined }): string {
  const width = column.width ?? 'minmax(6rem, 1fr)';
  const need = titleRem(column.title);
  if (minRem(width) >= need) return width;
  const m = /(\d+(?:\.\d+)?)rem/.exec(width);
  return m ? width.replace(m[0], `${need}rem`) : `minmax(${need}rem, 1fr)`;
}

/**
 * The columns that fit `available` rem: while their minimum widths (`columnTrack`) do not fit, the
 * droppable column with the highest `drop` goes first. Without a measured width every column stays.
 */
export function fittingColumns<T>(columns: readonly Column<T>[], available: number): readonly Column<T>[] {
  if (!(available > 0)) return columns;
  let shown = [...columns];
  const need = (cols: readonly Column<T>[]): number => cols.reduce((sum, c) => sum + minRem(columnTrack(c)), 0);
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
