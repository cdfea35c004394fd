import { beforeAll, describe, expect, it } from 'vitest';
import { dueAgain, readPhase, refreshRead, smartRead } from '../../../app/fleet/refresh-plan.js';
import { AnswerDigests } from '../../../main/core/answer-digests.js';
import { FLEET_LIMITS } from '../../../main/core/fleet-context.js';
import { createHandlers, dispatch } from '../../../main/ipc/handlers.js';
import { openRuntime } from '../../../main/runtime.js';
import { SEARCH_READS, SearchIndex } from '../../../main/search/search-index.js';
import { cacheKey } from '../../../main/store/index.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { FakeTimers } from '../../unit/main/core/fake-timers.js';
import { until } from '../../support/until.js';
import { siteInput, tempDataDir, useFleetsOnDisk, useSimulator, type FleetOnDisk } from '../support/simulated-fleet.js';

/**
 * Background polling against the simulator, on a fake clock for the schedule (no wall-clock
 * waits): a site is polled at its interval, a steady poll asks the system for fewer requests than
 * a full refresh, SMART is not re-read within its age unless a drive's status changed, and slow
 * configuration is re-read only once it is old. Request counts are the simulator's own.
 */

const INTERVAL_S = 30;
const HEALTH = refreshRead('GET /monitoring/health/current');
const USERS = refreshRead('GET /users/list');
const PROVISIONING = refreshRead('GET /monitoring/capacity/provisioning');
const RESOURCES = refreshRead('GET /resources/list');
const NODES = refreshRead('GET /nodes/list');

interface Harness extends FleetOnDisk {
  timers: FakeTimers;
  siteId: string;
  systems: string[];
}

describe('background polling against the simulator', () => {
  const simulator = useSimulator({ sites: 1, systems: 2, seed: 'polling' });
  const fleetOnDisk = useFleetsOnDisk('fd-polling-');
  let sim: SimulatorHandle;
  beforeAll(() => {
    sim = simulator.sim;
  });
  const requests = (): number => sim.control.status()[0]!.requests;

  async function harness(password?: string, spreadReads = false): Promise<Harness> {
    const timers = new FakeTimers(Date.now());
    const s = sim.manifest.sites[0]!;
    const f = await fleetOnDisk(
      {
        clock: () => new Date(timers.now()),
        timers,
        // No jitter and no grid: the poll falls due exactly at the interval; reads due by age exactly.
        random: () => 0.5,
        coalescePolls: false,
        spreadReads,
      },
      [s],
      password,
    );
    const site = f.sites.get(f.siteIds[0]!)!;
    await f.fleet.editSite(site.id, { polling: { ...site.polling, intervalSeconds: INTERVAL_S } });
    return { ...f, timers, siteId: site.id, systems: s.systems };
  }

  const at = (h: Harness, system: string, read: { op: string; query: Record<string, unknown> }): string | undefined =>
    h.stores.cache.get(h.siteId, system, cacheKey(read.op, read.query))?.at;
  const smartAts = (h: Harness, system: string): string[] =>
    h.stores.cache
      .entries(h.siteId, system)
      .filter((e) => e.key.startsWith('GET /resources/drives/smart'))
      .map((e) => e.at);

  /** Moves the fake clock by `ms` and waits until every system's status says it was read at the new time. */
  async function pollAfter(h: Harness, ms: number): Promise<number> {
    const before = requests();
    h.timers.advance(ms);
    const now = new Date(h.timers.now()).toISOString();
    await until(
      () => h.systems.every((system) => h.fleet.status(h.siteId).find((s) => s.system === system)?.lastSuccessAt === now),
      () => `a poll at ${now}: ${JSON.stringify(h.fleet.status(h.siteId))}`,
    );
    return requests() - before;
  }

  it('polls at the site interval; a steady poll reads at most 15 requests per system, fewer than a full refresh, and no SMART within its age', async () => {
    const h = await harness();
    let before = requests();
    await h.fleet.refresh({ force: true });
    const full = requests() - before;
    const fullAt = new Date(h.timers.now()).toISOString();
    const smartBefore = smartAts(h, h.systems[0]!);
    expect(smartBefore.length).toBeGreaterThan(10);

    h.fleet.startPolling();
    expect(h.fleet.nextPollAt(h.siteId)).toBe(h.timers.now() + INTERVAL_S * 1000);
    before = requests();
    h.timers.advance(INTERVAL_S * 1000 - 1);
    await new Promise((r) => setImmediate(r));
    expect(requests()).toBe(before);

    const steady = await pollAfter(h, 1);
    expect(steady).toBeGreaterThan(0);
    expect(steady / h.systems.length).toBeLessThanOrEqual(15);
    expect(steady).toBeLessThan(full / 3);
    // Health was re-read now; SMART and slow configuration keep the time of the full refresh.
    const pollAt = new Date(h.timers.now()).toISOString();
    expect(at(h, h.systems[0]!, HEALTH)).toBe(pollAt);
    expect(at(h, h.systems[0]!, USERS)).toBe(fullAt);
    expect(smartAts(h, h.systems[0]!)).toEqual(smartBefore);

    // Next interval: polled again, the same steady count.
    expect(await pollAfter(h, INTERVAL_S * 1000)).toBe(steady);
  });

  it('an answer a poll reads again unchanged keeps its content version, and its data age is the new read time', async () => {
    const h = await harness();
    await h.fleet.refresh({ force: true });
    h.fleet.startPolling();
    await pollAfter(h, INTERVAL_S * 1000);
    const system = h.systems[0]!;
    const key = cacheKey(PROVISIONING.op, PROVISIONING.query);
    const version = h.stores.cache.versions(h.siteId, system).get(key);
    expect(version).toEqual(expect.any(Number));
    // Provisioning is a detail the health answer summarises: read again once it is the detail age old.
    await pollAfter(h, FLEET_LIMITS.detailMaxAgeMs);
    const pollAt = new Date(h.timers.now()).toISOString();
    expect(h.stores.cache.versions(h.siteId, system).get(key)).toBe(version);
    expect(h.fleet.cached(h.siteId, system, PROVISIONING.op, PROVISIONING.query)?.at).toBe(pollAt);
  });

  // The node and drive lists move at every read (clocks, sensors, load), so the search index
  // would read and fold every system whose details a poll read again, though nothing it searches had changed.
  it('a poll that moved only clocks, sensors and load costs the search index no re-read, and the alert engine and it one digest', async () => {
    const h = await harness();
    await h.fleet.refresh({ force: true });
    const searched: ReadonlySet<string> = new Set<string>(Object.values(SEARCH_READS).map((r) => r.op));
    let searchReads = 0;
    let texts = 0;
    const fleet = h.fleet;
    const source = {
      status: () => fleet.status(),
      on: (l: Parameters<typeof fleet.on>[0]) => fleet.on(l),
      cachedVersions: (siteId: string, system: string) => fleet.cachedVersions(siteId, system),
      cached: (siteId: string, system: string, op: string, query: Record<string, unknown>, options: { recordUse?: boolean }) => {
        if (searched.has(op)) searchReads++;
        return fleet.cached(siteId, system, op, query, options);
      },
    };
    const digests = new AnswerDigests({
      cachedText: (siteId, system, op, query, options) => {
        texts++;
        return fleet.cachedText(siteId, system, op, query, options);
      },
    });
    const index = new SearchIndex({ fleet: source, sites: () => h.sites.list(), digests, afterStart: () => () => undefined });
    index.start();
    index.settle();
    const serial = (fleet.cached(h.siteId, h.systems[0]!, RESOURCES.op, RESOURCES.query)?.value as { Data: Array<{ Drives?: Array<{ ResourceSerial?: string }> }> }).Data[0]?.Drives?.[0]?.ResourceSerial;
    expect(serial).toEqual(expect.any(String));
    const versionsOf = (read: { op: string; query: Record<string, unknown> }): Array<number | undefined> => h.systems.map((system) => fleet.cachedVersions(h.siteId, system).get(cacheKey(read.op, read.query)));
    const drivesBefore = versionsOf(RESOURCES);
    const nodesBefore = versionsOf(NODES);
    const readsBefore = searchReads;
    const textsBefore = texts;

    // The detail age passes, so that the poll reads the node and drive lists again; half a minute
    // passes on the systems too (their clocks, sensor readings and load move), no more: the
    // simulator's clock is shared with the next tests, whose fleets start at the workstation's.
    sim.control.advanceClock(INTERVAL_S);
    h.fleet.startPolling();
    await pollAfter(h, FLEET_LIMITS.detailMaxAgeMs);
    // The lists did move (clocks, sensors): the content versions alone would have meant a re-read.
    expect(versionsOf(NODES)).not.toEqual(nodesBefore);
    expect(versionsOf(RESOURCES)).not.toEqual(drivesBefore);
    index.settle();
    expect(index.pending).toBe(0);
    expect(searchReads).toBe(readsBefore);
    // One text per moved list and system (drive list, node list), however many readers ask.
    expect(texts - textsBefore).toBeLessThanOrEqual(2 * h.systems.length);
    const again = texts;
    for (const system of h.systems) digests.seen(h.siteId, system, RESOURCES, fleet.cachedVersions(h.siteId, system));
    expect(texts).toBe(again);
    expect(index.query(serial!, 10).results.map((e) => e.text)).toEqual([serial]);
    index.close();
  });

  it('re-reads the SMART of a drive whose status changed, and only that one; its notification is merged once, then kept with a new read time', async () => {
    const h = await harness();
    await h.fleet.refresh({ force: true });
    h.fleet.startPolling();
    const steady = await pollAfter(h, INTERVAL_S * 1000);
    const told: number[] = [];
    h.fleet.on((e) => {
      if (e.type === 'notifications' && e.system === h.systems[0]) told.push(e.count);
    });
    const failed = sim.control.failDrive({ site: 0, system: h.systems[0]! });
    const others = smartAts(h, h.systems[0]!);
    const afterFailure = await pollAfter(h, INTERVAL_S * 1000);
    // The failed drive's system: its four detail lists (new records, and its health answer's
    // hardware count moved) and the failed drive's SMART.
    expect(afterFailure).toBe(steady + 4 + 1);
    const now = new Date(h.timers.now()).toISOString();
    expect(at(h, h.systems[0]!, smartRead(failed.node, failed.driveId))).toBe(now);
    expect(smartAts(h, h.systems[0]!).filter((t) => t === now)).toHaveLength(1);
    expect(others.filter((t) => t === now)).toHaveLength(0);
    // The failure's notification reached the merged list (a poll keeps only the mark of what it holds).
    const merged = (): { value: { Data: Array<{ Message?: string }> }; at: string } => h.fleet.cached(h.siteId, h.systems[0]!, 'GET /notifications/query', {}) as never;
    expect(merged().value.Data[0]?.Message).toContain(failed.name);
    expect(merged().at).toBe(now);
    expect(told).toEqual([1]);
    // A quiet interval: the same list, its version kept, its data age the new poll.
    const version = h.stores.cache.versions(h.siteId, h.systems[0]!).get(cacheKey('GET /notifications/query', {}));
    await pollAfter(h, INTERVAL_S * 1000);
    expect(merged().at).toBe(new Date(h.timers.now()).toISOString());
    expect(merged().value.Data[0]?.Message).toContain(failed.name);
    expect(h.stores.cache.versions(h.siteId, h.systems[0]!).get(cacheKey('GET /notifications/query', {}))).toBe(version);
    expect(told).toEqual([1]);
  });

  it('re-reads slow configuration once it is 15 min old, and SMART once it is older than the site’s SMART age', async () => {
    const h = await harness();
    const before = requests();
    await h.fleet.refresh({ force: true });
    const full = requests() - before;
    h.fleet.startPolling();
    const steady = await pollAfter(h, INTERVAL_S * 1000);
    // 16 minutes on: configuration is due, SMART (24 h) is not.
    const slow = await pollAfter(h, 16 * 60_000);
    expect(slow).toBeGreaterThan(steady);
    expect(at(h, h.systems[0]!, USERS)).toBe(new Date(h.timers.now()).toISOString());
    expect(smartAts(h, h.systems[0]!).every((t) => t !== new Date(h.timers.now()).toISOString())).toBe(true);
    // A site whose SMART age is 1 h: after an hour every drive is read again.
    const site = await h.fleet.editSite(h.siteId, { polling: { intervalSeconds: INTERVAL_S, paused: false, maxInFlight: 4, smartMaxAgeHours: 1 } });
    expect(site.polling.smartMaxAgeHours).toBe(1);
    const hourly = await pollAfter(h, 61 * 60_000);
    expect(smartAts(h, h.systems[0]!).every((t) => t === new Date(h.timers.now()).toISOString())).toBe(true);
    // Everything is due again: as many reads as the full refresh (whose logins, the check of the site's
    // selection on two sessions and each session's first confirmation the poll does not need).
    expect(hourly).toBeGreaterThanOrEqual(full - 3 * h.systems.length - 4);
  });

  it('re-reads slow configuration once a window, each system on its own phase of it', async () => {
    const h = await harness(undefined, true);
    await h.fleet.refresh({ force: true });
    const t0 = h.timers.now();
    h.fleet.startPolling();
    const reads = new Map<string, number[]>(h.systems.map((s) => [s, []]));
    const last = new Map(h.systems.map((s) => [s, at(h, s, USERS)]));
    // Two windows of polls.
    for (let t = INTERVAL_S * 1000; t <= 2 * FLEET_LIMITS.slowReadMaxAgeMs; t += INTERVAL_S * 1000) {
      await pollAfter(h, INTERVAL_S * 1000);
      for (const s of h.systems) {
        const now = at(h, s, USERS);
        if (now !== last.get(s)) reads.get(s)!.push(t);
        last.set(s, now);
      }
    }
    for (const s of h.systems) {
      // The first poll its phase makes due after the full refresh, then one window later.
      const phase = readPhase(h.siteId, s);
      let first = INTERVAL_S * 1000;
      while (!dueAgain(t0, t0 + first, FLEET_LIMITS.slowReadMaxAgeMs, phase)) first += INTERVAL_S * 1000;
      expect(reads.get(s)).toEqual([first, first + FLEET_LIMITS.slowReadMaxAgeMs].filter((t) => t <= 2 * FLEET_LIMITS.slowReadMaxAgeMs));
    }
  });

  it('a manual refresh during a poll follows it (never overlaps), and a poll during a poll joins it', async () => {
    const h = await harness();
    await h.fleet.refresh({ force: true });
    const events: Array<{ system: string; state: string }> = [];
    h.fleet.on((e) => {
      if (e.type === 'status') events.push({ system: e.status.system, state: e.status.state });
    });
    let before = requests();
    const poll = h.fleet.refresh({ mode: 'steady' });
    const joined = h.fleet.refresh({ mode: 'steady' });
    await Promise.all([poll, joined]);
    const onePoll = requests() - before;
    // Two polls asked at once cost one poll.
    before = requests();
    await h.fleet.refresh({ mode: 'steady' });
    expect(requests() - before).toBe(onePoll);

    events.length = 0;
    const background = h.fleet.refresh({ mode: 'steady' });
    const manual = h.fleet.refresh({ force: true });
    await Promise.all([background, manual]);
    for (const system of h.systems) {
      const mine = events.filter((e) => e.system === system);
      const firstEnd = mine.findIndex((e) => e.state !== 'refreshing');
      const firstRefreshing = mine.findIndex((e) => e.state === 'refreshing');
      // The poll ended before the manual refresh started reading; the manual one then ran in full.
      expect(firstEnd).toBeGreaterThanOrEqual(0);
      expect(firstRefreshing).toBeGreaterThan(firstEnd);
      expect(mine.at(-1)?.state).toBe('ok');
    }
  });

  it('a site whose password was refused is not polled (no login tried every interval); a Refresh still tries', async () => {
    const h = await harness('not-the-password');
    await h.fleet.refresh({ force: true });
    expect(h.fleet.siteErrorCode(h.siteId)).toBe('login-required');
    let before = requests();
    await h.fleet.refresh({ mode: 'steady' });
    expect(requests()).toBe(before);
    before = requests();
    await h.fleet.refresh({ force: true });
    expect(requests()).toBeGreaterThan(before);
  });

  it('a site with no password stored, logged in from the window, is polled at once and its status changes', async () => {
    const timers = new FakeTimers(Date.now());
    const s = sim.manifest.sites[0]!;
    const f = await fleetOnDisk({ clock: () => new Date(timers.now()), timers, random: () => 0.5, coalescePolls: false }, []);
    const { password, ...withoutPassword } = siteInput(s);
    const added = await f.fleet.addSite(withoutPassword);
    const site = await f.fleet.editSite(added.id, { polling: { ...added.polling, intervalSeconds: INTERVAL_S } });
    const handlers = createHandlers({ fleet: f.fleet, sites: f.sites, actionLog: f.stores.actionLog, version: 'test', keychain: 'memory', simulatedSiteIds: new Set() });
    const status = async () => (await dispatch(handlers, 'fleet:status', { site: site.id })) as { ok: true; value: Array<{ error?: string; systems: Array<{ system: string; state: string; lastSuccessAt?: string }> }> };
    await f.fleet.refresh({ force: true });
    expect((await status()).value[0]?.error).toMatch(/no password stored; log in/);
    f.fleet.startPolling();
    expect(f.fleet.nextPollAt(site.id)).toBe(timers.now() + INTERVAL_S * 1000);
    let before = requests();
    timers.advance(4 * INTERVAL_S * 1000);
    await new Promise((r) => setImmediate(r));
    expect(requests()).toBe(before);

    before = requests();
    expect(await dispatch(handlers, 'session:login', { site: site.id, password })).toMatchObject({ ok: true, value: { loggedIn: s.systems } });
    expect((await status()).value[0]?.error).toBeUndefined();
    // No clock moves: the poll the login asked for runs now, not an interval later.
    timers.advance(0);
    await until(
      () => f.fleet.status(site.id).filter((x) => x.state === 'ok').length === s.systems.length,
      () => `systems polled after the login: ${JSON.stringify(f.fleet.status(site.id))}`,
    );
    expect((await status()).value[0]?.systems.map((x) => x.state)).toEqual(s.systems.map(() => 'ok'));
    expect(requests()).toBeGreaterThan(before);
    await until(() => f.fleet.nextPollAt(site.id) !== undefined && f.fleet.nextPollAt(site.id)! > timers.now(), () => 'the next poll is scheduled');
    expect(f.fleet.nextPollAt(site.id)).toBe(timers.now() + INTERVAL_S * 1000);
  });

  it('paused sites are not polled; resuming schedules them again at once', async () => {
    const h = await harness();
    await h.fleet.refresh({ force: true });
    h.fleet.startPolling();
    await h.fleet.setPaused(h.siteId, true);
    expect(h.fleet.nextPollAt(h.siteId)).toBeUndefined();
    const before = requests();
    h.timers.advance(3_600_000);
    await new Promise((r) => setImmediate(r));
    expect(requests()).toBe(before);
    await h.fleet.setPaused(h.siteId, false);
    expect(h.fleet.nextPollAt(h.siteId)).toBe(h.timers.now() + INTERVAL_S * 1000);
  });

  it('runtime.close() stops the schedule: no timer is left to keep the process alive', async () => {
    const data = tempDataDir('fd-polling-rt-');
    try {
      const timers = new FakeTimers();
      const rt = await openRuntime({ dataDir: data.dir, memorySecrets: true, timers });
      const site = await rt.fleet.addSite(siteInput(sim.manifest.sites[0]!));
      await rt.fleet.editSite(site.id, { polling: { ...site.polling, intervalSeconds: 60 } });
      rt.fleet.startPolling();
      expect(timers.pending).toBe(1);
      await rt.close();
      expect(timers.pending).toBe(0);
    } finally {
      data.remove();
    }
  });
});
