import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf as rows } from '../../unit/app/reports/helpers.js';
import { reportHarness, type ReportHarness } from './support.js';

/**
 * Reports from a refresh of systems that take their token bare, answer the login Status as a number
 * and compress every answer behind a byte order mark (dialects raw-token, numeric-status,
 * compressed): before, no system could be logged in or read, and the reports held no data.
 */
describe('reports from systems in the raw-token, numeric-status and compressed dialects', () => {
  let h: ReportHarness;
  beforeAll(async () => {
    h = await reportHarness({ sites: 1, systems: 2, dialects: ['raw-token', 'numeric-status', 'compressed'] });
    const statuses = await h.fleet.refresh({ force: true });
    expect(statuses.map((s) => [s.state, s.lastError])).toEqual([
      ['ok', undefined],
      ['ok', undefined],
    ]);
  }, 60_000);
  afterAll(async () => h?.close());

  it('the SMART report reads every drive: its compressed text was decoded, none is unknown or without data', async () => {
    const report = await h.reports.generate({ kind: 'smart', offline: true });
    const drives = rows(report.model, 'smart.drives');
    const expected = h.sim.fleet.sites[0]!.systems.flatMap((s) => s.nodes.flatMap((n) => n.drives)).filter((d) => d.status !== 'Missing').length;
    expect(drives).toHaveLength(expected);
    expect(drives.map((d) => d.risk)).not.toContain('unknown');
    for (const s of rows(report.model, 'smart.summary')) expect(s).toMatchObject({ unknown: 0, noData: 0 });
  });

  it('the inventory report lists every system with its nodes', async () => {
    const report = await h.reports.generate({ kind: 'inventory', offline: true });
    const systems = new Set(rows(report.model, 'inventory.nodes').map((r) => r.system));
    expect([...systems].sort()).toEqual([...h.sim.manifest.sites[0]!.systems].sort());
  });
});
