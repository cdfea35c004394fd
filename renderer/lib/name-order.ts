/**
 * The order of names the window's first frame shows (the tree's sites and systems, the overview's
 * ties), without the locale's collator where the default locale orders ASCII as Unicode's root
 * collation does (the collator's locale data cost 12-20 ms before the first frame). Apart
 * from locale-formats.ts so the entry script, which imports that, does not carry it.
 */
import { asciiLocale, textCollator } from './locale-formats.js';

/** The default locale orders ASCII as the root collation (read once). */
let byRoot: boolean | undefined;

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
 * Texts of characters whose code units are in the root collation's order (each its own weight, no
 * case pairs): two of them compare as their code units, natively, where `compareAscii`'s loop runs
 * cold in the first frame's sorts (the fleet's usual names, `atlas-06`, `dc-vienna`).
 */
const BY_CODE = /^[-. 0-9a-z]*$/;

/**
 * Compares two names as the default locale's collator does (`a.localeCompare(b)`); without building
 * it for names of ASCII in a locale of `ASCII_LANGUAGES` (locale-formats.ts).
 */
export function compareNames(a: string, b: string): number {
  byRoot ??= asciiLocale();
  if (byRoot && BY_CODE.test(a) && BY_CODE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return (byRoot ? compareAscii(a, b) : undefined) ?? textCollator().compare(a, b);
}
