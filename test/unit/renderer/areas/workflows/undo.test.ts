import { describe, expect, it } from 'vitest';
import { NOTHING_CREATED, recordCreated, undoPlan, withoutUndone } from '../../../../../renderer/areas/workflows/undo.js';

describe('undoing a provisioning workflow', () => {
  const created = [
    ['POST /templates/create', { Application: 'db' }],
    ['POST /templates/volumes/create', { Application: 'db', Volume: 'data' }],
    ['POST /applications/create', { Application: 'db-prod', Template: 'db' }],
    ['POST /hosts/create', { Name: 'esx1' }],
    ['POST /hosts/mappings/add', { Application: 'db-prod', Hosts: ['esx1'], Volumes: ['data'], LunIds: ['7'] }],
    ['POST /hosts/mappings/add', { Application: 'db-prod', Hosts: ['esx2'], Volumes: [] }],
  ] as const;
  const all = created.reduce((c, [op, body]) => recordCreated(c, op, { query: {}, headers: {}, body: { ...body } }), NOTHING_CREATED);

  it('deletes what the steps created in the reverse order of creation, an existing host left alone', () => {
    expect(undoPlan(all).map((s) => [s.op, s.query])).toEqual([
      ['DELETE /hosts/mappings/delete', { application: 'db-prod', hosts: ['esx2'] }],
      ['DELETE /hosts/mappings/delete', { application: 'db-prod', hosts: ['esx1'], volumes: ['data'] }],
      ['DELETE /hosts/delete', { name: 'esx1' }],
      ['DELETE /applications/delete', { application: 'db-prod' }],
      ['DELETE /templates/delete', { name: 'db' }],
    ]);
    expect(undoPlan(all)[0]?.text).toBe('Unmap every volume of db-prod from esx2');
  });

  it('keeps what a stopped undo did not remove', () => {
    const plan = undoPlan(all);
    const left = withoutUndone(all, plan.slice(0, 2));
    expect(undoPlan(left)).toEqual(plan.slice(2));
    expect(undoPlan(withoutUndone(all, plan))).toEqual([]);
  });
});
