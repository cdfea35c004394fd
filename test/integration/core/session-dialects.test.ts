import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../main/runtime.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-SESSION-DIALECT-5a2e';

/** Sessions that end in other words than a 401 (dialect `expired-400`). */
describe('a site that ends sessions with a 400 in words', () => {
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 2, seed: 'expired-400', password: PASSWORD }, runtime: { timeoutMs: 5000 }, fresh: 'test', prefix: 'fd-expired-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let siteId: string;
  const systems = (): string[] => [...sim.manifest.sites[0]!.systems].sort();

  beforeEach(async () => {
    ({ sim, rt } = world);
    siteId = world.siteIds[0]!;
    sim.control.setDialects(['expired-400']);
    expect((await rt.fleet.refresh({ force: true })).map((s) => s.state)).toEqual(['ok', 'ok']);
  });
  afterEach(() => {
    sim.control.setDialects([]);
    sim.fleet.sites[0]!.users.find((u) => u.name === world.site(0).username)!.password = PASSWORD;
  });

  it('logs in again and continues, for a refresh and for a write', async () => {
    sim.control.expireTokens();
    // Before: every read refused with 400 "Session expired…", the site failed and every system stale.
    const statuses = await rt.fleet.refresh({ force: true });
    expect(statuses.map((s) => [s.system, s.state, s.lastError])).toEqual(systems().map((s) => [s, 'ok', undefined]));
    sim.control.expireTokens();
    const first = systems()[0]!;
    await rt.fleet.call(siteId, first, 'POST /hosts/create', { body: { Name: 'after-expiry', Iqn: 'iqn.2026-01.io.fleetdeck:after-expiry' } });
    expect(sim.fleet.sites[0]!.systems.find((s) => s.name === first)!.hosts.map((h) => h.name)).toContain('after-expiry');
    expect(rt.actionLog.list({ siteId }).at(-1)).toMatchObject({ operation: 'POST /hosts/create', result: 'ok' });
  });

  it('a login that still fails names the system\'s message', async () => {
    sim.control.expireTokens();
    sim.fleet.sites[0]!.users.find((u) => u.name === world.site(0).username)!.password = 'changed-elsewhere-Aa1!';
    const statuses = await rt.fleet.refresh({ force: true });
    expect(statuses.every((s) => s.state === 'login-required')).toBe(true);
    expect(rt.fleet.siteError(siteId)).toMatch(/login refused \(.+\)/);
  });
});
