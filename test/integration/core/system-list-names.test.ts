import { afterAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../../../simulator/index.js';
import { reportHarness, type ReportHarness } from '../reports/support.js';

/**
 * A site whose list names a system with no name, or two systems with one name: Fleetdeck chooses
 * systems by name, so it cannot read them apart. Every listed system stays in view, said not read
 * and why (the refresh, the reports), never dropped and never shown with another's data.
 */
describe('systems the site lists without a name or under one name', () => {
  const harnesses: ReportHarness[] = [];
  afterAll(async () => {
    for (const h of harnesses) await h.close();
  });
  const start = async (dialect: Dialect): Promise<ReportHarness> => {
    const h = await reportHarness({ sites: 1, systems: 3, dialects: [dialect] });
    harnesses.push(h);
    return h;
  };

  it('shows a system listed without a name as not read, by its id, with why', async () => {
    const h = await start('unnamed-system');
    const [first, second, third] = h.sim.fleet.sites[0]?.systems ?? [];
    const statuses = await h.fleet.refresh();
    expect(statuses.map((s) => [s.system, s.state])).toEqual(
      expect.arrayContaining([
        [first?.name, 'ok'],
        [second?.name, 'ok'],
        [`system #${third?.id}`, 'protocol-error'],
      ]),
    );
    expect(statuses).toHaveLength(3);
    expect(statuses.find((s) => s.system === `system #${third?.id}`)?.lastError).toMatch(/lists a system without a name \(Id \d+\)/);
    const report = (await h.reports.generate({ kind: 'health', offline: true })).model;
    expect(report.notes.some((n) => n.includes(`system #${third?.id}`) && /without a name/.test(n))).toBe(true);
  }, 120_000);

  it('reads neither of two systems listed under one name, and says so on that name', async () => {
    const h = await start('duplicate-system-names');
    const [first, second] = h.sim.fleet.sites[0]?.systems ?? [];
    const statuses = await h.fleet.refresh();
    expect(statuses.map((s) => [s.system, s.state]).sort()).toEqual(
      [
        [first?.name, 'protocol-error'],
        [second?.name, 'ok'],
      ].sort(),
    );
    expect(statuses.find((s) => s.system === first?.name)?.lastError).toMatch(new RegExp(`lists 2 systems named "${first?.name}" \\(Ids \\d+, \\d+\\)`));
    const report = (await h.reports.generate({ kind: 'health', offline: true })).model;
    expect(report.notes.some((n) => n.includes(`${first?.name}`) && /lists 2 systems named/.test(n))).toBe(true);
  }, 120_000);
});
