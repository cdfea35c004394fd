import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, AuthError, CertificateError, UnreachableError, probeCertificate } from '../../../main/client/index.js';
import { startSimulator } from '../../../simulator/index.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { totp } from '../../../simulator/totp.js';
import { harness, raw, rejection } from './support.js';
import type { Harness } from './support.js';

async function control(base: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await request(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.statusCode, json: await res.body.json() };
}

describe('fault injection', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 2, systems: 1, controlServer: true });
  });
  afterAll(async () => h.close());

  it('adds latency and jitter per site', async () => {
    h.sim.control.setFaults(0, { latencyMs: 150, jitterMs: 50 });
    try {
      h.waits.length = 0;
      await h.call('GET /Version');
      // 150 ms plus up to 50 ms of jitter, on this site's request only.
      expect(h.waits).toHaveLength(1);
      expect(h.waits[0]).toBeGreaterThanOrEqual(150);
      expect(h.waits[0]).toBeLessThan(200);
      const other = await raw(h.sim.manifest.sites[1]!.baseUrl, 'POST', '/login', { body: '{"Username":"admin","Password":"fleetdeck-demo"}' });
      expect(other.status).toBe(200);
      expect(h.waits, 'the other site is not slowed').toHaveLength(1);
    } finally {
      h.sim.control.setFaults(0, { latencyMs: 0, jitterMs: 0 });
    }
    const short = new ApiClient({ baseUrl: h.baseUrl, timeoutMs: 100 });
    h.sim.control.setFaults(0, { latencyMs: 400 });
    try {
      await expect(short.call('GET /Version', { token: h.token })).rejects.toThrow(UnreachableError);
    } finally {
      h.sim.control.setFaults(0, { latencyMs: 0 });
      await short.close();
    }
  });

  it('fails a share of requests with a 400 string or a reset, as configured', async () => {
    h.sim.control.setFaults(0, { errorRate: 1, errorMode: 'status' });
    const err = await rejection(h.call('GET /Version'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toMatch(/Simulated fault/);
    h.sim.control.setFaults(0, { errorRate: 1, errorMode: 'reset' });
    await expect(h.call('GET /Version')).rejects.toThrow(UnreachableError);
    h.sim.control.setFaults(0, { errorRate: 0.5, errorMode: 'status' });
    let failed = 0;
    for (let i = 0; i < 60; i++) failed += (await raw(h.baseUrl, 'GET', '/Version', { token: h.token })).status === 400 ? 1 : 0;
    h.sim.control.setFaults(0, { errorRate: 0 });
    expect(failed).toBeGreaterThan(10);
    expect(failed).toBeLessThan(50);
    expect(() => h.sim.control.setFaults(0, { errorRate: 2 })).toThrow(RangeError);
  });

  it('resets the next connections on request', async () => {
    h.sim.control.resetConnections(0, 2);
    // Open connections were dropped too: a client with no pooled socket counts exactly the next two.
    const fresh = new ApiClient({ baseUrl: h.baseUrl });
    try {
      await expect(fresh.call('GET /Version', { token: h.token })).rejects.toThrow(UnreachableError);
      await expect(fresh.call('GET /Version', { token: h.token })).rejects.toThrow(UnreachableError);
      await fresh.call('GET /Version', { token: h.token });
    } finally {
      await fresh.close();
    }
  });

  it('takes a site down and brings it back on the same port', async () => {
    const site = h.sim.sites[0]!;
    const port = site.port;
    await site.stop();
    expect(site.running).toBe(false);
    const down = await rejection(h.call('GET /Version'));
    expect(down).toBeInstanceOf(UnreachableError);
    expect((down as UnreachableError).reason).toBe('ECONNREFUSED');
    await site.start();
    expect(site.port).toBe(port);
    await h.call('GET /Version');
    expect(h.sim.control.status()[0]?.up).toBe(true);
  });

  it('serves the same hooks over the control server', async () => {
    const base = h.sim.manifest.control;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await control(base, 'GET', '/status')).json).toMatchObject([{ index: 0, up: true }, { index: 1, up: true }]);
    expect((await control(base, 'POST', `/sites/${h.sim.manifest.sites[1]!.name}/faults`, { latencyMs: 5 })).json).toMatchObject({ latencyMs: 5, errorRate: 0 });
    expect((await control(base, 'POST', '/sites/1/faults', { errorRate: 'x' })).status).toBe(400);
    const before = h.sim.clock.now();
    expect((await control(base, 'POST', '/clock/advance', { seconds: 60 })).json).toEqual({ nowMs: before + 60_000 });
    const t = (await control(base, 'GET', '/sites/0/users/admin/totp')).json as { secret: string; code: string };
    expect(t.code).toBe(totp(t.secret, h.sim.clock.now()));
    expect((await control(base, 'POST', '/sites/0/down')).json).toEqual({ up: false });
    await expect(h.call('GET /Version')).rejects.toThrow(UnreachableError);
    expect((await control(base, 'POST', '/sites/0/up')).json).toEqual({ up: true });
    const failed = (await control(base, 'POST', '/sites/0/fail-drive', {})).json as { driveId: number };
    expect(failed.driveId).toBeGreaterThan(0);
    expect((await control(base, 'POST', '/sites/0/expire-tokens')).json).toMatchObject({ expired: expect.any(Number) });
    await expect(h.call('GET /Version')).rejects.toThrow(AuthError);
    expect((await control(base, 'GET', '/manifest')).json).toEqual(h.sim.manifest);
    expect((await control(base, 'GET', '/nope')).status).toBe(404);
  });
});

describe('TLS', () => {
  let h: SimulatorHandle;
  beforeAll(async () => {
    h = await startSimulator({ sites: 1, systems: 1, tls: true, controlServer: false });
  });
  afterAll(async () => h.close());

  it('serves a self-signed certificate whose SHA-256 is in the manifest, and rotates it on the same port', async () => {
    const site = h.manifest.sites[0]!;
    expect(site.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(site.certSha256).toMatch(/^[0-9a-f]{64}$/);
    const presented = await probeCertificate(site.baseUrl);
    expect(presented.sha256).toBe(site.certSha256);
    expect(presented.subject).toMatch(/CN=127\.0\.0\.1/);
    const pinned = new ApiClient({ baseUrl: site.baseUrl, tls: { ca: presented.pem, pinSha256: presented.sha256 } });
    const token = (await pinned.login({ Username: site.username, Password: site.password })).SessionToken as string;
    await pinned.call('GET /Version', { token });

    const port = h.sites[0]!.port;
    const next = await h.control.rotateCertificate(0);
    expect(next).not.toBe(site.certSha256);
    expect(h.manifest.sites[0]?.certSha256).toBe(next);
    expect(h.sites[0]!.port).toBe(port);
    // Rotation drops open connections: a client pinned the same way, with no pooled socket, meets the new certificate.
    await pinned.close();
    const stillPinned = new ApiClient({ baseUrl: site.baseUrl, tls: { ca: presented.pem, pinSha256: presented.sha256 } });
    await expect(stillPinned.call('GET /Version', { token })).rejects.toThrow(CertificateError);
    await stillPinned.close();
    const again = await probeCertificate(site.baseUrl);
    expect(again.sha256).toBe(next);
    const repinned = new ApiClient({ baseUrl: site.baseUrl, tls: { ca: again.pem, pinSha256: again.sha256 } });
    await repinned.call('GET /Version', { token });
    await repinned.close();
  });
});
