import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteView } from '../../../app/ipc/contract.js';
import { runCli } from '../../../main/cli/main.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import type { Runtime } from '../../../main/runtime.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { siteInput, useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-EXPIRED-PASSWORD-2c8d';

/**
 * Real systems ship self-signed certificates that outlive their dates: pinned, such a certificate is
 * trusted by its pin, and the site says it expired; a changed certificate still blocks until trusted.
 */
describe('an expired self-signed certificate, pinned (dialect expired-cert)', () => {
  // No site yet: the first test adds it, as the admin would.
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 2, seed: 'expired-cert', password: PASSWORD, tls: true, dialects: ['expired-cert'] }, runtime: { timeoutMs: 5000 }, sites: 0, prefix: 'fd-expired-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let dir: string;
  let siteId: string;
  const ipc = (channel: string, payload: unknown) => dispatch(rt.handlers, channel, payload);
  const siteView = async (): Promise<SiteView> => ((await ipc('sites:list', {})) as { ok: true; value: SiteView[] }).value[0]!;
  const cli = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli([...args, '--data-dir', dir], { stdout: (t) => out.push(t), stderr: (t) => err.push(t), readStdin: async () => '', env: { FLEETDECK_KEYCHAIN: 'memory' } });
    return { code, stdout: out.join(''), stderr: err.join('') };
  };

  beforeAll(async () => {
    ({ sim, rt, dir } = world);
  });

  it('is added by its fingerprint and every system refreshes to ok, the site saying since when it expired', async () => {
    const s = sim.manifest.sites[0]!;
    siteId = (await rt.fleet.addSite(siteInput(s))).id;
    const statuses = await rt.fleet.refresh({ force: true });
    expect(statuses.map((st) => [st.state, st.lastError])).toEqual([
      ['ok', undefined],
      ['ok', undefined],
    ]);
    const view = await siteView();
    const pem = rt.sites.get(siteId)!.tls.pinnedCertPem!;
    const validTo = new Date(new X509Certificate(pem).validTo).toISOString();
    expect(view.tls).toMatchObject({ pinSha256: s.certSha256, validTo, expiredSince: validTo });
    expect(Date.parse(validTo)).toBeLessThan(Date.now());
  });

  it('says so in "fleetdeck site list" and "fleetdeck refresh"', async () => {
    const list = await cli('site', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/warning: certificate expired since \d{4}-\d\d-\d\d \d\d:\d\d UTC: still trusted by its pinned fingerprint/);
    const json = await cli('site', 'list', '--json');
    expect(JSON.parse(json.stdout)[0].tls.expiredSince).toBe((await siteView()).tls.expiredSince);
    const refresh = await cli('refresh');
    expect(refresh.stdout).toMatch(new RegExp(`${sim.manifest.sites[0]!.name}\\twarning: certificate expired since`));
  });

  it('a changed certificate, even as expired, still blocks until it is trusted; trusting it again works', async () => {
    const sha = await sim.control.rotateCertificate(0);
    const blocked = await rt.fleet.refresh({ force: true });
    for (const st of blocked) expect(st.state).toBe('certificate-changed');
    expect(await ipc('sites:trust', { site: siteId, sha256: sha })).toEqual({ ok: true, value: { sha256: sha } });
    expect((await rt.fleet.refresh({ force: true })).map((st) => st.state)).toEqual(['ok', 'ok']);
    expect((await siteView()).tls.expiredSince).toBeDefined();
  });

  it('a renewed certificate, once trusted, clears the warning', async () => {
    sim.control.setDialects([]);
    await sim.control.certificatesReady;
    for (const st of await rt.fleet.refresh({ force: true })) expect(st.state).toBe('certificate-changed');
    await ipc('sites:trust', { site: siteId, sha256: sim.manifest.sites[0]!.certSha256! });
    expect((await rt.fleet.refresh({ force: true })).map((st) => st.state)).toEqual(['ok', 'ok']);
    const view = await siteView();
    expect(view.tls.expiredSince).toBeUndefined();
    expect(Date.parse(view.tls.validTo!)).toBeGreaterThan(Date.now());
  });
});
