import { describe, expect, it } from 'vitest';
import { describeSize, formatBytes, parseSize, sizeInput } from '../../../app/units.js';

describe('sizes', () => {
  it('reads sizes as admins type them, binary and decimal, exactly', () => {
    expect(parseSize('2 TiB')).toEqual({ bytes: 2 * 1024 ** 4 });
    expect(parseSize('2TB')).toEqual({ bytes: 2e12 });
    expect(parseSize('500 GiB')).toEqual({ bytes: 500 * 1024 ** 3 });
    expect(parseSize('1.5 tib')).toEqual({ bytes: 1649267441664 });
    expect(parseSize('1099511627776')).toEqual({ bytes: 1024 ** 4 });
    expect(parseSize('4 KiB')).toEqual({ bytes: 4096 });
  });

  it('says what is wrong instead of guessing', () => {
    expect(parseSize('2T')).toEqual({ problem: '“2T” is ambiguous: write 2 TiB (1024-based) or TB (1000-based)' });
    expect(parseSize('2 TiBs')).toEqual({ problem: '“TiBs” is not a unit: use KiB, MiB, GiB, TiB, PiB (or KB … PB)' });
    expect(parseSize('0.3 B')).toEqual({ problem: '“0.3 B” is not a whole number of bytes' });
    // A decimal that is no whole number of bytes: the nearest whole MiB (below MiB, the nearest byte).
    expect(parseSize('2.6 TiB')).toEqual({ bytes: 2726298 * 1024 ** 2, rounded: true });
    expect(parseSize('0.3 KiB')).toEqual({ bytes: 307, rounded: true });
    expect(parseSize('2.6 TB')).toEqual({ bytes: 2.6e12 });
    expect(parseSize('lots')).toMatchObject({ problem: expect.stringContaining('is not a size') });
    expect(parseSize('9 EiB')).toMatchObject({ problem: expect.stringContaining('is not a unit') });
  });

  it('shows sizes in binary units, with the exact bytes when rounded', () => {
    expect(formatBytes(1024 ** 4)).toBe('1.00 TiB');
    expect(formatBytes(512)).toBe('512 B');
    expect(describeSize(2 * 1024 ** 4)).toBe('2.00 TiB');
    expect(describeSize(2e12)).toBe('1.82 TiB (2\u2009000\u2009000\u2009000\u2009000 bytes)');
  });

  it('puts a size back into an input as typed, so an edit sends the same bytes', () => {
    expect(sizeInput(2 * 1024 ** 4)).toBe('2 TiB');
    expect(sizeInput(500 * 1024 ** 3)).toBe('500 GiB');
    expect(sizeInput(2e12)).toBe('2 TB');
    expect(sizeInput(123457)).toBe('123457');
    for (const b of [2 * 1024 ** 4, 2e12, 4096, 1536 * 1024 ** 3, 123457]) expect(parseSize(sizeInput(b))).toEqual({ bytes: b });
  });
});
