/**
 * How a full refresh writes a system's answers to the offline cache: one transaction per system
 * (one commit per answer was the largest part of main's CPU per refresh), the same answers as
 * before, and no more held in memory than `cacheBatchBytes` before they are written.
 */
import { describe, expect, it, vi } from 'vitest';
import { fullGc } from '../../support/full-gc.js';
import type { FleetOptions } from '../../../main/core/fleet.js';
import { useFleetsOnDisk, useSimulator, type FleetOnDisk } from '../support/simulated-fleet.js';
import { refreshRead } from '../../../app/fleet/refresh-plan.js';
import { cacheKey } from '../../../main/store/offline-cache.js';

interface Harness extends FleetOnDisk {
  siteId: string;
  /** Keys of the answers passed to each cache write of a system ('' is the site's system list). */
  writes: Array<{ system: string; keys: string[] }>;
}

describe('a full refresh writes each system answers to the cache', () => {
  const world = useSimulator({ sites: 1, systems: 2, seed: 'cache-writes' });
  const openFleet = useFleetsOnDisk('fd-cache-writes-');

  /** @param onWrite called at each cache write, before it is made */
  async function harness(options: Partial<FleetOptions> = {}, onWrite?: (system: string) => void): Promise<Harness> {
    const f = await openFleet(options, [world.sim.manifest.sites[0]!]);
    const writes: Harness['writes'] = [];
    // Every write goes through putRows (put ends there): each call is one transaction.
    const putRows = f.stores.cache.putRows.bind(f.stores.cache);
    vi.spyOn(f.stores.cache, 'putRows').mockImplementation((siteId, system, rows, alongside) => {
      onWrite?.(system);
      writes.push({ system, keys: rows.map((e) => e.key) });
      putRows(siteId, system, rows, alongside);
    });
    return Object.assign(f, { siteId: f.siteIds[0]!, writes });
  }

  it('in one transaction per system, every answer of the system in it', async () => {
    const h = await harness();
    try {
      const statuses = await h.fleet.refresh({ force: true });
      expect(statuses.map((s) => `${s.system}: ${s.state}`)).toEqual(world.sim.manifest.sites[0]!.systems.map((system) => `${system}: ok`));
      for (const system of world.sim.manifest.sites[0]!.systems) {
        const own = h.writes.filter((w) => w.system === system);
        expect(own, `cache writes of ${system}`).toHaveLength(1);
        // The transaction holds what the cache now has for the system: nothing was written apart.
        const cached = h.stores.cache.entries(h.siteId, system).map((e) => e.key);
        expect(cached.length).toBeGreaterThan(20);
        expect([...own[0]!.keys].sort()).toEqual([...new Set(own[0]!.keys)].sort());
        expect(new Set(own[0]!.keys)).toEqual(new Set(cached));
      }
      // Besides the systems' writes, only the site's system list.
      expect(h.writes.filter((w) => w.system === '')).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('bounds every read of a system by its deadline signal alone: no AbortSignal.any per read', async () => {
    const h = await harness();
    // A combined signal per read (and per system) was a measurable share of main's CPU per answer
    // in a refresh: Node registers each with its sources and collects it later.
    const any = vi.spyOn(AbortSignal, 'any');
    // Nor a warning of a listener leak: the reads queued on one signal are many by design.
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const statuses = await h.fleet.refresh({ force: true });
      expect(statuses.every((s) => s.state === 'ok')).toBe(true);
      expect(h.writes.length).toBeGreaterThan(0);
      expect(any).not.toHaveBeenCalled();
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      any.mockRestore();
      await h.close();
    }
  });

  it("says a system's progress at its start and at each tenth of its reads, not after every read", async () => {
    const h = await harness();
    const said = new Map<string, Array<{ done: number; total: number }>>();
    const off = h.fleet.on((e) => {
      if (e.type !== 'status' || e.status.state !== 'refreshing' || !e.status.progress) return;
      said.set(e.status.system, [...(said.get(e.status.system) ?? []), e.status.progress]);
    });
    try {
      await h.fleet.refresh({ force: true });
      for (const system of world.sim.manifest.sites[0]!.systems) {
        const steps = said.get(system) ?? [];
        const last = steps.at(-1)!;
        expect(last.total, system).toBeGreaterThan(40);
        expect(steps[0], system).toEqual({ done: 0, total: expect.any(Number) });
        // A bar that moves to the end: the last step is the last tenth.
        expect(last.done * 10, system).toBeGreaterThanOrEqual(last.total * 9);
        // One per tenth, again once the SMART reads join the plan: never one per read.
        expect(steps.length, system).toBeLessThanOrEqual(22);
        expect(steps.length, system).toBeLessThan(last.total / 2);
        expect(steps.map((p) => p.done)).toEqual([...steps.map((p) => p.done)].sort((a, b) => a - b));
      }
    } finally {
      off();
      await h.close();
    }
  });

  it('writes what it holds once the answers pass cacheBatchBytes, and still every answer', async () => {
    const one = await harness();
    const small = await harness({ cacheBatchBytes: 1 });
    try {
      await one.fleet.refresh({ force: true });
      await small.fleet.refresh({ force: true });
      for (const system of world.sim.manifest.sites[0]!.systems) {
        const own = small.writes.filter((w) => w.system === system);
        // A byte's batch: answers are written as they arrive, not all at the end.
        expect(own.length).toBeGreaterThan(20);
        expect(new Set(small.stores.cache.entries(small.siteId, system).map((e) => e.key))).toEqual(new Set(one.stores.cache.entries(one.siteId, system).map((e) => e.key)));
      }
    } finally {
      await one.close();
      await small.close();
    }
  });

  it('hands the drive list it holds to the readers of the status event as it is, not parsed again from its text', async () => {
    const h = await harness();
    const resources = cacheKey('GET /resources/list', refreshRead('GET /resources/list').query);
    const read = new Map<string, unknown>();
    const rowOf = h.stores.cache.rowOf.bind(h.stores.cache);
    h.stores.cache.rowOf = (key, value, at, keepValue) => {
      if (key === resources) read.set(JSON.stringify(value), value);
      return rowOf(key, value, at, keepValue);
    };
    const handed: Array<{ system: string; value: unknown }> = [];
    const off = h.fleet.on((e) => {
      if (e.type === 'status' && e.status.state === 'ok') handed.push({ system: e.status.system, value: e.written?.get(resources)?.value });
    });
    try {
      await h.fleet.refresh({ force: true });
      expect(handed.map((x) => x.system).sort()).toEqual([...world.sim.manifest.sites[0]!.systems].sort());
      for (const { system, value } of handed) {
        // The object the refresh read, equal to what the cache gives back.
        expect(value, system).toBe(read.get(JSON.stringify(value)));
        expect(value, system).toEqual(h.stores.cache.get(h.siteId, system, resources)?.value);
      }
    } finally {
      off();
      await h.close();
    }
  });

  it('holds each answer as its stored text until the system is written, not parsed: only the drive list (for SMART) stays', async () => {
    const gc = fullGc();
    // Each parsed answer as it is turned into its row, weakly: what the refresh still holds at the write stays.
    const arrived: Array<{ key: string; value: WeakRef<object> }> = [];
    const alive = new Set<string>();
    let systemWrites = 0;
    const h = await harness({}, (system) => {
      if (system === '') return;
      systemWrites++;
      gc();
      for (const a of arrived) if (a.value.deref() !== undefined) alive.add(a.key.replace(/\?.*/, ''));
    });
    // Not a spy: a spy keeps every argument it was called with.
    const rowOf = h.stores.cache.rowOf.bind(h.stores.cache);
    h.stores.cache.rowOf = (key, value, at) => {
      if (typeof value === 'object' && value !== null) arrived.push({ key, value: new WeakRef(value) });
      return rowOf(key, value, at);
    };
    try {
      const statuses = await h.fleet.refresh({ force: true });
      expect(statuses.every((s) => s.state === 'ok')).toBe(true);
      expect(systemWrites).toBe(2);
      expect(arrived.length).toBeGreaterThan(40);
      // The site's system list is held while its systems refresh (one per site); of a system's answers, the drive list alone.
      expect([...alive].sort()).toEqual(['GET /resources/list', 'GET /systems/list']);
    } finally {
      await h.close();
    }
  });
});
