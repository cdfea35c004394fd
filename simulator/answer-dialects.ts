import { ANSWER_TYPES, type AnswerField, type AnswerValueType, type Operation } from '../app/catalog/index.js';
import type { Dialect } from './dialects.js';

/**
 * The dialects that change how a 200 answer is written rather than what it says: envelopes, name
 * case, nulls, numbers as strings, enumeration case, ids past 2^53 (`dialects.ts`). Handlers answer
 * in the document's shape; this rewrites the answer on its way out, walking it with the answer
 * types of the catalog so that only fields are renamed (never the keys of a map, such as pool names)
 * and only enumerations change case.
 */

const ANSWER_DIALECTS: readonly Dialect[] = ['envelope-result', 'envelope-lower', 'nulls', 'numeric-strings', 'enum-case', 'unknown-envelope', 'big-ids', 'guid-ids', 'no-record-ids', 'sentinel-percentages', 'snake-case', 'bool-numbers', 'day-first-dates', 'local-time', 'no-clock-hints', 'epoch-times', 'dotnet-dates', 'level-names', 'fraction-percentages', 'unit-sizes', 'spaced-enums', 'dotnet-references', 'pretty-json'];
/** The `local-time` dialect's zone: UTC−5, in ms. */
export const LOCAL_TIME_OFFSET_MS = -5 * 3_600_000;
const LEVEL_NAMES = ['Verbose', 'DEBUG', 'info', 'Warn', 'error', 'FATAL'];
const TWO_POW_53 = 2n ** 53n;
/** Stands in for an id past 2^53 until the text is written (JSON.stringify cannot write a BigInt). */
const BIG_ID = '\u0000big-id:';

/** Items of a list answer in the paging dialects (`paged-lists`, `partial-content`, `link-header-paging`, `nested-paging`). */
export const PAGE_ITEMS = 3;

/**
 * A list answer as the paging dialects cut it: the first {@link PAGE_ITEMS} items with a total and
 * a next-page token (`paged-lists`), with the `Content-Range` of a 206 (`partial-content`), with a
 * `Link` header to the next page and `X-Total-Count` (`link-header-paging`), or with a `Paging`
 * object beside `Data` (`nested-paging`).
 */
export function pagedAnswer(dialects: ReadonlySet<Dialect>, op: Operation, value: unknown): { value: unknown; status?: 206; headers?: Record<string, string> } {
  const paging = dialects.has('paged-lists') || dialects.has('partial-content') || dialects.has('link-header-paging') || dialects.has('nested-paging');
  if (!paging || op.response.kind !== 'list' || op.key === 'GET /notifications/query' || !isObject(value) || !Array.isArray(value.Data) || value.Data.length <= PAGE_ITEMS) return { value };
  const total = value.Data.length;
  const page = value.Data.slice(0, PAGE_ITEMS);
  if (dialects.has('partial-content')) return { value: { ...value, Data: page }, status: 206, headers: { 'Content-Range': `items 0-${PAGE_ITEMS - 1}/${total}` } };
  if (dialects.has('link-header-paging')) {
    const pages = Math.ceil(total / PAGE_ITEMS);
    return { value: { ...value, Data: page }, headers: { Link: `<${op.path}?page=2&per_page=${PAGE_ITEMS}>; rel="next", <${op.path}?page=${pages}&per_page=${PAGE_ITEMS}>; rel="last"`, 'X-Total-Count': String(total) } };
  }
  if (dialects.has('nested-paging')) return { value: { ...value, Data: page, Paging: { PageNumber: 1, PageSize: PAGE_ITEMS, TotalPages: Math.ceil(total / PAGE_ITEMS) } } };
  return { value: { ...value, Data: page, TotalCount: total, NextPageToken: Buffer.from(`page:2:${op.key}`).toString('base64') } };
}

/** The JSON text of a 200 answer of `op`, written in the dialects that are on. */
export function answerText(dialects: ReadonlySet<Dialect>, op: Operation, value: unknown): string {
  if (!ANSWER_DIALECTS.some((d) => dialects.has(d))) return JSON.stringify(value);
  const spec = op.response;
  const typeName = spec.kind === 'list' ? spec.item : spec.kind === 'object' ? spec.type : undefined;
  let out: unknown = value;
  if (typeName !== undefined) {
    if (spec.kind === 'list' && isObject(value) && Array.isArray(value.Data)) {
      const data = value.Data.map((item) => rewrite(item, { ref: typeName }, undefined, dialects));
      out = { ...value, Data: dialects.has('nulls') && data.length === 0 ? null : data };
    } else {
      out = rewrite(value, { ref: typeName }, undefined, dialects);
    }
  }
  if (spec.kind === 'list' && isObject(out)) {
    if (dialects.has('unknown-envelope')) out = { items: out.Data ?? [], total: Array.isArray(out.Data) ? out.Data.length : 0 };
    else if (dialects.has('envelope-lower')) out = camelKeys(out);
    else if (dialects.has('snake-case')) out = camelKeys(out, false, snake);
  } else if (spec.kind === 'object' && isObject(out)) {
    if (dialects.has('envelope-lower')) out = camelKeys(out);
    else if (dialects.has('snake-case')) out = camelKeys(out, false, snake);
  }
  if (dialects.has('envelope-result') && spec.kind !== 'empty') out = { Result: out };
  if (dialects.has('dotnet-references') && typeof out === 'object' && out !== null) out = preserved(out, { next: 1, seen: new Map() });
  const text = JSON.stringify(out, null, dialects.has('pretty-json') ? 2 : undefined);
  return dialects.has('big-ids') ? text.replace(/"\\u0000big-id:(\d+)"/g, (_m, id: string) => String(TWO_POW_53 + BigInt(id))) : text;
}

/** A value of `type` (in field `f`) as the dialects write it. */
function rewrite(v: unknown, type: AnswerValueType, f: AnswerField | undefined, dialects: ReadonlySet<Dialect>): unknown {
  if (v === null || v === undefined) return v;
  if (typeof type === 'string') {
    if (type === 'date-time' && typeof v === 'string') return timeAs(v, f, dialects);
    if (typeof v === 'boolean' && dialects.has('bool-numbers')) return v ? 1 : 0;
    if (f === LEVEL_FIELD && typeof v === 'number' && dialects.has('level-names')) return LEVEL_NAMES[v] ?? v;
    if (typeof v === 'number') {
      if (dialects.has('unit-sizes') && f && /Bytes$/.test(f.name) && v >= 0) return sizeText(v);
      if (dialects.has('unit-sizes') && f?.name.endsWith('Percentage') && v >= 0) return `${v} %`;
      if (dialects.has('fraction-percentages') && f?.name.endsWith('Percentage') && v >= 0) {
        const ratio = v / 100;
        return dialects.has('numeric-strings') ? String(ratio) : ratio;
      }
      if (dialects.has('big-ids') && f && BIG_ID_FIELDS.has(f) && Number.isSafeInteger(v) && v >= 0) return `${BIG_ID}${v}`;
      if (dialects.has('guid-ids') && f === RECORD_ID_FIELD) return recordGuid(v);
      return dialects.has('numeric-strings') ? String(v) : v;
    }
    if (typeof v === 'string') {
      if (dialects.has('nulls') && v === '') return null;
      if (dialects.has('spaced-enums') && f?.values?.includes(v) && /[a-z][A-Z]/.test(v)) return v.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
      if (dialects.has('enum-case') && f?.values?.includes(v)) return v === v.toUpperCase() ? v.toLowerCase() : v.toUpperCase();
    }
    return v;
  }
  if ('array' in type) {
    if (!Array.isArray(v)) return v;
    if (dialects.has('nulls') && v.length === 0) return null;
    return v.map((item) => rewrite(item, type.array, f, dialects));
  }
  if ('map' in type) {
    if (!isObject(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, rewrite(item, type.map, f, dialects)]));
  }
  if (!isObject(v)) return v;
  const t = ANSWER_TYPES.get(type.ref);
  const out: Record<string, unknown> = {};
  for (const [k, item] of Object.entries(v)) {
    if (k === 'Time' && dialects.has('no-clock-hints') && (type.ref === 'Node' || type.ref === 'SystemNode')) continue;
    if (k === 'Id' && dialects.has('no-record-ids') && type.ref === 'NotificationRecord') continue;
    const sub = t?.fields.find((x) => x.name === k);
    out[k] = sub ? rewrite(item, sub.type, sub, dialects) : item;
  }
  if (dialects.has('nulls') && type.ref === 'HealthVolumes') out.VolumesHealthInPercentage = null;
  if (dialects.has('sentinel-percentages') && type.ref === 'HealthVolumes') out.VolumesHealthInPercentage = -1;
  if (dialects.has('sentinel-percentages') && type.ref === 'HealthHardwareUtilization') Object.assign(out, { CPUInPercentage: -1, MemoryInPercentage: -1 });
  return out;
}

/** A time (the simulator writes UTC, `…Z`) as the time dialects write it. */
function timeAs(v: string, f: AnswerField | undefined, dialects: ReadonlySet<Dialect>): unknown {
  const ms = Date.parse(v);
  if (!Number.isFinite(ms)) return v;
  if (dialects.has('local-time')) return new Date(ms + LOCAL_TIME_OFFSET_MS).toISOString().slice(0, 19);
  if (dialects.has('epoch-times')) return ms;
  if (dialects.has('day-first-dates')) {
    const iso = new Date(ms).toISOString();
    return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
  }
  if (dialects.has('dotnet-dates')) {
    if (f?.name === 'Time') return `${new Date(ms).toISOString().slice(0, 19)}.${String(ms % 1000).padStart(3, '0')}0000+00:00`;
    return (ms / 1000) % 2 < 1 ? `/Date(${ms})/` : `/Date(${ms}+0100)/`;
  }
  return v;
}

const LEVEL_FIELD = ANSWER_TYPES.get('NotificationRecord')?.fields.find((f) => f.name === 'Level');

/** The fields whose ids the big-ids dialect moves past 2^53. */
const RECORD_ID_FIELD = ANSWER_TYPES.get('NotificationRecord')?.fields.find((f) => f.name === 'Id');

/** A record's id as a GUID (`guid-ids`): the same record, the same GUID. */
function recordGuid(id: number): string {
  const hex = id.toString(16).padStart(12, '0');
  return `7d3f9a2c-5e1b-4c8d-a6f0-${hex.slice(-12)}`;
}

const BIG_ID_FIELDS: ReadonlySet<AnswerField> = new Set(
  [
    ['NotificationRecord', 'Id'],
    ['System', 'Id'],
  ].map(([t, name]) => ANSWER_TYPES.get(t as string)?.fields.find((f) => f.name === name) as AnswerField),
);

/**
 * camelCase field names as ASP.NET Core's default policy writes them: the leading capitals become
 * lower case, up to the last one before a lower-case letter (`HAState` → `haState`, `CPU` → `cpu`).
 * Map keys are not field names; the walk above leaves them, so this one renames only fields it
 * can tell apart: every key of an object that is not the value of a map field.
 */
function camelKeys(v: unknown, map = false, spell: (name: string) => string = camel): unknown {
  if (Array.isArray(v)) return v.map((x) => camelKeys(x, false, spell));
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, item] of Object.entries(v)) out[map ? k : spell(k)] = camelKeys(item, !map && MAP_FIELDS.has(k), spell);
  return out;
}

/** A field name in snake_case, as Python and Go services and Rails write it: `HAState` → `ha_state`, `CPUInPercentage` → `cpu_in_percentage`. */
export function snake(name: string): string {
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** Names of map-typed fields (their values' keys are data, not names). */
const MAP_FIELDS: ReadonlySet<string> = new Set(
  [...ANSWER_TYPES.values()].flatMap((t) => t.fields.filter((f) => typeof f.type !== 'string' && 'map' in f.type).map((f) => f.name)),
);

export function camel(name: string): string {
  const m = /^[A-Z]+/.exec(name);
  if (!m) return name;
  const run = m[0];
  const cut = run.length > 1 && run.length < name.length && /[a-z]/.test(name[run.length] ?? '') ? run.length - 1 : run.length;
  return name.slice(0, cut).toLowerCase() + name.slice(cut);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A size as storage UIs print it (`unit-sizes`): three significant digits with an SI unit, as
 * `3.64 TB` (10^12 bytes), `512 B`.
 */
function sizeText(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  let i = 0;
  let v = bytes;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return i === 0 ? `${bytes} B` : `${v.toPrecision(3)} ${units[i]}`;
}

/**
 * An answer as System.Text.Json writes it with `ReferenceHandler.Preserve` (`dotnet-references`):
 * every object gains `"$id"`, every array becomes `{"$id": …, "$values": [...]}`, and an object
 * written before (the same content) is `{"$ref": id}` the second time.
 */
function preserved(v: unknown, ids: { next: number; seen: Map<string, string> }): unknown {
  if (Array.isArray(v)) {
    const id = String(ids.next++);
    return { $id: id, $values: v.map((x) => preserved(x, ids)) };
  }
  if (!isObject(v)) return v;
  const key = JSON.stringify(v);
  const before = ids.seen.get(key);
  if (before !== undefined && Object.keys(v).length > 0) return { $ref: before };
  const id = String(ids.next++);
  ids.seen.set(key, id);
  const out: Record<string, unknown> = { $id: id };
  for (const [k, x] of Object.entries(v)) out[k] = preserved(x, ids);
  return out;
}
