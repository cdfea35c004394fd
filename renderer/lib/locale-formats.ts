/**
 * The locale objects the window uses, made once and kept: building the first locale object of a page
 * loads its locale data (12–20 ms in Chromium, whichever kind is first), and `toLocaleString` or
 * `localeCompare` with a locale build a new one on every call. Its own small module so the entry
 * script can reach it without carrying the display formats (issue 17).
 *
 * The window's first frame needs none of them where the default locale orders plain ASCII names as
 * Unicode's root collation does and writes its digits 0–9 (`asciiLocale`): its names are then ordered
 * by that collation's weights here (`compareNames`) and its small whole numbers written as they are
 * (`plainWhole`), the same output the locale objects give, and those are built once the frame is
 * painted (`buildFormats`), not between the frame's mount and the answers it waits for.
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
 * test/unit/renderer/lib/locale-formats.test.ts.
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
 * The root collation's primary order of ASCII: tab to carriage return, space, punctuation and
 * symbols, digits, then letters, each letter's two cases at one place (lower case first when nothing
 * else differs). The other control characters are ignorable there, so they are not in it.
 */
const ROOT_ORDER = "\t\n\v\f\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ";
/** Primary weight per ASCII code (0: not ordered here); 1 for an upper-case letter in {@link UPPER}. */
const PRIMARY = new Uint8Array(128);
const UPPER = new Uint8Array(128);
{
  let weight = 0;
  for (let i = 0; i < ROOT_ORDER.length; i++) {
    const c = ROOT_ORDER.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    if (!upper) weight++;
    PRIMARY[c] = weight;
    UPPER[c] = upper ? 1 : 0;
  }
}

/** The character at `i` is ordered here, or the text ends before it (nothing after can join a character before). */
function plainAt(s: string, i: number): boolean {
  if (i >= s.length) return true;
  const c = s.charCodeAt(i);
  return c < 128 && PRIMARY[c] !== 0;
}

/**
 * Compares two texts by the root collation's weights (primary, then case), when what decides is in
 * ASCII; undefined when a character that is not (an accent, another script, a control character)
 * could change the result, for the collator to decide. Written for the interpreter as much as for
 * the optimiser: the first frame's sorts run it cold.
 */
export function compareAscii(a: string, b: string): number | undefined {
  const n = a.length < b.length ? a.length : b.length;
  let i = 0;
  // The common start, each of its characters ordered here.
  for (; i < n; i++) {
    const c = a.charCodeAt(i);
    if (c !== b.charCodeAt(i)) break;
    if (c > 127 || PRIMARY[c] === 0) return undefined;
  }
  let byCase = 0;
  for (; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    const wx = x < 128 ? PRIMARY[x]! : 0;
    const wy = y < 128 ? PRIMARY[y]! : 0;
    if (wx === 0 || wy === 0) return undefined;
    // A combining mark right after the first difference would change that character's weight.
    if (wx !== wy) return plainAt(a, i + 1) && plainAt(b, i + 1) ? (wx < wy ? -1 : 1) : undefined;
    if (byCase === 0) byCase = UPPER[x]! - UPPER[y]!;
  }
  if (a.length !== b.length) {
    const longer = a.length > b.length ? a : b;
    const c = longer.charCodeAt(n);
    return c < 128 && PRIMARY[c] !== 0 && plainAt(longer, n + 1) ? (a.length < b.length ? -1 : 1) : undefined;
  }
  return byCase < 0 ? -1 : byCase > 0 ? 1 : 0;
}

/**
 * Compares two names as the default locale's collator does (`a.localeCompare(b)`); without building
 * it for names of ASCII in a locale of {@link ASCII_LANGUAGES}.
 */
export function compareNames(a: string, b: string): number {
  return ((ascii ?? asciiLocale()) ? compareAscii(a, b) : undefined) ?? textCollator().compare(a, b);
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
