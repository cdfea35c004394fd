import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../../app/domain/site.js';
import type { FleetOptions } from '../../../main/core/fleet.js';
import { ReportService } from '../../../main/reports/service.js';
import { ReportStore } from '../../../main/reports/store.js';
import { cacheKey } from '../../../main/store/index.js';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';
import { FakeTimers } from '../../unit/main/core/fake-timers.js';
import { until } from '../../support/until.js';
import { siteInput, useFleetsOnDisk, useSimulator, type FleetOnDisk } from '../support/simulated-fleet.js';

/** Fake timers that also keep the most deadlines pending at once: every peak, not a sample of them. */
class CountingTimers extends FakeTimers {
  most = 0;

  override setTimeout(fire: () => void, ms: number): unknown {
    const handle = super.setTimeout(fire, ms);
    this.most = Math.max(this.most, this.pending);
    return handle;
  }
}

/**
 * Twelve systems refreshed with at most `most` (two) at once: only those refreshing when the 2 s
 * deadline passed failed by it; waiting in the queue did not count.
 */
function expectQueueNotFailed(statuses: readonly SystemStatus[], most: number): void {
  expect(statuses).toHaveLength(12);
  expect(most).toBeLessThanOrEqual(2);
  const failed = statuses.filter((st) => st.state !== 'ok');
  expect(failed.length).toBeLessThanOrEqual(2);
  for (const st of failed) expect(st.lastError).toMatch(/did not finish within 2000 ms/);
  expect(statuses.filter((st) => st.state === 'ok').length).toBeGreaterThanOrEqual(10);
}

/**
 * Bounds of a refresh against the simulator's fault injection: one deadline per system whatever
 * the retries (a site that answers the login and the system list but never a read), a cap on the
 * drives whose SMART is read, and a byte budget for one system's answers.
 */

describe('limits of a refresh', () => {
  const simulator = useSimulator({ sites: 2, systems: 2, seed: 'limits' });
  const fleetOnDisk = useFleetsOnDisk('fd-limits-');
  let sim: SimulatorHandle;
  beforeAll(() => {
    sim = simulator.sim;
  });
  afterEach(() => {
    for (const s of sim.sites) sim.control.setFaults(s.index, { hangReads: false, hangPaths: [], padBytes: 0, latencyMs: 0 });
  });
  const harness = (options: Partial<FleetOptions>, siteCount = 2): Promise<FleetOnDisk> => fleetOnDisk(options, sim.manifest.sites.slice(0, siteCount));

  it('ends the refresh of a system whose reads never answer at its deadline (fake clock), other sites unaffected', async () => {
    const timers = new FakeTimers();
    const h = await harness({ timers, refreshDeadlineMs: 60_000 });
    await h.fleet.refresh({ force: true });
    sim.control.setFaults(0, { hangReads: true });
    const refreshed = h.fleet.refresh({ force: true });
    // The healthy site finishes on its own; the other holds reads that will never be answered.
    await until(() => h.fleet.status(h.siteIds[1]).every((s) => s.state === 'ok') && sim.control.status()[0]!.inFlight > 0, () => 'site 2 refreshed, site 1 hanging');
    timers.advance(60_000);
    const statuses = await refreshed;
    const hung = statuses.filter((s) => s.siteId === h.siteIds[0]);
    expect(hung).toHaveLength(2);
    for (const s of hung) {
      expect(s.state).toBe('unreachable');
      expect(s.lastError).toMatch(new RegExp(`^refresh of ${sim.manifest.sites[0]!.name}/${s.system} did not finish within 60 s \\(\\d+ of \\d+ reads answered\\)`));
      // The data read before stays, with its time.
      expect(h.fleet.cached(s.siteId, s.system, 'GET /Version')).toMatchObject({ stale: true });
    }
    for (const s of statuses.filter((x) => x.siteId === h.siteIds[1])) expect(s.state).toBe('ok');
    expect(timers.pending).toBe(0);
  });

  it('bounds the refresh and the report by the deadline, whatever the retries', async () => {
    // Request timeout and deadline leave a healthy site room on a busy shared machine; the hung
    // site's reads would still take minutes without the deadline (three tries, each waiting its turn).
    const h = await harness({ timeoutMs: 3000, refreshDeadlineMs: 9000 });
    await h.fleet.refresh({ force: true });
    sim.control.setFaults(0, { hangReads: true });
    const reports = new ReportService({ fleet: h.fleet, sites: h.sites, actionLog: h.stores.actionLog, store: new ReportStore(h.stores.reportsDb), user: 'tester', appVersion: '0.0.0-test' });
    const started = performance.now();
    const report = await reports.generate({ kind: 'health' });
    // Without one deadline, every read waited for a slot behind the hung ones, then timed out three
    // times: minutes here. With it, each system of the hung site ends on its 9 s deadline
    // (said in its status below; the deadline itself is tested on a fake clock in test/unit/main/core).
    console.info(`report with a site that never answers reads: ${Math.round(performance.now() - started)} ms (deadline 9000 ms per system, request timeout 3000 ms)`);
    for (const s of h.fleet.status(h.siteIds[0])) expect(s.lastError).toMatch(/did not finish within 9000 ms/);
    for (const s of h.fleet.status(h.siteIds[1])) expect(s.state).toBe('ok');
    expect(report.summary.systems).toBe(4);
  }, 60_000);

  it('reads SMART for at most the capped number of drives per system, failing drives first, and says so', async () => {
    const failed = sim.control.failDrive({ site: 0, system: sim.manifest.sites[0]!.systems[1] });
    const h = await harness({ maxSmartDrives: 3 }, 1);
    await h.fleet.refresh({ force: true });
    for (const s of h.fleet.status(h.siteIds[0])) {
      expect(s.state, s.lastError).toBe('ok');
      expect(s.truncated).toMatch(/^SMART read for 3 of \d+ drives \(failing drives first\)$/);
      const smart = h.stores.cache.entries(s.siteId, s.system).filter((e) => e.key.startsWith('GET /resources/drives/smart'));
      expect(smart).toHaveLength(3);
      if (s.system === failed.system) expect(smart.map((e) => e.key)).toContain(cacheKey('GET /resources/drives/smart', { node: failed.node, driveid: failed.driveId }));
    }
  });

  it('drops answers past a system\'s byte budget and marks the system truncated, instead of holding them all', async () => {
    const h = await harness({ maxSystemBytes: 256 * 1024 }, 1);
    sim.control.setFaults(0, { padBytes: 100 * 1024 });
    await h.fleet.refresh({ force: true });
    for (const s of h.fleet.status(h.siteIds[0])) {
      expect(s.state).toBe('stale');
      expect(s.truncated).toMatch(/^GET \/\S+ \(answer over the limit, not read\)/);
      expect(s.lastError).toMatch(/answer larger than what is left of the 256 KiB a system's answers may take per refresh, not read/);
      const kept = h.stores.cache.entries(s.siteId, s.system).reduce((n, e) => n + e.bytes, 0);
      expect(kept).toBeLessThanOrEqual(256 * 1024);
    }
  });

  it('starts a system\'s deadline when its own refresh starts: a site with many systems is not failed by its queue', async () => {
    // Scaled down from 3,000 systems on one site: one request at a time to the site. Deadlines run
    // on a fake clock, so the count of those running says which systems have started their refresh.
    const big = await startSimulator({ sites: 1, systems: 12, seed: 'limits-big', controlServer: false, latencyMs: 5 });
    const timers = new CountingTimers();
    try {
      const { fleet, sites } = await fleetOnDisk({ timers, refreshDeadlineMs: 2000, maxSmartDrives: 1 }, []);
      const site = await fleet.addSite(siteInput(big.manifest.sites[0]!));
      await sites.update(site.id, { polling: { ...site.polling, maxInFlight: 1 } });
      await fleet.siteChanged(site.id);
      timers.most = timers.pending;
      const refreshed = fleet.refresh({ force: true });
      // One deadline passes while the first systems refresh and the others wait their turn.
      await until(() => fleet.status(site.id).some((st) => st.state === 'refreshing'), () => 'a system refreshing');
      timers.advance(2000);
      const statuses = await refreshed;
      const most = timers.most;
      // One system at a time (half the site's one request slot, at least one), never all twelve.
      expectQueueNotFailed(statuses, most);
    } finally {
      // The fleet on it is closed after the test, like every fleet of this suite.
      await big.close();
    }
  }, 60_000);
  it('starts at most the fleet\'s bound of system refreshes at once across sites: a large fleet is not failed by sharing its slots', async () => {
    // Scaled down from 1,000 systems on 100 sites: one request at a time across the fleet, two
    // systems at once. If every site started its systems at once, all deadlines would run together
    // while the systems took turns for the one slot, and a deadline passing would fail all of them.
    const wide = await startSimulator({ sites: 6, systems: 2, seed: 'limits-wide', controlServer: false, latencyMs: 5 });
    const timers = new FakeTimers();
    try {
      const { fleet } = await fleetOnDisk({ timers, refreshDeadlineMs: 2000, maxSmartDrives: 1, globalMaxInFlight: 1, maxSystemsAtOnce: 2 }, wide.manifest.sites);
      // Systems refreshing at once, from the statuses the fleet emits (a refresh says 'refreshing'
      // when it starts, its verdict when it ends).
      const running = new Set<string>();
      let most = 0;
      const off = fleet.on((e) => {
        if (e.type !== 'status') return;
        const key = `${e.status.siteId}/${e.status.system}`;
        if (e.status.state === 'refreshing') running.add(key);
        else running.delete(key);
        most = Math.max(most, running.size);
      });
      const refreshed = fleet.refresh({ force: true });
      // One deadline passes while the first systems refresh and the others wait their turn.
      await until(() => running.size > 0, () => 'a system refreshing');
      timers.advance(2000);
      const statuses = await refreshed;
      off();
      // Two system refreshes at a time fleet-wide (the bound), never all twelve.
      expectQueueNotFailed(statuses, most);
    } finally {
      await wide.close();
    }
  }, 60_000);
});
