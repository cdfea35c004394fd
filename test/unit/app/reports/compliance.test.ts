import { describe, expect, it } from 'vitest';
import type { FleetComplianceView } from '../../../../app/compliance/results.js';
import { buildReport } from '../../../../app/reports/build.js';
import { reportModelSchema } from '../../../../app/reports/schema.js';
import { GENERATED_AT, fixtureInput } from './fixtures.js';
import { rowsOf } from './helpers.js';

const READ_AT = new Date(Date.parse(GENERATED_AT) - 7200_000).toISOString();

function evaluation(): FleetComplianceView {
  const waiver = { check: 'support-tunnel-off', siteId: 'east', system: 'alpha', reason: 'vendor case 42', until: '2099-01-01T00:00:00.000Z', by: 'ann', at: READ_AT, seq: 12 };
  return {
    baseline: { name: 'fleetdeck-secure', version: '1.0.0', sha256: 'cd'.repeat(32), checks: [] },
    evaluatedAt: GENERATED_AT,
    counts: { fail: 1, 'cannot-tell': 0, waived: 1, pass: 0, 'not-applicable': 0 },
    score: 50,
    systems: [
      {
        siteId: 'east',
        site: 'East DC',
        system: 'alpha',
        counts: { fail: 1, 'cannot-tell': 0, waived: 1, pass: 0, 'not-applicable': 0 },
        score: 50,
        checks: [
          { id: 'host-chap', title: 'Host CHAP', severity: 'medium', result: 'fail', reason: '1 of 1 do not meet ChapSecret is set', evidence: { op: 'GET /hosts/list', at: READ_AT, ageSeconds: 7200, items: 1, values: [{ item: 'h1', field: 'ChapSecret' }] } },
          { id: 'support-tunnel-off', title: 'Tunnel', severity: 'high', result: 'fail', reason: '1 of 2 …', evidence: { op: 'GET /nodes/support/tunnel/status', at: READ_AT, ageSeconds: 7200, items: 2, values: [{ item: 'n1', field: 'SupportTunnelStatus', value: 'Enabled' }] }, waiver: { ...waiver, active: true } },
        ],
      },
    ],
    waivers: [waiver],
    history: [{ at: GENERATED_AT, siteId: '', system: '', counts: { fail: 1, 'cannot-tell': 0, waived: 1, pass: 0, 'not-applicable': 0 }, score: 50 }],
    changes: [
      { siteId: 'east', site: 'East DC', system: 'alpha', check: 'host-chap', title: 'Host CHAP', severity: 'medium', kind: 'waiver-expired', from: 'waived', to: 'waiver-expired', since: READ_AT, at: GENERATED_AT },
      { siteId: 'east', site: 'East DC', system: 'alpha', check: 'email-validates-certificate', title: 'Mail', severity: 'medium', kind: 'cannot-tell', from: 'pass', to: 'cannot-tell', since: READ_AT, at: GENERATED_AT },
    ],
  };
}

describe('the compliance section', () => {
  it('carries the baseline, each check with evidence and waiver, the waivers and the scores, in the audit pack too', () => {
    for (const kind of ['compliance', 'audit'] as const) {
      const model = buildReport(kind, { ...fixtureInput(), compliance: evaluation() });
      expect(() => reportModelSchema.parse(model)).not.toThrow();
      expect(rowsOf(model, 'compliance.baseline')).toEqual([{ name: 'fleetdeck-secure', version: '1.0.0', sha256: 'cd'.repeat(32), evaluatedAt: GENERATED_AT, score: 50, fail: 1, waived: 1, cannotTell: 0, pass: 0 }]);
      expect(rowsOf(model, 'compliance.results').map((r) => [r.check, r.result, r.value, r.operation, r.ageSeconds, r.waiver])).toEqual([
        ['host-chap', 'FAIL', 'h1: ChapSecret=(absent)', 'GET /hosts/list', 7200, null],
        ['support-tunnel-off', 'waived', 'n1: SupportTunnelStatus="Enabled"', 'GET /nodes/support/tunnel/status', 7200, 'waived (vendor case 42, by ann, until 2099-01-01T00:00:00.000Z)'],
      ]);
      expect(rowsOf(model, 'compliance.waivers')).toEqual([{ check: 'support-tunnel-off', scope: 'East DC / alpha', reason: 'vendor case 42', by: 'ann', at: READ_AT, until: '2099-01-01T00:00:00.000Z', state: 'in force', seq: 12 }]);
      expect(rowsOf(model, 'compliance.history')).toHaveLength(1);
      expect(rowsOf(model, 'compliance.changes')).toEqual([
        { site: 'East DC', system: 'alpha', check: 'host-chap', severity: 'medium', change: 'waiver expired', from: 'waived', to: 'FAIL (waiver expired)', since: READ_AT, at: GENERATED_AT },
        { site: 'East DC', system: 'alpha', check: 'email-validates-certificate', severity: 'medium', change: 'became cannot tell', from: 'pass', to: 'CANNOT TELL', since: READ_AT, at: GENERATED_AT },
      ]);
      const section = model.sections.find((s) => s.id === 'compliance');
      expect(section?.dataAges).toEqual([expect.objectContaining({ system: 'alpha', at: READ_AT, ageSeconds: 7200 })]);
    }
  });

  it('says so when compliance was not evaluated', () => {
    const section = buildReport('compliance', fixtureInput()).sections[0];
    expect(section).toMatchObject({ id: 'compliance', tables: [], description: 'Compliance was not evaluated for this report.' });
  });
});
