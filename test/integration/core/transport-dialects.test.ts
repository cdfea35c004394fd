import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, RedirectError, TransientHttpError } from '../../../main/client/index.js';
import { SYSTEM_TIMERS, type Timers } from '../../../main/core/deadline.js';
import { OutcomeUnknownError } from '../../../main/core/errors.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import type { Runtime } from '../../../main/runtime.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { RecordingServer } from '../../support/recording-server.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-TRANSPORT-PASSWORD-4d2a';

/**
 * The network between the desk and the system, against the simulator's faults and dialects: a proxy
 * answering its own HTML pages for a few requests, a redirect, compressed bodies with a byte order
 * mark, RFC 7807 problem details.
 */
describe('transport that survives what sits between the desk and the system', () => {
  let sim: SimulatorHandle;
  let rt: Runtime;
  let siteId: string;
  let system: string;
  /** Every timer the fleet set, in ms: its deadlines and its waits before retrying, on the real clock. */
  const waits: number[] = [];
  const timers: Timers = { now: () => SYSTEM_TIMERS.now(), setTimeout: (fire, ms) => (waits.push(ms), SYSTEM_TIMERS.setTimeout(fire, ms)), clearTimeout: (h) => SYSTEM_TIMERS.clearTimeout(h) };
  const requests = (): number => sim.control.status()[0]!.requests;
  const hosts = (): string[] => sim.fleet.sites[0]!.systems[0]!.hosts.map((h) => h.name);

  // Registered first, so the waits are cleared before each test's runtime opens.
  beforeEach(() => {
    waits.length = 0;
  });
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 2, seed: 'transport-dialects', password: PASSWORD }, runtime: { timeoutMs: 5000, timers }, fresh: 'test', prefix: 'fd-transport-' });
  beforeEach(async () => {
    ({ sim, rt } = world);
    siteId = world.siteIds[0]!;
    system = world.site(0).systems[0]!;
    await rt.fleet.refresh({ force: true });
  });
  afterEach(() => {
    sim.control.setDialects([]);
    sim.control.setFaults(0, { redirectTo: '' });
    sim.control.proxyErrors(0, 0);
  });

  it("a read behind a proxy answering two 502 pages is retried after the page's Retry-After, and answers", async () => {
    sim.control.proxyErrors(0, 2, { status: 502, retryAfterSeconds: 1 });
    const before = requests();
    waits.length = 0;
    // A proxy's 502 page is retried after its Retry-After, not taken for a wrong endpoint.
    const version = await rt.fleet.call(siteId, system, 'GET /Version');
    expect(version.Versions?.length).toBeGreaterThan(0);
    expect(requests() - before).toBe(3);
    // Two waits of the second the proxy asked for (the backoff alone would be under half of it).
    expect(waits.filter((ms) => ms === 1000)).toHaveLength(2);
  });

  it('honours a Retry-After given as an HTTP-date, and a whole refresh gets through a proxy that fails its first requests', async () => {
    sim.control.proxyErrors(0, 1, { status: 503, retryAfterSeconds: 1, date: true });
    expect(await rt.fleet.call(siteId, system, 'GET /Version')).toMatchObject({ Versions: expect.any(Array) });
    sim.control.proxyErrors(0, 2, { status: 504 });
    const statuses = await rt.fleet.refresh({ force: true });
    expect(statuses.map((s) => s.state)).toEqual(['ok', 'ok']);
  });

  it('names the proxy page and gives up when the proxy keeps failing, or asks to wait longer than it waits', async () => {
    sim.control.proxyErrors(0, 10, { status: 503 });
    const err = await rt.fleet.call(siteId, system, 'GET /Version').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransientHttpError);
    expect((err as Error).message).toMatch(/HTTP 503 with "503 Service Unavailable", not the service's answer: something between Fleetdeck and the system/);
    sim.control.proxyErrors(0, 1, { status: 503, retryAfterSeconds: 3600 });
    const late = await rt.fleet.call(siteId, system, 'GET /Version').catch((e: unknown) => e);
    expect((late as Error).message).toMatch(/asked to retry after 3600 s \(longer than the 10 s Fleetdeck waits: not retried/);
  });

  it('never resends a write a proxy answered with a page: a list tells it was not applied', async () => {
    await rt.fleet.call(siteId, system, 'POST /hosts/create', { body: { Name: 'proxy-first', Iqn: 'iqn.2026-01.io.fleetdeck:proxy-first' } });
    sim.control.proxyErrors(0, 1, { status: 502, retryAfterSeconds: 1 });
    const before = requests();
    const err = await rt.fleet.call(siteId, system, 'POST /hosts/create', { body: { Name: 'proxy-second', Iqn: 'iqn.2026-01.io.fleetdeck:proxy-second' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as Error).message).toMatch(/a list shows it was not applied; it was not resent/);
    // The write once (the proxy's page), then the list: nothing sent twice.
    expect(requests() - before).toBe(2);
    expect(hosts()).not.toContain('proxy-second');
    expect(rt.actionLog.list({ siteId }).at(-1)).toMatchObject({ operation: 'POST /hosts/create', result: 'unknown' });
  });

  it('a write turned away with 429 is recorded as not applied, and not resent', async () => {
    await rt.fleet.call(siteId, system, 'POST /hosts/create', { body: { Name: 'rate-first', Iqn: 'iqn.2026-01.io.fleetdeck:rate-first' } });
    sim.control.proxyErrors(0, 1, { status: 429, retryAfterSeconds: 1 });
    const before = requests();
    await expect(rt.fleet.call(siteId, system, 'POST /hosts/create', { body: { Name: 'rate-second', Iqn: 'iqn.2026-01.io.fleetdeck:rate-second' } })).rejects.toBeInstanceOf(TransientHttpError);
    expect(requests() - before).toBe(1);
    expect(rt.actionLog.list({ siteId }).at(-1)).toMatchObject({ result: 'refused', message: expect.stringMatching(/^not applied: .*HTTP 429/) });
  });

  it('never follows a redirect: the error names the Location, and the other server receives nothing', async () => {
    const elsewhere = new RecordingServer();
    const target = await elsewhere.start();
    try {
      sim.control.setFaults(0, { redirectTo: `${target}/portal` });
      const err = await rt.fleet.call(siteId, system, 'GET /Version').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RedirectError);
      expect((err as Error).message).toContain(`redirecting to ${target}/portal; not followed`);
      // A login redirected elsewhere: the password does not follow either.
      await rt.fleet.logout(siteId);
      const login = await rt.fleet.login(siteId, { password: PASSWORD }).catch((e: unknown) => e);
      expect((login as Error).message).toContain(`redirecting to ${target}/portal`);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('compressed: reads br, deflate and gzip answers with a byte order mark, and refreshes every system to ok', async () => {
    sim.control.setDialects(['compressed']);
    // Compressed answers with a byte order mark are read as JSON.
    const statuses = await rt.fleet.refresh({ force: true });
    expect(statuses.map((s) => [s.state, s.lastError])).toEqual([
      ['ok', undefined],
      ['ok', undefined],
    ]);
    const hostList = await rt.fleet.call(siteId, system, 'GET /hosts/list');
    expect(hostList.Data?.map((h) => h.Name)).toEqual(hosts());
    const drive = sim.fleet.sites[0]!.systems[0]!.nodes[0]!.drives[0]!;
    const smart = await rt.fleet.call(siteId, system, 'GET /resources/drives/smart', { query: { driveid: drive.id } });
    expect(smart.startsWith('smartctl')).toBe(true);
  });

  it("problem-details: a refusal shows the problem's title and detail, not its JSON, in the error, the log and over IPC", async () => {
    sim.control.setDialects(['problem-details']);
    // Reads are untouched by the dialect: a refresh is ok.
    expect((await rt.fleet.refresh({ force: true })).map((s) => s.state)).toEqual(['ok', 'ok']);
    const body = { Name: hosts()[0], Iqn: 'iqn.2026-01.io.fleetdeck:dup' };
    const err = await rt.fleet.call(siteId, system, 'POST /hosts/create', { body }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toBe(`The request was refused.: Host '${hosts()[0]}' already exists.`);
    expect(rt.actionLog.list({ siteId }).at(-1)).toMatchObject({ result: 'refused', message: `The request was refused.: Host '${hosts()[0]}' already exists.` });
    const ipc = await dispatch(rt.handlers, 'op:call', { site: siteId, system, operation: 'POST /hosts/create', body });
    expect(ipc).toEqual({ ok: false, error: { code: 'api', message: `The request was refused.: Host '${hosts()[0]}' already exists.` } });
  });
});
