import { SECRET_FIELD_NAMES } from './catalog/operations.js';

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
export function redact<T>(value: T, extraSecrets: readonly string[] = []): T {
  const literals = extraSecrets.filter((s) => s.length >= 4);
  return walk(value, literals, new WeakSet()) as T;
}

/**
 * `JSON.stringify(redact(value))` without the copy: the JSON text of a value with every secret
 * field masked. Used where large read results are stored (the offline cache), so a refresh does
 * not build a second object tree per answer. Like `JSON.stringify`, returns `undefined` for a
 * value JSON cannot represent and throws on a cycle.
 */
export function redactedJson(value: unknown): string | undefined {
  return JSON.stringify(value, secretReplacer);
}

function secretReplacer(this: unknown, key: string, v: unknown): unknown {
  // Array elements arrive with their index as key: never a secret name.
  return key !== '' && !Array.isArray(this) && isSecretField(key) && v !== null && v !== undefined && v !== '' ? REDACTED : v;
}

function walk(value: unknown, literals: readonly string[], seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return maskLiterals(value, literals);
  if (typeof value !== 'object' || value === null) return value;
  // `seen` holds the objects on the current path only: a cycle is cut, a shared object is not.
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => walk(v, literals, seen));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const masked = isSecretField(k) && v !== null && v !== undefined && v !== '' ? REDACTED : walk(v, literals, seen);
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
