import { describe, expect, it } from 'vitest';
import { parseAnswerJson, readAnswerJson } from '../../../../app/answers/json-text.js';

/** `depth` arrays around `inner`. */
const nested = (depth: number, inner: string): string => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

describe('readAnswerJson', () => {
  it('finds an integer beyond 2^53 at any depth and keeps it exact, leaving the rest as JSON.parse reads it', () => {
    const text = '{"Data":[{"Id":9007199254740993,"Name":"a"},{"Id":7,"Used":1.5,"Big":1e300,"Safe":9007199254740991}],"Meta":{"Next":[[-18446744073709551615]]}}';
    expect(readAnswerJson(text, 256)).toEqual({
      value: { Data: [{ Id: '9007199254740993', Name: 'a' }, { Id: 7, Used: 1.5, Big: 1e300, Safe: 9007199254740991 }], Meta: { Next: [['-18446744073709551615']] } },
      tooDeep: false,
    });
  });

  it('returns the parsed value itself when no number was rounded, even with 16-digit literals in strings', () => {
    expect(readAnswerJson('{"Serial":"12345678901234567890","Ts":1700000000000}', 256)).toEqual({ value: { Serial: '12345678901234567890', Ts: 1700000000000 }, tooDeep: false });
  });

  it('says when arrays and objects nest deeper than the limit, and not at the limit', () => {
    expect(readAnswerJson(nested(4, '1'), 4).tooDeep).toBe(false);
    expect(readAnswerJson(nested(5, '1'), 4).tooDeep).toBe(true);
    expect(readAnswerJson(`{"a":${nested(4, '{}')}}`, 5).tooDeep).toBe(true);
    // A hostile depth is reported without overflowing the stack.
    expect(readAnswerJson(nested(100_000, '1'), 256).tooDeep).toBe(true);
  });

  it('fails on what is not JSON, as JSON.parse does', () => {
    expect(() => readAnswerJson('{"a":', 256)).toThrow(SyntaxError);
  });
});

describe('parseAnswerJson beyond the depth it walks', () => {
  it('still keeps a long integer exact by reading the text', () => {
    expect(JSON.stringify(parseAnswerJson(nested(2000, '12345678901234567890')))).toBe(nested(2000, '"12345678901234567890"'));
  });
});
