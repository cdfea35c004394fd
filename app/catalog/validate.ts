import { CodedError } from '../errors.js';
import type { Field, Operation, ScalarType, ValueType } from './types.js';
import { typeName } from './types.js';

/** Thrown when parameters do not match the catalog; nothing is sent. `problems` names each one. */
export class ValidationError extends CodedError {
  override readonly name = 'ValidationError';
  constructor(
    readonly operation: string,
    readonly problems: readonly string[],
  ) {
    super('validation', `${operation}: ${problems.join('; ')}`);
  }
}

/** Query values on the wire: each name with one or more string values (arrays as repeated keys). */
export type WireQuery = Array<[name: string, value: string]>;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Formats a Date as the interface's `YYYY-MM-DDTHH:MM:SS` (UTC). */
export function formatDateTime(d: Date): string {
  return d.toISOString().slice(0, 19);
}

/**
 * Coerces one scalar to its wire value, or returns an error message.
 * Integers and numbers accept numeric strings; booleans accept "true"/"false";
 * date-times accept a Date or ISO 8601 text and are written as `YYYY-MM-DDTHH:MM:SS` (UTC).
 */
export function coerceScalar(type: ScalarType, value: unknown): { ok: true; value: string | number | boolean } | { ok: false; error: string } {
  switch (type) {
    case 'string':
      if (typeof value === 'string') return { ok: true, value };
      if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
      return { ok: false, error: 'expected a string' };
    case 'integer': {
      if (typeof value === 'number' && Number.isSafeInteger(value)) return { ok: true, value };
      if (typeof value === 'string' && INTEGER.test(value.trim())) {
        const n = Number(value.trim());
        if (Number.isSafeInteger(n)) return { ok: true, value: n };
      }
      return { ok: false, error: `expected an integer, got ${describe(value)}` };
    }
    case 'number': {
      if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
      if (typeof value === 'string' && NUMBER.test(value.trim())) return { ok: true, value: Number(value.trim()) };
      return { ok: false, error: `expected a number, got ${describe(value)}` };
    }
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return { ok: false, error: `expected true or false, got ${describe(value)}` };
    case 'date-time': {
      if (value instanceof Date && !Number.isNaN(value.getTime())) return { ok: true, value: formatDateTime(value) };
      if (typeof value === 'string') {
        const m = DATE_TIME.exec(value.trim());
        if (m) {
          const d = new Date(m[7] ? value.trim().replace(' ', 'T') : `${value.trim().replace(' ', 'T')}Z`);
          if (!Number.isNaN(d.getTime())) return { ok: true, value: formatDateTime(d) };
        }
      }
      return { ok: false, error: `expected a date-time like 2026-01-31T13:45:00, got ${describe(value)}` };
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return String(value);
}

function fieldIndex(list: readonly Field[]): Map<string, Field> {
  return new Map(list.map((f) => [f.name.toLowerCase(), f]));
}

/**
 * Validates query parameters against the operation and returns them as wire pairs.
 * Names match case-insensitively and are written with the catalog's spelling; arrays become repeated keys.
 * @throws ValidationError listing every problem.
 */
export function buildQuery(op: Operation, params: Readonly<Record<string, unknown>> = {}): WireQuery {
  const index = fieldIndex(op.query);
  const problems: string[] = [];
  const out: WireQuery = [];
  for (const [rawName, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const field = index.get(rawName.toLowerCase());
    if (!field) {
      if (op.freeformQuery) {
        for (const v of Array.isArray(value) ? value : [value]) out.push([rawName, String(v)]);
        continue;
      }
      problems.push(`unknown query parameter "${rawName}" (known: ${op.query.map((f) => f.name).join(', ') || 'none'})`);
      continue;
    }
    const t = field.type;
    if (typeof t === 'string') {
      if (Array.isArray(value)) {
        problems.push(`${field.name}: expected one ${t}, got an array`);
        continue;
      }
      const c = coerceScalar(t, value);
      if (c.ok) out.push([field.name, String(c.value)]);
      else problems.push(`${field.name}: ${c.error}`);
    } else if ('array' in t && typeof t.array === 'string') {
      const items = Array.isArray(value) ? value : [value];
      items.forEach((item, i) => {
        const c = coerceScalar(t.array as ScalarType, item);
        if (c.ok) out.push([field.name, String(c.value)]);
        else problems.push(`${field.name}[${i}]: ${c.error}`);
      });
    } else {
      problems.push(`${field.name}: type ${typeName(t)} cannot be sent as a query parameter`);
    }
  }
  if (problems.length) throw new ValidationError(op.key, problems);
  return out;
}

/**
 * How a body is checked. The client refuses unknown fields (a typo should not be dropped silently)
 * and keeps explicit nulls; the simulator follows the service's model binder, which ignores
 * unknown fields and nulls and takes only JSON strings for string fields.
 */
export interface BodyRules {
  unknownFields: 'reject' | 'ignore';
  nulls: 'keep' | 'drop';
  /** Refuse JSON numbers and booleans for string fields. */
  strictStrings: boolean;
}

export const CLIENT_BODY_RULES: BodyRules = { unknownFields: 'reject', nulls: 'keep', strictStrings: false };

/**
 * Validates a JSON body against the operation's body fields (recursively through nested objects),
 * normalising names to the catalog's spelling and date-times to the wire format.
 * @throws ValidationError listing every problem.
 */
export function buildBody(op: Operation, body: unknown): Record<string, unknown> | undefined {
  if (!op.hasBody) {
    if (body !== undefined && body !== null && !(isPlainObject(body) && Object.keys(body).length === 0)) {
      throw new ValidationError(op.key, ['this operation takes no body']);
    }
    return undefined;
  }
  if (body === undefined || body === null) return {};
  const problems: string[] = [];
  const out = checkFields(op.body, body, CLIENT_BODY_RULES, problems);
  if (problems.length) throw new ValidationError(op.key, problems);
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks an object against a list of fields under the given rules, pushing one message per
 * problem (with the field's dotted path) and returning the normalised object.
 */
export function checkFields(list: readonly Field[], value: unknown, rules: BodyRules, problems: string[], at = ''): Record<string, unknown> {
  if (!isPlainObject(value)) {
    problems.push(`${at || 'body'}: expected an object, got ${describe(value)}`);
    return {};
  }
  const index = fieldIndex(list);
  const out: Record<string, unknown> = {};
  for (const [rawName, v] of Object.entries(value)) {
    const field = index.get(rawName.toLowerCase());
    const path = at ? `${at}.${rawName}` : rawName;
    if (!field) {
      if (rules.unknownFields === 'reject') problems.push(`unknown field "${path}" (known: ${list.map((f) => f.name).join(', ')})`);
      continue;
    }
    if (v === null || v === undefined) {
      if (rules.nulls === 'keep') out[field.name] = null;
      continue;
    }
    const checked = checkValue(field.type, v, at ? `${at}.${field.name}` : field.name, rules, problems);
    if (checked !== undefined) out[field.name] = checked;
  }
  return out;
}

function checkValue(type: ValueType, value: unknown, at: string, rules: BodyRules, problems: string[]): unknown {
  if (typeof type === 'string') {
    if (rules.strictStrings && type === 'string' && typeof value !== 'string') {
      problems.push(`${at}: expected a string, got ${describe(value)}`);
      return undefined;
    }
    const c = coerceScalar(type, value);
    if (c.ok) return c.value;
    problems.push(`${at}: ${c.error}`);
    return undefined;
  }
  if ('array' in type) {
    if (!Array.isArray(value)) {
      problems.push(`${at}: expected an array of ${typeName(type.array)}, got ${describe(value)}`);
      return undefined;
    }
    return value.map((item, i) => checkValue(type.array, item, `${at}[${i}]`, rules, problems));
  }
  return checkFields(type.fields, value, rules, problems, at);
}
