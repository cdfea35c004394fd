import { isIP } from 'node:net';

/** True for 127.0.0.0/8, ::1 and localhost: the only hosts plain http is used for without an opt-in. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}

export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * The scheme of a URL as `new URL` reads it (always lowercase: `HTTPS://` is `https:`), or
 * undefined when the text is not a URL. Never compare the text itself: `startsWith('https:')`
 * misses `HTTPS://` and skips what https means (pinning, refusing plain http).
 */
export function urlProtocol(text: string): string | undefined {
  try {
    return new URL(text).protocol;
  } catch {
    return undefined;
  }
}
