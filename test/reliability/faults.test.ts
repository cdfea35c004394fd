import type { SystemStatus } from '../../app/domain/site.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READ_RETRY } from '../../main/core/retry.js';
import { openRuntime, type Runtime } from '../../main/runtime.js';
import { startSimulator, type SimulatorHandle } from '../../simulator/index.js';
import { tempDir, timeRequests, until, watchSockets, type RequestProbe, type SocketProbe, type TimedRequest } from './support.js';

/**
 * The fault matrix: one site (the victim) gets a fault from the simulator's fault injection while
 * a full refresh runs; every system must end in the state that describes it, with a message that
 * says why, a request that gets no answer ends on its timeout, a read is tried a bounded number of
 * times, and the other sites must not notice. Nothing here is timed with a watch (the machine is
 * shared): the deadlines themselves are tested on a fake clock (test/unit/main/core/).
 */

/**
 * The request timeout: long enough that a request the shared machine merely delays (TLS handshakes
 * after a reset, a busy event loop) is not mistaken for one without an answer; the latency faults
 * are well past it.
 */
const TIMEOUT_MS = 2000;
/** A call's deadline, retries included: twice the request timeout. */
const CALL_MS = 2 * TIMEOUT_MS;
/** Latency of the faults that a request must not survive. */
const SLOW_MS = TIMEOUT_MS + 500;
/** Attempts of one read at most: the first and its retries. */
const READ_ATTEMPTS = READ_RETRY.retries + 1;
const SYSTEMS = 2;

describe('fault matrix: each system ends in the right state, bounded in time, others unaffected', () => {
  let sim: SimulatorHandle;
  let rt: Runtime;
  let data: { dir: string; remove: () => void };
  let probe: RequestProbe;
  let sockets: SocketProbe;
  const victimId = (): string => rt.sites.list()[0]!.id;
  const victimOrigin = (): string => new URL(sim.sites[0]!.baseUrl).origin;

  beforeAll(async () => {
    sim = await startSimulator({ sites: 3, systems: SYSTEMS, seed: 'reliability-faults', tls: true, controlServer: false });
    data = tempDir('fd-faults-');
    rt = await openRuntime({ dataDir: data.dir, memorySecrets: true, timeoutMs: TIMEOUT_MS });
    for (const s of sim.manifest.sites) {
      await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password, trustSha256: s.certSha256 });
    }
    probe = timeRequests();
    sockets = watchSockets();
    // A clean first refresh: every later case starts from systems that were ok.
    for (const s of await rt.fleet.refresh({ force: true })) expect(s.state, `${s.system}: ${s.lastError}`).toBe('ok');
  }, 60_000);

  afterAll(async () => {
    probe.restore();
    sockets.restore();
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
    requests: TimedRequest[];
  }

  /** Runs one forced refresh of the fleet with `during` running alongside; then lets the fleet settle. */
  async function refreshUnderFault(during?: () => Promise<void>): Promise<Outcome> {
    const first = probe.records.length;
    const [statuses] = await Promise.all([rt.fleet.refresh({ force: true }), during?.()]);
    // Requests abandoned by a failed system must not change its state after the refresh returned:
    // wait until every one of them has ended, on the simulator's side and on the client's.
    await until(() => sim.control.status().every((s) => s.inFlight === 0) && probe.running === 0, () => `in flight ${JSON.stringify(sim.control.status().map((s) => s.inFlight))}, client ${probe.running}`);
    const settled = rt.fleet.status();
    for (const s of statuses) {
      const now = settled.find((x) => x.siteId === s.siteId && x.system === s.system);
      expect(now?.state, `${s.system} changed after the refresh returned`).toBe(s.state);
    }
    const requests = probe.records.slice(first);
    // A request without an answer ended on its own timeout or on what was left of the call's
    // deadline (a retry late in the call gets less than a whole timeout), and says so.
    for (const r of requests) if (r.error && /no answer/.test(r.error)) expect(answerWaitMs(r.error), r.error).toBeLessThanOrEqual(CALL_MS);
    const id = victimId();
    const victim = settled.filter((s) => s.siteId === id);
    const healthy = settled.filter((s) => s.siteId !== id);
    expect(victim).toHaveLength(SYSTEMS);
    expect(healthy).toHaveLength(2 * SYSTEMS);
    // The victim holds at most its own per-endpoint slots: the other sites end ok.
    for (const s of healthy) expect(s.state, `healthy ${s.system}: ${s.lastError}`).toBe('ok');
    const slowest = Math.max(...requests.map((r) => r.ms));
    console.info(`fault case: ${requests.length} requests, slowest ${slowest.toFixed(0)} ms, victim ${victim.map((s) => `${s.system}=${s.state}`).join(' ')}`);
    return { victim, healthy, requests };
  }

  /** A request that gave up on its own timeout (not on what was left of its call's deadline). */
  const timedOutAlone = new RegExp(`no answer within ${TIMEOUT_MS} ms`);

  /** The wait a "no answer within N ms" error names; NaN (which fails any bound) if it names none. */
  const answerWaitMs = (error: string): number => Number(/no answer within (\d+) ms/.exec(error)?.[1] ?? Number.NaN);

  const victimRequests = (o: Outcome): TimedRequest[] => o.requests.filter((r) => r.origin === victimOrigin());

  it('a latency spike past the timeout is absorbed by retries: every system ok', async () => {
    sim.control.setFaults(0, { latencyMs: SLOW_MS });
    const o = await refreshUnderFault(async () => {
      // The spike ends as soon as it has made one request time out; the retry then gets through.
      await probe.next((r) => r.origin === victimOrigin() && timedOutAlone.test(r.error ?? ''));
      sim.control.setFaults(0, { latencyMs: 0 });
    });
    const timedOut = victimRequests(o).filter((r) => timedOutAlone.test(r.error ?? ''));
    // The spike really hit requests (else this case proves nothing), and none of them outlived the timeout.
    expect(timedOut.length).toBeGreaterThan(0);
    for (const s of o.victim) expect(s.state, `${s.system}: ${s.lastError}`).toBe('ok');
  });

  it('sustained latency past the timeout: unreachable after bounded retries, and a call gives up in time', async () => {
    sim.control.setFaults(0, { latencyMs: SLOW_MS });
    const o = await refreshUnderFault();
    // Each request gives up after its timeout, or after what is left of the call's deadline (retries
    // included) when that is less; the call as a whole at its deadline.
    const gaveUp = new RegExp(`no answer within (\\d+ ms$|${CALL_MS} ms, the limit for the whole of it)`);
    for (const s of o.victim) {
      expect(s.state).toBe('unreachable');
      expect(s.lastError).toMatch(gaveUp);
      expect(answerWaitMs(s.lastError ?? '')).toBeLessThanOrEqual(CALL_MS);
      expect(s.lastSuccessAt, 'the last good data stays available').toBeDefined();
    }
    // Listing the site's systems is one read: a bounded number of attempts, then the whole site is marked.
    const lists = victimRequests(o).filter((r) => r.op === 'GET /systems/list' || r.op === 'POST /login');
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.length).toBeLessThanOrEqual(READ_ATTEMPTS * 2);
    const [system] = rt.fleet.systemsOf(victimId());
    const before = probe.records.length;
    await expect(rt.fleet.call(victimId(), system, 'GET /hosts/list')).rejects.toThrow(gaveUp);
    expect(probe.records.slice(before).filter((r) => r.op === 'GET /hosts/list').length).toBeLessThanOrEqual(READ_ATTEMPTS);
    const cached = rt.fleet.cached(victimId(), system!, 'GET /Version');
    expect(cached?.stale).toBe(true);
  });

  it('connection resets on the login that starts a refresh are retried: every system ok', async () => {
    // Without session tokens the first request of the refresh is the site's login (the password stays stored).
    await rt.fleet.logout(victimId());
    sim.control.resetConnections(0, 2);
    // The client learns of the dropped keep-alive sockets first (else a request sent on one of them
    // fails too), then exactly the next two requests are reset: wait for the closes, not for a time.
    await until(() => sockets.open(victimOrigin()) === 0, () => `${sockets.open(victimOrigin())} connection(s) to the victim not yet seen closed`);
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
    // Refused connections fail at once: they are what the systems are unreachable for.
    expect(victimRequests(o).some((r) => /connection refused|connection reset|other side closed/.test(r.error ?? ''))).toBe(true);
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
