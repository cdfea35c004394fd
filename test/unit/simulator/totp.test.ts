import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, totp, verifyTotp } from '../../../simulator/totp.js';

// RFC 6238 appendix B: SHA-1 key "12345678901234567890"; the 8-digit values end in these 6 digits.
const KEY = Buffer.from('12345678901234567890');
const VECTORS: Array<[number, string]> = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
  [20000000000, '353130'],
];

describe('totp', () => {
  it('matches the RFC 6238 SHA-1 test vectors', () => {
    for (const [seconds, code] of VECTORS) expect(totp(KEY, seconds * 1000)).toBe(code);
  });

  it('matches RFC 4226 HOTP values', () => {
    expect([0, 1, 2, 9].map((c) => hotp(KEY, c))).toEqual(['755224', '287082', '359152', '520489']);
  });

  it('takes the secret as base32 text too, and round-trips base32', () => {
    const text = base32Encode(KEY);
    expect(text).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(text.toLowerCase())).toEqual(KEY);
    expect(totp(text, 59_000)).toBe('287082');
  });

  it('accepts one step of skew either way and nothing else', () => {
    const t = 1_700_000_000_000;
    expect(verifyTotp(KEY, totp(KEY, t - 30_000), t)).toBe(true);
    expect(verifyTotp(KEY, totp(KEY, t + 30_000), t)).toBe(true);
    expect(verifyTotp(KEY, totp(KEY, t - 90_000), t)).toBe(false);
    expect(verifyTotp(KEY, 'abcdef', t)).toBe(false);
  });
});
