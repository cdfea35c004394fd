import { SECRET_FIELD_NAMES } from './catalog/operations.js';

declare const redactedBrand: unique symbol;

/**
 * A value that has been through {@link redact} (or {@link redactedJson}): the only functions that
 * produce one. Writers that put data outside main's memory — the report history and the export
 * formats, the offline cache, the IPC answer of an operation — take a `Redacted` value, so data that
 * was never redacted fails `tsc` there instead of reaching a file, a window or a terminal, and data
 * that was is not walked again. The brand exists only for the compiler.
 */
export type Redacted<T> = T & { readonly [redactedBrand]: true };

/** What a redacted secret is replaced with. */
export const REDACTED = '[redacted]';

const SECRET_KEYS = new Set([...SECRET_FIELD_NAMES, 'authorization', 'token', 'password', 'secret', 'sedpassword'].map((k) => k.toLowerCase()));

/** True when a field name (any case) names a secret of the interface. */
export function isSecretField(name: string): boolean {
  return SECRET_KEYS.has(name.toLowerCase());
}

/**
 * Returns a deep copy with the value of every secret field replaced by `[redacted]`, whatever its case
 * or nesting. The single redaction function: cache, action log, logs, errors and exports all use it.
 * `extraSecrets` are literal values (a session token, a typed password) also masked inside strings.
 */
export function redact<T>(value: T, extraSecrets: readonly string[] = []): Redacted<T> {
  return walk(value, literalForms(extraSecrets), new WeakSet(), true) as Redacted<T>;
}

/**
 * Returns a deep copy in which every occurrence of the given secret values inside strings is
 * replaced by `[redacted]`; field names are not looked at. For answers that may echo what was sent
 * (a system that repeats a CHAP secret or the session token in its message) where a secret field
 * is the point of the answer (the session token of a login). Values shorter than 4 characters are
 * not masked: they would hide ordinary words and numbers.
 */
export function maskSecrets<T>(value: T, secrets: readonly string[]): T {
  const literals = literalForms(secrets);
  return literals.length ? (walk(value, literals, new WeakSet(), false) as T) : value;
}

/**
 * Every secret value in a request: the non-empty strings (and numbers) under a secret field name at
 * any depth, so what the app sent can be masked wherever the answer or an error is written.
 * Iterative, so a hostile nesting depth cannot overflow the stack.
 */
export function secretValues(value: unknown): string[] {
  const out = new Set<string>();
  const stack: Array<{ v: unknown; secret: boolean }> = [{ v: value, secret: false }];
  const seen = new WeakSet<object>();
  while (stack.length) {
    const { v, secret } = stack.pop() as { v: unknown; secret: boolean };
    if (secret && (typeof v === 'string' || typeof v === 'number') && String(v) !== '') out.add(String(v));
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) for (const item of v) stack.push({ v: item, secret });
    else for (const [k, child] of Object.entries(v)) stack.push({ v: child, secret: secret || isSecretField(k) });
  }
  return [...out];
}

/** Each secret as written and as it reads inside JSON text (quotes and backslashes escaped), longest first. */
function literalForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s.length < 4) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first: a secret that contains another is masked whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * `JSON.stringify(redact(value))` without the copy: the JSON text of a value with every secret
 * field masked. Used where large read results are stored (the offline cache), so a refresh does
 * not build a second object tree per answer. Like `JSON.stringify`, returns `undefined` for a
 * value JSON cannot represent and throws on a cycle.
 */
export function redactedJson(value: unknown): Redacted<string> | undefined {
  // Most answers hold no secret field, and then the plain text is the redacted text: JSON.stringify
  // without a replacer is several times faster, and the text shows whether any key names a secret.
  const plain = JSON.stringify(value) as string | undefined;
  if (plain === undefined || !SECRET_KEY_IN_JSON.test(plain)) return plain as Redacted<string> | undefined;
  return JSON.stringify(value, secretReplacer) as Redacted<string>;
}

/**
 * A secret field name written as a JSON key (`"Password":`), in any case. Case folding (`iu`) also
 * matches the keys whose lower case is a secret name without being ASCII (the Kelvin sign for
 * "k"), and JSON.stringify escapes no letter of a key, so no key the replacer masks is missed; a
 * string value that merely contains such text only costs the slower path.
 */
const SECRET_KEY_IN_JSON = new RegExp(`"(?:${[...SECRET_KEYS].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})":`, 'iu');

function secretReplacer(this: unknown, key: string, v: unknown): unknown {
  // Array elements arrive with their index as key: never a secret name.
  return key !== '' && !Array.isArray(this) && isSecretField(key) && v !== null && v !== undefined && v !== '' ? REDACTED : v;
}

function walk(value: unknown, literals: readonly string[], seen: WeakSet<object>, byField: boolean): unknown {
  if (typeof value === 'string') return maskLiterals(value, literals);
  if (typeof value !== 'object' || value === null) return value;
  // `seen` holds the objects on the current path only: a cycle is cut, a shared object is not.
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => walk(v, literals, seen, byField));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const masked = byField && isSecretField(k) && v !== null && v !== undefined && v !== '' ? REDACTED : walk(v, literals, seen, byField);
      // defineProperty: a "__proto__" key from parsed JSON stays a plain key, never a prototype.
      Object.defineProperty(out, k, { value: masked, enumerable: true, writable: true, configurable: true });
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function maskLiterals(text: string, literals: readonly string[]): string {
  let out = text;
  for (const s of literals) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}
