import { describe, expect, it } from 'vitest';
import { FleetMetrics, type MetricsSource } from '../../../../main/metrics/fleet-metrics.js';
import { SelfMetrics } from '../../../../main/metrics/self-metrics.js';

const NOW = Date.parse('2026-11-28T10:10:00.000Z');

/** A fleet of one system whose summary was read by a poll at 10:10 with its detail lists older. */
function fleet(detailsAt: Record<string, string> | undefined): MetricsSource {
  const summary = { seq: 1, siteId: 's1', system: 'a', at: '2026-11-28T10:10:00.000Z', ...(detailsAt ? { detailsAt } : {}), rollup: { level: 'ok', capacity: { pools: [] } }, drives: [], lagging: [], errors: [] };
  return {
    fleet: { status: () => [{ siteId: 's1', system: 'a', state: 'ok' } as ReturnType<MetricsSource['fleet']['status']>[number]], cached: () => undefined },
    summaries: { summaries: ({ since }) => ({ seq: 1, json: (since ?? -1) < 1 ? JSON.stringify([summary]) : '[]' }) },
    alerts: { list: () => [], smartVerdictsOf: () => undefined },
    sites: { list: () => [{ id: 's1', name: 'Lab' }] },
  };
}

const lines = (page: string, name: string): string[] => page.split('\n').filter((l) => l.startsWith(`${name}{`));

describe('the age of what each series comes from', () => {
  it("exports each detail list's own age beside the health record's", () => {
    const m = new FleetMetrics(fleet({ nodes: '2026-11-28T10:06:00.000Z', drives: '2026-11-28T10:07:00.000Z', pools: '2026-11-28T10:05:00.000Z' }), { version: 't', self: new SelfMetrics(), clock: () => NOW });
    const page = m.scrape('openmetrics');
    expect(lines(page, 'fleetdeck_system_data_age_seconds')).toEqual(['fleetdeck_system_data_age_seconds{site="s1",system="a"} 0']);
    expect(lines(page, 'fleetdeck_system_detail_age_seconds')).toEqual([
      'fleetdeck_system_detail_age_seconds{site="s1",system="a",detail="nodes"} 240',
      'fleetdeck_system_detail_age_seconds{site="s1",system="a",detail="drives"} 180',
      'fleetdeck_system_detail_age_seconds{site="s1",system="a",detail="pools"} 300',
    ]);
  });

  it('exports none for a system with no detail list cached', () => {
    const m = new FleetMetrics(fleet(undefined), { version: 't', self: new SelfMetrics(), clock: () => NOW });
    expect(lines(m.scrape('openmetrics'), 'fleetdeck_system_detail_age_seconds')).toEqual([]);
  });
});
