import { coerceScalar, FIELD_CHOICES, findOperation, type BodyOf, type Field, type HeadersOf, type Operation, type OperationKey, type QueryOf, type ScalarType, type ValueType } from '../../../app/catalog/index.js';
import { redact, REDACTED } from '../../../app/redact.js';
import { formatOfField, type FieldLocation } from '../../../app/validation/field-formats.js';
import { checkFormat, checkInteger, checkNumber, FORMATS, type FormatId } from '../../../app/validation/formats.js';
import { describeSize, parseSize } from '../../../app/units.js';
import { glossaryLabel } from './glossary.js';

/**
 * Forms generated from the operation catalog, as pure data: which inputs an operation has, how their
 * text becomes a request, what is wrong with it, and what the request will look like. The console and
 * every area form share this, so a field is typed, checked and masked the same way everywhere.
 *
 * Inputs are keyed by a field id: the location and the path below it, `body.Name`,
 * `query.wwns`, `body.volume.Tiers.TierN`, `body.volume.Shares[0].Path`.
 */

/**
 * Paths below one request shape, as field ids write them: `Name`, `volume.Tiers.TierN`,
 * `volume.Shares[3].Path`; three levels deep, as deep as any area names a field (and a recursive
 * resource must stop somewhere).
 */
type PathsOf<T, Depth extends readonly unknown[] = []> = Depth['length'] extends 3
  ? never
  : T extends object
    ? { [P in keyof T & string]-?: P | SubPathsOf<P, NonNullable<T[P]>, [...Depth, unknown]> }[keyof T & string]
    : never;
type SubPathsOf<P extends string, V, Depth extends readonly unknown[]> = V extends readonly (infer Item)[]
  ? Item extends object
    ? `${P}[${number}].${PathsOf<Item, Depth>}`
    : never
  : V extends object
    ? `${P}.${PathsOf<V, Depth>}`
    : never;
/** `never` for a location the operation does not have (`keyof never` would be every string). */
type Located<L extends string, T> = [T] extends [never] ? never : `${L}.${PathsOf<T>}`;

/**
 * The id of an input of operation `K`'s form, from the catalog: `body.Name`, `query.driveIds`,
 * `headers.async`, `body.datastore.Name`. An area's lists and per-field maps are typed with it, so a
 * field the operation does not have fails `npm run typecheck` instead of showing nothing. A union
 * of keys gives the ids of any of them (a map shared by several forms).
 */
export type FieldId<K extends OperationKey> = K extends OperationKey ? Located<'query', QueryOf<K>> | Located<'headers', HeadersOf<K>> | Located<'body', BodyOf<K>> : never;

/** An area's values for operation `K`'s inputs (fixed or initial), by field id. */
export type FormValuesOf<K extends OperationKey> = { readonly [Id in FieldId<K>]?: string };
/** An area's presentation of operation `K`'s inputs, by field id. */
export type FieldOptionsOf<K extends OperationKey> = { readonly [Id in FieldId<K>]?: FieldOptions };
/** Problems an area's cross-field rule finds in a request for operation `K`, by field id. */
export type ProblemsOf<K extends OperationKey> = { readonly [Id in FieldId<K>]?: readonly string[] };

/**
 * A typed map read by id as the form engine does (ids are built at run time, nested and indexed):
 * the one place a `FieldId<K>` map becomes a string-keyed one.
 */
export function byId<Id extends string, T>(map: { readonly [P in Id]?: T } | undefined): Readonly<Record<string, T>> {
  const out: Record<string, T> = {};
  for (const [id, v] of Object.entries(map ?? {}) as Array<[string, T | undefined]>) if (v !== undefined) out[id] = v;
  return out;
}

/** The text of every input of a form, by field id. Booleans are `''` (not sent), `'true'` or `'false'`. */
export type FormValues = Record<string, string>;
/** How many items an array of objects (or of arrays) holds, by field id. */
export type FormCounts = Record<string, number>;

/** How an input shows its field: one text, one text per line, a list of sub-forms, or a group of fields. */
export type InputKind = 'scalar' | 'list' | 'array' | 'object';

/** One input of a generated form. */
export interface FormField {
  id: string;
  location: FieldLocation;
  /** Path below the location: `Name`, `volume.Tiers.TierN`, `volume.Shares[0].Path`. */
  path: string;
  /** The catalog field; for an array item, a field named `Name[i]` of the item type. */
  field: Field;
  kind: InputKind;
}

/** Presentation and extra rules an area puts on a generated field. */
export interface FieldOptions {
  label?: string;
  help?: string;
  required?: boolean;
  /** A fixed set of values: a select for one value, checkboxes for a list. */
  choices?: ReadonlyArray<{ value: string; label?: string }>;
  /** Values offered while typing (free text still allowed). */
  suggestions?: readonly string[];
  /** A boolean as a checkbox: checked sends true, unchecked sends nothing. */
  checkbox?: boolean;
  placeholder?: string;
  /** A format the catalog does not know for this field. */
  format?: FormatId;
}

export type FieldOptionsMap = Readonly<Record<string, FieldOptions>>;

/** A request as op:call takes it. */
export interface OpRequest {
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  /** Undefined when the operation sends no body. */
  body: Record<string, unknown> | undefined;
}

export interface Collected {
  request: OpRequest;
  /** Problems by field id; empty when the request can be sent. */
  problems: Record<string, string[]>;
}

export function kindOf(type: ValueType): InputKind {
  if (typeof type === 'string') return 'scalar';
  if ('array' in type) return typeof type.array === 'string' ? 'list' : 'array';
  return 'object';
}

function make(location: FieldLocation, path: string, field: Field): FormField {
  return { id: `${location}.${path}`, location, path, field, kind: kindOf(field.type) };
}

/** The top-level inputs of an operation: query parameters, then headers, then body fields. */
export function topFields(op: Operation): FormField[] {
  return [
    ...op.query.map((f) => make('query', f.name, f)),
    ...op.headers.map((f) => make('headers', f.name, f)),
    ...op.body.map((f) => make('body', f.name, f)),
  ];
}

/** The inputs inside an object field. */
export function childFields(parent: FormField): FormField[] {
  const t = parent.field.type;
  if (typeof t === 'string' || !('object' in t)) return [];
  return t.fields.map((f) => make(parent.location, `${parent.path}.${f.name}`, f));
}

/** The i-th item of an array-of-objects (or of arrays) field. */
export function itemField(parent: FormField, index: number): FormField {
  const t = parent.field.type;
  if (typeof t === 'string' || !('array' in t)) throw new Error(`${parent.id} is not an array`);
  const name = `${parent.field.name}[${index}]`;
  return make(parent.location, `${parent.path}[${index}]`, { name, type: t.array, ...(parent.field.secret ? { secret: true } : {}) });
}

/** The field an id names, or undefined: `body.volume.Shares[0].Path` → the Share's Path field. */
export function resolveField(op: Operation, id: string): Field | undefined {
  const dot = id.indexOf('.');
  const location = id.slice(0, dot);
  const parts = id
    .slice(dot + 1)
    .replace(/\[\d+\]/g, '')
    .split('.');
  let list: readonly Field[] = location === 'query' ? op.query : location === 'headers' ? op.headers : location === 'body' ? op.body : [];
  let found: Field | undefined;
  for (const part of parts) {
    found = list.find((f) => f.name === part);
    if (!found) return undefined;
    let t = found.type;
    while (typeof t !== 'string' && 'array' in t) t = t.array;
    list = typeof t !== 'string' && 'object' in t ? t.fields : [];
  }
  return found;
}

/** True when the field an id names is a secret (a password, a key…), however deep. */
export function isSecretId(op: Operation, id: string): boolean {
  const dot = id.indexOf('.');
  const parts = id
    .slice(dot + 1)
    .replace(/\[\d+\]/g, '')
    .split('.');
  // A secret object or array makes everything inside it secret.
  for (let n = 1; n <= parts.length; n++) {
    if (resolveField(op, `${id.slice(0, dot)}.${parts.slice(0, n).join('.')}`)?.secret) return true;
  }
  return false;
}

/** The problem of a required input left empty. */
export const REQUIRED = 'required';

const DATE_HINT = 'a date-time like 2026-01-31T13:45:00 (UTC)';

/** One scalar's text as its wire value, or the problem with it. */
function scalarValue(type: ScalarType, text: string, format: FormatId | undefined): { value: unknown } | { problem: string } {
  switch (type) {
    case 'boolean':
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return { problem: 'choose true or false' };
    case 'integer': {
      const p = format ? checkFormat(format, text) : checkInteger(text);
      const toNumber = format ? FORMATS[format].toNumber : undefined;
      return p ? { problem: p } : { value: toNumber ? toNumber(text) : Number(text.trim()) };
    }
    case 'number': {
      const p = checkNumber(text);
      return p ? { problem: p } : { value: Number(text.trim()) };
    }
    case 'date-time': {
      const c = coerceScalar('date-time', text.trim());
      return c.ok ? { value: c.value } : { problem: `“${text.trim()}” is not ${DATE_HINT}` };
    }
    case 'string': {
      const p = format ? checkFormat(format, text) : undefined;
      return p ? { problem: p } : { value: text };
    }
  }
}

interface Ctx {
  op: Operation;
  values: Readonly<FormValues>;
  /** What an edit form was opened with: an input emptied from a value is sent empty, to clear it. */
  initial: Readonly<FormValues>;
  counts: Readonly<FormCounts>;
  options: FieldOptionsMap;
  problems: Record<string, string[]>;
}

function complain(ctx: Ctx, id: string, problem: string): void {
  (ctx.problems[id] ??= []).push(problem);
}

function formatFor(ctx: Ctx, ff: FormField): FormatId | undefined {
  return ctx.options[ff.id]?.format ?? formatOfField(ctx.op.key, ff.location, ff.path);
}

/** The wire value of one input (recursively), or undefined when nothing is to be sent. */
function valueOf(ctx: Ctx, ff: FormField): unknown {
  const t = ff.field.type;
  let out: unknown;
  if (ff.kind === 'scalar') {
    const raw = ctx.values[ff.id] ?? '';
    // Secrets go as typed (a password may start with a space); everything else is trimmed.
    const text = ff.field.secret ? raw : raw.trim();
    if (text !== '') {
      const r = scalarValue(t as ScalarType, text, formatFor(ctx, ff));
      if ('problem' in r) complain(ctx, ff.id, r.problem);
      else out = r.value;
    } else if (t === 'string' && wasFilled(ctx, ff)) out = '';
  } else if (ff.kind === 'list') {
    const itemType = (t as { array: ScalarType }).array;
    const lines = (ctx.values[ff.id] ?? '').split(/\r?\n/).map((l) => (ff.field.secret ? l : l.trim()));
    const items: unknown[] = [];
    const format = formatFor(ctx, ff);
    const filled = lines.filter((l) => l !== '').length;
    lines.forEach((line, i) => {
      if (line === '') return;
      const r = scalarValue(itemType, line, format);
      if ('problem' in r) complain(ctx, ff.id, filled > 1 ? `line ${i + 1}: ${r.problem}` : r.problem);
      else items.push(r.value);
    });
    if (items.length > 0 || (filled === 0 && wasFilled(ctx, ff))) out = items;
  } else if (ff.kind === 'array') {
    const items: unknown[] = [];
    for (let i = 0; i < (ctx.counts[ff.id] ?? 0); i++) {
      const v = valueOf(ctx, itemField(ff, i));
      if (v !== undefined) items.push(v);
    }
    if (items.length > 0) out = items;
  } else {
    const obj: Record<string, unknown> = {};
    for (const child of childFields(ff)) {
      const v = valueOf(ctx, child);
      if (v !== undefined) obj[child.field.name] = v;
    }
    if (Object.keys(obj).length > 0) out = obj;
  }
  // One problem per input: text that could not be read is not also "required".
  if (out === undefined && ctx.options[ff.id]?.required && !ctx.problems[ff.id]?.length) complain(ctx, ff.id, REQUIRED);
  return out;
}

/** True when the form was opened with text in this input (an edit form's current value). */
function wasFilled(ctx: Ctx, ff: FormField): boolean {
  return (ctx.initial[ff.id] ?? '').trim() !== '';
}

/**
 * Turns the form's text into a request and lists every problem at once. Empty inputs are not sent
 * (every parameter of the interface is optional), except a text or list input that `initial` had
 * filled: emptied by the admin, it is sent empty ("" or []), which clears the value. A number,
 * boolean or date has no empty value: emptied, it is left as it is. An object is sent when any
 * field inside it is.
 */
export function collect(op: Operation, values: Readonly<FormValues>, counts: Readonly<FormCounts> = {}, options: FieldOptionsMap = {}, initial: Readonly<FormValues> = {}): Collected {
  const ctx: Ctx = { op, values, initial, counts, options, problems: {} };
  const request: OpRequest = { query: {}, headers: {}, body: op.hasBody ? {} : undefined };
  for (const ff of topFields(op)) {
    const v = valueOf(ctx, ff);
    if (v === undefined) continue;
    const target = ff.location === 'body' ? (request.body ??= {}) : request[ff.location];
    target[ff.field.name] = v;
  }
  return { request, problems: ctx.problems };
}

/**
 * The catalog's choices for the top-level fields of `op` that take a value from a fixed set
 * (`FIELD_CHOICES`: levels, modules, secure socket…), merged under an area's own options: a
 * generated form never asks for such a value as free text.
 */
export function withCatalogChoices(op: Operation, options: FieldOptionsMap): FieldOptionsMap {
  const out: Record<string, FieldOptions> = { ...options };
  for (const ff of topFields(op)) {
    const choices = FIELD_CHOICES[ff.field.name];
    if (!choices || (ff.kind !== 'scalar' && ff.kind !== 'list') || out[ff.id]?.choices || out[ff.id]?.suggestions) continue;
    out[ff.id] = { ...out[ff.id], choices };
  }
  return out;
}

/** The text a field shows in its label and messages: the area's label, else the glossary's words. */
export function labelOf(ff: FormField, options: FieldOptionsMap = {}): string {
  return options[ff.id]?.label ?? glossaryLabel(ff.field.name);
}

/**
 * A one-line hint of what an input takes, only where it helps: a format with an example
 * (`IQN, e.g. iqn.1994-05…`, `e.g. 2 TiB, 500 GiB or 2TB`), a date's form, "one per line". No type
 * words ("string", "integer"): the admin knows a name is text.
 */
export function hintOf(op: Operation, ff: FormField, options: FieldOptionsMap = {}): string {
  const format = options[ff.id]?.format ?? formatOfField(op.key, ff.location, ff.path);
  const t = ff.field.type;
  const scalar = typeof t === 'string' ? t : 'array' in t && typeof t.array === 'string' ? t.array : undefined;
  const what =
    format === 'size'
      ? `e.g. ${FORMATS.size.example}`
      : format && format !== 'integer' && format !== 'number'
        ? `${FORMATS[format].name}, e.g. ${FORMATS[format].example}`
        : scalar === 'date-time'
          ? 'UTC, e.g. 2026-01-31T13:45:00'
          : '';
  return ff.kind === 'list' ? `${what}${what ? '; ' : ''}one per line` : what;
}

/** What a valid size input will send, in words (`= 2.00 TiB`); undefined for other inputs or bad text. */
export function sizeEcho(op: Operation, ff: FormField, text: string, options: FieldOptionsMap = {}): string | undefined {
  const format = options[ff.id]?.format ?? formatOfField(op.key, ff.location, ff.path);
  if (format !== 'size' || ff.kind !== 'scalar' || text.trim() === '' || checkFormat('size', text)) return undefined;
  const r = parseSize(text);
  if (!('bytes' in r)) return undefined;
  return r.rounded ? `= ${describeSize(r.bytes)}, rounded to a whole MiB (systems take whole bytes)` : `= ${describeSize(r.bytes)}`;
}

/** What an empty choice means, in the words of the operation: a change leaves it, a create takes the default. */
export function unsetText(op: Operation): string {
  if (op.method === 'PUT') return 'Leave unchanged';
  if (op.method === 'GET') return 'Not set';
  return 'System default';
}

/** Every secret value in the form's text, for clearing after a submit. */
export function secretIds(op: Operation, values: Readonly<FormValues>): string[] {
  return Object.keys(values).filter((id) => isSecretId(op, id));
}

/** The body with every field the catalog marks secret replaced by `[redacted]`, then the shared redaction. */
function maskBody(fields: readonly Field[], value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => maskBody(fields, v));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const f = fields.find((x) => x.name === k);
    if (f?.secret) {
      out[k] = REDACTED;
      continue;
    }
    let t = f?.type;
    while (t && typeof t !== 'string' && 'array' in t) t = t.array;
    out[k] = t && typeof t !== 'string' && 'object' in t ? maskBody(t.fields, v) : v;
  }
  return out;
}

export interface RequestPreview {
  method: string;
  /** Path with the query string, as the client sends it (arrays as repeated keys). */
  target: string;
  headers: Array<[name: string, value: string]>;
  /** Pretty JSON body, secrets masked. */
  body?: string;
}

/**
 * The request as it will go out, for the admin to read before sending. Secrets are `[redacted]`; the
 * session token is main's and never known here.
 */
export function previewRequest(op: Operation, request: OpRequest): RequestPreview {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(request.query)) {
    const secret = op.query.find((f) => f.name === k)?.secret;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, secret ? REDACTED : String(item));
  }
  const qs = params.toString();
  const headers: Array<[string, string]> = [['Accept', 'application/json']];
  if (op.authenticated) headers.push(['Authorization', `Bearer ${REDACTED}`]);
  if (op.hasBody) headers.push(['Content-Type', 'application/json-patch+json']);
  for (const [k, v] of Object.entries(request.headers)) headers.push([k, op.headers.find((f) => f.name === k)?.secret ? REDACTED : String(v)]);
  return {
    method: op.method,
    target: `${op.path}${qs ? `?${qs}` : ''}`,
    headers,
    ...(request.body !== undefined ? { body: JSON.stringify(redact(maskBody(op.body, request.body)), null, 2) } : {}),
  };
}

/** Field names that name the object an operation acts on, most specific first. */
const SELECTORS = ['name', 'netbios', 'application', 'node', 'username'];

/**
 * What the admin types to confirm a destructive operation: the value of its name/application
 * selector, or the system's name when the operation names nothing (give-back, e-mail reset).
 * Undefined for operations that are not destructive.
 */
export function confirmTarget(op: Operation, request: OpRequest, systemName: string): { label: string; value: string | undefined } | undefined {
  if (!op.destructive) return undefined;
  for (const wanted of SELECTORS) {
    for (const [location, fields] of [
      ['query', op.query],
      ['body', op.body],
    ] as const) {
      const f = fields.find((x) => x.name.toLowerCase() === wanted);
      if (!f) continue;
      const v = location === 'query' ? request.query[f.name] : request.body?.[f.name];
      const text = Array.isArray(v) ? v.map(String).join(', ') : v === undefined ? undefined : String(v);
      return { label: f.name, value: text === '' ? undefined : text };
    }
  }
  return { label: 'the system name', value: systemName };
}

/**
 * The read that shows whether a write took effect: the nearest `list` (or `show`) operation above
 * the write's path. `/hosts/wwn/add` → `GET /hosts/list`; `/notifications/targets/email/add` →
 * `GET /notifications/targets/list`.
 */
export function checkOperationFor(op: Operation): Operation | undefined {
  const segments = op.path.split('/').filter(Boolean);
  for (let n = segments.length - 1; n >= 1; n--) {
    const base = `/${segments.slice(0, n).join('/')}`;
    const found = findOperation('GET', `${base}/list`) ?? findOperation('GET', `${base}/show`);
    if (found && found.key !== op.key) return found;
  }
  return undefined;
}

/** The name a create or add request gives the new object (what a list would show), if any. */
export function createdName(request: OpRequest): string | undefined {
  const v = request.body?.Name ?? request.body?.Application;
  return typeof v === 'string' ? v : undefined;
}

/** True when a list answer names `name` (as Name or Application of any item). */
export function listNames(result: unknown, name: string): boolean {
  const data = (result as { Data?: unknown } | null)?.Data;
  if (!Array.isArray(data)) return false;
  return data.some((item) => {
    const o = item as { Name?: unknown; Application?: unknown };
    return o?.Name === name || o?.Application === name;
  });
}
