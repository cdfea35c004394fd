/**
 * The locale objects the window uses, made once and kept: building the first locale object of a page
 * loads its locale data (12–20 ms in Chromium), and `toLocaleString` or `localeCompare` build a new
 * one on every call. Its own small module so the entry script can build them (`warmFormats`) while
 * the frame's script loads and main answers the first reads, before the frame's first render.
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

/** Builds what the first frame orders and writes its figures with: the name collator and the whole-number format. */
export function warmFormats(): void {
  textCollator();
  numberFormat(0);
}
