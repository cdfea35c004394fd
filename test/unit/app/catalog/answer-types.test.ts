import { describe, expect, it } from 'vitest';
import { ANSWER_TYPES, OPERATIONS, RESOURCES, getOperation, isIdentifierField, typeName } from '../../../../app/catalog/index.js';

/**
 * The normaliser's answer types and the operations' nested request fields are both derived from the
 * one declaration in resources.ts (the TypeScript types are inferred from it too: see
 * typed-operations.test.ts), so they cannot drift apart.
 */
describe('answer types', () => {
  it('cover every type a response of the catalog names, and every type those reach', () => {
    const named = OPERATIONS.flatMap((op) => (op.response.kind === 'list' ? [op.response.item] : op.response.kind === 'object' ? [op.response.type] : []));
    for (const name of named) expect(ANSWER_TYPES.has(name), name).toBe(true);
    expect(ANSWER_TYPES.size).toBeGreaterThan(60);
  });

  it('are the declared resources, field for field and in order', () => {
    expect([...ANSWER_TYPES.keys()]).toEqual(Object.keys(RESOURCES));
    for (const [name, shape] of Object.entries(RESOURCES)) expect(ANSWER_TYPES.get(name)?.fields.map((f) => f.name), name).toEqual(Object.keys(shape));
  });

  it('carry the declared scalar kinds, lists, dictionaries and references', () => {
    const fields = (type: string) => new Map(ANSWER_TYPES.get(type)?.fields.map((f) => [f.name, f]));
    expect(fields('Volume').get('CapacityInBytes')?.type).toBe('integer');
    expect(fields('Tiers').get('TierDataDegradationHistogram')?.type).toEqual({ array: { array: 'integer' } });
    expect(fields('Workflow').get('Children')?.type).toEqual({ array: { ref: 'Workflow' } });
    expect(fields('NotificationRecord').get('Properties')?.type).toEqual({ map: 'string' });
    expect(fields('Snapshot').get('Date')?.type).toBe('date-time');
    // A secret is still read as what it is (redaction, not the normaliser, hides it).
    expect(fields('Volume').get('EncryptionKey')?.type).toBe('string');
  });

  it('give enumerations their known spellings, inside lists too', () => {
    const field = (type: string, name: string) => ANSWER_TYPES.get(type)?.fields.find((f) => f.name === name);
    expect(field('Volume', 'State')).toEqual({ name: 'State', type: 'string', values: ['Ok', 'Degraded', 'Locked'] });
    expect(field('HealthCapacityUtilization', 'ProvisioningStates')).toEqual({
      name: 'ProvisioningStates',
      type: { array: 'string' },
      values: ['Ok', 'Warning', 'Full', 'Degraded'],
    });
    expect(field('Drive', 'ResourceStatus')?.values).toContain('Missing');
    expect(field('Volume', 'Name')).toBeUndefined();
  });

  it('are what a request body carrying a whole resource sends', () => {
    const plugin = getOperation('POST /hypervisor/datastore/plugin/create');
    const volume = plugin.body.find((f) => f.name === 'volume');
    expect(volume && typeName(volume.type)).toBe('Volume');
    const nested = volume && typeof volume.type !== 'string' && 'fields' in volume.type ? volume.type.fields : [];
    expect(nested.map((f) => f.name)).toEqual(ANSWER_TYPES.get('Volume')?.fields.map((f) => f.name));
    expect(plugin.secrets).toEqual(expect.arrayContaining(['volume.EncryptionKey', 'volume.Object.AccessKeys', 'SessionTokenPlugin']));
  });

  it('know identifiers by name', () => {
    for (const id of ['Id', 'ReplicationId', 'RemoteSystemId', 'TierEntityIds', 'Cgid', 'PoolId', 'VolumeEntityId']) expect(isIdentifierField(id), id).toBe(true);
    for (const other of ['CapacityInBytes', 'Level', 'Vols', 'N', 'MailServerPort']) expect(isIdentifierField(other), other).toBe(false);
  });
});
