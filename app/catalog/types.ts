/** Scalar wire types of the interface (section 4 conventions: S, I, N, B, dt). */
export type ScalarType = 'string' | 'integer' | 'number' | 'boolean' | 'date-time';

/** A field's value type: a scalar, an array of a type, or a named nested object. */
export type ValueType =
  | ScalarType
  | { readonly array: ValueType }
  | { readonly object: string; readonly fields: readonly Field[] };

/** One query parameter, header or body field of an operation. */
export interface Field {
  readonly name: string;
  readonly type: ValueType;
  /** Write-only secret: never logged, cached, exported or echoed. */
  readonly secret?: boolean;
  /** Short meaning where the document gives one. */
  readonly note?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Groups of the interface, one per first path segment (section 4 headings). */
export type Group =
  | 'applications'
  | 'nodes'
  | 'resources'
  | 'replication'
  | 'templates'
  | 'hosts'
  | 'floatingips'
  | 'nas_servers'
  | 'users'
  | 'monitoring'
  | 'settings'
  | 'systems'
  | 'version'
  | 'workflows'
  | 'hypervisor'
  | 'notifications'
  | 'login'
  | 'configurations';

/** What a 200 response carries. */
export type ResponseSpec =
  /** A plain JSON string (a message). */
  | { readonly kind: 'string' }
  /** `{ Data: [item] }` where item is a resource type name of section 2. */
  | { readonly kind: 'list'; readonly item: string }
  /** One object of the named resource type. */
  | { readonly kind: 'object'; readonly type: string }
  /** 200 with no body. */
  | { readonly kind: 'empty' }
  /** Not shown by the document: any JSON is accepted. */
  | { readonly kind: 'unknown' };

/** One operation of the storage management service interface. */
export interface Operation {
  /** Stable key, `METHOD /path`. */
  readonly key: string;
  readonly method: HttpMethod;
  /** Path relative to the site's base URL, starting with `/`. */
  readonly path: string;
  readonly group: Group;
  /** One line, from the document. */
  readonly summary: string;
  /** Every query parameter, including `async`/`uncommitAndAggregateId` where the table says C. */
  readonly query: readonly Field[];
  /** Header parameters (only the datastore operation's `async`). */
  readonly headers: readonly Field[];
  /** Top-level body fields; empty when the operation sends no body. */
  readonly body: readonly Field[];
  /** True when the operation sends a JSON body. */
  readonly hasBody: boolean;
  readonly response: ResponseSpec;
  /** Not a pure read: never retried blindly, recorded in the action log. */
  readonly writes: boolean;
  /** Deletes, stops, unpairs, takes over, resets, promotes: the UI asks for confirmation. */
  readonly destructive: boolean;
  /** Names (dotted paths for nested fields) of every secret field it sends or receives. */
  readonly secrets: readonly string[];
  /** Needs a session token (everything but login and password reset). */
  readonly authenticated: boolean;
  /** Parameters not shown by the document: any query parameter is passed through unvalidated. */
  readonly freeformQuery: boolean;
  /** The document leaves parameters or response unshown; ours are a documented inference. */
  readonly inferred: boolean;
}

/** Display name of a value type: `string`, `integer[]`, `Tiers`, `integer[][]`. */
export function typeName(type: ValueType): string {
  if (typeof type === 'string') return type;
  if ('array' in type) return `${typeName(type.array)}[]`;
  return type.object;
}

/** True for scalars and arrays of scalars (query-parameter capable types). */
export function isScalarOrArray(type: ValueType): boolean {
  if (typeof type === 'string') return true;
  if ('array' in type) return typeof type.array === 'string';
  return false;
}
