import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  getOperation,
  isOperationKey,
  OPERATION_KEYS,
  OPERATIONS,
  type BodyOf,
  type DataList,
  type HeadersOf,
  type Host,
  type OperationKey,
  type QueryOf,
  type ResultOf,
  type Volume,
  type Workflow,
} from '../../../../app/catalog/index.js';

/**
 * The catalog's types hold at compile time: `npm run typecheck` checks this file, so each
 * `@ts-expect-error` below is a misspelling tsc must refuse (remove one and typecheck fails).
 */

/** What a typed caller passes; the body and query must be those of the key. */
function request<K extends OperationKey>(key: K, params: { query?: QueryOf<K>; body?: BodyOf<K> }): { key: K; params: typeof params } {
  return { key, params };
}

describe('typed operations', () => {
  it('name every catalog operation by a key tsc knows, and no other', () => {
    expect(OPERATION_KEYS).toHaveLength(129);
    expect(OPERATION_KEYS).toEqual(OPERATIONS.map((o) => o.key));
    expect(isOperationKey('GET /hosts/list')).toBe(true);
    expect(isOperationKey('GET /hosts/lists')).toBe(false);
    const key: OperationKey = 'GET /hosts/list';
    expect(getOperation(key).path).toBe('/hosts/list');
    // @ts-expect-error a misspelt operation key
    const misspelt: OperationKey = 'GET /host/list';
    expect(isOperationKey(misspelt)).toBe(false);
  });

  it('type query parameters and body fields from the key', () => {
    expectTypeOf<QueryOf<'GET /hosts/list'>>().toEqualTypeOf<{ name?: string; wwn?: boolean; iqn?: boolean; nqn?: boolean; mapping?: boolean; ip?: boolean }>();
    // The C pair joins the query of every write that declares it.
    expectTypeOf<QueryOf<'DELETE /hosts/delete'>>().toEqualTypeOf<{ name?: string; async?: boolean; uncommitAndAggregateId?: string }>();
    expectTypeOf<BodyOf<'PUT /users/edit'>>().toEqualTypeOf<{ Role?: string; Password?: string; Email?: string }>();
    expectTypeOf<HeadersOf<'POST /hypervisor/datastore/plugin/create'>>().toEqualTypeOf<{ async?: boolean }>();
    // A nested resource in a body is the resource's own type.
    expectTypeOf<NonNullable<BodyOf<'POST /hypervisor/datastore/plugin/create'>['volume']>>().toEqualTypeOf<Volume>();
    // An operation without a body takes none.
    expectTypeOf<BodyOf<'GET /hosts/list'>>().toBeNever();

    const ok = request('GET /resources/drives/list', { query: { node: 'n1', ids: [3], led: true } });
    expect(ok.key).toBe('GET /resources/drives/list');
    // @ts-expect-error a misspelt query parameter
    request('GET /resources/drives/list', { query: { nodes: 'n1' } });
    // @ts-expect-error a query parameter of the wrong type
    request('GET /resources/drives/list', { query: { ids: ['3'] } });
    // @ts-expect-error a misspelt body field
    request('POST /hosts/create', { body: { Name: 'h1', Wwn: ['x'] } });
    // @ts-expect-error a body field of another operation
    request('PUT /nodes/takeover', { body: { Node: 'n1', Newname: 'n2' } });
  });

  it('type results from the response the catalog declares', () => {
    expectTypeOf<ResultOf<'GET /hosts/list'>>().toEqualTypeOf<DataList<Host>>();
    expectTypeOf<ResultOf<'GET /workflows/volume_provisioning'>>().toEqualTypeOf<Workflow>();
    // Recursive shapes resolve: a workflow's children are workflows.
    expectTypeOf<NonNullable<Workflow['Children']>[number]>().toEqualTypeOf<Workflow>();
    expectTypeOf<ResultOf<'GET /resources/drives/smart'>>().toEqualTypeOf<string>();
    expectTypeOf<ResultOf<'POST /resetpassword'>>().toEqualTypeOf<undefined>();
    expectTypeOf<ResultOf<'GET /configurations/list'>>().toEqualTypeOf<unknown>();
    const host: Host = { Name: 'h1', Wwns: ['w'] };
    // @ts-expect-error a misspelt resource field
    const bad: Host = { Name: 'h1', Wwn: ['w'] };
    expect([host, bad]).toHaveLength(2);
  });
});
