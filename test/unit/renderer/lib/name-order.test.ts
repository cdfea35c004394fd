import { describe, expect, it } from 'vitest';
import { ASCII_LANGUAGES } from '../../../../renderer/lib/locale-formats.js';
import { compareAscii, compareNames } from '../../../../renderer/lib/name-order.js';

// The first frame orders names without the locale's collator where that gives the same order:
// checked here against ICU itself, for every language it is used for.

/** Every text of one or two characters of printable ASCII (and tab … carriage return), and three-letter ones where contractions live. */
function corpus(): string[] {
  const chars: string[] = ['\t', '\n', '\v', '\f', '\r'];
  for (let c = 32; c < 127; c++) chars.push(String.fromCharCode(c));
  const out = [''];
  for (const a of chars) {
    out.push(a);
    for (const b of chars) out.push(a + b);
  }
  const letters = [...'acdghjlnrstyzACHLSYZ'];
  for (const a of letters) for (const b of letters) for (const c of letters) out.push(a + b + c);
  return out;
}

/** Where `compareAscii` and the locale's collator disagree, over the corpus in the collator's order. */
function disagreements(locale: string, texts: readonly string[]): Array<[string, string]> {
  const collator = new Intl.Collator(locale);
  const sorted = [...texts].sort(collator.compare);
  const out: Array<[string, string]> = [];
  // Both orders are total: agreeing on every neighbour pair of one sorted list is agreeing on all.
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    if (compareAscii(a, b) !== Math.sign(collator.compare(a, b)) || compareAscii(b, a) !== Math.sign(collator.compare(b, a))) out.push([a, b]);
  }
  return out;
}

describe('compareAscii', () => {
  const texts = corpus();

  it('orders ASCII text as the collator of every language it is used for, and of regions with collations of their own', () => {
    const regional = ['de-AT', 'de-CH', 'es-MX', 'fr-CA', 'pt-PT', 'sv-FI', 'zh-TW', 'zh-HK', 'en-GB', 'en-IN'];
    for (const locale of [...ASCII_LANGUAGES, ...regional]) expect({ locale, wrong: disagreements(locale, texts).slice(0, 3) }).toEqual({ locale, wrong: [] });
  });

  it('is not used for languages whose collation reaches ASCII (the check above would see them)', () => {
    for (const language of ['da', 'cs', 'hu', 'lt', 'tr', 'cy']) {
      expect(ASCII_LANGUAGES.has(language)).toBe(false);
      expect(disagreements(language, texts).length).toBeGreaterThan(0);
    }
  });

  it('leaves to the collator what a character outside its table could decide', () => {
    // A combining mark after the first difference (o + diaeresis is ö, after z in Swedish).
    expect(compareAscii('o\u0308b', 'pa')).toBeUndefined();
    expect(compareAscii('é', 'e')).toBeUndefined();
    // An ignorable control character: the longer text is not greater for it.
    expect(compareAscii('ab\u0000', 'Ab')).toBeUndefined();
    expect(compareAscii('ab', 'ab\u0301')).toBeUndefined();
    // Differences before it decide.
    expect(compareAscii('ab-é', 'ac-é')).toBe(-1);
    expect(compareAscii('Système', 'system')).toBeUndefined();
  });

  it('gives names the collator order either way', () => {
    const collator = new Intl.Collator();
    const names = ['array-10', 'Array-2', 'array-2', 'Økern', 'öst', 'ost', 'Zeta', 'zeta', 'a b', 'a-b', 'a_b', 'a.b', 'A1', 'a1', 'Ärger', 'arg'];
    expect([...names].sort(compareNames)).toEqual([...names].sort(collator.compare));
  });
});

describe('compareNames on names of lower-case letters, digits, hyphens, dots and spaces', () => {
  // The fleet's usual names (`atlas-06`, `dc-vienna`): their code units are in the root collation's
  // order, so they are compared as code units, with no loop over their characters.
  const alphabet = [...' -.0123456789abcdefghijklmnopqrstuvwxyz'];
  const texts = [''];
  for (const a of alphabet) {
    texts.push(a);
    for (const b of alphabet) texts.push(a + b);
  }
  for (const a of [...' -.09az']) for (const b of [...' -.09az']) for (const c of [...' -.09az']) texts.push(a + b + c);

  it('orders them as compareAscii (the root collation, checked against ICU above) does', () => {
    const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const sorted = [...texts].sort((a, b) => compareAscii(a, b)!);
    const wrong: Array<[string, string]> = [];
    for (let i = 1; i < sorted.length; i++) {
      const a = sorted[i - 1]!;
      const b = sorted[i]!;
      if (byCode(a, b) !== compareAscii(a, b) || byCode(b, a) !== compareAscii(b, a)) wrong.push([a, b]);
      if (compareNames(a, b) !== compareAscii(a, b) || compareNames(b, a) !== compareAscii(b, a)) wrong.push([a, b]);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('still gives the collator order where another character is in one of them', () => {
    const collator = new Intl.Collator();
    // Upper case, underscore and tab are where code units and the collation part (a < B, - < _).
    const names = ['atlas-06', 'Atlas-06', 'atlas_06', 'atlas-6', 'atlas 06', 'atlas.06', 'b', 'B', 'a\tb', 'a-b', 'a_b', 'ätlas', 'atlas-06é'];
    expect([...names].sort(compareNames)).toEqual([...names].sort(collator.compare));
  });
});
