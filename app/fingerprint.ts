import { InputError } from './errors.js';

/**
 * SHA-256 fingerprints (of certificates, of an export's manifest) in every process: stored and
 * compared as 64 lowercase hex digits, shown as admins compare them, uppercase hex in colon-separated
 * pairs (the form browsers, `openssl x509 -fingerprint` and storage consoles print). The one place
 * that reads the forms an admin may paste: colons, spaces, either case.
 */

/** Lowercase hex without separators, or undefined when the text is not a SHA-256 (64 hex digits). */
export function normalizeFingerprint(text: string): string | undefined {
  const hex = text.replace(/[:\s]/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : undefined;
}

/**
 * Lowercase hex without separators.
 * @throws InputError when the text is not a SHA-256: the message quotes it and says what is expected.
 */
export function requireFingerprint(text: string): string {
  const hex = normalizeFingerprint(text);
  if (!hex) throw new InputError(`"${text}" is not a SHA-256 fingerprint (64 hex digits, colons allowed)`);
  return hex;
}

/** True when both texts are SHA-256 fingerprints and the same one, whatever form each is written in. */
export function sameFingerprint(a: string | undefined, b: string | undefined): boolean {
  const x = a === undefined ? undefined : normalizeFingerprint(a);
  return x !== undefined && b !== undefined && x === normalizeFingerprint(b);
}

/** The fingerprint's pairs, `['AB', 'CD', …]`; the text as one item when it is not a SHA-256. */
export function fingerprintPairs(text: string): string[] {
  const hex = normalizeFingerprint(text);
  return hex ? (hex.toUpperCase().match(/../g) ?? []) : [text];
}

/** `AB:CD:…`, or the text unchanged when it is not a SHA-256. */
export function formatFingerprint(text: string): string {
  return fingerprintPairs(text).join(':');
}

/** Positions (0-based) of the pairs that differ between two fingerprints of the same length. */
export function differingPairs(a: string, b: string): Set<number> {
  const x = fingerprintPairs(a);
  const y = fingerprintPairs(b);
  const out = new Set<number>();
  for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) out.add(i);
  return out;
}
