import type { SystemStatus } from '../../app/domain/site.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READ_RETRY } from '../../main/core/retry.js';
import { openRuntime, type Runtime } from '../../main/runtime.js';
import { startSimulator, type SimulatorHandle } from '../../simulator/index.js';
import { sleep, tempDir, timeRequests, until, type TimedRequest } from './support.js';

/**
 * The fault matrix: one site (the victim) gets a fault from the simulator's fault injection while
 * a full refresh runs; every system must end in the state that describes it, with a message that
 * says why, no HTTP request may outlive its timeout, and the other sites must not notice.
 */

const TIMEOUT_MS = 1000;
/** Scheduling slack on a loaded 2-core CI machine: timers fire late, never early. */
const SLACK_MS = 400;
/** Worst case of one read: every attempt times out, with the longest backoff between attempts. */
const READ_BUDGET_MS = (READ_RETRY.retries + 1) * TIMEOUT_MS + [1, 2].reduce((sum, a) => sum + Math.min(READ_RETRY.maxDelayMs, READ_RETRY.baseDelayMs * 2 ** (a - 1)), 0);
const SYSTEMS = 2;

describe('fault matrix: each system ends in the right state, bounded in time, others unaffected', () => {
  let sim: SimulatorHandle;
  let rt: Runtime;
  let data: { dir: string; remove: () => void };
  let probe: ReturnType<typeof timeRequests>;
  const okAt = new Map<string, number>();
  let started = 0;
  const victimId = (): string => rt.sites.list()[0]!.id;
  const victimOrigin = (): string => new URL(sim.sites[0]!.baseUrl).origin;

  beforeAll(async () => {
    sim = await startSimulator({ sites: 3, systems: SYSTEMS, seed: 'reliability-faults', tls: true, controlServer: false });
    data = tempDir('fd-faults-');
    rt = await openRuntime({ dataDir: data.dir, memorySecrets: true, timeoutMs: TIMEOUT_MS });
    for (const s of sim.manifest.sites) {
      await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password, trustSha256: s.certSha256 });
    }
    rt.fleet.on((e) => {
      if (e.type === 'status' && e.status.state === 'ok') okAt.set(`${e.status.siteId}/${e.status.system}`, performance.now() - started);
    });
    probe = timeRequests();
    // A clean first refresh: every later case starts from systems that were ok.
    for (const s of await rt.fleet.refresh({ force: true })) expect(s.state, `${s.system}: ${s.lastError}`).toBe('ok');
  }, 60_000);

  afterAll(async () => {
    probe.restore();
    await rt.close();
    await sim.close();
    data.remove();
  });

  afterEach(async () => {
    for (const s of sim.sites) {
      if (!s.running) await s.start();
      sim.control.setFaults(s.index, { latencyMs: 0, jitterMs: 0, errorRate: 0, errorMode: 'status' });
      sim.control.resetConnections(s.index, 0);
    }
    // Recovery: once the fault is gone, one forced refresh brings every system back.
    const recovered = await rt.fleet.refresh({ force: true });
    for (const s of recovered) expect(s.state, `recovery of ${s.system}: ${s.lastError}`).toBe('ok');
  });

  interface Outcome {
    victim: SystemStatus[];
    healthy: SystemStatus[];
    elapsedMs: number;
    requests: TimedRequest[];
  }

  /** Runs one forced refresh of the fleet with `during` running alongside; then lets the fleet settle. */
  async function refreshUnderFault(during?: () => Promise<void>): Promise<Outcome> {
    okAt.clear();
    const first = probe.records.length;
    started = performance.now();
    const [statuses] = await Promise.all([rt.fleet.refresh({ force: true }), during?.()]);
    const elapsedMs = performance.now() - started;
    // Requests abandoned by a failed system must not change its state after the refresh returned.
    await until(() => sim.control.status().every((s) => s.inFlight === 0), () => JSON.stringify(sim.control.status().map((s) => s.inFlight)));
    await sleep(100);
    const settled = rt.fleet.status();
    for (const s of statuses) {
      const now = settled.find((x) => x.siteId === s.siteId && x.system === s.system);
      expect(now?.state, `${s.system} changed after the refresh returned`).toBe(s.state);
    }
    const requests = probe.records.slice(first);
    const slowest = Math.max(...requests.map((r) => r.ms));
    // Measured, not assumed: no request outlived its timeout (plus scheduling slack).
    expect(slowest, `slowest request ${slowest.toFixed(0)} ms`).toBeLessThanOrEqual(TIMEOUT_MS + SLACK_MS);
    const id = victimId();
    const victim = settled.filter((s) => s.siteId === id);
    const healthy = settled.filter((s) => s.siteId !== id);
    expect(victim).toHaveLength(SYSTEMS);
    expect(healthy).toHaveLength(2 * SYSTEMS);
    for (const s of healthy) {
      expect(s.state, `healthy ${s.system}: ${s.lastError}`).toBe('ok');
      // The victim holds at most its own per-endpoint slots: the others finish as fast as usual.
      expect(okAt.get(`${s.siteId}/${s.system}`), `healthy ${s.system} finished`).toBeLessThan(5_000);
    }
    console.info(
      `fault case: refresh ${elapsedMs.toFixed(0)} ms, ${requests.length} requests, slowest ${slowest.toFixed(0)} ms, victim ${victim.map((s) => `${s.system}=${s.state}`).join(' ')}`,
    );
    return { victim, healthy, elapsedMs, requests };
  }

  const victimRequests = (o: Outcome): TimedRequest[] => o.requests.filter((r) => r.origin === victimOrigin());

  it('a latency spike past the timeout is absorbed by retries: every system ok', async () => {
    const o = await refreshUnderFault(async () => {
      await sleep(30);
      sim.control.setFaults(0, { latencyMs: 1500 });
      await sleep(300);
      sim.control.setFaults(0, { latencyMs: 0 });
    });
    const timedOut = victimRequests(o).filter((r) => /no answer within 1000 ms/.test(r.error ?? ''));
    // The spike really hit requests (else this case proves nothing), and none of them outlived the timeout.
    expect(timedOut.length).toBeGreaterThan(0);
    for (const s of o.victim) expect(s.state, `${s.system}: ${s.lastError}`).toBe('ok');
  });

  it('sustained latency past the timeout: unreachable after bounded retries, and a call gives up in time', async () => {
    sim.control.setFaults(0, { latencyMs: 1500 });
    const o = await refreshUnderFault();
    // Each request gives up after 1000 ms; the call as a whole (retries included) after 2000 ms.
    const gaveUp = /no answer within (1000 ms|2000 ms, the limit for the whole of it)/;
    for (const s of o.victim) {
      expect(s.state).toBe('unreachable');
      expect(s.lastError).toMatch(gaveUp);
      expect(s.lastSuccessAt, 'the last good data stays available').toBeDefined();
    }
    // Listing the site's systems is one read: three attempts at most, then the whole site is marked.
    expect(o.elapsedMs).toBeLessThan(READ_BUDGET_MS + SLACK_MS * 3);
    const [system] = rt.fleet.systemsOf(victimId());
    const t = performance.now();
    await expect(rt.fleet.call(victimId(), system, 'GET /hosts/list')).rejects.toThrow(gaveUp);
    expect(performance.now() - t).toBeLessThan(READ_BUDGET_MS + SLACK_MS * 3);
    const cached = rt.fleet.cached(victimId(), system!, 'GET /Version');
    expect(cached?.stale).toBe(true);
  });

  it('connection resets on the login that starts a refresh are retried: every system ok', async () => {
    // Without session tokens the first request of the refresh is the site's login (the password stays stored).
    await rt.fleet.logout(victimId());
    sim.control.resetConnections(0, 2);
    // The client learns of the dropped keep-alive sockets first; then exactly the next two requests are reset.
    await sleep(100);
    const o = await refreshUnderFault();
    const reset = victimRequests(o).filter((r) => /connection reset|other side closed|socket/i.test(r.error ?? ''));
    expect(reset.map((r) => r.op)).toEqual(['POST /login', 'POST /login']);
    for (const s of o.victim) expect(s.state, `${s.system}: ${s.lastError}`).toBe('ok');
  });

  it('random connection resets: each system ok or unreachable saying the connection was reset', async () => {
    sim.control.setFaults(0, { errorRate: 0.2, errorMode: 'reset' });
    const o = await refreshUnderFault();
    expect(victimRequests(o).some((r) => r.error !== undefined)).toBe(true);
    for (const s of o.victim) {
      expect(['ok', 'unreachable']).toContain(s.state);
      if (s.state !== 'ok') expect(s.lastError).toMatch(/connection reset|other side closed|socket/i);
    }
  });

  it('an error rate: reads that failed are named, the system is stale, never falsely ok', async () => {
    sim.control.setFaults(0, { errorRate: 0.15, errorMode: 'status' });
    const o = await refreshUnderFault();
    const failed = victimRequests(o).filter((r) => /Simulated fault/.test(r.error ?? ''));
    expect(failed.length).toBeGreaterThan(0);
    for (const s of o.victim) {
      expect(s.state).toBe('stale');
      expect(s.lastError).toMatch(/Simulated fault: the service is temporarily unavailable/);
    }
  });

  it('tokens expiring in the middle of a refresh: silent re-login, every system ok', async () => {
    sim.control.setFaults(0, { latencyMs: 20 });
    const before = sim.control.status()[0]!.requests;
    let expired = 0;
    const o = await refreshUnderFault(async () => {
      await until(() => sim.control.status()[0]!.requests - before > 30, () => 'the victim to be mid-refresh');
      expired = sim.control.expireTokens(0);
    });
    expect(expired, 'sessions existed when they were expired').toBeGreaterThan(0);
    expect(victimRequests(o).some((r) => /Invalid or expired session token/.test(r.error ?? ''))).toBe(true);
    for (const s of o.victim) expect(s.state, `${s.system}: ${s.lastError}`).toBe('ok');
  });

  it('a site going down mid-refresh: its systems unreachable quickly, cached data kept', async () => {
    sim.control.setFaults(0, { latencyMs: 20 });
    const before = sim.control.status()[0]!.requests;
    const o = await refreshUnderFault(async () => {
      await until(() => sim.control.status()[0]!.requests - before > 20, () => 'the victim to be mid-refresh');
      await sim.sites[0]!.stop();
    });
    for (const s of o.victim) {
      expect(s.state).toBe('unreachable');
      expect(s.lastError).toMatch(/connection refused|connection reset|other side closed/);
    }
    // Refused connections fail at once: the retries' backoff is all the waiting there is.
    expect(o.elapsedMs).toBeLessThan(READ_BUDGET_MS);
  });

  it('a changed certificate: blocked as certificate-changed until the new fingerprint is confirmed', async () => {
    const rotated = await sim.control.rotateCertificate(0);
    const o = await refreshUnderFault();
    for (const s of o.victim) {
      expect(s.state).toBe('certificate-changed');
      expect(s.lastError).toMatch(/certificate/);
      expect(s.lastError).toMatch(/fingerprint/);
    }
    expect(victimRequests(o).every((r) => r.op === 'POST /login' || r.op === 'GET /systems/list')).toBe(true);
    await rt.fleet.trust(victimId(), rotated);
  });
});
