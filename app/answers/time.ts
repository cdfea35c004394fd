/**
 * The one reader of the times an answer carries. The document shows `YYYY-MM-DDTHH:MM:SS` and
 * names no zone; real systems also send a zone or offset, epoch seconds or milliseconds (numbers or
 * numeric text), and what .NET serialisers write (`/Date(1700000000000)/`, `/Date(…+0100)/`, seven
 * fraction digits, the invariant `MM/dd/yyyy HH:mm:ss`). Every one is read here, into UTC
 * milliseconds and whether the text named its zone.
 *
 * A time without a zone is in the system's clock: read as UTC, then moved by the system's clock
 * offset once it is known ({@link wireTimeOf}). A time that none of these forms reads is
 * **unreadable**: it is kept as sent, so that views and reports can say so ({@link isUnreadableTime}),
 * and the record that carries it still counts by everything else it says.
 */

/** A time read: UTC milliseconds, and whether it named its zone (an epoch or `/Date()/` always does). */
export interface TimeReading {
  readonly ms: number;
  readonly zoned: boolean;
}

/** Epoch values at or past these magnitudes are milliseconds, microseconds, nanoseconds (1e11 s is the year 5138). */
const EPOCH_MS_FROM = 1e11;
const EPOCH_US_FROM = 1e14;
const EPOCH_NS_FROM = 1e17;

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?| ?(?:UTC|GMT))?$/;
const DOTNET = /^\\?\/?Date\((-?\d+)([+-]\d{4})?\)\\?\/?$/;
const NUMERIC = /^[+-]?\d+(\.\d+)?$/;
/** .NET's invariant culture: `MM/dd/yyyy HH:mm:ss`, and the en-US `M/d/yyyy h:mm:ss tt`. */
const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?: ?([AaPp])[Mm])?)?$/;
/** RFC 1123, as in an HTTP Date header: always GMT. */
const RFC1123 = /^[A-Za-z]{3}, \d{1,2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} (GMT|UTC|[+-]\d{4})$/;

/** Reads a time in any of the forms above; undefined when it is none of them (or no real instant). */
export function readTime(raw: unknown, dayFirst = false): TimeReading | undefined {
  if (typeof raw === 'number') return epochReading(raw);
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  const iso = ISO.exec(text);
  if (iso) return isoReading(iso);
  if (NUMERIC.test(text)) return epochReading(Number(text));
  const net = DOTNET.exec(text);
  // `/Date(ms+hhmm)/`: the milliseconds are UTC; the offset only says where it was written.
  if (net) return { ms: Number(net[1]), zoned: true };
  const slashed = SLASHED.exec(text);
  if (slashed) return slashedReading(slashed, dayFirst);
  if (RFC1123.test(text)) {
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? { ms, zoned: true } : undefined;
  }
  return undefined;
}

/**
 * Epoch values under this (seconds: March 1973) are no time a system stamped: `0` and small
 * counters are unreadable rather than 1970.
 */
const EPOCH_MIN = 1e8;

function epochReading(n: number): TimeReading | undefined {
  return Number.isFinite(n) && Math.abs(n) >= EPOCH_MIN ? { ms: epochMs(n), zoned: true } : undefined;
}

function epochMs(n: number): number {
  const a = Math.abs(n);
  const ms = a >= EPOCH_NS_FROM ? n / 1e6 : a >= EPOCH_US_FROM ? n / 1e3 : a >= EPOCH_MS_FROM ? n : n * 1000;
  return Math.round(ms);
}

function isoReading(m: RegExpExecArray): TimeReading | undefined {
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac, zone] = m;
  const ms = utc(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), frac);
  if (ms === undefined) return undefined;
  if (zone === undefined) return { ms, zoned: false };
  const z = zone.trim().toUpperCase();
  if (z === 'Z' || z === 'UTC' || z === 'GMT') return { ms, zoned: true };
  const sign = z.startsWith('-') ? -1 : 1;
  const digits = z.slice(1).replace(':', '');
  const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  if (offset > 18 * 60) return undefined;
  return { ms: ms - sign * offset * 60_000, zoned: true };
}

function slashedReading(m: RegExpExecArray, dayFirst: boolean): TimeReading | undefined {
  const [, a, b, y, h = '0', mi = '0', s = '0', frac, half] = m;
  // Month first (the invariant culture) unless the system writes day first, and never a month over 12.
  const [mo, d] = Number(a) > 12 || (dayFirst && Number(b) <= 12) ? [Number(b), Number(a)] : [Number(a), Number(b)];
  let hour = Number(h);
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (/p/i.test(half) ? 12 : 0);
  }
  const ms = utc(Number(y), mo, d, hour, Number(mi), Number(s), frac);
  return ms === undefined ? undefined : { ms, zoned: false };
}

/** UTC milliseconds of a calendar time; undefined when a part is out of range (31 February, 25:00). */
function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, frac: string | undefined): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59)) + (frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0);
  const back = new Date(ms);
  if (back.getUTCDate() !== d && !(h === 24 && mi === 0 && s === 0)) return undefined;
  return ms;
}

/**
 * A time as every reader downstream takes it: UTC, `YYYY-MM-DDTHH:MM:SSZ` (`.mmm` before the `Z`
 * when it has milliseconds). The `Z` is written so that no reader (a browser's `Date` among them)
 * can take it for local time.
 */
export function formatWireTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return ms % 1000 === 0 ? `${iso.slice(0, 19)}Z` : iso;
}

/** A time in a system's own clock, as its date-time query parameters carry it: zone-less. */
export function formatSystemTime(ms: number): string {
  return formatWireTime(ms).slice(0, -1);
}

const PLAIN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z?$/;

/**
 * A date-time field's value as every reader downstream takes it: UTC in the interface's own form
 * ({@link formatWireTime}), a zone-less time moved back by the system's clock offset
 * (`offsetMs`: its clock minus true time). A value no form reads is kept as sent (text), and so
 * stays recognisably unreadable.
 */
export function wireTimeOf(raw: unknown, offsetMs = 0, dayFirst = false): string | undefined {
  // The document's own form (from a system whose clock agrees), or it in UTC: no parse (most times are one of these).
  if (typeof raw === 'string' && raw.length <= 20 && PLAIN.test(raw)) {
    if (raw.length === 19 && offsetMs === 0) return `${raw}Z`;
    if (raw.length === 20) return raw;
  }
  const t = readTime(raw, dayFirst);
  if (!t) return typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
  return formatWireTime(t.zoned ? t.ms : t.ms - offsetMs);
}

/** Milliseconds of a time as {@link wireTimeOf} leaves it (UTC unless it names a zone); undefined when unreadable. */
export function timeMs(text: unknown): number | undefined {
  if (text === undefined || text === null || text === '') return undefined;
  return readTime(text)?.ms;
}

/** A time was sent but could not be read: views and reports say "unreadable", never "—". */
export function isUnreadableTime(text: unknown): boolean {
  return text !== undefined && text !== null && text !== '' && readTime(text) === undefined;
}

/** How far a zone-less local time may be from UTC (UTC−12 to UTC+14), with the tolerance. */
const LOCAL_TIME_REACH_MS = 14 * 3_600_000 + 3 * 60_000;

/** A slashed time's match, and its order when its numbers alone tell it (a first over 12 is a day, a second over 12 a month). */
function slashedNumbers(raw: unknown): { match: RegExpExecArray; order: boolean | undefined } | undefined {
  const match = typeof raw === 'string' ? SLASHED.exec(raw.trim()) : null;
  if (!match) return undefined;
  return { match, order: Number(match[1]) > 12 ? true : Number(match[2]) > 12 ? false : undefined };
}

/**
 * Whether a system writes `dd/MM/yyyy` (day first), from a slashed time it stamped at about `nowMs`
 * (a node's `Time`): a first number over 12 is a day, a second over 12 a month; when both could be
 * either, the reading within a day's zones of now tells. Undefined when it is no slashed time or
 * cannot tell (the same day and month, or both readings near now).
 */
export function slashedDayFirst(raw: unknown, nowMs: number): boolean | undefined {
  const s = slashedNumbers(raw);
  if (!s || s.order !== undefined) return s?.order;
  const m = s.match;
  const near = (t: TimeReading | undefined): boolean => t !== undefined && Math.abs(t.ms - nowMs) <= LOCAL_TIME_REACH_MS;
  const dayFirst = near(slashedReading(m, true));
  const monthFirst = near(slashedReading(m, false));
  return dayFirst === monthFirst ? undefined : dayFirst;
}

/** What is known of when a slashed time was stamped: a node's clock now, a moment in the past, or nothing. */
export type StampKind = 'node-time' | 'past' | 'any';

/**
 * What one slashed time says of its system's date order (true: day first). A first number over 12
 * is a day, a second over 12 a month, whatever the kind. A node's `Time` was stamped now
 * ({@link slashedDayFirst}); a time of the past (a record's stamp, a reading) cannot lie after
 * `nowMs` (the system's now, its clock offset applied) by more than a day's zones, so a reading
 * there is not it. Undefined when it cannot tell.
 */
export function slashedOrderOf(raw: unknown, kind: StampKind, nowMs: number): boolean | undefined {
  if (kind === 'node-time') return slashedDayFirst(raw, nowMs);
  const s = slashedNumbers(raw);
  if (!s || s.order !== undefined) return s?.order;
  const m = s.match;
  if (kind === 'any' || Number(m[1]) === Number(m[2])) return undefined;
  const future = (t: TimeReading | undefined): boolean => t === undefined || t.ms > nowMs + LOCAL_TIME_REACH_MS;
  const dayFirst = future(slashedReading(m, true));
  const monthFirst = future(slashedReading(m, false));
  return dayFirst === monthFirst ? undefined : monthFirst;
}

/** A slashed time whose order cannot be told from the text (both numbers 12 or less, not equal). */
export function isAmbiguousSlashed(raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  const m = SLASHED.exec(raw.trim());
  if (!m) return false;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a <= 12 && b <= 12 && a !== b;
}

const AMBIGUOUS_NOTE = ' (day or month first not known)';

/**
 * An ambiguous slashed time of a system whose date order is not known, as it is kept: the text
 * sent with a note, which no form reads (so it counts as unreadable everywhere) and
 * {@link timeText} names as ambiguous.
 */
export function ambiguousTime(raw: string): string {
  return `${raw.trim()}${AMBIGUOUS_NOTE}`;
}

/**
 * Clock differences smaller than this are latency and rounding, not a clock that differs: not
 * applied to times and not shown.
 */
export const CLOCK_TOLERANCE_MS = 3 * 60_000;

/**
 * A system's clock offset (its clock minus true time) from a zone-less time it stamped at about
 * `atMs` (a node's `Time` read as UTC): 0 within {@link CLOCK_TOLERANCE_MS}.
 */
export function clockOffsetOf(systemMs: number, atMs: number): number {
  const d = systemMs - atMs;
  return Math.abs(d) < CLOCK_TOLERANCE_MS ? 0 : Math.round(d / 1000) * 1000;
}

/**
 * A system's clock offset from the HTTP `Date` of an answer (true GMT by HTTP's rule, from the
 * service host's clock), `sentMs` and `receivedMs` the request's send and answer times on ours.
 * The header has whole seconds (the host's clock read within [date, date + 1 s)) and was written
 * between send and answer, so the offset lies in [date − received, date + 1 s − sent]. It is weighed
 * as that interval: it counts only when the whole interval is beyond {@link CLOCK_TOLERANCE_MS} on
 * one side (its midpoint, to the second), else 0. It shows a host clock that is wrong, never a
 * system that stamps local time (its Date stays GMT). Undefined when the header cannot be read.
 */
export function dateHeaderOffset(date: string | undefined, sentMs: number, receivedMs: number): number | undefined {
  const dateMs = date === undefined ? Number.NaN : Date.parse(date);
  if (!Number.isFinite(dateMs) || receivedMs < sentMs) return undefined;
  const low = dateMs - receivedMs;
  const high = dateMs + 1000 - sentMs;
  if (low <= CLOCK_TOLERANCE_MS && high >= -CLOCK_TOLERANCE_MS) return 0;
  return Math.round((low + high) / 2000) * 1000;
}

/** How far before the previous read a record it did not show may have been stamped: the read ran a moment before it was answered. */
const FRESH_RECORD_LEAD_MS = 60_000;
/** A poll window wider than this (what its fresh records leave open) tells no offset: too many zones fit in it. */
const FRESH_RECORD_MAX_SPREAD_MS = 3_600_000;
const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * A system's clock offset (its clock minus true time) from the zone-less stamps (read as UTC) of
 * records a poll saw for the first time: each was created after the previous read (`sinceMs`, less
 * a minute for the read's own latency) and before this one was answered (`nowMs`), so the offset
 * lies in [newest stamp − now, oldest stamp − since]. Undefined when that tells nothing: no stamps,
 * stamps that contradict each other (a record stamped in the past, written late), or an interval
 * wider than an hour (a long gap between polls). 0 when the interval reaches within
 * {@link CLOCK_TOLERANCE_MS} of agreement; else the whole quarter hour nearest its midpoint when one
 * lies in it (a zone's offset, the usual cause), or the midpoint to the second.
 */
export function freshRecordOffset(stampsMs: readonly number[], sinceMs: number, nowMs: number): number | undefined {
  if (stampsMs.length === 0 || !Number.isFinite(sinceMs) || nowMs < sinceMs) return undefined;
  let newest = -Infinity;
  let oldest = Infinity;
  for (const s of stampsMs) {
    if (s > newest) newest = s;
    if (s < oldest) oldest = s;
  }
  // Stamps have whole seconds: a record stamped in the second the read was answered counts.
  const low = newest - nowMs - 1000;
  const high = oldest - (sinceMs - FRESH_RECORD_LEAD_MS);
  if (low > high || high - low > FRESH_RECORD_MAX_SPREAD_MS) return undefined;
  if (low <= CLOCK_TOLERANCE_MS && high >= -CLOCK_TOLERANCE_MS) return 0;
  const mid = (low + high) / 2;
  const zone = Math.round(mid / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  return zone >= low && zone <= high ? zone : Math.round(mid / 1000) * 1000;
}

/**
 * How a clock offset is said on a system and in reports: `clock differs by −5 h`, `+7 min`;
 * undefined within {@link CLOCK_TOLERANCE_MS}.
 */
export function describeClockOffset(offsetMs: number | undefined): string | undefined {
  if (offsetMs === undefined || Math.abs(offsetMs) < CLOCK_TOLERANCE_MS) return undefined;
  const sign = offsetMs < 0 ? '\u2212' : '+';
  const a = Math.abs(offsetMs);
  const amount = a >= 3_600_000 ? `${trim(a / 3_600_000)} h` : `${Math.round(a / 60_000)} min`;
  return `clock differs by ${sign}${amount}`;
}

function trim(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** A time for a table cell or a line of text: as the normaliser left it, or `unreadable ("…")`, or null when none was sent. */
export function timeText(text: unknown): string | null {
  if (text === undefined || text === null || text === '') return null;
  const s = typeof text === 'string' ? text : String(text);
  if (s.endsWith(AMBIGUOUS_NOTE)) return `ambiguous ("${s.slice(0, -AMBIGUOUS_NOTE.length).slice(0, 40)}": day or month first not known)`;
  return isUnreadableTime(text) ? `unreadable ("${s.slice(0, 40)}")` : s;
}
