/**
 * The locale objects the window's first frame uses, made once and kept: building the first locale
 * object of a page loads its locale data (15–40 ms in Chromium), and `toLocaleString` or
 * `localeCompare` with a locale build a new one on every call. Its own small module so the entry
 * script can have their locale data loaded (`warmFormats`) without carrying the display formats (issue 17).
 */
const numberFormats = new Map<number, Intl.NumberFormat>();
let collator: Intl.Collator | undefined;

/** The user's number format with at most `digits` fraction digits. */
export function numberFormat(digits: number): Intl.NumberFormat {
  let f = numberFormats.get(digits);
  if (!f) numberFormats.set(digits, (f = new Intl.NumberFormat(undefined, { maximumFractionDigits: digits })));
  return f;
}

/** The default locale's collator, the order `a.localeCompare(b)` gives. */
export function textCollator(): Intl.Collator {
  return (collator ??= new Intl.Collator());
}

/**
 * Builds, once each, the locale objects the window's first frame uses (the overview's whole numbers,
 * the tree's and the overview's name order, table sorts, data age): what the entry script does when
 * it runs as the worker {@link warmFormats} starts. The number format first: the frame's mount uses
 * it; the collators are first used with the answers.
 */
export function buildFirstFormats(): void {
  numberFormat(0).format(1234.5);
  textCollator().compare('a', 'b');
  new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }).compare('a1', 'a2');
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(0);
}

/**
 * Has the locale data the first frame uses loaded off the window's thread: starts `script` (the
 * entry script, renderer/main.ts, already in the HTTP cache: no request main has to answer) as a
 * module worker, which calls {@link buildFirstFormats} and closes. ICU caches the locale data it
 * loads (collation tailoring, number symbols, date patterns) per process, for every thread, so the
 * window's own objects, built lazily on first use, then cost well under a millisecond; built on the
 * window's thread in the entry they took 20-30 ms before the frame's script could be evaluated, and
 * 15-40 ms wherever else (issue 17). Without workers (tests), or when one cannot start, nothing
 * happens: the objects are built on first use, as before. Returns the worker, when started.
 */
export function warmFormats(script: string | URL): Worker | undefined {
  if (typeof Worker === 'undefined') return undefined;
  try {
    return new Worker(script, { type: 'module', name: 'warm-formats' });
  } catch {
    return undefined;
  }
}
