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
 * Has the locale data the first frame uses (the tree's and the overview's name order, the overview's
 * whole numbers, table sorts, data age) loaded off the window's thread, by a worker that builds the
 * same objects (intl-warm.worker.ts): ICU's locale data is cached per process, so the window's own
 * objects, built lazily on first use, then cost next to nothing. Called by the entry once the first
 * reads are out; building them on the window's thread there took 20-30 ms before the frame's script
 * could be evaluated (issue 17). Without workers (tests), nothing happens: the objects are built on
 * first use, as before. Returns the worker, when started.
 */
export function warmFormats(): Worker | undefined {
  if (typeof Worker === 'undefined') return undefined;
  try {
    return new Worker(new URL('./intl-warm.worker.ts', import.meta.url), { type: 'module', name: 'intl-warm' });
  } catch {
    // A window that cannot start one builds the objects on first use.
    return undefined;
  }
}
