import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../main/runtime.js';
import type { Dialect, SimulatorHandle } from '../../../simulator/index.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-SESSION-DIALECT-5a2e';

/**
 * Sessions that end in other words than a 401: a 400 in words (`expired-400`), or IIS's 440
 * "Login Time-out" in plain text (`expired-440`).
 */
describe.each<Dialect>(['expired-400', 'expired-440'])('a site that ends sessions as %s', (dialect) => {
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 2, seed: dialect, password: PASSWORD }, runtime: { timeoutMs: 5000 }, fresh: 'test', prefix: 'fd-expired-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let siteId: string;
  const systems = (): string[] => [...sim.manifest.sites[0]!.systems].sort();

  beforeEach(async () => {
    ({ sim, rt } = world);
    siteId = world.siteIds[0]!;
    sim.control.setDialects([dialect]);
    expect((await rt.fleet.refresh({ force: true })).map((s) => s.state)).toEqual(['ok', 'ok']);
  });
  afterEach(() => {
    sim.control.setDialects([]);
    sim.fleet.sites[0]!.users.find((u) => u.name === world.site(0).username)!.password = PASSWORD;
  });

  it('logs in again and continues, for a refresh and for a write', async () => {
    sim.control.expireTokens();
    // A 400 "Session expired…" or a 440 logs in again: the site does not fail, no system is left stale.
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

/** The system list as a source of truth with memory (dialects `unlisted-system`, `empty-system-list`). */
describe('a site whose list stops showing a system', () => {
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 3, seed: 'unlisted', password: PASSWORD }, runtime: { timeoutMs: 5000 }, fresh: 'test', prefix: 'fd-unlisted-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let siteId: string;

  beforeEach(async () => {
    ({ sim, rt } = world);
    siteId = world.siteIds[0]!;
    expect((await rt.fleet.refresh({ force: true })).every((s) => s.state === 'ok')).toBe(true);
  });
  afterEach(() => {
    sim.control.setDialects([]);
  });

  it('keeps it visible as not listed since then, with the list\'s message, raises an alert, and says so in reports and the next process', async () => {
    const [first, , last] = sim.manifest.sites[0]!.systems as [string, string, string];
    sim.control.setDialects(['unlisted-system']);
    const statuses = await rt.fleet.refresh({ force: true });
    // The system stays in the statuses, unlisted with the list's message, and raises an alert.
    const gone = statuses.find((s) => s.system === last);
    expect(gone).toMatchObject({ state: 'unlisted', unlistedSince: expect.any(String), lastError: expect.stringMatching(/^not listed by the site since \S+; the list says: System '.+' is not listed: its relay connection is down\.$/) });
    expect(statuses.filter((s) => s.system !== last).every((s) => s.state === 'ok')).toBe(true);
    expect(rt.alerts.list().filter((a) => a.rule === 'unlisted' && a.state === 'open').map((a) => a.system)).toEqual([last]);
    // A later refresh keeps the first time it was missed.
    const since = gone!.unlistedSince;
    expect((await rt.fleet.refresh({ force: true })).find((s) => s.system === last)?.unlistedSince).toBe(since);
    const report = await rt.reports.generate({ kind: 'health', offline: true });
    expect(report.model.notes.some((n) => n.includes(`/ ${last}: not listed by the site since ${since}`))).toBe(true);
    expect(rt.fleet.cached(siteId, last, 'GET /Version')?.stale).toBe(true);

    rt = await world.reopen();
    expect(rt.fleet.status(siteId).find((s) => s.system === last)).toMatchObject({ state: 'unlisted', unlistedSince: since });
    expect(rt.fleet.status(siteId).find((s) => s.system === first)?.state).toBe('ok');

    // Listed again: refreshed like the others, the alert cleared.
    sim.control.setDialects([]);
    await rt.secrets.set(`site/${siteId}/password`, PASSWORD);
    expect((await rt.fleet.refresh({ force: true })).map((s) => s.state)).toEqual(['ok', 'ok', 'ok']);
    expect(rt.alerts.list().filter((a) => a.rule === 'unlisted' && a.state === 'open')).toEqual([]);
  });

  it('a list with no systems and a message is a site error, not an empty site', async () => {
    sim.control.setDialects(['empty-system-list']);
    const statuses = await rt.fleet.refresh({ force: true });
    // The site's systems are kept (stale, with the list's message), not forgotten.
    expect(statuses).toHaveLength(3);
    expect(statuses.every((s) => s.state === 'stale' && /lists no systems and says: The management service is starting/.test(s.lastError ?? ''))).toBe(true);
    expect(rt.fleet.siteError(siteId)).toMatch(/lists no systems and says: The management service is starting/);
    expect(rt.fleet.systemsOf(siteId)).toHaveLength(3);
  });
});
