/**
 * The locale objects the window's first frame uses, made once and kept: building the first locale
 * object of a page loads its locale data (15–40 ms in Chromium), and `toLocaleString` or
 * `localeCompare` with a locale build a new one on every call. Its own small module so the entry
 * script can build them (`warmFormats`) without carrying the display formats (issue 17).
 */
const numberFormats = new Map<number, Intl.NumberFormat>();
let collator: Intl.Collator | undefined;
let byColumn: Intl.Collator | undefined;

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

/** A table column's order: numbers in text by value ("disk 2" before "disk 10"), case and accents aside. */
export function columnCollator(): Intl.Collator {
  return (byColumn ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }));
}

/**
 * Builds what the first frame uses (the tree's and the overview's name order, the overview's whole
 * numbers), for the entry script to call once the frame is mounted (hidden, renderer/frame.ts): the
 * locale data then loads while the page waits for main's answers, neither before the frame's script
 * is evaluated nor inside the answers' render. Nothing else is built.
 */
export function warmFormats(): void {
  textCollator();
  numberFormat(0);
}
