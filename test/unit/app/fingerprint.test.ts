import { describe, expect, it } from 'vitest';
import { differingPairs, formatFingerprint, normalizeFingerprint, requireFingerprint, sameFingerprint } from '../../../app/fingerprint.js';

const HEX = '0123456789abcdef'.repeat(4);

describe('fingerprints', () => {
  it('formats a SHA-256 as uppercase colon-separated pairs, whatever form it came in', () => {
    const formatted = '01:23:45:67:89:AB:CD:EF:'.repeat(4).slice(0, -1);
    expect(formatFingerprint(HEX)).toBe(formatted);
    expect(formatFingerprint(formatted.toLowerCase())).toBe(formatted);
    expect(normalizeFingerprint(` ${formatted} `)).toBe(HEX);
  });

  it('leaves text that is not a SHA-256 as it is', () => {
    expect(normalizeFingerprint('abc')).toBeUndefined();
    expect(formatFingerprint('abc')).toBe('abc');
  });

  it('finds the pairs that differ', () => {
    const other = `ff${HEX.slice(2, 62)}00`;
    expect([...differingPairs(HEX, other)]).toEqual([0, 31]);
    expect(differingPairs(HEX, HEX.toUpperCase()).size).toBe(0);
  });
});

describe('fingerprints typed by an admin', () => {
  it('reads colons, spaces and either case, and refuses anything that is not a SHA-256 with the text quoted', () => {
    expect(requireFingerprint(`  ${HEX.toUpperCase().match(/../g)?.join(':')}\n`)).toBe(HEX);
    expect(() => requireFingerprint('ab:cd')).toThrow(/"ab:cd" is not a SHA-256 fingerprint/);
  });

  it('compares fingerprints whatever form each is in, and never calls text that is not one the same', () => {
    expect(sameFingerprint(HEX, HEX.toUpperCase().match(/../g)?.join(':'))).toBe(true);
    expect(sameFingerprint(HEX, `ff${HEX.slice(2)}`)).toBe(false);
    expect(sameFingerprint('abc', 'abc')).toBe(false);
    expect(sameFingerprint(undefined, HEX)).toBe(false);
  });
});
