import { describe, expect, it } from 'vitest';
import { isSpace, nameValueOf } from '../../../../app/smart/parse.js';

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

  it('splits smartctl\'s lines as that pattern did', () => {
    for (const line of ['Device Model:     ST16000NM001G-2KK103', 'Temperature:                        34 Celsius', '  critical_warning   : 0', 'Accumulated start-stop cycles:  12', 'Error counter log:', 'no colon here', '0x04: starts with a digit', 'Label\t :\tvalue \t', 'A:', 'Critical Warning: 0x00 \r', 'Temp\u0080: 1'])
      expect(nameValueOf(line), line).toEqual(byPattern(line));
  });
});
