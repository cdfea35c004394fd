import { ANSWER_TYPES, isIdentifierField, type AnswerValueType } from '../catalog/answer-types.js';
import { findOperation } from '../catalog/operations.js';
import type { ResponseSpec } from '../catalog/types.js';
import { readLevel } from '../health/notification-level.js';
import { terminalField } from '../safe-text.js';
import { isSmartctlJson } from '../smart/json.js';
import { INCOMPLETE_FIELD, incompleteFrom } from './incomplete.js';
import { SCALE_UNKNOWN_FIELD, scaleAgreeing, scaledPercentage, scaleEvidence, type PercentScale, type ScaleEvidence } from './percent-scale.js';
import { ambiguousTime, isAmbiguousSlashed, readTime, wireTimeOf, type StampKind, type TimeReading } from './time.js';

/**
 * The one reading of a 200 answer: every answer the client returns (and so everything the cache,
 * the views, the reports and the CLI see) has passed through here. The document's shape is
 * `{Data:[...]}` for lists and the resource object for the rest; real systems and the proxies in
 * front of them differ in ways the document does not rule out, and those are tolerated here, once,
 * so nothing downstream guesses a shape again (docs/assumptions.md, "Answers"):
 *
 * - lists as `{Data:[...]}` with `Data` in any case, `{Data:null}` and `{}` (an empty list), a bare
 *   array, and any of these inside a `Result` envelope (`{"Result":{"Data":[...]}}`); objects and
 *   strings inside a `Result` envelope too;
 * - field names in any case (camelCase serialisers) take the catalog's spelling; unknown fields
 *   are kept as sent;
 * - `null` is absent (a null field is removed, a null array item dropped);
 * - numbers sent as strings become numbers where the catalog says integer or number, `"true"` and
 *   `"false"` booleans, numbers and booleans sent for a string field their text; a value of
 *   another kind (`"n/a"` for a number, an object for a string) is absent rather than misread;
 * - enumeration values matching a known spelling in another case take that spelling;
 * - date-times in any form `time.ts` reads become UTC in the document's form, a zone-less one moved
 *   by the system's clock offset (`clockOffsetMs`); one no form reads is kept as sent (unreadable);
 * - a list that says it is partial (a total beyond its items, a next-page token, a 206) is marked
 *   `Incomplete: {Read, Total}` (`incomplete.ts`);
 * - a notification's level sent as a name takes its number (`notification-level.ts`); an unknown
 *   name is kept as text, not understood, never dropped;
 * - a percentage of a system whose scale is 0–1 (`0.98`) becomes 0–100, the scale learned from the
 *   answers (`percent-scale.ts`); one that could be either while the scale is not known is left
 *   out and named under `PercentScaleUnknown` on its object;
 * - .NET's reference preservation (`"$id"` on objects, arrays as `{"$values":[...]}`, `{"$ref":id}`
 *   for an object written before) is undone first;
 * - sizes (`…Bytes`) sent as text with a unit (`"3.64 TB"`, `"512 GiB"`) become bytes (SI units as
 *   powers of 1000, IEC units of 1024), percentages sent with a sign (`"98 %"`) numbers;
 * - enumeration values written as words (`"in sync"`, `"not-approved"`) take the known spelling;
 * - a string answer that is smartctl's `--json` object (SMART) becomes that object's JSON text;
 * - identifiers beyond 2^53 arrive as their exact decimal text (see `json-text.ts`) and stay so.
 *
 * Anything else (a list answer without a recognisable list, an object answer none of whose fields
 * the catalog knows, a string answer that is no string) is refused: the caller turns it into a
 * protocol error naming the operation and a sketch of what came back, never an empty list.
 *
 * The answer is normalised in place: it was just parsed and belongs to the caller.
 */

export type NormaliseResult =
  | { ok: true; value: unknown }
  | {
      ok: false;
      /** A sketch of what came back: keys and kinds, no string values (terminal-safe, no secrets). */
      answered: string;
      /** What was expected, in the document's terms. */
      expected: string;
    };

/** What the normaliser knows of the system that answered, and of the answer beyond its body. */
export interface AnswerContext {
  /**
   * What the HTTP layer says of a list's completeness (see `incomplete.ts`): a 206 (a part of the
   * list, `more` unset) with its `Content-Range` total, or a 200 whose `Link` header has a next page
   * (`more`) or whose `X-Total-Count` gives the list's length (`total`).
   */
  readonly partial?: { readonly total: number | undefined; readonly more?: boolean | undefined } | undefined;
  /** The system's clock minus true time, in ms: zone-less times are moved back by it (default 0). */
  readonly clockOffsetMs?: number | undefined;
  /** Hears each zone-less time of a node's `Time` as read (UTC ms, before any offset): how a system's clock is learned. */
  readonly onNodeTime?: ((ms: number) => void) | undefined;
  /** The system writes slashed dates day first (`dd/MM/yyyy`): ambiguous ones are read so. */
  readonly dayFirst?: boolean | undefined;
  /**
   * Hears a slashed time as sent, before it is read, with what is known of when it was stamped: how
   * a system's date order is learned (see `slashedOrderOf`). Returns whether the system writes day
   * first, as now known. Given for a system's answers only: with it, a slashed time whose order is
   * still not known is kept as ambiguous (`ambiguousTime`) rather than read month first.
   */
  readonly learnDateOrder?: ((raw: unknown, kind: StampKind) => boolean | undefined) | undefined;
  /**
   * Hears each notification record whose `Timestamp` has no zone, with that stamp read as UTC
   * (before any offset): the record as normalised, so that a caller who learns the clock from it
   * can place it again.
   */
  readonly onRecordStamp?: ((record: Record<string, unknown>, ms: number) => void) | undefined;
  /**
   * Hears what an answer shows of its system's percentage scale (undefined: nothing) and returns
   * the scale now in force. Given for a system's answers only: without it percentages are taken as
   * sent, 0–100.
   */
  readonly learnPercentScale?: ((evidence: ScaleEvidence | undefined) => PercentScale | undefined) | undefined;
  /** The system's percentage scale where sure evidence (sizes, a value over 1) showed it: its answers are read by it, not weighed again. */
  readonly percentScaleKnown?: PercentScale | undefined;
  /** Hears the answer's HTTP `Date` header with when the request was sent and answered (ms on our clock); the client calls it. */
  readonly onServerDate?: ((date: string, sentMs: number, receivedMs: number) => void) | undefined;
}

const NO_CONTEXT: AnswerContext = {};

/**
 * An answer's context as it is read: what it teaches mid-answer (the date order) and, while the
 * order is not known, the scan that learns it from the whole answer, run at its first slashed
 * time (so an answer without one, the usual case, is never scanned).
 */
type AnswerClock = { -readonly [K in keyof AnswerContext]: AnswerContext[K] } & { scanDates?: (() => void) | undefined };

/** Normalises a parsed 200 answer of an operation with this response spec. */
export function normaliseAnswer(spec: ResponseSpec, value: unknown, context: AnswerContext = NO_CONTEXT): NormaliseResult {
  if (isObject(value) && ('$id' in value || '$values' in value)) value = resolvedReferences(value);
  // A node's Time may teach the date order mid-answer: the rest of the answer is read by it.
  const clock: AnswerClock = context.learnDateOrder ? { ...context } : context;
  switch (spec.kind) {
    case 'empty':
    case 'unknown':
      return { ok: true, value };
    case 'string': {
      const text = typeof value === 'string' ? value : isObject(value) ? envelope(value, 'result') : undefined;
      if (typeof text === 'string') return { ok: true, value: text };
      // smartctl's --json output for SMART "text": kept as its JSON text, which the SMART parser reads.
      const inner = isObject(value) && isObject(text) ? text : value;
      if (isSmartctlJson(inner)) return { ok: true, value: JSON.stringify(inner, null, 1) };
      return refused(value, 'a JSON string');
    }
    case 'list': {
      const list = listOf(value, true);
      if (!list) return refused(value, `{"Data":[${spec.item}, …]}`);
      const t = compiled(spec.item);
      if (clock.learnDateOrder && clock.dayFirst === undefined && hasDates(t)) clock.scanDates = () => learnDateOrder(list.data, t, clock);
      let j = 0;
      for (const item of list.data) {
        if (item === null || item === undefined) continue;
        if (!isObject(item)) return refused(value, `{"Data":[${spec.item}, …]} with ${spec.item} objects`);
        list.data[j++] = normaliseObject(item, t, clock);
      }
      list.data.length = j;
      if (clock.learnPercentScale && hasPercentages(t)) readPercentages(list.data, t, clock.learnPercentScale, clock.percentScaleKnown);
      const incomplete = incompleteFrom(list.answer, j, clock.partial === undefined ? false : (clock.partial.more ?? true), clock.partial?.total);
      if (incomplete) list.answer[INCOMPLETE_FIELD] = incomplete;
      return { ok: true, value: list.answer };
    }
    case 'object': {
      const t = compiled(spec.type);
      const obj = objectOf(value, t);
      if (!obj) return refused(value, `a ${spec.type} object`);
      if (clock.learnDateOrder && clock.dayFirst === undefined && hasDates(t)) clock.scanDates = () => learnDateOrder([obj], t, clock);
      const out = normaliseObject(obj, t, clock);
      if (clock.learnPercentScale && hasPercentages(t)) readPercentages([out], t, clock.learnPercentScale, clock.percentScaleKnown);
      return { ok: true, value: out };
    }
  }
}

function refused(value: unknown, expected: string): NormaliseResult {
  return { ok: false, answered: sketchAnswer(value), expected };
}

/** The list of a list answer and the answer object that now holds it as `Data`, or undefined. */
function listOf(value: unknown, outer: boolean): { answer: Record<string, unknown>; data: unknown[] } | undefined {
  if (Array.isArray(value)) return { answer: { Data: value }, data: value };
  if (!isObject(value)) return undefined;
  const dataKey = keyOf(value, 'data');
  if (dataKey !== undefined) {
    const data = value[dataKey];
    if (data !== null && data !== undefined && !Array.isArray(data)) return undefined;
    const list = Array.isArray(data) ? data : [];
    if (dataKey !== 'Data') delete value[dataKey];
    value.Data = list;
    for (const k of Object.keys(value)) if (value[k] === null) delete value[k];
    return { answer: value, data: list };
  }
  // An empty object is an empty list whose serialiser left out a null Data.
  if (Object.keys(value).length === 0) return { answer: { Data: [] }, data: [] };
  // One envelope level: `{"Result": {...}}` holds the answer itself (its siblings are the envelope's).
  const result = outer ? envelope(value, 'result') : undefined;
  return result === undefined ? undefined : listOf(result, false);
}

/**
 * The object of an object answer, unwrapped from a `Result` or `Data` envelope; undefined when it is
 * not one. An object that is only a list (`SystemsList`: its systems and a message) may also come as
 * a list answer does, `{"Data":[…]}` or a bare array, as on systems that wrap every list alike.
 */
function objectOf(value: unknown, t: CompiledType, outer = true): Record<string, unknown> | undefined {
  if (Array.isArray(value)) return t.listField ? listObject(value, t.listField, {}) : undefined;
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  const dataKey = t.listField ? keyOf(value, 'data') : undefined;
  if (t.listField && dataKey !== undefined && Array.isArray(value[dataKey]) && !keys.some((k) => fieldOf(t, k)?.name === t.listField)) {
    const { [dataKey]: list, ...rest } = value;
    return listObject(list as unknown[], t.listField, rest);
  }
  if (keys.length === 0 || keys.some((k) => fieldOf(t, k))) return value;
  if (outer) {
    for (const name of ['result', 'data']) {
      const inner = envelope(value, name);
      const found = inner === undefined ? undefined : objectOf(inner, t, false);
      if (found) return found;
    }
  }
  // Keys, but none the type knows: not this object in any envelope we know.
  return undefined;
}

/** A list-only object built from a list (its items must be objects, or it is no such list). */
function listObject(list: unknown[], field: string, rest: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!list.every((item) => item === null || isObject(item))) return undefined;
  return { ...rest, [field]: list };
}

/** The value under `name` (any case) of an envelope object, or undefined. */
function envelope(value: Record<string, unknown>, name: string): unknown {
  const key = keyOf(value, name);
  return key === undefined ? undefined : (value[key] ?? undefined);
}

function keyOf(value: Record<string, unknown>, lower: string): string | undefined {
  for (const k in value) if (Object.hasOwn(value, k) && k.length === lower.length && k.toLowerCase() === lower) return k;
  return undefined;
}

interface CompiledField {
  readonly name: string;
  readonly type: AnswerValueType;
  readonly id: boolean;
  /** Lower case (and each known spelling itself) → known spelling, for enumerations. */
  readonly values: ReadonlyMap<string, string> | undefined;
  /** How the field is read beyond its type: a notification's level, a node's clock. */
  readonly role: 'level' | 'node-time' | 'record-time' | undefined;
  /** A percentage (`…Percentage`): never negative. */
  readonly percentage: boolean;
  /** A size in bytes (`…Bytes`): may come as text with a unit. */
  readonly bytes: boolean;
}

interface CompiledType {
  readonly name: string;
  readonly exact: ReadonlyMap<string, CompiledField>;
  readonly lower: ReadonlyMap<string, CompiledField>;
  /** Lower case without word separators (`_`, `-`) → field, for snake_case and kebab-case names. */
  readonly loose: ReadonlyMap<string, CompiledField>;
  /** Keys seen in another spelling (camelCase answers repeat them on every item), and what they name. */
  readonly variants: Map<string, CompiledField | null>;
  /** The one list field of a type that is only a list of objects plus scalars (`SystemsList.Systems`). */
  readonly listField: string | undefined;
}

/** Bound on remembered variant spellings per type: a hostile answer's endless new keys are looked up, not kept. */
const MAX_VARIANTS = 512;

const COMPILED = new Map<string, CompiledType>();

const ROLES: ReadonlyMap<string, CompiledField['role']> = new Map([
  ['NotificationRecord.Level', 'level'],
  ['Node.Time', 'node-time'],
  ['SystemNode.Time', 'node-time'],
  ['NotificationRecord.Timestamp', 'record-time'],
]);

function compiled(name: string): CompiledType {
  let t = COMPILED.get(name);
  if (t) return t;
  const spec = ANSWER_TYPES.get(name);
  const exact = new Map<string, CompiledField>();
  const lower = new Map<string, CompiledField>();
  const loose = new Map<string, CompiledField>();
  for (const f of spec?.fields ?? []) {
    const field: CompiledField = {
      name: f.name,
      type: f.type,
      id: isIdentifierField(f.name),
      // Lower case → spelling, and each spelling to itself (the common case, found without lower-casing).
      values: f.values ? new Map(f.values.flatMap((v) => [[v.toLowerCase(), v] as const, [v, v] as const, [wordless(v), v] as const])) : undefined,
      role: ROLES.get(`${name}.${f.name}`),
      percentage: f.name.endsWith('Percentage'),
      bytes: f.name.endsWith('Bytes'),
    };
    exact.set(f.name, field);
    lower.set(f.name.toLowerCase(), field);
    loose.set(looseName(f.name), field);
  }
  const lists = (spec?.fields ?? []).filter((f) => typeof f.type !== 'string' && 'array' in f.type && typeof f.type.array !== 'string' && 'ref' in f.type.array);
  const scalars = (spec?.fields ?? []).filter((f) => typeof f.type === 'string');
  const listField = lists.length === 1 && lists.length + scalars.length === spec?.fields.length ? lists[0]?.name : undefined;
  t = { name, exact, lower, loose, variants: new Map(), listField };
  COMPILED.set(name, t);
  return t;
}

function looseName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

function fieldOf(t: CompiledType, key: string): CompiledField | undefined {
  const exact = t.exact.get(key);
  if (exact) return exact;
  const seen = t.variants.get(key);
  if (seen !== undefined) return seen ?? undefined;
  // Another case, then another word separation (`ha_state`, `ha-state`): the same field.
  const found = t.lower.get(key.toLowerCase()) ?? t.loose.get(looseName(key));
  if (t.variants.size < MAX_VARIANTS) t.variants.set(key, found ?? null);
  return found;
}

/**
 * The object with its fields normalised. Values are replaced in place; when a key must go (a null,
 * a value of another kind) or take another spelling, a new object is built instead, since deleting
 * properties turns a V8 object into a slow dictionary for everyone who reads it afterwards.
 */
function normaliseObject(obj: Record<string, unknown>, t: CompiledType, clock: AnswerClock): Record<string, unknown> {
  if (!clock.onRecordStamp) return normaliseFields(obj, t, clock);
  // The stamp as sent: the fields are normalised in place.
  let stamp: TimeReading | undefined;
  for (const key in obj) {
    if (fieldOf(t, key)?.role !== 'record-time') continue;
    const raw = obj[key];
    if (clock.scanDates && typeof raw === 'string' && raw.includes('/')) {
      const scan = clock.scanDates;
      clock.scanDates = undefined;
      scan();
    }
    if (!ambiguous(raw, clock)) stamp = readTime(raw, clock.dayFirst);
  }
  const out = normaliseFields(obj, t, clock);
  if (stamp && !stamp.zoned) clock.onRecordStamp(out, stamp.ms);
  return out;
}

function normaliseFields(obj: Record<string, unknown>, t: CompiledType, clock: AnswerClock): Record<string, unknown> {
  let rebuild = false;
  for (const key in obj) {
    const raw = obj[key];
    if (raw === null || raw === undefined) {
      rebuild = true;
      continue;
    }
    const f = fieldOf(t, key);
    // Unknown fields are kept as sent.
    if (!f) continue;
    const v = normaliseValue(raw, f.type, f, clock);
    if (v === undefined || f.name !== key) rebuild = true;
    if (v !== undefined && v !== raw) obj[key] = v;
    else if (v === undefined) obj[key] = undefined;
  }
  if (!rebuild) return obj;
  const out: Record<string, unknown> = {};
  for (const key in obj) {
    const v = obj[key];
    if (v === null || v === undefined) continue;
    const f = fieldOf(t, key);
    const name = f ? f.name : key;
    // Both spellings sent: the catalog's own wins, the other is dropped.
    if (f && name !== key && Object.hasOwn(obj, name) && obj[name] !== undefined && obj[name] !== null) continue;
    out[name] = v;
  }
  return out;
}

/** The value as its catalog type, or undefined when it is of another kind (then it is absent). */
function normaliseValue(raw: unknown, type: AnswerValueType, f: CompiledField, clock: AnswerClock): unknown {
  if (f.role === 'level') return readLevel(raw);
  if (typeof type === 'string') {
    switch (type) {
      case 'string':
        return enumSpelling(typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined, f);
      case 'date-time':
        if (clock.scanDates && typeof raw === 'string' && raw.includes('/')) {
          const scan = clock.scanDates;
          clock.scanDates = undefined;
          scan();
        }
        if (f.role === 'node-time' && clock.learnDateOrder) clock.dayFirst = clock.learnDateOrder(raw, 'node-time');
        // Read month first, it could be a wrong day: kept as ambiguous instead (unreadable, named so).
        if (ambiguous(raw, clock)) return ambiguousTime(raw as string);
        if (f.role === 'node-time' && clock.onNodeTime) {
          const t = readTime(raw, clock.dayFirst);
          if (t && !t.zoned) clock.onNodeTime(t.ms);
        }
        return wireTimeOf(raw, clock.clockOffsetMs, clock.dayFirst);
      case 'integer':
      case 'number': {
        const n = numberOf(raw, type === 'integer' && f.id) ?? (typeof raw === 'string' ? withUnit(raw, f) : undefined);
        // A negative percentage is a sentinel ("not computed", -1 as .NET services write it), not a reading.
        return f.percentage && typeof n === 'number' && n < 0 ? undefined : n;
      }
      case 'boolean':
        if (typeof raw === 'boolean') return raw;
        // 1 and 0 (a database bit), and the words forms and settings pages write.
        if (raw === 1 || raw === 0) return raw === 1;
        if (typeof raw === 'string') {
          const s = raw.trim().toLowerCase();
          if (TRUE_WORDS.has(s)) return true;
          if (FALSE_WORDS.has(s)) return false;
        }
        return undefined;
    }
  }
  if ('array' in type) {
    if (!Array.isArray(raw)) return undefined;
    let j = 0;
    for (const item of raw) {
      if (item === null || item === undefined) continue;
      const v = normaliseValue(item, type.array, f, clock);
      if (v !== undefined) raw[j++] = v;
    }
    raw.length = j;
    return raw;
  }
  if ('map' in type) {
    if (!isObject(raw)) return undefined;
    for (const k of Object.keys(raw)) {
      const item = raw[k];
      const v = item === null || item === undefined ? undefined : normaliseValue(item, type.map, f, clock);
      if (v === undefined) delete raw[k];
      else if (v !== item) raw[k] = v;
    }
    return raw;
  }
  if (!isObject(raw)) return undefined;
  return normaliseObject(raw, compiled(type.ref), clock);
}

/** Whether a time would be read in an order its system has not shown (see `learnDateOrder` in {@link AnswerContext}). */
function ambiguous(raw: unknown, clock: AnswerClock): boolean {
  return clock.learnDateOrder !== undefined && clock.dayFirst === undefined && isAmbiguousSlashed(raw);
}

/** Per type: whether it or a type it holds has a date-time field. */
const DATE_TYPES = new Map<string, boolean>();

function hasDates(t: CompiledType): boolean {
  let has = DATE_TYPES.get(t.name);
  if (has !== undefined) return has;
  DATE_TYPES.set(t.name, false);
  has = [...t.exact.values()].some((f) => isDateType(f.type) || (refOf(f.type) !== undefined && hasDates(compiled(refOf(f.type) as string))));
  DATE_TYPES.set(t.name, has);
  return has;
}

function isDateType(type: AnswerValueType): boolean {
  if (typeof type === 'string') return type === 'date-time';
  if ('array' in type) return isDateType(type.array);
  if ('map' in type) return isDateType(type.map);
  return false;
}

/** Date-time fields stamped in the past (readings, records): a reading of one in the future is not it. */
const PAST_STAMPS: ReadonlySet<string> = new Set(['Time', 'Timestamp', 'LastReadingTimestamp']);

/**
 * Learns a system's date order from every slashed time of an answer (as sent) before any is read,
 * so that a record early in a list is read by what a later one shows; stops once the order is known.
 */
function learnDateOrder(items: readonly unknown[], t: CompiledType, clock: AnswerClock): void {
  const learn = clock.learnDateOrder;
  if (!learn) return;
  const visit = (v: unknown, type: AnswerValueType, f: CompiledField): boolean => {
    if (typeof type === 'string') {
      if (type !== 'date-time' || typeof v !== 'string' || !v.includes('/')) return false;
      const kind: StampKind = f.role === 'node-time' ? 'node-time' : PAST_STAMPS.has(f.name) ? 'past' : 'any';
      clock.dayFirst = learn(v, kind);
      return clock.dayFirst !== undefined;
    }
    if ('array' in type) return Array.isArray(v) && v.some((x) => visit(x, type.array, f));
    if ('map' in type) return isObject(v) && Object.values(v).some((x) => visit(x, type.map, f));
    return isObject(v) && hasDates(compiled(type.ref)) && objects([v], compiled(type.ref));
  };
  const objects = (list: readonly unknown[], ot: CompiledType): boolean => {
    for (const item of list) {
      if (!isObject(item)) continue;
      for (const key in item) {
        const f = fieldOf(ot, key);
        if (f && visit(item[key], f.type, f)) return true;
      }
    }
    return false;
  };
  objects(items, t);
}

/** Per type: whether it or a type it holds has a percentage field. */
const PERCENT_TYPES = new Map<string, boolean>();

function hasPercentages(t: CompiledType): boolean {
  let has = PERCENT_TYPES.get(t.name);
  if (has !== undefined) return has;
  // A type that holds itself is not a percentage on that path.
  PERCENT_TYPES.set(t.name, false);
  has = [...t.exact.values()].some((f) => f.percentage || refOf(f.type) !== undefined && hasPercentages(compiled(refOf(f.type) as string)));
  PERCENT_TYPES.set(t.name, has);
  return has;
}

function refOf(type: AnswerValueType): string | undefined {
  if (typeof type === 'string') return undefined;
  if ('array' in type) return refOf(type.array);
  if ('map' in type) return refOf(type.map);
  return type.ref;
}

/** Calls `visit` on every object of a type with percentage fields in these normalised items of type `t`. */
function eachPercentObject(items: readonly unknown[], t: CompiledType, visit: (obj: Record<string, unknown>, t: CompiledType) => void): void {
  for (const item of items) {
    if (!isObject(item)) continue;
    visit(item, t);
    for (const key in item) {
      const f = t.exact.get(key);
      const ref = f ? refOf(f.type) : undefined;
      if (ref === undefined) continue;
      const sub = compiled(ref);
      if (!hasPercentages(sub)) continue;
      const v = item[key];
      eachPercentObject(Array.isArray(v) ? v : isObject(v) && f && typeof f.type !== 'string' && 'map' in f.type ? Object.values(v) : [v], sub, visit);
    }
  }
}

/** The numbers of a percentage field's value (a number, a list or a map of them). */
function percentNumbers(v: unknown): number[] {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v)) return v.filter((x): x is number => typeof x === 'number');
  if (isObject(v)) return Object.values(v).filter((x): x is number => typeof x === 'number');
  return [];
}

/**
 * Reads the percentages of normalised items on their system's scale (`percent-scale.ts`): first
 * what they show of it (their values, and sizes where the answer carries what a percentage
 * measures), then each percentage scaled, or left out and named when the scale is not known.
 */
function readPercentages(items: readonly unknown[], t: CompiledType, learn: (e: ScaleEvidence | undefined) => PercentScale | undefined, known: PercentScale | undefined): void {
  if (known === 'percent') return;
  if (known === 'fraction') return scalePercentages(items, t, known);
  const values: number[] = [];
  const votes: PercentScale[] = [];
  eachPercentObject(items, t, (obj, ot) => {
    for (const key in obj) if (ot.exact.get(key)?.percentage) values.push(...percentNumbers(obj[key]));
    sizeVotes(obj, ot.name, votes);
  });
  if (values.length === 0) return;
  scalePercentages(items, t, learn(scaleEvidence(values, votes)));
}

/** Each percentage of these items on this scale: a ratio times 100; left out and named when the scale is not known and it could be either. */
function scalePercentages(items: readonly unknown[], t: CompiledType, scale: PercentScale | undefined): void {
  if (scale === 'percent') return;
  eachPercentObject(items, t, (obj, ot) => {
    const unknown: string[] = [];
    for (const key in obj) {
      if (!ot.exact.get(key)?.percentage) continue;
      const v = obj[key];
      if (typeof v === 'number') {
        const s = scaledPercentage(v, scale);
        if (s === undefined) {
          delete obj[key];
          unknown.push(key);
        } else obj[key] = s;
      } else if (Array.isArray(v) || isObject(v)) {
        const entries = Object.entries(v);
        for (const [k, x] of entries) {
          if (typeof x !== 'number') continue;
          const s = scaledPercentage(x, scale);
          if (s === undefined) {
            if (!unknown.includes(key)) unknown.push(key);
            (v as Record<string, unknown>)[k] = undefined;
          } else (v as Record<string, unknown>)[k] = s;
        }
        if (Array.isArray(v)) obj[key] = v.filter((x) => x !== undefined);
        else for (const [k, x] of Object.entries(v)) if (x === undefined) delete (v as Record<string, unknown>)[k];
      }
    }
    if (unknown.length) obj[SCALE_UNKNOWN_FIELD] = unknown;
  });
}

/** What the sizes beside a percentage say of its scale, for the types that carry both. */
function sizeVotes(obj: Record<string, unknown>, type: string, votes: PercentScale[]): void {
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const vote = (s: PercentScale | undefined): void => void (s && votes.push(s));
  if (type === 'HealthVolumes') {
    const healthy = num(obj.HealthyVolumes);
    const unhealthy = num(obj.UnhealthyVolumes) ?? 0;
    const pct = num(obj.VolumesHealthInPercentage);
    if (pct !== undefined && healthy !== undefined && healthy + unhealthy > 0) vote(scaleAgreeing(pct, healthy / (healthy + unhealthy)));
  } else if (type === 'HealthCapacityUtilization') {
    const sizes = new Map<string, number>();
    for (const p of Array.isArray(obj.PoolCapacity) ? obj.PoolCapacity : []) {
      if (!isObject(p) || typeof p.PoolName !== 'string') continue;
      const cap = num(p.CapacityInBytes);
      const used = num(p.CapacityUsageInBytes);
      if (cap !== undefined && cap > 0 && used !== undefined && used <= cap) sizes.set(p.PoolName, 1 - used / cap);
    }
    for (const p of Array.isArray(obj.PoolCapacityVirtualRaidProvisioning) ? obj.PoolCapacityVirtualRaidProvisioning : []) {
      if (!isObject(p) || typeof p.Name !== 'string') continue;
      const free = sizes.get(p.Name);
      const pct = num(p.FreeSpaceInPercentage);
      if (free !== undefined && pct !== undefined) vote(scaleAgreeing(pct, free));
    }
  }
}

const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;

const TRUE_WORDS: ReadonlySet<string> = new Set(['true', '1', 'yes', 'y', 'on', 'enabled']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', '0', 'no', 'n', 'off', 'disabled']);

function numberOf(raw: unknown, identifier: boolean): number | string | undefined {
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string') return undefined;
  // An identifier that is not a number (a GUID, a name-like key) still names its object: kept as text.
  if (!NUMERIC.test(raw)) return identifier && raw.trim() !== '' ? raw.trim() : undefined;
  const n = Number(raw);
  // An identifier beyond 2^53 stays its exact text: rounded, it would name another object.
  if (identifier && !Number.isSafeInteger(n) && INTEGER_TEXT.test(raw)) return raw.trim().replace(/^\+/, '');
  return n;
}

function enumSpelling(text: string | undefined, f: CompiledField): string | undefined {
  if (text === undefined || !f.values) return text;
  // Most values come in the known spelling: no lower-casing for them.
  if (f.values.get(text) === text) return text;
  return f.values.get(text.toLowerCase()) ?? f.values.get(wordless(text)) ?? text;
}

/** An enumeration value without case or word separation: `in sync`, `In_Sync` and `InSync` alike. */
function wordless(v: string): string {
  return v.toLowerCase().replace(/[\s_-]+/g, '');
}

const WITH_UNIT = /^\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*([kKMGTPE]i?B|B|bytes?|%)\s*$/;
const UNIT_BYTES: Readonly<Record<string, number>> = {
  b: 1, byte: 1, bytes: 1,
  kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, pb: 1e15, eb: 1e18,
  kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40, pib: 2 ** 50, eib: 2 ** 60,
};

/** A size or percentage sent as text with its unit (`"3.64 TB"`, `"98 %"`); undefined for any other text or field. */
function withUnit(raw: string, f: CompiledField): number | undefined {
  const m = WITH_UNIT.exec(raw);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] as string).toLowerCase();
  if (unit === '%') return f.percentage ? n : undefined;
  const factor = f.bytes ? UNIT_BYTES[unit] : undefined;
  return factor === undefined ? undefined : Math.round(n * factor);
}

/**
 * An answer written with .NET's reference preservation, as plain JSON: `"$id"` dropped, an array
 * written as `{"$values":[...]}` that array, and `{"$ref":id}` a copy of the object of that id (a
 * copy: every place is normalised in place, once). A reference to an object still being read (a
 * cycle) is dropped.
 */
function resolvedReferences(value: unknown): unknown {
  const byId = new Map<string, unknown>();
  const open = new Set<unknown>();
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    const ref = v.$ref;
    if (typeof ref === 'string' && Object.keys(v).length === 1) {
      const target = byId.get(ref);
      return target === undefined || open.has(target) ? undefined : copyOf(target);
    }
    const id = typeof v.$id === 'string' ? v.$id : undefined;
    if (Array.isArray(v.$values)) {
      const list = v.$values.map(walk);
      if (id !== undefined) byId.set(id, list);
      return list;
    }
    const out: Record<string, unknown> = {};
    if (id !== undefined) byId.set(id, out);
    open.add(out);
    for (const k of Object.keys(v)) if (k !== '$id') out[k] = walk(v[k]);
    open.delete(out);
    return out;
  };
  return walk(value);
}

function copyOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copyOf);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyOf(v[k]);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const SKETCH_MAX = 160;

/**
 * A short sketch of an answer for a protocol error: its keys and the kind of each value, numbers
 * and booleans as they are, strings only as `"…"` (they may hold anything, secrets included), at
 * most two levels deep and {@link SKETCH_MAX} characters, with no control or text-direction
 * character. For example `{"items": [3 objects], "total": 3}`.
 */
export function sketchAnswer(value: unknown): string {
  const text = sketch(value, 0);
  return text.length > SKETCH_MAX ? `${text.slice(0, SKETCH_MAX - 1)}…` : text;
}

function sketch(v: unknown, depth: number): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return depth === 0 ? `a string of ${v.length} characters` : '"…"';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const kinds = new Set(v.map((x) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x === 'object' ? 'object' : typeof x)));
    const kind = kinds.size === 1 ? [...kinds][0] : 'item';
    if (depth < 1 && kind === 'object') return `[${v.length} × ${sketch(v[0], depth + 1)}]`;
    return `[${v.length} ${kind}${v.length === 1 ? '' : 's'}]`;
  }
  if (typeof v !== 'object') return typeof v;
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  if (depth >= 2) return '{…}';
  const shown = keys.slice(0, 6).map((k) => `"${terminalField(k).slice(0, 40)}": ${sketch((v as Record<string, unknown>)[k], depth + 1)}`);
  return `{${shown.join(', ')}${keys.length > 6 ? ', …' : ''}}`;
}

/**
 * An answer stored by a version of Fleetdeck that cached answers as they came (before this
 * normaliser), read again: normalised now, or `undefined` when its shape is not recognised (it must
 * then not be shown as anything). `key` is its cache key, `METHOD /path` with an optional query or
 * suffix; a key that names no operation keeps its value.
 */
export function normaliseStoredAnswer(key: string, value: unknown): unknown {
  const m = /^(GET|POST|PUT|DELETE) (\/[^?#]*)/.exec(key);
  const op = m ? findOperation(m[1] as string, m[2] as string) : undefined;
  if (!op) return value;
  const r = normaliseAnswer(op.response, value);
  return r.ok ? r.value : undefined;
}
