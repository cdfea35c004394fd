import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/ipc/handlers.js';
import type { Runtime } from '../../../main/runtime.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-AUTH-PASSWORD-0b7e';

/**
 * Logins the way real systems answer them where the document is silent, against the simulator in
 * the matching dialect: a token taken bare, a numeric Status, a second factor asked for on a 401 in
 * other words, one-time codes accepted once.
 */
describe('authentication that adapts, against the simulator dialects', () => {
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 3, seed: 'auth-dialects', password: PASSWORD }, runtime: { timeoutMs: 5000 }, fresh: 'test', prefix: 'fd-auth-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let dir: string;
  let siteId: string;
  const site = () => sim.manifest.sites[0]!;

  beforeEach(() => {
    ({ sim, rt, dir } = world);
    siteId = world.siteIds[0]!;
  });
  afterEach(() => {
    sim.control.setDialects([]);
    sim.fleet.sites[0]!.multifactor = false;
    sim.control.expireTokens();
  });

  it('raw-token: refreshes every system, remembers the bare token for the site (no secret on disk), and a new start sends it bare at once', async () => {
    sim.control.setDialects(['raw-token']);
    const statuses = await rt.fleet.refresh({ force: true });
    // No system is left login-required: the bare token is accepted.
    expect(statuses.map((s) => [s.system, s.state, s.lastError])).toEqual([...site().systems].sort().map((s) => [s, 'ok', undefined]));
    expect(rt.sites.get(siteId)?.auth).toEqual({ tokenScheme: 'raw', learnedAt: expect.any(String) });
    const view = (await dispatch(rt.handlers, 'sites:list', {})) as { ok: true; value: Array<{ auth?: unknown }> };
    expect(view.value[0]?.auth).toMatchObject({ tokenScheme: 'raw' });
    const onDisk = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(dir, e.name)).toString('latin1')).join('');
    expect(onDisk).toContain('"tokenScheme":"raw"');
    expect(onDisk).not.toContain(PASSWORD);

    // Reopened: the scheme comes from the site list, so no request is refused on the way.
    rt = await world.reopen();
    await rt.secrets.set(`site/${siteId}/password`, PASSWORD);
    const refusedBearer = (): number => sim.fleet.sites[0]!.systems[0]!.notifications.filter((n) => /with the Bearer scheme/.test(n.Message ?? '')).length;
    // The first runtime was refused once, when it learned.
    const before = refusedBearer();
    expect(before).toBeGreaterThanOrEqual(1);
    sim.control.expireTokens();
    expect((await rt.fleet.refresh({ force: true })).every((s) => s.state === 'ok')).toBe(true);
    expect(refusedBearer()).toBe(before);
  });

  it('a system that takes Bearer again is used with Bearer after one refused bare token', async () => {
    sim.control.setDialects(['raw-token']);
    await rt.fleet.refresh({ force: true });
    sim.control.setDialects([]);
    sim.control.expireTokens();
    expect((await rt.fleet.refresh({ force: true })).map((s) => s.state)).toEqual(['ok', 'ok', 'ok']);
    expect(rt.sites.get(siteId)?.auth?.tokenScheme).toBe('bearer');
  });

  it('numeric-status: Status 0 is a completed login; 2 with "two-step verification" asks for a code', async () => {
    sim.control.setDialects(['numeric-status']);
    // Status 0 is a completed login on every system.
    expect((await rt.fleet.refresh({ force: true })).map((s) => s.state)).toEqual(['ok', 'ok', 'ok']);
    sim.fleet.sites[0]!.multifactor = true;
    sim.control.expireTokens();
    const locked = await rt.fleet.refresh({ force: true });
    for (const s of locked) {
      expect(s.state).toBe('login-required');
      expect(s.lastError).toMatch(/two-factor authentication is on: a code is required \(Two-step verification is on/);
    }
  });

  it('mfa-401: a second factor asked for on a 401 is recognised, and each system logs in with a code of its own', async () => {
    await rt.fleet.refresh({ force: true });
    sim.control.setDialects(['mfa-401']);
    sim.fleet.sites[0]!.multifactor = true;
    sim.control.expireTokens();
    const locked = await rt.fleet.refresh({ force: true });
    // A request for a code, not a refused login.
    for (const s of locked) expect(s.lastError, s.system).toMatch(/two-factor authentication is on: a code is required \(Multifactor authentication required/);
    const [a, b, c] = site().systems as [string, string, string];
    // Without a code, every system waits for one.
    expect(await rt.fleet.login(siteId, {})).toEqual({ loggedIn: [], needCode: [a, b, c] });

    const code = () => sim.control.totpSecret(0, site().username).code;
    // One code logs in one system: the others wait for codes of their own.
    expect(await rt.fleet.login(siteId, { code: code() })).toEqual({ loggedIn: [a], needCode: [b, c] });
    const waiting = rt.fleet.status(siteId).filter((s) => s.state === 'login-required').map((s) => s.system);
    expect(waiting).toEqual([b, c].sort());
    // The same code again, as a client that sends one code to every system would: this system refuses it.
    const reused = await rt.fleet.login(siteId, { code: code(), system: b }).catch((e: unknown) => e);
    expect((reused as Error).message).toMatch(/two-factor code was refused \(Invalid verification code\.\); a code is accepted once/);
    sim.control.advanceClock(30);
    expect(await rt.fleet.login(siteId, { code: code(), system: b })).toEqual({ loggedIn: [b], needCode: [] });
    sim.control.advanceClock(30);
    expect(await rt.fleet.login(siteId, { code: code(), system: c })).toEqual({ loggedIn: [c], needCode: [] });
    // Listing borrows a system's session: no fourth code for the site itself.
    expect((await rt.fleet.refresh({ force: true })).map((s) => s.state)).toEqual(['ok', 'ok', 'ok']);
  });

  it('the IPC login answers which systems still need a code', async () => {
    await rt.fleet.refresh({ force: true });
    sim.control.setDialects(['mfa-401']);
    sim.fleet.sites[0]!.multifactor = true;
    sim.control.expireTokens();
    // A code no earlier test used (each is accepted once).
    sim.control.advanceClock(90);
    const { code } = sim.control.totpSecret(0, site().username);
    const [a, b, c] = site().systems as [string, string, string];
    expect(await dispatch(rt.handlers, 'session:login', { site: siteId, code })).toEqual({ ok: true, value: { ok: true, loggedIn: [a], needCode: [b, c] } });
  });
});
