import { describe, expect, it } from 'vitest';
import { differingPairs, formatFingerprint, normalizeFingerprint } from '../../../../renderer/sites/fingerprint.js';
import { needsTwoFactor } from '../../../../renderer/sites/session.js';

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

describe('two-factor detection', () => {
  it.each([
    ['dc-a: two-factor authentication is on: a code is required', true],
    ['dc-a: login refused (Invalid two-factor authentication code.); the two-factor code may be wrong or expired', true],
    ['dc-a: no password stored; log in to this site', false],
    ['dc-a: login refused (Invalid username or password.)', false],
    [undefined, false],
  ])('%s → %s', (message, expected) => {
    expect(needsTwoFactor(message)).toBe(expected);
  });
});
