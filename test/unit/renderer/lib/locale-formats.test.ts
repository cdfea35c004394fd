import { describe, expect, it } from 'vitest';
import { ASCII_LANGUAGES, compareAscii, compareNames, plainWhole } from '../../../../renderer/lib/locale-formats.js';

// The first frame orders names and writes small figures without the locale's data where that gives
// the same text and order as the locale objects (issue 17): checked here against ICU itself.

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

/** Where `compareAscii` and the language's collator disagree, over the corpus in the collator's order. */
function disagreements(language: string, texts: readonly string[]): Array<[string, string]> {
  const collator = new Intl.Collator(language);
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

  it('orders ASCII text as the collator of every language it is used for', () => {
    for (const language of ASCII_LANGUAGES) expect({ language, wrong: disagreements(language, texts).slice(0, 3) }).toEqual({ language, wrong: [] });
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

describe('plainWhole', () => {
  it('writes 0–999 as the number format of every language it is used for, in every region', () => {
    const regions = ['', 'US', 'GB', 'IN', 'DE', 'CH', 'FR', 'CA', 'ES', 'MX', 'BR', 'PT', 'IT', 'NL', 'FI', 'SE', 'PL', 'RO', 'SI', 'ID', 'MY', 'KE', 'VN', 'JP', 'KR', 'CN', 'TW', 'HK', 'RU', 'UA', 'BG', 'GR', 'IL', 'ZA', 'EG', 'SA', 'IR', 'BD'];
    for (const language of ASCII_LANGUAGES) {
      for (const region of regions) {
        const format = new Intl.NumberFormat(region ? `${language}-${region}` : language, { maximumFractionDigits: 0 });
        for (const n of [0, 7, 42, 999]) expect(format.format(n), `${language}-${region} ${n}`).toBe(String(n));
      }
    }
  });

  it('leaves to the number format what may need grouping, fractions or a sign', () => {
    expect(plainWhole(999)).toBe('999');
    expect(plainWhole(0)).toBe('0');
    for (const n of [1000, 12_345, 1.5, -1, -0, Number.NaN]) expect(plainWhole(n)).toBeUndefined();
  });
});
