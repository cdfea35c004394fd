import { describe, expect, it } from 'vitest';
import { buildReport } from '../../../../app/reports/build.js';
import { diffReports, diffTable } from '../../../../app/reports/diff.js';
import type { ReportTable } from '../../../../app/reports/model.js';
import { reportDiffSchema } from '../../../../app/reports/schema.js';
import type { ReportInput } from '../../../../app/reports/snapshot.js';
import { fixtureInput } from './fixtures.js';

/** Replaces the `Data` list of one cached answer of system alpha. */
function edit(input: ReportInput, op: string, change: (data: Array<Record<string, unknown>>) => Array<Record<string, unknown>>): void {
  const answer = input.systems[0]?.answers[op];
  if (!answer) throw new Error(`fixture has no ${op}`);
  const value = answer.value as { Data: Array<Record<string, unknown>> };
  answer.value = { ...value, Data: change(structuredClone(value.Data)) };
}

describe('comparing two configuration snapshots', () => {
  const before = { ...buildReport('config', fixtureInput()), id: 1 };
  const input = fixtureInput();
  edit(input, 'GET /hosts/list', (hosts) => [...hosts.filter((h) => h.Name !== 'k8s'), { Name: 'esx02', Iqn: 'iqn.1998-01.com.vmware:esx02', ChapSecret: '[redacted]' }]);
  edit(input, 'GET /users/list', (users) => users.map((u) => (u.Name === 'auditor' ? { ...u, Role: 'Administrator', TwoStepAuthenticationEnabled: true } : u)));
  edit(input, 'GET /hosts/mappings/list', () => [{ Application: 'db', Host: 'esx01', Volumes: ['data', 'log'], LunIds: ['0', '7'] }]);
  edit(input, 'GET /applications/list', (apps) => apps.map((a) => (a.Application === 'share' ? { ...a, Volumes: [{ Application: 'share', Volume: 'files', Encrypted: true, N: 4, K: 2, State: 'Ok', CapacityInBytes: 2 * 1024 ** 4, Pool: 'hdd-pool', MetadataPool: 'nvme-pool', ReadOnly: false, Cgid: 1, Naa: '600500' }] } : a)));
  const after = { ...buildReport('audit', input), id: 2 };
  const diff = diffReports(before, after);

  it('names added and removed rows by their key (host name within site and system)', () => {
    const hosts = diff.tables.find((t) => t.id === 'config.hosts');
    expect(hosts?.added.map((r) => r[2])).toEqual(['esx02']);
    expect(hosts?.removed.map((r) => r[2])).toEqual(['k8s']);
    expect(hosts?.changed).toEqual([]);
  });

  it('names the changed cells of a row present in both, keyed by application/volume or user', () => {
    expect(diff.tables.find((t) => t.id === 'config.volumes')?.changed).toEqual([
      { key: ['East DC', 'alpha', 'share', 'files'], changes: [{ column: 'encryption', label: 'Encryption', before: 'off', after: 'on' }] },
    ]);
    expect(diff.tables.find((t) => t.id === 'config.users')?.changed).toEqual([
      {
        key: ['East DC', 'alpha', 'auditor'],
        changes: [
          { column: 'role', label: 'Role', before: 'Viewer', after: 'Administrator' },
          { column: 'twoFactor', label: 'Two-factor authentication', before: 'off', after: 'on' },
        ],
      },
    ]);
    expect(diff.tables.find((t) => t.id === 'config.mappings')?.changed).toEqual([{ key: ['East DC', 'alpha', 'esx01', 'db', 'log'], changes: [{ column: 'lun', label: 'LUN', before: 1, after: 7 }] }]);
  });

  it('lists only tables that changed, with totals, in the IPC schema', () => {
    expect(diff.tables.map((t) => t.id).sort()).toEqual(['config.hosts', 'config.mappings', 'config.users', 'config.volumes']);
    expect(diff.summary).toEqual({ added: 1, removed: 1, changed: 3 });
    expect(diff.from).toMatchObject({ id: 1, kind: 'config' });
    expect(diff.to).toMatchObject({ id: 2, kind: 'audit' });
    expect(reportDiffSchema.safeParse(diff).success).toBe(true);
  });

  it('finds no change between a snapshot and itself', () => {
    expect(diffReports(before, { ...before, id: 3 })).toMatchObject({ tables: [], summary: { added: 0, removed: 0, changed: 0 } });
  });

  it('refuses a report without a configuration snapshot', () => {
    expect(() => diffReports(before, { ...buildReport('inventory', fixtureInput()), id: 4 })).toThrow(/report 4 \(inventory\) holds no configuration snapshot/);
  });

  it('matches duplicate keys by occurrence and treats a table that appeared as all added', () => {
    const t = (rows: ReportTable['rows']): ReportTable => ({ id: 't', title: 'T', columns: [{ id: 'k', label: 'K', type: 'text' }, { id: 'v', label: 'V', type: 'number' }], key: ['k'], rows });
    expect(diffTable(t([['a', 1], ['a', 2]]), t([['a', 1], ['a', 3]])).changed).toEqual([{ key: ['a'], changes: [{ column: 'v', label: 'V', before: 2, after: 3 }] }]);
    expect(diffTable(undefined, t([['a', 1]])).added).toEqual([['a', 1]]);
    expect(diffTable(t([['a', 1]]), undefined).removed).toEqual([['a', 1]]);
  });
});
