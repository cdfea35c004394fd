import { beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshRead, smartRead } from '../../../app/fleet/refresh-plan.js';
import { healthSummaryOf } from '../../../app/health/system-summary.js';
import type { FleetOptions } from '../../../main/core/fleet-context.js';
import { openRuntime } from '../../../main/runtime.js';
import { cacheKey } from '../../../main/store/index.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { LEVEL, notify } from '../../../simulator/state/notifications.js';
import { FakeTimers } from '../../unit/main/core/fake-timers.js';
import { siteInput, tempDataDir, useFleetsOnDisk, useSimulator, type FleetOnDisk } from '../support/simulated-fleet.js';

/**
 * A steady poll reads the health answer, new notifications, evacuations and replication; the
 * detail lists the health answer summarises (nodes, drives, pool capacity, provisioning) only
 * when its states changed, new records arrived, they are `detailMaxAgeMs` old, or they were not
 * read whole last time. A full refresh reads everything. Which answers a poll read is told by the
 * cache writes (an answer read is written with its read time). On a fake clock; the simulator's
 * clock moves its sensors and load.
 */

const MINUTE = 60_000;
const key = (r: { op: string; query: Record<string, unknown> }): string => cacheKey(r.op, r.query);
const HEALTH = key(refreshRead('GET /monitoring/health/current'));
const REPLICATION = key(refreshRead('GET /replication/list'));
const EVACUATIONS = key(refreshRead('GET /monitoring/evacuations/live'));
const RESOURCES = refreshRead('GET /resources/list');
const DETAILS = {
  nodes: key(refreshRead('GET /nodes/list')),
  drives: key(RESOURCES),
  pools: key(refreshRead('GET /monitoring/capacity/pools/current')),
  provisioning: key(refreshRead('GET /monitoring/capacity/provisioning')),
};
const ALL_DETAILS = Object.values(DETAILS);

interface Harness extends FleetOnDisk {
  timers: FakeTimers;
  siteId: string;
  system: string;
  /** Keys written per cache write of the system. */
  writes: string[][];
}

describe('a health-first steady poll', () => {
  const simulator = useSimulator({ sites: 1, systems: 5, seed: 'health-first-poll' });
  const fleetOnDisk = useFleetsOnDisk('fd-health-first-');
  let sim: SimulatorHandle;
  beforeAll(() => {
    sim = simulator.sim;
  });

  /** A fleet on the simulator's site, watching its system `index` (each test its own: a failed drive stays failed), after a full refresh. */
  async function harness(index: number, options: Partial<FleetOptions> = {}): Promise<Harness> {
    // The fleet's clock at the systems' (earlier tests moved theirs): no clock offset to learn.
    const timers = new FakeTimers(sim.control.advanceClock(0));
    const s = sim.manifest.sites[0]!;
    // Reads due by age exactly (no read windows): the tests count what each poll reads.
    const f = await fleetOnDisk({ clock: () => new Date(timers.now()), timers, spreadReads: false, ...options }, [s]);
    const siteId = f.siteIds[0]!;
    const system = s.systems[index]!;
    const writes: string[][] = [];
    const putRows = f.stores.cache.putRows.bind(f.stores.cache);
    vi.spyOn(f.stores.cache, 'putRows').mockImplementation((site, sys, rows) => {
      if (sys === system) writes.push(rows.map((r) => r.key));
      putRows(site, sys, rows);
    });
    await f.fleet.refresh({ force: true });
    return { ...f, timers, siteId, system, writes };
  }

  /** A minute on the systems (their sensors and load move) and on the fleet's clock, then a steady poll; the keys it wrote. */
  async function poll(h: Harness, ms = MINUTE): Promise<string[]> {
    sim.control.advanceClock(ms / 1000);
    h.timers.advance(ms);
    h.writes.length = 0;
    await h.fleet.refresh({ mode: 'steady' });
    const status = h.fleet.status(h.siteId).find((s) => s.system === h.system);
    expect(status?.state).toBe('ok');
    return h.writes.flat();
  }
  const at = (h: Harness, k: string): string | undefined => h.stores.cache.getText(h.siteId, h.system, k)?.at;
  const now = (h: Harness): string => new Date(h.timers.now()).toISOString();
  const simSystem = (h: Harness) => sim.control.site(0).state.systems.find((s) => s.name === h.system)!;

  it('reads no detail while the health answer says nothing changed: they keep their own read time', async () => {
    const h = await harness(0);
    // The first system records the full refresh's own logins, after its notifications were read:
    // new records for the first poll.
    await poll(h);
    const detailsAt = now(h);
    for (let i = 0; i < 3; i++) {
      const written = await poll(h);
      expect(written).toEqual(expect.arrayContaining([HEALTH, REPLICATION, EVACUATIONS]));
      for (const d of ALL_DETAILS) expect(written).not.toContain(d);
    }
    expect(at(h, HEALTH)).toBe(now(h));
    for (const d of ALL_DETAILS) expect(at(h, d)).toBe(detailsAt);
    expect(detailsAt).not.toBe(now(h));
    // What shows their figures shows their time, not the health record's.
    const summary = healthSummaryOf((r) => h.fleet.cached(h.siteId, h.system, r.op, r.query), h.timers.now());
    expect(summary.at).toBe(now(h));
    expect(summary.detailsAt).toEqual({ nodes: detailsAt, drives: detailsAt, pools: detailsAt });
  });

  it('reads the details of the parts whose states changed, before any notification of it, and SMART of the drive that changed', async () => {
    const h = await harness(1);
    expect(await poll(h)).not.toContain(DETAILS.drives);
    // A drive fails and the system has not said so in a notification yet: only its health answer shows it.
    const sys = simSystem(h);
    const node = sys.nodes.find((n) => n.drives.some((d) => d.status === 'OK' && d.pool !== ''))!;
    const drive = node.drives.find((d) => d.status === 'OK' && d.pool !== '')!;
    drive.status = 'Failed';
    const records = sys.notifications.length;
    const written = await poll(h);
    expect(sys.notifications.length).toBe(records);
    // Hardware counts moved: the node and drive lists and provisioning (layouts) are read.
    expect(written).toEqual(expect.arrayContaining([DETAILS.drives, DETAILS.nodes, DETAILS.provisioning]));
    const listed = (h.fleet.cached(h.siteId, h.system, RESOURCES.op, RESOURCES.query)?.value as { Data: Array<{ Name: string; Drives: Array<{ Id: number; ResourceStatus: string }> }> }).Data;
    expect(listed.find((n) => n.Name === node.name)?.Drives.find((d) => d.Id === drive.id)?.ResourceStatus).toMatch(/fail/i);
    expect(at(h, key(smartRead(node.name, drive.id)))).toBe(now(h));
    // The next quiet poll leaves them alone again.
    const quiet = await poll(h);
    for (const d of ALL_DETAILS) expect(quiet).not.toContain(d);
  });

  it('reads every detail when new notification records arrived', async () => {
    const h = await harness(2);
    expect(await poll(h)).not.toContain(DETAILS.nodes);
    const sys = simSystem(h);
    notify(sys, sim.control.site(0).state.customer, sim.control.advanceClock(0), { level: LEVEL.warning, module: 'Hardware', message: 'Fan speed above its threshold (simulated).' });
    const written = await poll(h);
    expect(written).toEqual(expect.arrayContaining(ALL_DETAILS));
    for (const d of ALL_DETAILS) expect(at(h, d)).toBe(now(h));
    const quiet = await poll(h);
    for (const d of ALL_DETAILS) expect(quiet).not.toContain(d);
  });

  it('reads a detail again once its cached answer is detailMaxAgeMs old, though nothing changed', async () => {
    const h = await harness(3, { detailMaxAgeMs: 2 * MINUTE });
    const fullAt = now(h);
    expect(await poll(h)).not.toContain(DETAILS.pools);
    for (const d of ALL_DETAILS) expect(at(h, d)).toBe(fullAt);
    const written = await poll(h);
    expect(written).toEqual(expect.arrayContaining(ALL_DETAILS));
    for (const d of ALL_DETAILS) expect(at(h, d)).toBe(now(h));
  });

  it('reads a detail again at every poll while the system sends only part of it, and once more when whole', async () => {
    // Four nodes: its node and drive lists (an item per node) are cut to three by the dialect.
    const index = sim.manifest.sites[0]!.systems.findIndex((name) => sim.control.site(0).state.systems.find((x) => x.name === name)!.nodes.length > 3);
    expect(index).toBeGreaterThanOrEqual(0);
    sim.control.setDialects(['partial-content']);
    try {
      const h = await harness(index);
      for (let i = 0; i < 2; i++) {
        const written = await poll(h);
        expect(written).toEqual(expect.arrayContaining([DETAILS.nodes, DETAILS.drives]));
        expect(h.fleet.status(h.siteId).find((s) => s.system === h.system)?.truncated).toMatch(/GET \/resources\/list/);
      }
      sim.control.setDialects([]);
      expect(await poll(h)).toEqual(expect.arrayContaining([DETAILS.nodes, DETAILS.drives]));
      const quiet = await poll(h);
      expect(quiet).not.toContain(DETAILS.nodes);
      expect(quiet).not.toContain(DETAILS.drives);
    } finally {
      sim.control.setDialects([]);
    }
  });

  it('a full refresh reads every detail; a poll of a new process too (nothing read by it yet)', async () => {
    const h = await harness(4);
    expect(await poll(h)).not.toContain(DETAILS.provisioning);
    h.timers.advance(1000);
    h.writes.length = 0;
    await h.fleet.refresh({ force: true });
    expect(h.writes.flat()).toEqual(expect.arrayContaining(ALL_DETAILS));
    // Another process on the same data dir and cache: it has read nothing itself.
    const other = await fleetOnDisk({ clock: () => new Date(h.timers.now()), timers: h.timers, spreadReads: false }, [sim.manifest.sites[0]!]);
    const writes: string[] = [];
    const putRows = other.stores.cache.putRows.bind(other.stores.cache);
    vi.spyOn(other.stores.cache, 'putRows').mockImplementation((site, sys, rows) => {
      if (sys === h.system) writes.push(...rows.map((r) => r.key));
      putRows(site, sys, rows);
    });
    await other.fleet.refresh({ mode: 'steady' });
    expect(writes).toEqual(expect.arrayContaining(ALL_DETAILS));
  });
});

describe('the readers after quiet polls that left the details alone', () => {
  const simulator = useSimulator({ sites: 1, systems: 1, seed: 'health-first-readers' });

  it('a drive failing after quiet polls raises its alert and the system health level as before', async () => {
    const sim = simulator.sim;
    const data = tempDataDir('fd-health-first-rt-');
    const rt = await openRuntime({ dataDir: data.dir, memorySecrets: true, timeoutMs: 10_000 });
    try {
      const s = sim.manifest.sites[0]!;
      const { id } = await rt.fleet.addSite(siteInput(s));
      const system = s.systems[0]!;
      await rt.fleet.refresh({ force: true });
      // The system's health level and each part's, as its brief carries them.
      const level = (): string => {
        const rollup = (JSON.parse(rt.summaries.summaries({ form: 'brief' }).json) as Array<{ system: string; rollup?: { level: string; dimensions: Array<{ name: string; level: string }> } }>).find((b) => b.system === system)?.rollup;
        return `${rollup?.level}: ${rollup?.dimensions.map((d) => `${d.name} ${d.level}`).join(', ')}`;
      };
      const driveAlerts = (): number => rt.alerts.list().filter((a) => a.siteId === id && a.system === system && a.rule === 'drive').length;
      const levelBefore = level();
      expect(levelBefore).toMatch(/^\w+: \w+/);
      const alertsBefore = driveAlerts();
      const at = rt.fleet.cached(id, system, RESOURCES.op, RESOURCES.query)?.at;
      sim.control.advanceClock(60);
      await rt.fleet.refresh({ mode: 'steady' });
      // Left alone: its read time is the full refresh's.
      expect(rt.fleet.cached(id, system, RESOURCES.op, RESOURCES.query)?.at).toBe(at);
      expect(level()).toBe(levelBefore);
      expect(driveAlerts()).toBe(alertsBefore);
      sim.control.failDrive({ site: 0, system });
      sim.control.advanceClock(60);
      await rt.fleet.refresh({ mode: 'steady' });
      expect(rt.fleet.cached(id, system, RESOURCES.op, RESOURCES.query)?.at).not.toBe(at);
      expect(driveAlerts()).toBeGreaterThan(alertsBefore);
      expect(level()).not.toBe(levelBefore);
    } finally {
      await rt.close();
      data.remove();
    }
  });
});
