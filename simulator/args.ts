import { checkFields, coerceScalar } from '../app/catalog/index.js';
import type { BodyRules, Operation, ScalarType } from '../app/catalog/index.js';
import { fail } from './errors.js';

/**
 * Request parameters after validation against the catalog, keyed by the catalog's spelling.
 * Names match case-insensitively; unknown names are ignored (as the real service ignores them);
 * a known name with a value of the wrong type is a 400 naming the field.
 */
export class Args {
  constructor(private readonly values: Readonly<Record<string, unknown>> = {}) {}

  has(name: string): boolean {
    return this.values[name] !== undefined && this.values[name] !== null;
  }

  str(name: string): string | undefined {
    const v = this.values[name];
    return typeof v === 'string' ? v : undefined;
  }

  int(name: string): number | undefined {
    const v = this.values[name];
    return typeof v === 'number' ? v : undefined;
  }

  num(name: string): number | undefined {
    return this.int(name);
  }

  bool(name: string): boolean | undefined {
    const v = this.values[name];
    return typeof v === 'boolean' ? v : undefined;
  }

  /** A boolean switch that is on unless sent as false. */
  on(name: string): boolean {
    return this.bool(name) !== false;
  }

  /** A boolean switch that is off unless sent as true. */
  flag(name: string): boolean {
    return this.bool(name) === true;
  }

  strs(name: string): string[] | undefined {
    const v = this.values[name];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
  }

  ints(name: string): number[] | undefined {
    const v = this.values[name];
    return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : undefined;
  }

  /** A date-time as milliseconds since the epoch (UTC when no zone was given). */
  /** A date-time parameter in ms: UTC, or `localOffsetMs` ahead of it (the system's local clock). */
  date(name: string, localOffsetMs = 0): number | undefined {
    const v = this.str(name);
    return v === undefined ? undefined : Date.parse(`${v}Z`) - localOffsetMs;
  }

  obj(name: string): Args | undefined {
    const v = this.values[name];
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? new Args(v as Record<string, unknown>) : undefined;
  }

  /** Raw normalised values (for free-form operations). */
  raw(): Readonly<Record<string, unknown>> {
    return this.values;
  }
}

/** Lists at most this many problems, so a body of thousands of wrong items gets a short answer. */
const MAX_PROBLEMS = 10;

function invalid(problems: readonly string[]): never {
  const shown = problems.slice(0, MAX_PROBLEMS).join('; ');
  fail(`Invalid request: ${shown}${problems.length > MAX_PROBLEMS ? `; and ${problems.length - MAX_PROBLEMS} more` : ''}`);
}

function coerce(type: ScalarType, value: unknown, label: string, problems: string[]): unknown {
  const c = coerceScalar(type, value);
  if (c.ok) return c.value;
  problems.push(`${label}: ${c.error}`);
  return undefined;
}

/** Validates the query string against the operation's query parameters. */
export function parseQuery(op: Operation, params: URLSearchParams): Args {
  const index = new Map(op.query.map((f) => [f.name.toLowerCase(), f]));
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [rawName, value] of params) {
    const field = index.get(rawName.toLowerCase());
    if (!field) {
      if (op.freeformQuery) out[rawName.toLowerCase()] = value;
      continue;
    }
    const t = field.type;
    if (typeof t === 'string') {
      if (out[field.name] !== undefined) continue;
      // An empty value means "not given", as the service's model binder treats it.
      if (value === '' && t !== 'string') continue;
      const v = coerce(t, value, `query parameter '${field.name}'`, problems);
      if (v !== undefined) out[field.name] = v;
    } else if ('array' in t && typeof t.array === 'string') {
      if (value === '') continue;
      const v = coerce(t.array, value, `query parameter '${field.name}'`, problems);
      if (v === undefined) continue;
      const list = (out[field.name] as unknown[] | undefined) ?? [];
      list.push(v);
      out[field.name] = list;
    }
  }
  if (problems.length) invalid(problems);
  return new Args(out);
}

/** Validates header parameters (only the datastore operation's async flag). */
export function parseHeaders(op: Operation, headers: Readonly<Record<string, string | string[] | undefined>>): Args {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const f of op.headers) {
    const raw = headers[f.name.toLowerCase()];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value === '' || typeof f.type !== 'string') continue;
    const v = coerce(f.type, value, `header '${f.name}'`, problems);
    if (v !== undefined) out[f.name] = v;
  }
  if (problems.length) invalid(problems);
  return new Args(out);
}

/** The service's model binder: unknown fields and nulls are ignored; strings must be JSON strings. */
const SERVER_BODY_RULES: BodyRules = { unknownFields: 'ignore', nulls: 'drop', strictStrings: true };

const JSON_TYPES = /^application\/(json|json-patch\+json|[\w.+-]+\+json)$|^text\/json$/i;

/** Parses and validates a JSON body; operations without a body ignore whatever is sent. */
export function parseBody(op: Operation, text: string, contentType: string | undefined): Args {
  if (!op.hasBody || text.trim() === '') return new Args({});
  const mediaType = contentType?.split(';')[0]?.trim() ?? '';
  if (mediaType !== '' && !JSON_TYPES.test(mediaType))
    fail(`Unsupported content type '${mediaType}': send application/json-patch+json or application/json.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    fail(`The request body is not valid JSON: ${e instanceof Error ? e.message : 'parse error'}.`);
  }
  if (parsed === null) return new Args({});
  const problems: string[] = [];
  const out = checkFields(op.body, parsed, SERVER_BODY_RULES, problems);
  if (problems.length) invalid(problems);
  return new Args(out);
}

