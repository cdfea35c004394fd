import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CertificateError } from '../../../main/client/index.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import { passwordAccount, sitePrefix } from '../../../main/secrets/accounts.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { json, RecordingServer, type Responder } from '../../support/recording-server.js';
import { testCa } from '../../support/tls-cert.js';
import { tempDataDir, useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-MOVED-PASSWORD-51c9';

const sha256Of = (pem: string): string => new X509Certificate(pem).fingerprint256.replace(/:/g, '').toLowerCase();

/**
 * A listener as an attacker would run it: it asks for a login (401 to any token but its own), so a
 * client that still holds the site's password sends it.
 */
const attacker: Responder = (req, res) => {
  if (req.url.endsWith('/login')) return json(res, 200, { SessionToken: 'attacker-token', Status: 'Ok', UserEmailAddress: '', Details: '' });
  if (req.headers.authorization !== 'Bearer attacker-token') return json(res, 401, 'Invalid or expired session token.');
  return json(res, 200, { Data: [{ Name: 'trap' }] });
};

describe('moving a site or changing its trust', () => {
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 2, seed: 'site-trust', password: PASSWORD, tls: true }, runtime: { timeoutMs: 5000 }, fresh: 'test', prefix: 'fd-trust-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let listener: RecordingServer;
  let listenerUrl: string;
  let siteId: string;

  const ipc = (channel: string, payload: unknown) => dispatch(rt.handlers, channel, payload);

  beforeAll(async () => {
    listener = new RecordingServer();
    listener.responder = attacker;
    listenerUrl = await listener.start();
  });
  afterAll(async () => {
    await listener.close();
  });

  beforeEach(async () => {
    ({ sim, rt } = world);
    siteId = world.siteIds[0]!;
    const statuses = await rt.fleet.refresh({ force: true });
    expect(statuses.map((st) => st.state)).toEqual(['ok', 'ok']);
    listener.requests.length = 0;
  });

  it('a pinned https site moved to a local http listener sends that listener nothing it stored: no token, no password', async () => {
    const moved = await ipc('sites:edit', { site: siteId, patch: { baseUrl: `${listenerUrl}/x` } });
    const afterEdit = rt.fleet.status(siteId);
    await ipc('fleet:refresh', { force: true });
    // The attack: the stored token, then the stored password, went to whoever listened there.
    expect(JSON.stringify(listener.requests)).not.toContain(PASSWORD);
    expect(listener.requests.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
    expect(listener.requests).toEqual([]);

    expect(moved).toMatchObject({ ok: true, value: { baseUrl: `${listenerUrl}/x`, tls: { hasCaBundle: false } } });
    expect((moved as { value: { tls: { pinSha256?: string } } }).value.tls.pinSha256).toBeUndefined();
    for (const st of afterEdit) expect(st).toMatchObject({ state: 'login-required', lastError: expect.stringMatching(/moved to .*log in again/) });
    expect(await rt.secrets.get(passwordAccount(siteId))).toBeNull();
    for (const st of rt.fleet.status(siteId)) expect(st).toMatchObject({ state: 'login-required', lastError: expect.stringMatching(/no password stored/) });
  });

  it('refuses to move an https site to plain http on another host, whatever allowHttp says', async () => {
    const before = rt.sites.get(siteId);
    const refused = await ipc('sites:edit', { site: siteId, patch: { baseUrl: 'http://192.0.2.10:8080', allowHttp: true } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringMatching(/from https to plain http/) } });
    expect(rt.sites.get(siteId)).toEqual(before);
    expect(await rt.secrets.get(passwordAccount(siteId))).toBe(PASSWORD);
  });

  it('a site moved to another https URL asks for its certificate, then its password, before sending anything', async () => {
    const s = sim.manifest.sites[0]!;
    const other = s.baseUrl.replace('127.0.0.1', 'localhost');
    const requestsBefore = sim.control.status()[0]!.requests;
    await ipc('sites:edit', { site: siteId, patch: { baseUrl: other } });
    await ipc('fleet:refresh', { force: true });
    expect(sim.control.status()[0]!.requests).toBe(requestsBefore);
    for (const st of rt.fleet.status(siteId)) expect(st.state).toBe('certificate-changed');

    expect(await ipc('sites:trust', { site: siteId, sha256: s.certSha256 })).toMatchObject({ ok: true });
    await ipc('fleet:refresh', { force: true });
    for (const st of rt.fleet.status(siteId)) expect(st.state).toBe('login-required');
    expect(await ipc('session:login', { site: siteId, password: PASSWORD })).toEqual({ ok: true, value: { ok: true, loggedIn: s.systems, needCode: [] } });
    await ipc('fleet:refresh', { force: true });
    for (const st of rt.fleet.status(siteId)) expect(st.state).toBe('ok');
  });

  it('turning off the pin forgets the password and the sessions', async () => {
    expect((await rt.secrets.accounts(sitePrefix(siteId))).length).toBeGreaterThan(1);
    await rt.fleet.editSite(siteId, { tls: {} });
    expect(await rt.secrets.accounts(sitePrefix(siteId))).toEqual([]);
    for (const st of rt.fleet.status(siteId)) expect(st.state).toBe('certificate-changed');
  });

  it('a site added as HTTPS:// is stored as https:// and keeps its pin', async () => {
    const s = sim.manifest.sites[0]!;
    const upper = s.baseUrl.replace('https://', 'HTTPS://').replace('127.0.0.1', 'LOCALHOST');
    const site = await rt.fleet.addSite({ name: 'upper', baseUrl: upper, username: s.username, password: PASSWORD, trustSha256: s.certSha256 });
    expect(site.baseUrl).toBe(s.baseUrl.replace('127.0.0.1', 'localhost'));
    expect(site.tls.pinSha256).toBe(s.certSha256);
    await rt.fleet.refresh({ siteIds: [site.id], force: true });
    for (const st of rt.fleet.status(site.id)) expect(st.state).toBe('ok');
  });
});

describe('a pinned certificate issued by a CA', () => {
  let ca: Awaited<ReturnType<typeof testCa>>;
  let leafA: { key: string; cert: string };
  let leafB: { key: string; cert: string };
  let server: RecordingServer;
  let url: string;
  let rt: Runtime;
  let data: { dir: string; remove: () => void };

  beforeAll(async () => {
    ca = await testCa();
    leafA = await ca.issue();
    leafB = await ca.issue();
    server = new RecordingServer({ tls: leafA });
    server.responder = (req, res) => {
      if (req.url.endsWith('/login')) return json(res, 200, { SessionToken: 'tok-ca', Status: 'Ok', UserEmailAddress: '', Details: '' });
      return json(res, 200, { Data: [{ Name: 'alpha' }] });
    };
    url = await server.start();
    data = tempDataDir('fd-ca-');
    rt = await openRuntime({ dataDir: data.dir, memorySecrets: true, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await rt.close();
    await server.close();
    data.remove();
  });

  it('keeps the site usable (the leaf is no trust root of its own) and refuses another leaf of the same CA', async () => {
    server.setCertificate(leafA);
    const pinned = await rt.fleet.addSite({ name: 'ca-pinned', baseUrl: url, username: 'admin', password: PASSWORD, trustSha256: sha256Of(leafA.cert) });
    const withBundle = await rt.fleet.addSite({ name: 'ca-bundle', baseUrl: url.replace('127.0.0.1', 'localhost'), username: 'admin', password: PASSWORD, trustSha256: sha256Of(leafA.cert), caBundlePem: ca.caCert });
    for (const site of [pinned, withBundle]) {
      expect(await rt.fleet.call(site.id, undefined, 'GET /systems/list'), site.name).toEqual({ Systems: [{ Name: 'alpha' }] });
    }

    server.setCertificate(leafB);
    const loginsBefore = server.requests.filter((r) => r.url.endsWith('/login')).length;
    for (const site of [pinned, withBundle]) {
      await rt.fleet.logout(site.id);
      const err = await rt.fleet.call(site.id, undefined, 'GET /systems/list').catch((e: unknown) => e);
      expect(err, site.name).toBeInstanceOf(CertificateError);
      expect((err as CertificateError).presentedSha256).toBe(sha256Of(leafB.cert));
    }
    // The password never went to the other certificate, however well it was signed.
    expect(server.requests.filter((r) => r.url.endsWith('/login')).length).toBe(loginsBefore);
  });
});
