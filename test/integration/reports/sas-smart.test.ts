import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedReport } from '../../../main/reports/service.js';
import { sasRole } from '../../../simulator/state/sas-smart.js';
import { rowsOf as rows } from '../../unit/app/reports/helpers.js';
import { reportHarness, type ReportHarness } from './support.js';

/**
 * Against the simulator in the sas-smart dialect: a SAS drive with 2,500 grown
 * defects and 57 uncorrected read errors, whose system calls it OK, must not go into the SMART report as
 * "ok"; nor may a text the parser could not read. The client's own refresh caches every drive's
 * SMART text and the report is built from that cache.
 */
describe('SMART report of SAS drives (simulator dialect sas-smart)', () => {
  let h: ReportHarness;
  let report: GeneratedReport;
  let bad: { name: string; serial: string };
  let unreadable: { name: string; serial: string };
  let system: string;

  beforeAll(async () => {
    h = await reportHarness({ sites: 1, systems: 1, dialects: ['sas-smart'] });
    const state = h.sim.fleet.sites[0]!.systems[0]!;
    system = state.name;
    const drives = state.nodes[0]!.drives;
    const roleOf = (role: string) => drives.find((d) => sasRole(state, d) === role)!;
    bad = { name: roleOf('grown-defects').name, serial: roleOf('grown-defects').serial };
    unreadable = { name: roleOf('unreadable').name, serial: roleOf('unreadable').serial };
    const statuses = await h.fleet.refresh();
    expect(statuses.map((s) => s.state)).toEqual(['ok']);
    report = await h.reports.generate({ kind: 'smart', offline: true });
  }, 60_000);
  afterAll(async () => h?.close());

  it('rates the drive with 2,500 grown defects and 57 uncorrected read errors critical, although its status is OK', () => {
    const row = rows(report.model, 'smart.drives').find((r) => r.serial === bad.serial);
    expect(row).toMatchObject({ system, drive: bad.name, status: 'OK', selfAssessment: 'OK', risk: 'critical' });
    expect(row?.model).toMatch(/^(ST1[26]000NM002G|WUH721816AL5204|MG08SCA16TE)$/);
    const findings = rows(report.model, 'smart.findings').filter((f) => f.serial === bad.serial);
    expect(findings.map((f) => [f.risk, f.subject, f.message])).toEqual([
      ['critical', 'Elements in grown defect list', '2500 elements in the grown defect list, at or above 100'],
      ['critical', 'read: Total uncorrected errors', '57 uncorrected read errors, at or above 10'],
    ]);
  });

  it('reports the drive whose SMART text it could not read as unknown, never ok', () => {
    expect(rows(report.model, 'smart.drives').find((r) => r.serial === unreadable.serial)).toMatchObject({ drive: unreadable.name, status: 'OK', risk: 'unknown' });
    expect(rows(report.model, 'smart.findings').filter((f) => f.serial === unreadable.serial).map((f) => `${f.risk} ${f.subject}`)).toEqual(['unknown format']);
    const summary = rows(report.model, 'smart.summary')[0];
    expect(summary).toMatchObject({ system, unknown: 1, noData: 0 });
    expect(Number(summary?.critical)).toBeGreaterThanOrEqual(1);
  });

  it('reads every other SAS drive as a SCSI report: a degrading one at risk from its grown defects, NVMe drives as before', () => {
    const others = rows(report.model, 'smart.drives').filter((r) => r.serial !== bad.serial && r.serial !== unreadable.serial);
    expect(others.length).toBeGreaterThan(5);
    for (const r of others.filter((x) => x.type !== 'NVMe')) expect(r.selfAssessment).toBe('OK');
    for (const r of others.filter((x) => x.type === 'NVMe')) expect(r.selfAssessment).toBe('PASSED');
    // Nothing in the dialect is unreadable but the one drive.
    expect(others.map((r) => r.risk)).not.toContain('unknown');
    const state = h.sim.fleet.sites[0]!.systems[0]!;
    const degrading = state.nodes.flatMap((n) => n.drives).filter((d) => d.type !== 'NVMe' && d.wear.degradePerHour > 0);
    expect(degrading.length).toBeGreaterThanOrEqual(1);
    for (const d of degrading) {
      expect(['warning', 'critical']).toContain(others.find((r) => r.serial === d.serial)?.risk);
      expect(rows(report.model, 'smart.findings').some((f) => f.serial === d.serial && f.subject === 'Elements in grown defect list')).toBe(true);
    }
  });
});
