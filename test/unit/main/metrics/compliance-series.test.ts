import { describe, expect, it } from 'vitest';
import type { ComplianceFinding } from '../../../../app/alerts/evaluate.js';
import { FleetMetrics, type MetricsSource } from '../../../../main/metrics/fleet-metrics.js';
import { SelfMetrics } from '../../../../main/metrics/self-metrics.js';

/** A fleet of one system whose compliance checks are what the alert engine last read (`checks`). */
function fleet(checks: { value: readonly ComplianceFinding[] | undefined; reads: number }): MetricsSource {
  return {
    fleet: { status: () => [{ siteId: 's1', system: 'a', state: 'ok' } as ReturnType<MetricsSource['fleet']['status']>[number]], cached: () => undefined },
    summaries: { summaries: () => ({ seq: 0, json: '[]' }) },
    alerts: {
      list: () => [],
      smartVerdictsOf: () => undefined,
      complianceOf: (siteId, system) => {
        checks.reads++;
        return siteId === 's1' && system === 'a' ? checks.value : undefined;
      },
    },
    sites: { list: () => [{ id: 's1', name: 'Lab' }] },
  };
}

const lines = (page: string, name: string): string[] => page.split('\n').filter((l) => l.startsWith(`${name}{`));

describe('compliance series', () => {
  it("serve each check the alert engine read with its effective result and level, and the system's score", () => {
    const checks = {
      reads: 0,
      value: [
        { id: 'c-crit', title: 'T', severity: 'critical', result: 'fail', reason: 'r' },
        { id: 'c-med', title: 'T', severity: 'medium', result: 'fail', reason: 'r' },
        { id: 'c-waived', title: 'T', severity: 'high', result: 'fail', reason: 'r', waiver: { active: true } },
        { id: 'c-expired', title: 'T', severity: 'high', result: 'fail', reason: 'r', waiver: { active: false } },
        { id: 'c-pass', title: 'T', severity: 'low', result: 'pass', reason: 'r' },
        { id: 'c-unknown', title: 'T', severity: 'low', result: 'cannot-tell', reason: 'r' },
        { id: 'c-na', title: 'T', severity: 'low', result: 'not-applicable', reason: 'r' },
      ] as ComplianceFinding[],
    };
    const m = new FleetMetrics(fleet(checks), { version: 't', self: new SelfMetrics() });
    const page = m.scrape('prometheus');
    expect(lines(page, 'fleetdeck_compliance_check')).toEqual([
      'fleetdeck_compliance_check{site="s1",system="a",check="c-crit",check_severity="critical",result="fail",level="critical"} 1',
      'fleetdeck_compliance_check{site="s1",system="a",check="c-med",check_severity="medium",result="fail",level="warning"} 1',
      'fleetdeck_compliance_check{site="s1",system="a",check="c-waived",check_severity="high",result="waived",level="ok"} 1',
      'fleetdeck_compliance_check{site="s1",system="a",check="c-expired",check_severity="high",result="fail",level="warning"} 1',
      'fleetdeck_compliance_check{site="s1",system="a",check="c-pass",check_severity="low",result="pass",level="ok"} 1',
      'fleetdeck_compliance_check{site="s1",system="a",check="c-unknown",check_severity="low",result="cannot-tell",level="unknown"} 1',
      'fleetdeck_compliance_check{site="s1",system="a",check="c-na",check_severity="low",result="not-applicable",level="ok"} 1',
    ]);
    // Passing or waived among those that apply: 2 of 6.
    expect(lines(page, 'fleetdeck_compliance_score_ratio')).toEqual(['fleetdeck_compliance_score_ratio{site="s1",system="a"} 0.333']);
  });

  it('follow what the engine read next, and serve nothing for a system it has not read', () => {
    const checks: { value: readonly ComplianceFinding[] | undefined; reads: number } = { reads: 0, value: [{ id: 'c', title: 'T', severity: 'high', result: 'fail', reason: 'r' }] };
    const m = new FleetMetrics(fleet(checks), { version: 't', self: new SelfMetrics() });
    expect(lines(m.scrape('prometheus'), 'fleetdeck_compliance_check')).toHaveLength(1);
    checks.value = [{ id: 'c', title: 'T', severity: 'high', result: 'fail', reason: 'r', waiver: { active: true } }];
    expect(lines(m.scrape('prometheus'), 'fleetdeck_compliance_check')[0]).toContain('result="waived",level="ok"');
    checks.value = [{ id: 'c', title: 'T', severity: 'high', result: 'not-applicable', reason: 'r' }];
    const page = m.scrape('prometheus');
    expect(lines(page, 'fleetdeck_compliance_check')[0]).toContain('result="not-applicable"');
    expect(lines(page, 'fleetdeck_compliance_score_ratio')).toEqual([]);
    checks.value = undefined;
    expect(lines(m.scrape('prometheus'), 'fleetdeck_compliance_check')).toEqual([]);
    expect(checks.reads).toBe(4);
  });
});
