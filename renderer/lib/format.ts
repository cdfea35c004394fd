/** Display formatting shared by every view. Pure functions; the locale is the user's. */
import { isUnreadableTime, timeMs } from '../../app/answers/time.js';
import { formatBytes as bytesText } from '../../app/units.js';
import { numberFormat, textCollator } from './locale-formats.js';

/** Bytes in binary units, the same figure reports and size inputs use: `1.50 TiB`; `—` when unknown. */
export function formatBytes(bytes: number | undefined): string {
  return bytes === undefined || !Number.isFinite(bytes) ? '—' : bytesText(bytes);
}

export function formatPercent(p: number | undefined, digits = 0): string {
  return p === undefined || !Number.isFinite(p) ? '—' : `${p.toFixed(digits)} %`;
}

/**
 * Formatters made on first use and kept (see `locale-formats.ts`): the first frame of the overview
 * formats hundreds of figures and should neither pay per call nor for the formats it does not show.
 */
function memo<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** A figure in the user's number format. */
export function formatNumber(n: number | undefined, digits = 0): string {
  return n === undefined || !Number.isFinite(n) ? '—' : numberFormat(digits).format(n);
}

/** Service times as the normaliser leaves them (UTC, `YYYY-MM-DDTHH:MM:SS`), read by the one time reader. */
export function parseTime(iso: string | undefined): number | undefined {
  return timeMs(iso);
}

/** What a view shows for a time it cannot show: `unreadable` when one was sent, else `—`. */
function noTime(iso: string | number | undefined): string {
  return isUnreadableTime(iso) ? 'unreadable' : '—';
}

const dateTime = memo(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
const timeOnly = memo(() => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }));

/** Local date and time; just the time when it is today. */
export function formatTime(iso: string | number | undefined, now = Date.now()): string {
  const t = typeof iso === 'number' ? iso : parseTime(iso);
  if (t === undefined) return noTime(iso);
  const d = new Date(t);
  return new Date(now).toDateString() === d.toDateString() ? timeOnly().format(d) : dateTime().format(d);
}

/** Local date and time, always both (lists sorted by time must not drop the date or AM/PM). */
export function formatTimeFull(iso: string | number | undefined): string {
  const t = typeof iso === 'number' ? iso : parseTime(iso);
  return t === undefined ? noTime(iso) : dateTime().format(new Date(t));
}

const dateTimeSeconds = memo(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));

/** Local date and time to the second: records of one minute (an audit trail) must stay apart. */
export function formatTimeSeconds(iso: string | number | undefined): string {
  const t = typeof iso === 'number' ? iso : parseTime(iso);
  return t === undefined ? noTime(iso) : dateTimeSeconds().format(new Date(t));
}

/** `just now`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function formatAgo(iso: string | number | undefined, now = Date.now()): string {
  const t = typeof iso === 'number' ? iso : parseTime(iso);
  if (t === undefined) return '';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** Whole days as a short phrase: `1 day`, `12 days`, `> 10 years` (the one phrase of app/capacity/days.ts). */
export { daysPhrase as formatDays } from '../../app/capacity/days.js';

/** The current time as ISO text: when a live read happened. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** A time in milliseconds since the epoch as ISO text. */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** Message of anything thrown, for display. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Compares two names as `a.localeCompare(b)` does (the default locale's order), through one collator
 * made once: `localeCompare` makes one per call, slow when a thousand systems are sorted.
 */
export function compareText(a: string, b: string): number {
  return textCollator().compare(a, b);
}
