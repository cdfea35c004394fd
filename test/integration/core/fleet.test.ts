import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CertificateError } from '../../../main/client/index.js';
import { OutcomeUnknownError } from '../../../main/core/errors.js';
import { passwordAccount } from '../../../main/secrets/accounts.js';
import type { Runtime } from '../../../main/runtime.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-SITE-PASSWORD-7f3a';

/** Every file under a folder, as bytes (the data directory holds no secret, ever). */
function filesUnder(dir: string): Buffer[] {
  const out: Buffer[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(readFileSync(p));
  }
  return out;
}

function expectAbsent(dir: string, markers: readonly string[]): void {
  const files = filesUnder(dir);
  expect(files.length).toBeGreaterThan(0);
  for (const marker of markers) {
    for (const f of files) expect(f.includes(Buffer.from(marker)), `marker ${marker.slice(0, 12)}… found on disk`).toBe(false);
  }
}

describe('fleet against the simulator', () => {
  const world = useSimulatedFleet({ simulator: { sites: 2, systems: 3, seed: 'core-tests', password: PASSWORD }, runtime: { timeoutMs: 3000 }, prefix: 'fd-core-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let dir: string;

  beforeAll(async () => {
    ({ sim, rt, dir } = world);
  });
  afterEach(async () => {
    for (const s of sim.sites) {
      if (!s.running) await s.start();
      sim.control.setFaults(s.index, { latencyMs: 0, jitterMs: 0, errorRate: 0 });
    }
  });

  const siteIds = () => rt.sites.list().map((s) => s.id);

  it('refreshes every system of two sites to ok, each with its own data', async () => {
    const statuses = await rt.fleet.refresh({ force: true });
    const expected = sim.manifest.sites.flatMap((s) => s.systems.map((system) => `${s.name}/${system}`)).sort();
    expect(statuses.map((s) => `${rt.sites.get(s.siteId)?.name}/${s.system}`).sort()).toEqual(expected);
    for (const s of statuses) expect(s.state, `${s.system}: ${s.lastError}`).toBe('ok');
    // Each system was read with its own session, selected on that system: its nodes are its own.
    for (const s of statuses) {
      const nodes = rt.fleet.cached(s.siteId, s.system, 'GET /nodes/list', { sensors: true, gateway: true, vols: true, ip: true, sed: true });
      const names = ((nodes?.value as { Data: Array<{ Name: string }> }).Data ?? []).map((n) => n.Name);
      expect(names.length).toBeGreaterThanOrEqual(2);
      for (const n of names) expect(n.startsWith(s.system), `${n} on ${s.system}`).toBe(true);
      const current = (rt.fleet.cached(s.siteId, s.system, 'GET /Version')?.value as { Versions?: unknown[] }).Versions;
      expect(current?.length).toBeGreaterThan(0);
    }
  });

  it('never lets more than the per-endpoint cap of requests be in flight', async () => {
    const site = rt.sites.list()[0]!;
    await rt.sites.update(site.id, { polling: { ...site.polling, maxInFlight: 2 } });
    await rt.fleet.siteChanged(site.id);
    sim.control.setFaults(0, { latencyMs: 15 });
    sim.control.resetPeak(0);
    const before = sim.control.status()[0]!.requests;
    await rt.fleet.refresh({ siteIds: [site.id], force: true });
    const after = sim.control.status()[0]!;
    const peak = after.peakInFlight;
    expect(after.requests - before).toBeGreaterThan(20);
    await rt.sites.update(site.id, { polling: { ...site.polling, maxInFlight: 4 } });
    await rt.fleet.siteChanged(site.id);
    // The cap is used (parallel) and never exceeded.
    expect(peak).toBe(2);
  });

  it('marks a dead site unreachable, keeps the other ok, and still serves its cached data as stale', async () => {
    await rt.fleet.refresh({ force: true });
    await sim.sites[1]!.stop();
    const statuses = await rt.fleet.refresh({ force: true });
    const [a, b] = siteIds();
    for (const s of statuses.filter((x) => x.siteId === a)) expect(s.state).toBe('ok');
    const dead = statuses.filter((x) => x.siteId === b);
    expect(dead).toHaveLength(3);
    for (const s of dead) {
      expect(s.state).toBe('unreachable');
      expect(s.lastError).toMatch(/connection refused|unreachable/);
      expect(s.lastSuccessAt).toBeDefined();
      const cached = rt.fleet.cached(b!, s.system, 'GET /hosts/list', { wwn: true, iqn: true, nqn: true, mapping: true, ip: true });
      expect(cached?.stale).toBe(true);
      expect(Array.isArray((cached?.value as { Data?: unknown[] }).Data)).toBe(true);
    }
  });

  it('re-logs in silently after a 401, and asks for a login when the password no longer works', async () => {
    await rt.fleet.refresh({ force: true });
    expect(sim.control.expireTokens()).toBeGreaterThan(0);
    const again = await rt.fleet.refresh({ force: true });
    for (const s of again) expect(s.state).toBe('ok');
    const id = siteIds()[0]!;
    await rt.secrets.set(passwordAccount(id), 'not-the-password');
    sim.control.expireTokens(0);
    const refused = await rt.fleet.refresh({ siteIds: [id], force: true });
    for (const s of refused) expect(s.state).toBe('login-required');
    await rt.fleet.login(id, { password: PASSWORD });
    for (const s of await rt.fleet.refresh({ siteIds: [id], force: true })) expect(s.state).toBe('ok');
  });

  it('asks for a two-factor code once it is switched on, and accepts a valid one', async () => {
    await rt.fleet.refresh({ force: true });
    const id = siteIds()[1]!;
    const [system] = rt.fleet.systemsOf(id);
    await rt.fleet.call(id, system, 'PUT /settings/authentication', { body: { EnableMultifactorAuthentication: true } });
    sim.control.expireTokens(1);
    const statuses = await rt.fleet.refresh({ siteIds: [id], force: true });
    const locked = statuses.find((s) => s.system === system);
    expect(locked?.state).toBe('login-required');
    expect(locked?.lastError).toMatch(/two-factor/);
    const { code } = sim.control.totpSecret(1, sim.manifest.sites[1]!.username);
    await rt.fleet.login(id, { code });
    const after = await rt.fleet.refresh({ siteIds: [id], systems: [system!], force: true });
    expect(after.find((s) => s.system === system)?.state).toBe('ok');
    await rt.fleet.call(id, system, 'PUT /settings/authentication', { body: { EnableMultifactorAuthentication: false } });
  });

  it('records writes in the action log with secrets redacted, and never resends a write that timed out', async () => {
    await rt.fleet.refresh({ force: true });
    const id = siteIds()[0]!;
    const [system] = rt.fleet.systemsOf(id);
    const chap = 'MARKER-CHAP-91b2';
    await rt.fleet.call(id, system, 'POST /hosts/create', { body: { Name: 'audit-host', Iqn: 'iqn.2026-01.io.fleetdeck:audit', ChapSecret: chap } });
    const last = rt.actionLog.list({ siteId: id }).at(-1);
    expect(last).toMatchObject({ operation: 'POST /hosts/create', system, result: 'ok' });
    expect(JSON.stringify(last?.params)).toContain('audit-host');
    expect(JSON.stringify(last?.params)).not.toContain(chap);

    sim.control.setFaults(0, { latencyMs: 1200 });
    const err = await rt.fleet
      .call(id, system, 'POST /hosts/create', { body: { Name: 'slow-host', Iqn: 'iqn.2026-01.io.fleetdeck:slow' }, timeoutMs: 300 })
      .catch((e: unknown) => e);
    // The create timed out on our side but reached the system: a list, not a resend, tells.
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as Error).message).toMatch(/timed out but a list shows it was applied/);
    sim.control.setFaults(0, { latencyMs: 0 });
    const hosts = await rt.fleet.call(id, system, 'GET /hosts/list', { query: { name: 'slow-host' } });
    // Sent once: the server applied it once, and the client did not repeat it.
    expect(hosts.Data).toHaveLength(1);
    expect(rt.actionLog.list({ siteId: id }).at(-1)).toMatchObject({ operation: 'POST /hosts/create', result: 'unknown', message: expect.stringMatching(/timed out but a list shows it was applied/) });
    expect(rt.actionLog.verify().ok).toBe(true);
  });

  it('does not contact a paused site', async () => {
    const id = siteIds()[0]!;
    await rt.fleet.setPaused(id, true);
    const before = sim.control.status()[0]!.requests;
    const statuses = await rt.fleet.refresh({ siteIds: [id], force: true });
    for (const s of statuses) expect(s.state).toBe('paused');
    expect(sim.control.status()[0]!.requests).toBe(before);
    await rt.fleet.setPaused(id, false);
  });

  it('leaves no password, token or write secret anywhere in the data directory', async () => {
    await rt.fleet.refresh({ force: true });
    const tokens = await Promise.all((await rt.secrets.accounts('site/')).filter((a) => a.endsWith('/token')).map((a) => rt.secrets.get(a)));
    const markers = [PASSWORD, 'MARKER-CHAP-91b2', ...tokens.filter((t): t is string => Boolean(t))];
    expect(markers.length).toBeGreaterThan(3);
    rt.db.pragma('wal_checkpoint(TRUNCATE)');
    expectAbsent(dir, markers);
  });
});

describe('TLS trust on first use and pin changes', () => {
  // No site yet: the test adds it, confirming the fingerprint as the admin would.
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 2, tls: true, seed: 'tls-tests' }, runtime: { timeoutMs: 3000 }, sites: 0, prefix: 'fd-tls-' });
  let sim: SimulatorHandle;
  let rt: Runtime;

  beforeAll(async () => {
    ({ sim, rt } = world);
  });

  it('shows the fingerprint for confirmation, pins it, blocks on a change until the new one is confirmed', async () => {
    const m = sim.manifest.sites[0]!;
    const input = { name: 'secure', baseUrl: m.baseUrl, username: m.username, password: m.password };
    const unconfirmed = await rt.fleet.addSite(input).catch((e: unknown) => e);
    expect(unconfirmed).toBeInstanceOf(CertificateError);
    expect((unconfirmed as CertificateError).presentedSha256).toBe(m.certSha256);
    expect(rt.sites.list()).toHaveLength(0);
    await expect(rt.fleet.addSite({ ...input, trustSha256: 'ab'.repeat(32) })).rejects.toThrow(/not the fingerprint given/);

    const site = await rt.fleet.addSite({ ...input, trustSha256: m.certSha256 });
    expect(site.tls.pinSha256).toBe(m.certSha256);
    for (const s of await rt.fleet.refresh({ force: true })) expect(s.state).toBe('ok');

    const rotated = await sim.control.rotateCertificate(0);
    const blocked = await rt.fleet.refresh({ force: true });
    for (const s of blocked) {
      expect(s.state).toBe('certificate-changed');
      expect(s.lastError).toMatch(/certificate/);
    }
    await expect(rt.fleet.trust(site.id, m.certSha256)).rejects.toThrow(CertificateError);
    await rt.fleet.trust(site.id, rotated);
    for (const s of await rt.fleet.refresh({ force: true })) expect(s.state).toBe('ok');
  });
});
