import { beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, dispatch } from '../../../main/ipc/handlers.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { FakeTimers } from '../../unit/main/core/fake-timers.js';
import { until } from '../../support/until.js';
import { useFleetsOnDisk, useSimulator } from '../support/simulated-fleet.js';

/**
 * Polling a system that rate-limits its reads (simulator fault `throttleReads`: 429 with the
 * service's JSON, logins and the system list still answered), on a fake clock: requests are the
 * simulator's own count over a window of polls.
 */

const INTERVAL_S = 10;

describe('polling a system that rate-limits its reads', () => {
  const simulator = useSimulator({ sites: 1, systems: 2, seed: 'throttled' });
  const fleetOnDisk = useFleetsOnDisk('fd-throttled-');
  let sim: SimulatorHandle;
  beforeAll(() => {
    sim = simulator.sim;
  });
  const requests = (): number => sim.control.status()[0]!.requests;
  /**
   * The simulator's count once the requests a refused poll had already written (then cancelled on
   * the client's side) have arrived: no new one for 200 ms. A drain, not a timing assertion.
   */
  const settledRequests = async (): Promise<number> => {
    let last = -1;
    for (let same = 0; same < 4; ) {
      const n = requests();
      same = n === last ? same + 1 : 0;
      last = n;
      await new Promise((r) => setTimeout(r, 50));
    }
    return last;
  };

  async function harness() {
    sim.control.setFaults(0, { throttleReads: false });
    const timers = new FakeTimers(Date.now());
    const s = sim.manifest.sites[0]!;
    const f = await fleetOnDisk({ clock: () => new Date(timers.now()), timers, random: () => 0.5, coalescePolls: false }, [s]);
    const siteId = f.siteIds[0]!;
    const site = f.sites.get(siteId)!;
    await f.fleet.editSite(siteId, { polling: { ...site.polling, intervalSeconds: INTERVAL_S } });
    await f.fleet.refresh({ force: true });
    expect(f.fleet.status(siteId).map((x) => x.state)).toEqual(s.systems.map(() => 'ok'));
    const handlers = createHandlers({ fleet: f.fleet, sites: f.sites, actionLog: f.stores.actionLog, version: 'test', keychain: 'memory', simulatedSiteIds: new Set() });
    /** Runs the polls falling due in the next `ms`, one interval at a time, each to its end. */
    const pollFor = async (ms: number): Promise<void> => {
      for (let left = ms; left > 0; left -= 1000) {
        timers.advance(Math.min(1000, left));
        await until(() => f.fleet.nextPollAt(siteId) !== undefined, () => 'the poll to end');
      }
    };
    return { f, timers, siteId, systems: s.systems, handlers, pollFor };
  }

  it('honours Retry-After in seconds across polls: one refused attempt per system, then nothing until it ends', async () => {
    const h = await harness();
    sim.control.setFaults(0, { throttleReads: true, throttleRetryAfterSeconds: 60, throttleRetryAfterDate: false });
    h.f.fleet.startPolling();
    const before = requests();
    await h.pollFor(INTERVAL_S * 1000);
    const firstPoll = (await settledRequests()) - before;
    // The list, then each system's reads stop at the first 429: far from 2 retries of every read.
    expect(firstPoll).toBeGreaterThan(0);
    expect(firstPoll).toBeLessThanOrEqual(1 + h.systems.length * 10);
    const statuses = h.f.fleet.status(h.siteId);
    expect(statuses.map((x) => x.state)).toEqual(h.systems.map(() => 'stale'));
    const nextTry = new Date(h.timers.now() + 60_000).toISOString();
    for (const x of statuses) {
      expect(x.nextTryAt).toBe(nextTry);
      expect(x.lastError).toMatch(/^throttled by the system \(HTTP 429\), next try at .*Z: .*Too many requests/);
    }
    const shown = (await dispatch(h.handlers, 'fleet:status', { site: h.siteId })) as { ok: true; value: Array<{ systems: Array<{ lastError?: string; nextTryAt?: string }> }> };
    expect(shown.value[0]?.systems.every((x) => x.nextTryAt === nextTry && x.lastError?.startsWith('throttled by the system'))).toBe(true);

    // Every poll until the minute is over: not one request.
    const quiet = await settledRequests();
    let polls = 0;
    while (h.timers.now() + INTERVAL_S * 1000 < Date.parse(nextTry)) {
      await h.pollFor(INTERVAL_S * 1000);
      polls++;
    }
    expect(polls).toBeGreaterThanOrEqual(4);
    expect(await settledRequests()).toBe(quiet);

    // The minute is over and the system answers again: read, and the backoff is gone.
    sim.control.setFaults(0, { throttleReads: false });
    await h.pollFor(INTERVAL_S * 1000 + 1000);
    await until(() => h.f.fleet.status(h.siteId).every((x) => x.state === 'ok'), () => JSON.stringify(h.f.fleet.status(h.siteId)));
    expect(h.f.fleet.status(h.siteId).every((x) => x.nextTryAt === undefined)).toBe(true);
  });

  it('honours Retry-After as an HTTP date, and without one backs off doubling from 30 s; a Refresh still tries', async () => {
    const h = await harness();
    sim.control.setFaults(0, { throttleReads: true, throttleRetryAfterSeconds: 45, throttleRetryAfterDate: true });
    await h.f.fleet.refresh({ mode: 'steady' });
    const [first] = h.f.fleet.status(h.siteId);
    // An HTTP date has whole seconds, taken from the simulator's wall clock: within a second or two of 45 s.
    const wait = Date.parse(first!.nextTryAt!) - h.timers.now();
    expect(wait).toBeGreaterThan(40_000);
    expect(wait).toBeLessThanOrEqual(47_000);

    sim.control.setFaults(0, { throttleRetryAfterSeconds: 0 });
    h.timers.advance(wait + 1);
    await h.f.fleet.refresh({ mode: 'steady' });
    // The second refused poll in a row, no Retry-After: 60 s.
    expect(Date.parse(h.f.fleet.status(h.siteId)[0]!.nextTryAt!) - h.timers.now()).toBe(60_000);
    let before = await settledRequests();
    await h.f.fleet.refresh({ mode: 'steady' });
    expect(await settledRequests()).toBe(before);
    before = requests();
    await h.f.fleet.refresh({ force: true });
    expect(requests()).toBeGreaterThan(before);
  });

  it('counts requests over a minute of 10 s polls: a handful, not hundreds', async () => {
    const h = await harness();
    sim.control.setFaults(0, { throttleReads: true, throttleRetryAfterSeconds: 0 });
    h.f.fleet.startPolling();
    const before = requests();
    await h.pollFor(60_000);
    const perMinute = requests() - before;
    // Backing off 30 s, then 60 s: two refused polls per system in the minute (the list's requests included).
    expect(perMinute).toBeLessThanOrEqual(2 * (1 + h.systems.length * 10));
  });
});
