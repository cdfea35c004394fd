/**
 * The locale objects the window uses, made once and kept: building the first locale object of a page
 * loads its locale data (12–20 ms in Chromium, whichever kind is first), and `toLocaleString` or
 * `localeCompare` with a locale build a new one on every call. Its own small module so the entry
 * script can reach it without carrying the display formats.
 *
 * The window's first frame needs none of them where the default locale orders plain ASCII names as
 * Unicode's root collation does and writes its digits 0–9 (`asciiLocale`): its names are then ordered
 * by that collation's weights (`compareNames`, name-order.ts) and its small whole numbers written as
 * they are (`plainWhole`), the same output the locale objects give, and those are built once the
 * frame is painted (`buildFormats`), not between the frame's mount and the answers it waits for.
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
 * Languages whose collation orders ASCII text as the root collation does (no tailoring, contraction
 * or reordering that reaches ASCII: not Danish "aa", Czech "ch", Lithuanian "y", Turkish "I"…) and
 * whose numbers use the digits 0–9 in every region: checked against ICU in
 * test/unit/renderer/lib/name-order.test.ts (the order) and locale-formats.test.ts (the digits).
 */
export const ASCII_LANGUAGES: ReadonlySet<string> = new Set(['en', 'de', 'fr', 'es', 'pt', 'it', 'ca', 'nl', 'fi', 'sv', 'pl', 'ro', 'sl', 'id', 'ms', 'sw', 'vi', 'ja', 'ko', 'zh', 'ru', 'uk', 'bg', 'el', 'he', 'af']);

let ascii: boolean | undefined;

/**
 * Whether the default locale is one of {@link ASCII_LANGUAGES}. Read from a plural rules object,
 * which resolves the default locale without loading the collation or number data (0.3 ms).
 */
export function asciiLocale(): boolean {
  if (ascii === undefined) {
    const locale = new Intl.PluralRules().resolvedOptions().locale;
    ascii = ASCII_LANGUAGES.has(locale.split('-')[0]!.toLowerCase());
  }
  return ascii;
}

/**
 * A whole number the default locale writes as its digits alone (0–999: no grouping, the digits
 * 0–9), as that text, without building the number format; undefined otherwise.
 */
export function plainWhole(n: number): string | undefined {
  return Number.isInteger(n) && n >= 0 && n < 1000 && !Object.is(n, -0) && asciiLocale() ? String(n) : undefined;
}

/**
 * What the entry script calls once the frame is mounted (hidden, renderer/frame.ts): builds the
 * objects the first frame uses with the answers (the name order's collator, the whole-number format)
 * only where the locale needs them for it (not {@link asciiLocale}), so the locale data loads while
 * the page waits for main's answers rather than inside their render. Elsewhere nothing is built
 * before the first frame: see {@link buildFormats}.
 */
export function warmFormats(): void {
  if (asciiLocale()) return;
  buildFormats();
}

/**
 * Builds the collator and the whole-number format: once the window's first frame is painted
 * (App.svelte), so a name outside ASCII or a figure over 999 later does not load the locale data
 * inside the render that shows it.
 */
export function buildFormats(): void {
  textCollator();
  numberFormat(0);
}
