import type { ScalarType } from './types.js';

/**
 * The one notation for shapes of the interface: the resource types of section 2 (`resources.ts`)
 * and the query, header and body fields of every operation (`operations.ts`) are plain object
 * literals of these values. The TypeScript types are inferred from them (`ShapeOf`), and the data the
 * normaliser, the validator and the forms read is derived from the same literals, so a shape is
 * written once.
 *
 * A hand-made literal rather than zod: the normaliser needs each field's declared scalar kind,
 * its known enumeration spellings and named (recursive) references to walk an answer in any case
 * and coerce it, and the forms and the validator need field order, secrets and nested objects:
 * all plain data here, while a zod schema would have to be introspected through its internals.
 * It also keeps `npm run typecheck` fast: mapped types over ~80 literals, no deep generic chains.
 */

/** `S` string, `I` integer (int64), `N` number (double), `B` boolean, `DT` date-time (text). */
export const S = 'string';
export const I = 'integer';
export const N = 'number';
export const B = 'boolean';
export const DT = 'date-time';

/** A field's declared type. */
export type FieldSchema =
  | ScalarType
  | { readonly array: FieldSchema }
  /** A JSON object of string keys (the document's dictionaries). */
  | { readonly map: FieldSchema }
  /** A named resource type of `resources.ts` (so shapes nest and recur, as Workflow does). */
  | { readonly ref: string }
  /** Write-only secret: never logged, cached, exported or echoed. */
  | { readonly secret: FieldSchema }
  /** A string with known spellings (enumerations): a value matching one in another case takes its spelling; others are kept. */
  | { readonly values: readonly string[] };

/** An object shape: field name → type, in the document's order (forms show them in it). */
export type ObjectSchema = { readonly [field: string]: FieldSchema };

export const list = <const T extends FieldSchema>(of: T): { readonly array: T } => ({ array: of });
export const map = <const T extends FieldSchema>(of: T): { readonly map: T } => ({ map: of });
export const ref = <const R extends string>(name: R): { readonly ref: R } => ({ ref: name });
export const secret = <const T extends FieldSchema>(of: T): { readonly secret: T } => ({ secret: of });
export const oneOf = <const V extends readonly string[]>(...values: V): { readonly values: V } => ({ values });

/**
 * The TypeScript type of a field. `R` maps resource names to their inferred types, so a `ref`
 * resolves lazily (recursive shapes work). Enumerations stay `string`: a system may send a value
 * the document does not list, and the normaliser keeps it.
 */
export type InferField<T, R> = T extends 'string' | 'date-time'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends { readonly array: infer X }
        ? InferField<X, R>[]
        : T extends { readonly map: infer X }
          ? Record<string, InferField<X, R>>
          : T extends { readonly ref: infer Name }
            ? Name extends keyof R
              ? R[Name]
              : never
            : T extends { readonly secret: infer X }
              ? InferField<X, R>
              : T extends { readonly values: readonly string[] }
                ? string
                : never;

/** The TypeScript type of an object shape: every field optional (the document marks none required). */
export type InferShape<O, R> = { -readonly [K in keyof O]?: InferField<O[K], R> };

/** Unwraps `secret` and reports whether it was there. */
export function unwrapSecret(schema: FieldSchema): { schema: Exclude<FieldSchema, { readonly secret: FieldSchema }>; secret: boolean } {
  let secretField = false;
  let s = schema;
  while (typeof s !== 'string' && 'secret' in s) {
    secretField = true;
    s = s.secret;
  }
  return { schema: s, secret: secretField };
}
