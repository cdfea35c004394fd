/**
 * The locale objects the window uses, made once and kept: `toLocaleString` or `localeCompare` with a
 * locale build a new one on every call, and the first one a page builds loads its locale data. Its
 * own small module so the entry script can build them (`warmFormats`) while main answers the first
 * reads, rather than inside the render that shows them.
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
 * Builds what the first frame uses with the answers (the name order's collator, the whole-number
 * format). The entry script calls it once the first reads are sent.
 */
export function warmFormats(): void {
  textCollator();
  numberFormat(0);
}
