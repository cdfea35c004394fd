import { describe, expect, it } from 'vitest';
import { driftCells, systemsOn, versionDrift, type DriftSystem } from '../../../../app/fleet/drift.js';

const sys = (system: string, mgmt: string | undefined, driveFw: string[], extra: Partial<DriftSystem> = {}): DriftSystem => ({
  siteId: 's1',
  siteName: 'dc-one',
  system,
  versions: { Versions: [{ Component: 'Management', ...(mgmt ? { Version: mgmt } : {}), BuildNumber: mgmt ? `${mgmt}.${system.length}` : undefined }] },
  nodes: [{ Name: `${system}-n1`, Drives: driveFw.map((v, i) => ({ Id: i, Vendor: 'WDC', Model: 'WUH721816', ...(v ? { Version: v } : {}) })), Chassis: [{ BiosVersion: '2.1' }] }],
  ...extra,
});

describe('version drift', () => {
  const fleet = [sys('a-01', '5.2', ['PCG1', 'PCG1']), sys('b-02', '5.2', ['PCG1']), sys('c-03', '5.1', ['PCG1', 'PCG0']), sys('d-04', undefined, [''])];

  it('groups systems by version, largest first, and marks the minority versions as outliers', () => {
    const mgmt = versionDrift(fleet).find((r) => r.subject === 'Management');
    expect(mgmt?.drifting).toBe(true);
    expect(mgmt?.groups.map((g) => [g.version, g.systems.map((s) => s.system), g.outlier])).toEqual([
      ['5.2', ['a-01', 'b-02'], false],
      ['5.1', ['c-03'], true],
    ]);
    expect(mgmt?.groups[0]?.builds).toEqual(['5.2.4']);
    expect(systemsOn(mgmt!, '5.1').map((s) => s.system)).toEqual(['c-03']);
  });

  it('lists a system that reports no version as "not reported", never as a version', () => {
    const rows = versionDrift(fleet);
    const mgmt = rows.find((r) => r.subject === 'Management');
    expect(mgmt?.notReported.map((s) => s.system)).toEqual(['d-04']);
    expect(mgmt?.groups.some((g) => /not reported|undefined|^$/.test(g.version))).toBe(false);
    const drive = rows.find((r) => r.subject === 'Drive WDC WUH721816');
    // c-03 runs two firmware versions of the model: in both groups; units count drives.
    expect(drive?.groups.map((g) => [g.version, g.systems.length, g.units, g.outlier])).toEqual([
      ['PCG1', 3, 4, false],
      ['PCG0', 1, 1, true],
    ]);
    expect(drive?.notReported.map((s) => s.system)).toEqual(['d-04']);
  });

  it('counts a system whose reads are not cached as not reported for every component', () => {
    const rows = versionDrift([...fleet, { siteId: 's2', siteName: 'dc-two', system: 'e-05' }]);
    for (const r of rows) expect(r.notReported.map((s) => s.system)).toContain('e-05');
    const bios = rows.find((r) => r.subject === 'BIOS');
    expect(bios).toMatchObject({ drifting: false, groups: [{ version: '2.1', outlier: false }] });
  });

  it('puts drifting components first and exports one line per version', () => {
    const rows = versionDrift(fleet);
    expect(rows.map((r) => [r.subject, r.drifting])).toEqual([
      ['Management', true],
      ['Drive WDC WUH721816', true],
      ['BIOS', false],
    ]);
    const cells = driftCells(rows);
    expect(cells[1]).toEqual(['software', 'Management', '5.1', true, 1, 1, '5.1.4', 'dc-one/c-03']);
    expect(cells[2]).toEqual(['software', 'Management', 'not reported', null, 1, null, null, 'dc-one/d-04']);
  });
});
