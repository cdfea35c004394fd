/**
 * Formats of identifiers the interface types only as "string": FC world wide names, iSCSI and NVMe
 * qualified names, IP addresses, LUN ids, ports. Pure functions, no DOM: the operation console, the
 * area forms and the CLI can all check a value before anything is sent. Each check returns the
 * problem as a sentence the admin can act on, or undefined when the value is fine.
 */

import { parseSize, SIZE_EXAMPLE } from '../units.js';

export type FormatId = 'wwn' | 'iqn' | 'nqn' | 'ip' | 'lun' | 'port' | 'email' | 'integer' | 'number' | 'size';

/** Highest LUN id accepted. See `checkLunId` for why. */
export const MAX_LUN_ID = 16383;

/** iSCSI (RFC 3720 §3.2.6.1) and NVMe (Base spec 4.5) names are at most 223 bytes. */
const MAX_QUALIFIED_NAME_BYTES = 223;

const quote = (text: string): string => `“${text.length > 60 ? `${text.slice(0, 60)}…` : text}”`;

const WWN_PLAIN = /^[0-9a-f]{16}$/i;
const WWN_COLONS = /^([0-9a-f]{2}:){7}[0-9a-f]{2}$/i;

/**
 * A Fibre Channel world wide name: 16 hex digits, either run together or with a colon between every
 * pair (`10:00:00:90:fa:12:34:56`). Dashes, spaces and partial colon forms are refused rather than
 * guessed at, so a mistyped digit is never silently re-grouped.
 */
export function checkWwn(text: string): string | undefined {
  const t = text.trim();
  if (WWN_PLAIN.test(t) || WWN_COLONS.test(t)) return undefined;
  const digits = t.replace(/:/g, '');
  if (/^[0-9a-f]*$/i.test(digits) && digits.length !== 16) {
    return `${quote(t)} has ${digits.length} hex digits; a WWN has 16, optionally with a colon between each pair (10:00:00:90:fa:12:34:56)`;
  }
  return `${quote(t)} is not a WWN: use 16 hex digits (0-9, a-f), optionally with a colon between each pair (10:00:00:90:fa:12:34:56)`;
}

/** A WWN in the lower-case colon form the systems show, or undefined when it is not a WWN. */
export function normalizeWwn(text: string): string | undefined {
  if (checkWwn(text)) return undefined;
  return (
    text
      .trim()
      .toLowerCase()
      .replace(/:/g, '')
      .match(/../g)
      ?.join(':') ?? undefined
  );
}

/** `YYYY-MM` (month 01–12) and a reversed domain of letters, digits and inner hyphens. */
const DATE_AND_DOMAIN = String.raw`\d{4}-(0[1-9]|1[0-2])\.[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*`;
const IQN = new RegExp(`^iqn\\.${DATE_AND_DOMAIN}(:\\S+)?$`, 'i');
const NQN = new RegExp(`^nqn\\.${DATE_AND_DOMAIN}:\\S+$`, 'i');
const NQN_UUID = /^nqn\.2014-08\.org\.nvmexpress:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** UTF-8 length, counted by hand: app/ has neither the DOM's nor Node's encoders. */
function byteLength(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** An iSCSI qualified name: `iqn.YYYY-MM.reversed.domain[:identifier]` (RFC 3720 §3.2.6.3.1). */
export function checkIqn(text: string): string | undefined {
  const t = text.trim();
  if (byteLength(t) > MAX_QUALIFIED_NAME_BYTES) return `an IQN has at most ${MAX_QUALIFIED_NAME_BYTES} bytes; this one has ${byteLength(t)}`;
  if (IQN.test(t)) return undefined;
  if (/^eui\.|^naa\./i.test(t)) return `${quote(t)} is an EUI/NAA name; hosts here take the iqn. form: iqn.YYYY-MM.reversed.domain[:identifier] (iqn.1994-05.com.redhat:host01)`;
  if (/^iqn\.\d{4}-(\d{2})/i.test(t) && !/^iqn\.\d{4}-(0[1-9]|1[0-2])/i.test(t)) return `${quote(t)} has no valid month: after iqn. comes YYYY-MM with a month from 01 to 12`;
  return `${quote(t)} is not an IQN: use iqn.YYYY-MM.reversed.domain[:identifier], for example iqn.1994-05.com.redhat:host01`;
}

/**
 * An NVMe qualified name: `nqn.YYYY-MM.reversed.domain:identifier`, or the UUID form
 * `nqn.2014-08.org.nvmexpress:uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (NVMe Base spec 4.5). Unlike
 * an IQN the part after the colon is required.
 */
export function checkNqn(text: string): string | undefined {
  const t = text.trim();
  if (byteLength(t) > MAX_QUALIFIED_NAME_BYTES) return `an NQN has at most ${MAX_QUALIFIED_NAME_BYTES} bytes; this one has ${byteLength(t)}`;
  if (/^nqn\.2014-08\.org\.nvmexpress:uuid:/i.test(t)) {
    return NQN_UUID.test(t) ? undefined : `${quote(t)} has a malformed UUID: the form is nqn.2014-08.org.nvmexpress:uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (hex digits)`;
  }
  if (NQN.test(t)) return undefined;
  if (new RegExp(`^nqn\\.${DATE_AND_DOMAIN}$`, 'i').test(t)) return `${quote(t)} lacks the identifier: an NQN continues with a colon and a name, e.g. ${t}:subsystem1`;
  return `${quote(t)} is not an NQN: use nqn.YYYY-MM.reversed.domain:identifier or nqn.2014-08.org.nvmexpress:uuid:<UUID>`;
}

const IPV4_OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => IPV4_OCTET.test(p));
}

function isIpv6(text: string): boolean {
  if (text.length > 45 || !/^[0-9a-f:.]+$/i.test(text)) return false;
  let head = text;
  let ipv4Groups = 0;
  // A dotted IPv4 tail (::ffff:10.0.0.1) stands for the last two groups.
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    if (lastColon < 0 || !isIpv4(text.slice(lastColon + 1))) return false;
    const withColon = text.slice(0, lastColon + 1);
    head = withColon.endsWith('::') ? withColon : text.slice(0, lastColon);
    ipv4Groups = 2;
  }
  const halves = head.split('::');
  if (halves.length > 2) return false;
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const left = groups(halves[0] ?? '');
  const right = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (![...left, ...right].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  const count = left.length + right.length + ipv4Groups;
  return halves.length === 2 ? count < 8 : count === 8;
}

/**
 * An IPv4 address in dotted-quad form or an IPv6 address (RFC 4291 text, `::` compression and a
 * dotted IPv4 tail allowed). No host names, prefixes or zone ids: the fields that take this format
 * are addresses the system configures or compares.
 */
export function checkIpAddress(text: string): string | undefined {
  const t = text.trim();
  if (isIpv4(t) || isIpv6(t)) return undefined;
  if (/\/\d+$/.test(t)) return `${quote(t)} is a prefix; give the address alone (the mask is a separate field)`;
  if (/^\d+(\.\d+){3}$/.test(t)) return `${quote(t)} is not an IPv4 address: each of the four numbers is 0 to 255`;
  if (t.includes('%')) return `${quote(t)} carries a zone id; give the IPv6 address without %zone`;
  return `${quote(t)} is not an IP address: use IPv4 (10.0.0.5) or IPv6 (fd00::5)`;
}

/**
 * A LUN id: a whole number from 0 to 16383. The interface does not state a range; 16383 is the top
 * of SAM's 14-bit flat-space LUN addressing, which is what array targets use for peripheral LUNs,
 * and it is where the simulator draws the line too. The systems reject anything above it anyway;
 * checking here just says so before a half-applied mapping request.
 */
export function checkLunId(text: string): string | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return `${quote(t)} is not a LUN id: use a whole number from 0 to ${MAX_LUN_ID}`;
  if (Number(t) > MAX_LUN_ID) return `LUN id ${t} is above ${MAX_LUN_ID}, the highest the systems accept`;
  return undefined;
}

/** A TCP/UDP port: 1–65535. */
export function checkPort(text: string): string | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return `${quote(t)} is not a port: use a whole number from 1 to 65535`;
  const n = Number(t);
  return n >= 1 && n <= 65535 ? undefined : `port ${t} is outside 1–65535`;
}

/** An e-mail address: something@domain.tld, no spaces. Deliberately loose; the mail server decides the rest. */
export function checkEmail(text: string): string | undefined {
  const t = text.trim();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t) ? undefined : `${quote(t)} is not an e-mail address (name@example.com)`;
}

/** A whole number that fits the interface's int64 without losing precision in JSON (a safe integer). */
export function checkInteger(text: string): string | undefined {
  const t = text.trim();
  if (!/^[+-]?\d+$/.test(t)) return /^[+-]?\d*\.\d+$/.test(t) ? `${quote(t)} has a fraction: enter a whole number` : `${quote(t)} is not a whole number`;
  return Number.isSafeInteger(Number(t)) ? undefined : `${quote(t)} is too large: at most ${Number.MAX_SAFE_INTEGER}`;
}

/** A finite decimal number, with an optional exponent (1.5, -2, 3e6). */
export function checkNumber(text: string): string | undefined {
  const t = text.trim();
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) && Number.isFinite(Number(t)) ? undefined : `${quote(t)} is not a number`;
}

/** A size with a unit (`2 TiB`, `500 GiB`, `2TB`) or in bytes; see `parseSize`. */
export function checkSize(text: string): string | undefined {
  const r = parseSize(text);
  return 'problem' in r ? r.problem : undefined;
}

function sizeBytes(text: string): number {
  const r = parseSize(text);
  return 'bytes' in r ? r.bytes : Number.NaN;
}

/** One format: a short name and example for hints, its check, and (for sizes) the wire value of valid text. */
export interface FormatSpec {
  name: string;
  example: string;
  check: (text: string) => string | undefined;
  /** The number sent for valid text, when it is not the text read as a number. */
  toNumber?: (text: string) => number;
}

/** Every known format with a short name for labels and hints. */
export const FORMATS: Readonly<Record<FormatId, FormatSpec>> = {
  wwn: { name: 'WWN', example: '10:00:00:90:fa:12:34:56', check: checkWwn },
  iqn: { name: 'IQN', example: 'iqn.1994-05.com.redhat:host01', check: checkIqn },
  nqn: { name: 'NQN', example: 'nqn.2014-08.org.nvmexpress:uuid:…', check: checkNqn },
  ip: { name: 'IP address', example: '10.0.0.5 or fd00::5', check: checkIpAddress },
  lun: { name: 'LUN id', example: `0–${MAX_LUN_ID}`, check: checkLunId },
  port: { name: 'port', example: '1–65535', check: checkPort },
  email: { name: 'e-mail address', example: 'name@example.com', check: checkEmail },
  integer: { name: 'whole number', example: '42', check: checkInteger },
  number: { name: 'number', example: '1.5', check: checkNumber },
  size: { name: 'size', example: SIZE_EXAMPLE, check: checkSize, toNumber: sizeBytes },
};

/** Checks a value against a format; empty text is for the caller to allow or require. */
export function checkFormat(format: FormatId, text: string): string | undefined {
  return FORMATS[format].check(text);
}
