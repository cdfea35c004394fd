import { createHmac } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (the form authenticator apps take). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case-insensitive, padding and spaces ignored). @throws RangeError on other characters. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const idx = ALPHABET.indexOf(ch);
    if (idx < 0) throw new RangeError(`invalid base32 character "${ch}"`);
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP with HMAC-SHA1. */
export function hotp(secret: Uint8Array, counter: number, digits = 6): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(msg).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return code.toString().padStart(digits, '0');
}

/**
 * RFC 6238 TOTP: 30-second steps, 6 digits, HMAC-SHA1.
 * @param secret raw key bytes, or its base32 text
 * @param timeMs time in milliseconds since the epoch
 */
export function totp(secret: Uint8Array | string, timeMs: number): string {
  const key = typeof secret === 'string' ? base32Decode(secret) : secret;
  return hotp(key, Math.floor(timeMs / 30_000));
}

/** True when `code` matches the step at `timeMs` or one step either side (clock skew). */
export function verifyTotp(secret: Uint8Array | string, code: string, timeMs: number): boolean {
  if (!/^\d{6}$/.test(code.trim())) return false;
  return [-1, 0, 1].some((skew) => totp(secret, timeMs + skew * 30_000) === code.trim());
}
