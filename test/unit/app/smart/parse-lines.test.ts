import { describe, expect, it } from 'vitest';
import { ataRowFields, isSpace, nameValueOf } from '../../../../app/smart/parse.js';

/** The patterns the parser matched ATA attribute rows with (smartctl -A, and -f brief). */
const ATA_FULL = /^\s*(\d{1,3})\s+(\S+)\s+(0x[0-9a-fA-F]{4})\s+(\d{1,3})\s+(\d{1,3})\s+(\d{1,3}|-{3})\s+(\S+)\s+(\S+)\s+(\S+)\s+(.*?)\s*$/;
const ATA_BRIEF = /^\s*(\d{1,3})\s+(\S+)\s+([PSROCK+-]{6,7})\s+(\d{1,3})\s+(\d{1,3})\s+(\d{1,3}|-{3})\s+(\S+)\s+(.*?)\s*$/;
function ataByPattern(line: string): { layout: 'full' | 'brief'; fields: string[] } | undefined {
  const full = ATA_FULL.exec(line);
  if (full) return { layout: 'full', fields: full.slice(1) };
  const brief = ATA_BRIEF.exec(line);
  return brief ? { layout: 'brief', fields: brief.slice(1) } : undefined;
}

/** The pattern the parser matched `Name: value` lines with before sm26, and its key. */
const KEY_VALUE = /^\s*([A-Za-z][A-Za-z0-9 ./()_-]*?)\s*:\s*(.*?)\s*$/;
const keyOf = (label: string): string => label.toLowerCase().replace(/[^a-z0-9]/g, '');
function byPattern(line: string): { label: string; value: string; key: string } | undefined {
  const m = KEY_VALUE.exec(line);
  return m ? { label: m[1] as string, value: m[2] as string, key: keyOf(m[1] as string) } : undefined;
}

/** A deterministic generator (xorshift32), so a failing line can be reproduced. */
function random(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

describe('the parser\'s line reading', () => {
  it('counts as white space exactly what \\s matches', () => {
    for (let c = 0; c < 0x10000; c++) expect(isSpace(c), `U+${c.toString(16)}`).toBe(/\s/.test(String.fromCharCode(c)));
  });

  it('splits Name: value lines as the pattern it replaces did, over lines made of the characters that matter', () => {
    // Letters, digits, label punctuation, colons, every kind of white space and line terminator a line can keep, and others.
    const alphabet = ['a', 'Z', 'q', '7', ' ', ' ', ' ', '.', '/', '(', ')', '_', '-', ':', ':', '\t', '\v', '\f', '\r', '\u00a0', '\u2003', '\u2028', '\u2029', '\ufeff', '%', '#', '<', 'é', '\u212a'];
    const next = random(0x5eed);
    let split = 0;
    for (let i = 0; i < 50_000; i++) {
      const part = (): string => Array.from({ length: next(12) }, () => alphabet[next(alphabet.length)]).join('');
      // Half the lines are a label, a colon and a value, so that many are split.
      const line = i % 2 ? `${part()}${part()}` : `${alphabet[next(4)]}${part()}:${part()}`;
      const expected = byPattern(line);
      if (expected) split++;
      expect(nameValueOf(line), JSON.stringify(line)).toEqual(expected);
    }
    expect(split).toBeGreaterThan(5_000);
  });

  it('reads ATA attribute rows as the patterns they replace did, over rows made of the words and characters that matter', () => {
    const words = ['5', '194', '1000', '12', 'Raw_Read_Error_Rate', '0x002f', '0x00Af', '0x02f', '0x002g', 'POSR-K', 'PO--CK+', 'PO--C', 'POSR-KX', 'PO--CK+-', '---', '--', '100', '-', 'Pre-fail', 'Always', 'FAILING_NOW', '0', '34 (Min/Max 20/45)', 'x', 'é'];
    const spaces = [' ', '  ', '\t', '\u00a0', '\u2003', '\r', '\u2028', '\ufeff', '\v'];
    const next = random(0xa7a);
    let full = 0;
    let brief = 0;
    for (let i = 0; i < 60_000; i++) {
      // Most rows take their words in the order of one layout, a few of them swapped for another word.
      const layout = i % 3 === 0 ? ['5', 'Name', 'POSR-K', '100', '100', '---', '-', '0'] : ['194', 'Temp', '0x0022', '064', '050', '000', 'Old_age', 'Always', '-', '36'];
      const row = layout.map((w) => (next(6) === 0 ? words[next(words.length)] : w));
      if (next(4) === 0) row.push(words[next(words.length)] as string);
      if (next(5) === 0) row.splice(next(row.length), 1);
      const gap = (): string => (next(8) === 0 ? spaces[next(spaces.length)] as string : ' ');
      const line = `${next(3) === 0 ? gap() : ''}${row.map((w) => `${w}${gap()}`).join('')}${next(3) === 0 ? gap() : ''}`.replace(/ $/, next(2) ? '' : ' ');
      const expected = ataByPattern(line);
      if (expected?.layout === 'full') full++;
      if (expected?.layout === 'brief') brief++;
      expect(ataRowFields(line), JSON.stringify(line)).toEqual(expected);
    }
    expect(full).toBeGreaterThan(5_000);
    expect(brief).toBeGreaterThan(2_000);
  });

  it('splits smartctl\'s lines as that pattern did', () => {
    for (const line of ['Device Model:     ST16000NM001G-2KK103', 'Temperature:                        34 Celsius', '  critical_warning   : 0', 'Accumulated start-stop cycles:  12', 'Error counter log:', 'no colon here', '0x04: starts with a digit', 'Label\t :\tvalue \t', 'A:', 'Critical Warning: 0x00 \r', 'Temp\u0080: 1'])
      expect(nameValueOf(line), line).toEqual(byPattern(line));
  });
});
