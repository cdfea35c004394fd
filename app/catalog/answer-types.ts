import { RESOURCES } from './resources.js';
import { unwrapSecret, type FieldSchema } from './schema.js';
import type { ScalarType } from './types.js';

/**
 * The resource types of section 2 of docs/interface.md as the data the response normaliser
 * (`app/answers/normalise.ts`) checks every 200 answer against: derived from the one declaration in
 * `resources.ts`, so the normaliser and the compiler read the same shapes.
 */

/** A field's type in an answer: a scalar, an array, a map of string keys, or a named answer type. */
export type AnswerValueType =
  | ScalarType
  | { readonly array: AnswerValueType }
  | { readonly map: AnswerValueType }
  | { readonly ref: string };

export interface AnswerField {
  readonly name: string;
  readonly type: AnswerValueType;
  /**
   * Known spellings of an enumeration (the document's sample and the values the app and the
   * simulator use). A value matching one case-insensitively takes its spelling; others are kept.
   */
  readonly values?: readonly string[];
}

export interface AnswerType {
  readonly name: string;
  readonly fields: readonly AnswerField[];
}

/** The answer type of a declared field, and the enumeration spellings found at its leaf. */
function answerType(schema: FieldSchema): { type: AnswerValueType; values?: readonly string[] } {
  const s = unwrapSecret(schema).schema;
  if (typeof s === 'string') return { type: s };
  if ('values' in s) return { type: 'string', values: s.values };
  if ('ref' in s) return { type: { ref: s.ref } };
  const inner = answerType('array' in s ? s.array : s.map);
  const type = 'array' in s ? { array: inner.type } : { map: inner.type };
  return inner.values ? { type, values: inner.values } : { type };
}

/** Every answer type by name. */
export const ANSWER_TYPES: ReadonlyMap<string, AnswerType> = new Map(
  Object.entries(RESOURCES).map(([name, shape]): [string, AnswerType] => [
    name,
    { name, fields: Object.entries(shape).map(([field, schema]): AnswerField => ({ name: field, ...answerType(schema) })) },
  ]),
);

for (const t of ANSWER_TYPES.values()) {
  for (const f of t.fields) {
    let v: AnswerValueType = f.type;
    while (typeof v !== 'string' && !('ref' in v)) v = 'array' in v ? v.array : v.map;
    if (typeof v !== 'string' && !ANSWER_TYPES.has(v.ref)) throw new Error(`answer types: ${t.name}.${f.name} names unknown type ${v.ref}`);
  }
}

/**
 * Integer fields that identify something (`Id`, `ReplicationId`, `TierEntityIds`, `Cgid`…): a value
 * beyond 2^53 is kept as its exact decimal text, since rounding it would name another object.
 */
export function isIdentifierField(name: string): boolean {
  return /id(s)?$/i.test(name);
}
