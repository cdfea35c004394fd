import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshRead, smartRead } from '../../../app/fleet/refresh-plan.js';
import type { FleetOptions } from '../../../main/core/fleet-context.js';
import { openRuntime } from '../../../main/runtime.js';
import { cacheKey } from '../../../main/store/index.js';
import type { Dialect, SimulatorHandle } from '../../../simulator/index.js';
import { FakeTimers } from '../../unit/main/core/fake-timers.js';
import { siteInput, tempDataDir, useFleetsOnDisk, useSimulator, type FleetOnDisk } from '../support/simulated-fleet.js';

/**
 * A steady poll and the drive list: one whose text moved
 * only in members no reader reads (sensor readings, their times) is neither normalised nor stored
 * while the row this process stored is younger than `volatileMaxAgeMs`; it keeps its own read time.
 * Anything else is stored as before. On a fake clock; the simulator's clock moves its sensors.
 */

const MINUTE = 60_000;
const RESOURCES = refreshRead('GET /resources/list');
const RESOURCES_KEY = cacheKey(RESOURCES.op, RESOURCES.query);

interface Harness extends FleetOnDisk {
  timers: FakeTimers;
  siteId: string;
  system: string;
  /** Keys written per cache write of the system. */
  writes: string[][];
}

describe('a steady poll and a volatile answer whose read part did not change', () => {
  const simulator = useSimulator({ sites: 1, systems: 5, seed: 'steady-volatile' });
  const fleetOnDisk = useFleetsOnDisk('fd-steady-volatile-');
  let sim: SimulatorHandle;
  beforeAll(() => {
    sim = simulator.sim;
  });

  /** A fleet on the simulator's site, watching its system `index` (each test its own: a failed drive stays failed). */
  async function harness(index: number, options: Partial<FleetOptions> = {}, dialects: readonly Dialect[] = []): Promise<Harness> {
    sim.control.setDialects([...dialects]);
    // The fleet's clock at the systems' (earlier tests moved theirs): no clock offset to learn.
    const timers = new FakeTimers(sim.control.advanceClock(0));
    const s = sim.manifest.sites[0]!;
    const f = await fleetOnDisk({ clock: () => new Date(timers.now()), timers, ...options }, [s]);
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

  /** A minute on the systems (their sensors move) and on the fleet's clock, then a steady poll. */
  async function poll(h: Harness, ms = MINUTE): Promise<string> {
    sim.control.advanceClock(ms / 1000);
    h.timers.advance(ms);
    h.writes.length = 0;
    await h.fleet.refresh({ mode: 'steady' });
    const status = h.fleet.status(h.siteId).find((s) => s.system === h.system);
    expect(status?.state).toBe('ok');
    return new Date(h.timers.now()).toISOString();
  }

  const drives = (h: Harness): { at: string; version: number | undefined; json: string } => {
    const text = h.stores.cache.getText(h.siteId, h.system, RESOURCES_KEY)!;
    // The text as a digest: a failing comparison prints two lines, not two lists.
    return { at: text.at, version: h.stores.cache.versions(h.siteId, h.system).get(RESOURCES_KEY), json: createHash('sha256').update(text.json).digest('hex') };
  };
  const driveList = (h: Harness): { Data: Array<{ Name: string; Drives: Array<{ Id: number; ResourceStatus: string }> }> } => h.stores.cache.get(h.siteId, h.system, RESOURCES_KEY)!.value as never;

  it('writes nothing for a drive list whose sensors alone moved: it keeps its read time and version', async () => {
    const h = await harness(0);
    const full = drives(h);
    const fullAt = new Date(h.timers.now()).toISOString();
    expect(full.at).toBe(fullAt);
    await poll(h);
    // The poll wrote its other answers, not the drive list.
    expect(h.writes.flat().length).toBeGreaterThan(0);
    expect(h.writes.flat()).not.toContain(RESOURCES_KEY);
    expect(drives(h)).toEqual(full);
    // The system's drive list did move meanwhile: a full refresh stores the new readings.
    await h.fleet.refresh({ force: true });
    const after = drives(h);
    expect(after.at).toBe(new Date(h.timers.now()).toISOString());
    expect(after.json).not.toBe(full.json);
  });

  it('stores at once a drive list where a drive changed status, and reads that drive its SMART', async () => {
    const h = await harness(1);
    await poll(h);
    const before = drives(h);
    const failed = sim.control.failDrive({ site: 0, system: h.system });
    const now = await poll(h);
    expect(h.writes.flat()).toContain(RESOURCES_KEY);
    const after = drives(h);
    expect(after.at).toBe(now);
    expect(after.version).not.toBe(before.version);
    expect(driveList(h).Data.find((n) => n.Name === failed.node)?.Drives.find((d) => d.Id === failed.driveId)?.ResourceStatus).toMatch(/fail/i);
    expect(h.stores.cache.get(h.siteId, h.system, cacheKey(smartRead(failed.node, failed.driveId).op, smartRead(failed.node, failed.driveId).query))?.at).toBe(now);
    // And the next quiet poll leaves it alone again.
    const stored = drives(h);
    await poll(h);
    expect(drives(h)).toEqual(stored);
  });

  it('stores the drive list again once the row is volatileMaxAgeMs old, with its new readings', async () => {
    const h = await harness(2, { volatileMaxAgeMs: 2 * MINUTE });
    const full = drives(h);
    await poll(h);
    expect(drives(h)).toEqual(full);
    const now = await poll(h);
    expect(h.writes.flat()).toContain(RESOURCES_KEY);
    const after = drives(h);
    expect(after.at).toBe(now);
    expect(after.json).not.toBe(full.json);
  });

  it('a full refresh always stores the drive list', async () => {
    const h = await harness(3);
    await poll(h);
    h.timers.advance(1000);
    h.writes.length = 0;
    await h.fleet.refresh({ force: true });
    expect(h.writes.flat()).toContain(RESOURCES_KEY);
    expect(drives(h).at).toBe(new Date(h.timers.now()).toISOString());
  });

  it('reads a pretty-printed dialect by the same rule: sensors alone skip, a status change is stored', async () => {
    try {
      const h = await harness(4, {}, ['pretty-json']);
      const full = drives(h);
      await poll(h);
      expect(drives(h)).toEqual(full);
      const failed = sim.control.failDrive({ site: 0, system: h.system });
      const now = await poll(h);
      const after = drives(h);
      expect(after.at).toBe(now);
      expect(driveList(h).Data.find((n) => n.Name === failed.node)?.Drives.find((d) => d.Id === failed.driveId)?.ResourceStatus).toMatch(/fail/i);
    } finally {
      sim.control.setDialects([]);
    }
  });
});

describe('the readers after a poll that left the drive list alone', () => {
  const simulator = useSimulator({ sites: 1, systems: 1, seed: 'steady-volatile-readers' });

  it('a drive failing after quiet polls raises its alert and the system health level as before', async () => {
    const sim = simulator.sim;
    const data = tempDataDir('fd-steady-volatile-rt-');
    const rt = await openRuntime({ dataDir: data.dir, memorySecrets: true, timeoutMs: 10_000 });
    try {
      const s = sim.manifest.sites[0]!;
      const { id } = await rt.fleet.addSite(siteInput(s));
      const system = s.systems[0]!;
      await rt.fleet.refresh({ force: true });
      // The system's health roll-up as its brief carries it (levels per part).
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
