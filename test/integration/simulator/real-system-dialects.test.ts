import { createHash, X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, totp, type SimulatorHandle } from '../../../simulator/index.js';
import { harness, raw, type Harness } from './support.js';

/** The simulator's answers in the dialects of authentication, transport and TLS (what the client is tested against). */

async function rawLogin(baseUrl: string, body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  const r = await raw(baseUrl, 'POST', '/login', { body: JSON.stringify(body) });
  return { status: r.status, json: JSON.parse(r.text) as unknown };
}

describe('simulator dialects of authentication', () => {
  let h: Harness;
  const admin = (): { Username: string; Password: string } => ({ Username: h.sim.manifest.sites[0]!.username, Password: h.sim.manifest.sites[0]!.password });
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 2 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('raw-token: the token alone is the Authorization header, and "Bearer <token>" is an unknown token', async () => {
    h.sim.control.setDialects(['raw-token']);
    try {
      const bearer = await raw(h.baseUrl, 'GET', '/Version', { token: h.token });
      expect(bearer.status).toBe(401);
      expect(JSON.parse(bearer.text)).toBe('Invalid or expired session token.');
      const bare = await raw(h.baseUrl, 'GET', '/Version', { headers: { authorization: h.token } });
      expect(bare.status).toBe(200);
    } finally {
      h.sim.control.setDialects([]);
    }
  });

  it('numeric-status: Status 0 on success and 2 (with "two-step verification" words) when a code is needed', async () => {
    h.sim.control.setDialects(['numeric-status']);
    try {
      expect(await rawLogin(h.baseUrl, admin())).toMatchObject({ status: 200, json: { Status: 0, SessionToken: expect.any(String) } });
      h.sim.fleet.sites[0]!.multifactor = true;
      expect(await rawLogin(h.baseUrl, admin())).toMatchObject({ status: 200, json: { Status: 2, Details: expect.stringMatching(/Two-step verification/) } });
    } finally {
      h.sim.fleet.sites[0]!.multifactor = false;
      h.sim.control.setDialects([]);
    }
  });

  it('mfa-401: the second factor is asked for on a 401, and a code is accepted once', async () => {
    h.sim.control.setDialects(['mfa-401']);
    h.sim.fleet.sites[0]!.multifactor = true;
    try {
      const none = await rawLogin(h.baseUrl, admin());
      expect(none).toEqual({ status: 401, json: 'Multifactor authentication required: enter the one-time password (OTP) from your authenticator app.' });
      const { code } = h.sim.control.totpSecret(0, admin().Username);
      expect(await rawLogin(h.baseUrl, { ...admin(), TwoFactorAuthenticationToken: code })).toMatchObject({ status: 200, json: { Status: 'Ok' } });
      expect(await rawLogin(h.baseUrl, { ...admin(), TwoFactorAuthenticationToken: code })).toEqual({ status: 401, json: 'Invalid verification code.' });
      // The next step's code works.
      h.sim.control.advanceClock(30);
      const next = h.sim.control.totpSecret(0, admin().Username).code;
      expect(next).not.toBe(code);
      expect(await rawLogin(h.baseUrl, { ...admin(), TwoFactorAuthenticationToken: next })).toMatchObject({ status: 200 });
    } finally {
      h.sim.fleet.sites[0]!.multifactor = false;
      h.sim.control.setDialects([]);
    }
  });

  it('a code is still accepted twice without the dialect (the default reading)', async () => {
    h.sim.fleet.sites[0]!.multifactor = true;
    try {
      const code = totp(h.sim.fleet.sites[0]!.users[0]!.totpSecret, h.sim.clock.now());
      for (let i = 0; i < 2; i++) expect((await rawLogin(h.baseUrl, { ...admin(), TwoFactorAuthenticationToken: code })).status).toBe(200);
    } finally {
      h.sim.fleet.sites[0]!.multifactor = false;
    }
  });
});

describe('simulator dialects and faults of the transport', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 1 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('problem-details: a 400 is an application/problem+json object', async () => {
    h.sim.control.setDialects(['problem-details']);
    try {
      const r = await raw(h.baseUrl, 'GET', '/systems/select?name=nowhere', { token: h.token });
      expect(r.status).toBe(400);
      expect(r.contentType).toBe('application/problem+json; charset=utf-8');
      expect(JSON.parse(r.text)).toEqual({ type: expect.any(String), title: 'The request was refused.', status: 400, detail: "System 'nowhere' does not exist at this site." });
    } finally {
      h.sim.control.setDialects([]);
    }
  });

  it('compressed: br for SMART, deflate for lists, gzip for the rest, each with a byte order mark', async () => {
    h.sim.control.setDialects(['compressed']);
    try {
      const get = async (path: string): Promise<{ encoding: unknown; bytes: Buffer }> => {
        const res = await request(`${h.baseUrl}${path}`, { headers: { authorization: `Bearer ${h.token}` } });
        return { encoding: res.headers['content-encoding'], bytes: Buffer.from(await res.body.arrayBuffer()) };
      };
      const version = await get('/Version');
      expect(version.encoding).toBe('gzip');
      expect(gunzipSync(version.bytes).toString('utf8')).toMatch(/^\uFEFF\{"Versions"/);
      const hosts = await get('/hosts/list');
      expect(hosts.encoding).toBe('deflate');
      expect(inflateSync(hosts.bytes).toString('utf8')).toMatch(/^\uFEFF\{"Data"/);
      const drive = h.sim.fleet.sites[0]!.systems[0]!.nodes[0]!.drives[0]!;
      const smart = await get(`/resources/drives/smart?driveid=${drive.id}`);
      expect(smart.encoding).toBe('br');
      expect(brotliDecompressSync(smart.bytes).toString('utf8')).toMatch(/^\uFEFF"smartctl/);
    } finally {
      h.sim.control.setDialects([]);
    }
  });

  it('proxy-errors: the next N requests get an nginx HTML page with Retry-After (seconds or a date), never reaching the service', async () => {
    const sessions = h.sim.control.status()[0]!.sessions;
    h.sim.control.proxyErrors(0, 2, { status: 503, retryAfterSeconds: 7 });
    const first = await request(`${h.baseUrl}/login`, { method: 'POST', body: '{}' });
    expect(first.statusCode).toBe(503);
    expect(first.headers['retry-after']).toBe('7');
    expect(first.headers['content-type']).toBe('text/html');
    expect(await first.body.text()).toContain('<title>503 Service Unavailable</title>');
    h.sim.control.proxyErrors(0, 1, { status: 502, retryAfterSeconds: 5, date: true });
    const dated = await request(`${h.baseUrl}/Version`);
    expect(dated.statusCode).toBe(502);
    expect(Date.parse(String(dated.headers['retry-after']))).toBeGreaterThan(Date.now());
    await dated.body.dump();
    expect(h.sim.control.status()[0]!.pendingProxyErrors).toBe(0);
    expect((await raw(h.baseUrl, 'GET', '/Version', { token: h.token })).status).toBe(200);
    expect(h.sim.control.status()[0]!.sessions).toBe(sessions);
    expect(() => h.sim.control.proxyErrors(0, 1, { status: 418 })).toThrow(/status must be one of 429, 500, 502, 503, 504/);
  });

  it('redirectTo: every request is answered 307 to the URL given, until cleared', async () => {
    h.sim.control.setFaults(0, { redirectTo: 'https://portal.example.test/login' });
    try {
      const r = await request(`${h.baseUrl}/Version`);
      expect(r.statusCode).toBe(307);
      expect(r.headers.location).toBe('https://portal.example.test/login');
      await r.body.dump();
    } finally {
      h.sim.control.setFaults(0, { redirectTo: '' });
    }
    expect((await raw(h.baseUrl, 'GET', '/Version', { token: h.token })).status).toBe(200);
    expect(() => h.sim.control.setFaults(0, { redirectTo: 'ftp://x' })).toThrow(/redirectTo/);
  });

  it('slow-analyzer: the analyzer answers after its iterations have run', async () => {
    h.sim.control.setDialects(['slow-analyzer']);
    try {
      const drive = h.sim.fleet.sites[0]!.systems[0]!.nodes[0]!.drives.find((d) => d.approved === 'Approved' && d.status === 'OK')!;
      h.instantWaits = true;
      h.waits.length = 0;
      const r = await raw(h.baseUrl, 'GET', `/resources/drives/performance_analyzer?driveIds=${drive.id}&iterationTimeInSeconds=1`, { token: h.token });
      expect(r.status).toBe(200);
      // Four tests of one second each, one after another, before the answer.
      expect(h.waits).toEqual([4000]);
    } finally {
      h.instantWaits = false;
      h.sim.control.setDialects([]);
    }
  });
});

describe('simulator dialect expired-cert', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 1, tls: true, dialects: ['expired-cert'], controlServer: false });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const presented = (): Promise<X509Certificate> =>
    new Promise((resolve, reject) => {
      const url = new URL(sim.manifest.sites[0]!.baseUrl);
      const socket = tls.connect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false }, () => {
        const cert = new X509Certificate(socket.getPeerCertificate(false).raw);
        socket.end();
        resolve(cert);
      });
      socket.once('error', reject);
    });

  it('presents a self-signed certificate that expired a year ago, and a valid one once switched off', async () => {
    const expired = await presented();
    expect(Date.parse(expired.validTo)).toBeLessThan(Date.now() - 300 * 24 * 3600_000);
    expect(expired.issuer).toBe(expired.subject);
    expect(sim.manifest.sites[0]!.certSha256).toBe(createHash('sha256').update(expired.raw).digest('hex'));
    sim.control.setDialects([]);
    await sim.control.certificatesReady;
    const fresh = await presented();
    expect(Date.parse(fresh.validTo)).toBeGreaterThan(Date.now());
    expect(sim.manifest.sites[0]!.certSha256).toBe(createHash('sha256').update(fresh.raw).digest('hex'));
  });
});
