import type { Args } from '../args.js';
import { fail } from '../errors.js';
import { sameName } from '../state/lookup.js';
import { normalizeWwn } from '../../app/validation/formats.js';

/** Input checks shared by handlers; each failure is a 400 naming the field. */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIpv4(text: string): boolean {
  return IPV4.test(text.trim());
}

export function requireIpv4(field: string, text: string | undefined, optional = false): string | undefined {
  if (text === undefined || text === '') {
    if (optional) return undefined;
    fail(`${field} is required.`);
  }
  if (!isIpv4(text)) fail(`${field} '${text}' is not a valid IPv4 address.`);
  return text.trim();
}

/** Dotted netmask such as 255.255.255.0 (contiguous ones). */
export function requireMask(field: string, text: string | undefined): string {
  const mask = requireIpv4(field, text) as string;
  const bits = mask.split('.').map((o) => Number(o).toString(2).padStart(8, '0')).join('');
  if (!/^1+0*$/.test(bits)) fail(`${field} '${text}' is not a valid netmask.`);
  return mask;
}

export function requireWwns(list: readonly string[]): string[] {
  return list.map((w) => normalizeWwn(w) ?? fail(`Invalid WWN '${w}': expected 16 hexadecimal digits, optionally colon-separated (10:00:00:90:fa:12:34:56).`));
}

const IQN = /^iqn\.\d{4}-(0[1-9]|1[0-2])\.[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[^\s]+)?$/i;
const NQN = /^nqn\.\d{4}-(0[1-9]|1[0-2])\.[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[^\s]+)?$/i;

export function requireIqn(text: string): string {
  if (!IQN.test(text.trim()) || text.length > 223) fail(`Invalid IQN '${text}': expected iqn.yyyy-mm.reversed.domain[:identifier].`);
  return text.trim().toLowerCase();
}

export function requireNqn(text: string): string {
  if (!NQN.test(text.trim()) || text.length > 223) fail(`Invalid NQN '${text}': expected nqn.yyyy-mm.reversed.domain[:identifier].`);
  return text.trim();
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Object names: 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit. */
export function requireName(field: string, text: string | undefined): string {
  if (text === undefined || text.trim() === '') fail(`${field} is required.`);
  if (!NAME.test(text)) fail(`Invalid ${field} '${text}': use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.`);
  return text;
}

/**
 * `PUT …/edit` of an application or a template: body `Application` (the new name, unique among
 * `siblings` regardless of case) and `Description`; at least one of them. Returns the answer text.
 */
export function editNameAndDescription(
  body: Args,
  item: { name: string; description: string },
  siblings: readonly { name: string }[],
  noun: 'Application' | 'Template',
): string {
  const newName = body.str('Application');
  const description = body.str('Description');
  if (newName === undefined && description === undefined) fail('Nothing to change: send Application (new name) or Description.');
  if (newName !== undefined && !sameName(newName, item.name)) {
    requireName('Application', newName);
    if (siblings.some((x) => sameName(x.name, newName))) fail(`${noun} '${newName}' already exists.`);
  }
  if (newName !== undefined) item.name = newName;
  if (description !== undefined) item.description = description;
  return `${noun} '${item.name}' updated.`;
}

export function requireEmail(field: string, text: string | undefined): string {
  if (!text) fail(`${field} is required.`);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) fail(`${field} '${text}' is not a valid e-mail address.`);
  return text;
}

export function requirePort(field: string, port: number | undefined, fallback: number): number {
  const p = port ?? fallback;
  if (!Number.isInteger(p) || p < 1 || p > 65535) fail(`${field} must be between 1 and 65535.`);
  return p;
}

export function requireUrl(field: string, text: string | undefined): string {
  if (!text) fail(`${field} is required.`);
  let ok = false;
  try {
    const u = new URL(text);
    ok = u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    ok = false;
  }
  if (!ok) fail(`${field} '${text}' is not a valid http(s) URL.`);
  return text;
}

/** Mapping LUN ids are sent as strings; 0–16383. */
export function parseLun(text: string): number {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) > 16383) fail(`Invalid LUN id '${text}': expected an integer from 0 to 16383.`);
  return Number(t);
}

/** True when `ip` lies in `cidr` (a.b.c.d/len). */
export function inSubnet(ip: string, cidr: string): boolean {
  const [base, lenText] = cidr.split('/');
  const len = Number(lenText);
  const toInt = (a: string): number => a.split('.').reduce((n, o) => (n << 8) + Number(o), 0) >>> 0;
  if (!base || !isIpv4(ip) || !isIpv4(base)) return false;
  const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
  return (toInt(ip) & mask) === (toInt(base) & mask);
}

/** Counts `true` among mutually exclusive switches; 400 when more than one is set. */
export function oneOf(fields: Record<string, boolean | undefined>): string | undefined {
  const on = Object.entries(fields).filter(([, v]) => v === true).map(([k]) => k);
  if (on.length > 1) fail(`Choose only one of ${Object.keys(fields).join(', ')}.`);
  return on[0];
}
