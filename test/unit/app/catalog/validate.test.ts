import { describe, expect, it } from 'vitest';
import { ValidationError, buildBody, buildQuery, coerceScalar, getOperation } from '../../../../app/catalog/index.js';

describe('catalog validation', () => {
  it('coerces scalars and rejects what does not fit', () => {
    expect(coerceScalar('integer', '42')).toEqual({ ok: true, value: 42 });
    expect(coerceScalar('integer', 4.5).ok).toBe(false);
    expect(coerceScalar('integer', '9007199254740993').ok).toBe(false);
    expect(coerceScalar('number', '1.5e3')).toEqual({ ok: true, value: 1500 });
    expect(coerceScalar('boolean', 'TRUE').ok).toBe(false);
    expect(coerceScalar('boolean', 'true')).toEqual({ ok: true, value: true });
    expect(coerceScalar('date-time', '2026-01-31 13:45')).toEqual({ ok: true, value: '2026-01-31T13:45:00' });
    expect(coerceScalar('date-time', '2026-01-31T13:45:00+02:00')).toEqual({ ok: true, value: '2026-01-31T11:45:00' });
    expect(coerceScalar('date-time', '2026-13-45T00:00:00').ok).toBe(false);
    expect(coerceScalar('string', { a: 1 }).ok).toBe(false);
  });

  it('matches query names case-insensitively and lists every problem at once', () => {
    const op = getOperation('GET /hosts/list');
    expect(buildQuery(op, { NAME: 'h', Wwn: true })).toEqual([['name', 'h'], ['wwn', 'true']]);
    try {
      buildQuery(op, { wwn: 'x', iqn: 'y', bogus: 1 });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).problems).toHaveLength(3);
    }
  });

  it('refuses arrays for scalar query parameters and a body where none is taken', () => {
    expect(() => buildQuery(getOperation('GET /hosts/list'), { name: ['a', 'b'] })).toThrow(/expected one string, got an array/);
    expect(() => buildBody(getOperation('DELETE /hosts/delete'), { Name: 'x' })).toThrow(/takes no body/);
    expect(buildBody(getOperation('DELETE /hosts/delete'), undefined)).toBeUndefined();
  });

  it('validates nested body objects and keeps null fields', () => {
    const op = getOperation('POST /hypervisor/datastore/plugin/create');
    expect(buildBody(op, { volume: { capacityInBytes: '1024', tiers: { TierN: [2] } }, Datastore: null })).toEqual({
      volume: { CapacityInBytes: 1024, Tiers: { TierN: [2] } },
      datastore: null,
    });
    expect(() => buildBody(op, { volume: 'v1' })).toThrow(/volume: expected an object/);
    expect(() => buildBody(op, [])).toThrow(/body: expected an object/);
  });

  it('explains how to write an operation', () => {
    expect(() => getOperation('hosts list')).toThrow(/METHOD \/path/);
    expect(() => getOperation('get /HOSTS/LIST')).not.toThrow();
  });
});
