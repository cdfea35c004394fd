import { describe, expect, it } from 'vitest';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

/**
 * A system's last refresh outcome outlives the process that refreshed it: a report made by the next
 * process (the cron job's `fleetdeck refresh`, then `fleetdeck report --offline`) names only the
 * systems that really are stale, with why.
 */
describe('refresh outcomes across processes', () => {
  const world = useSimulatedFleet({ simulator: { sites: 2, systems: 2, seed: 'outcomes' }, runtime: { timeoutMs: 3000 }, fresh: 'test', prefix: 'fd-outcomes-' });

  it('a later process starts from what the last refresh found, and its offline report names real staleness only', async () => {
    const { sim } = world;
    expect((await world.rt.fleet.refresh({ force: true })).every((s) => s.state === 'ok')).toBe(true);
    await sim.control.siteDown(1);
    const statuses = await world.rt.fleet.refresh({ force: true });
    expect(statuses).toHaveLength(4);
    const byState = (state: string) => statuses.filter((s) => s.state === state).map((s) => s.system).sort();
    expect(byState('ok')).toEqual([...world.site(0).systems].sort());
    expect(statuses.filter((s) => s.siteId === world.siteIds[1]).every((s) => s.state === 'unreachable')).toBe(true);

    // Another process on the same data dir.
    const rt = await world.reopen();
    await sim.control.siteUp(1);
    const later = rt.fleet.status();
    // The refresh's outcome outlives its process: the same states, not every system stale.
    expect(later.map((s) => [s.siteId, s.system, s.state])).toEqual(statuses.map((s) => [s.siteId, s.system, s.state]));
    expect(later.find((s) => s.siteId === world.siteIds[1])?.lastError).toMatch(/./);
    expect(rt.fleet.cached(world.siteIds[0]!, world.site(0).systems[0]!, 'GET /Version')?.stale).toBe(false);

    const report = await rt.reports.generate({ kind: 'health', offline: true });
    const stale = report.model.notes.filter((n) => / was (stale|unreachable|ok) when this report was made/.test(n));
    expect(stale.some((n) => world.site(0).systems.some((s) => n.includes(`/ ${s} was`)))).toBe(false);
  });
});
