import { describe, expect, it } from 'vitest';
import { getOperation, type OperationKey } from '../../../../app/catalog/index.js';
import type { FormAction } from '../../../../renderer/areas/actions.js';
import { TARGET_KINDS, targetFieldOptions } from '../../../../renderer/areas/notification-targets/kinds.js';
import { resolveField, topFields, type FieldId, type FieldOptionsOf, type FormValuesOf } from '../../../../renderer/lib/forms/op-form.js';

/**
 * Field ids are typed from the catalog (`FieldId<K>`): a field an operation does not have fails
 * `npm run typecheck` (this file is checked with the renderer) instead of showing nothing at run
 * time. The `@ts-expect-error` lines are the proof: were the misspelt id accepted, the directive
 * would be unused and the typecheck would fail.
 */

// The ids an operation's form has: query, header and body fields, nested ones included.
const snmpEdit: readonly FieldId<'PUT /notifications/targets/snmp/edit'>[] = ['body.ManagerAddress', 'body.NewName', 'query.async'];
const analyzer: readonly FieldId<'GET /resources/drives/performance_analyzer'>[] = ['query.driveIds', 'query.iterationTimeInSeconds'];
const datastore: readonly FieldId<'POST /hypervisor/datastore/plugin/create'>[] = ['headers.async', 'body.datastore.Name', 'body.volume.Application'];

// @ts-expect-error a misspelt body field
const misspelt: FieldId<'PUT /notifications/targets/snmp/edit'> = 'body.ManagerAdress';
// @ts-expect-error a field of another operation (the add form's Ip)
const otherOperation: FieldId<'PUT /notifications/targets/snmp/edit'> = 'body.Ip';
// @ts-expect-error a body field on an operation that sends no body
const noBody: FieldId<'GET /nodes/list'> = 'body.Name';
// @ts-expect-error a header on an operation that takes none
const noHeader: FieldId<'POST /hosts/create'> = 'headers.async';
// @ts-expect-error a nested field the resource does not have
const nested: FieldId<'POST /hypervisor/datastore/plugin/create'> = 'body.datastore.Nmae';

const values: FormValuesOf<'PUT /hosts/edit'> = {
  'query.name': 'esx01',
  'body.Name': 'esx02',
  // @ts-expect-error values are keyed by the operation's ids too
  'body.Nmae': 'esx03',
};
const options: FieldOptionsOf<'POST /hosts/create'> = {
  'body.Iqn': { label: 'iSCSI IQN' },
  // @ts-expect-error so are per-field overrides
  'body.Iqns': { label: 'iSCSI IQN' },
};

// An area's action is checked against its own operation, told apart by `op`.
const good: FormAction = { kind: 'form', title: 'Create host', op: 'POST /hosts/create', show: ['body.Name', 'body.Iqn'] };
// @ts-expect-error `show` names an id of the list operation's query, not of this form
const badShow: FormAction = { kind: 'form', title: 'Create host', op: 'POST /hosts/create', show: ['query.name'] };
const badFixed: FormAction = {
  kind: 'form',
  title: 'Edit host',
  op: 'PUT /hosts/edit',
  // @ts-expect-error the edit selects the host by `query.name`
  fixed: { 'query.nmae': 'esx01' },
};

describe('form field ids', () => {
  it('type-checks the ids above (the lists are the ids the forms show)', () => {
    for (const [key, ids] of [
      ['PUT /notifications/targets/snmp/edit', snmpEdit],
      ['GET /resources/drives/performance_analyzer', analyzer],
      ['POST /hypervisor/datastore/plugin/create', datastore],
    ] as const) {
      for (const id of ids) expect(resolveField(getOperation(key), id), `${key} ${id}`).toBeDefined();
    }
    // The misspelt ones name nothing at run time: what the typecheck now refuses.
    expect(resolveField(getOperation('PUT /notifications/targets/snmp/edit'), misspelt)).toBeUndefined();
    expect(resolveField(getOperation('PUT /notifications/targets/snmp/edit'), otherOperation)).toBeUndefined();
    expect(resolveField(getOperation('GET /nodes/list'), noBody)).toBeUndefined();
    expect(resolveField(getOperation('POST /hosts/create'), noHeader)).toBeUndefined();
    expect(resolveField(getOperation('POST /hypervisor/datastore/plugin/create'), nested)).toBeUndefined();
    expect(Object.keys(values)).toContain('body.Name');
    expect(Object.keys(options)).toContain('body.Iqn');
    expect([good.op, badShow.op, badFixed.op]).toEqual(['POST /hosts/create', 'POST /hosts/create', 'PUT /hosts/edit']);
  });

  it('shows every field a notification target kind lists, on its add and its edit form', () => {
    const shown = (key: OperationKey, ids: readonly string[]): string[] => {
      const inputs = new Set(topFields(getOperation(key)).map((f) => f.id));
      return ids.filter((id) => !inputs.has(id));
    };
    for (const kind of TARGET_KINDS) {
      expect(shown(kind.add, kind.addFields), `${kind.id} add`).toEqual([]);
      if (kind.edit) expect(shown(kind.edit, kind.editFields), `${kind.id} edit`).toEqual([]);
    }
    // Every shared presentation names a field one of the target forms has.
    const all = new Set(TARGET_KINDS.flatMap((k) => [k.add, ...(k.edit ? [k.edit] : [])]).flatMap((key) => topFields(getOperation(key)).map((f) => f.id)));
    expect(Object.keys(targetFieldOptions([])).filter((id) => !all.has(id))).toEqual([]);
  });
});
