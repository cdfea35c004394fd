import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { FleetdeckApi } from '../../../app/ipc/contract.js';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetHealth } from '../../../renderer/lib/fleet-health.svelte.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { mapLimitBatched } from '../../../renderer/lib/limit.js';
import { READS } from '../../../renderer/lib/reads.js';
import { SearchIndex, type LiveSearch } from '../../../renderer/views/search.svelte.js';
import { cacheKey, fakeApi, settle, site, status, type CachedAnswer } from './support/fake-api.js';

// With 1,000 systems the overview, tree and fleet search recomputed every derived list
// once per system read (each answer arrives in its own task), quadratic work that kept the page busy
// for minutes. They now take the systems' data in batches; what they show at the end is unchanged.

const SITES = 4;
const PER_SITE = 15;
const AT = '2025-02-03T04:05:06Z';

/** A fleet of SITES × PER_SITE systems, each with a cached health record and one host; every IPC answer in a task of its own, as over the real bridge. */
async function fleetOf(): Promise<{ fleet: FleetStore; fake: ReturnType<typeof fakeApi> }> {
  const sites = Array.from({ length: SITES }, (_, i) => site(`s${i}`, `Site ${i}`));
  const statuses = sites.flatMap((s) => Array.from({ length: PER_SITE }, (_, j) => status(s.id, `${s.id}-sys${j}`, 'ok')));
  const answers = statuses.flatMap((st): Array<[string, CachedAnswer]> => [
    [cacheKey(st.siteId, st.system, READS.health.op, READS.health.query), { value: { Data: { Volumes: 100, Hardware: 100, Utilization: 10 } }, at: AT }],
    [cacheKey(st.siteId, st.system, READS.hosts.op, READS.hosts.query), { value: { Data: [{ Name: `host-of-${st.system}`, Ip: '10.0.0.1' }] }, at: AT }],
  ]);
  const fake = fakeApi({ sites, statuses, cache: new Map(answers) });
  const api: FleetdeckApi = {
    invoke: (channel, request) => new Promise((r) => setTimeout(r, 0)).then(() => fake.api.invoke(channel, request)),
    on: fake.api.on,
  };
  setApi(api);
  const fleet = new FleetStore();
  await fleet.load();
  return { fleet, fake };
}

/** Runs `read` in an effect and counts how often it reruns (how often the derived value changed). */
function countRuns(read: () => unknown): { runs: () => number; stop: () => void } {
  let runs = 0;
  const stop = $effect.root(() => {
    $effect(() => {
      void read();
      runs++;
    });
  });
  flushSync();
  return { runs: () => runs, stop };
}

describe('fleet-wide views at scale', () => {
  it('the overview takes every system health from one read, and shows them all at once', async () => {
    const { fleet, fake } = await fleetOf();
    const health = new FleetHealth(fleet);
    const watch = countRuns(() => health.rows);
    try {
      await health.load();
      flushSync();
      const systems = SITES * PER_SITE;
      expect(health.rows).toHaveLength(systems);
      expect(health.rows.every((r) => r.at === AT)).toBe(true);
      expect(health.loading).toBe(false);
      // One IPC read for every system's roll-up (it was eight cache reads per system), published once.
      expect(fake.invocations.filter((i) => i.channel === 'health:briefs')).toHaveLength(1);
      expect(fake.invocations.filter((i) => i.channel === 'cache:read')).toHaveLength(0);
      expect(watch.runs()).toBeLessThanOrEqual(2);
      // The details after the first frame: one more read for every system.
      await health.detailsSettled();
      flushSync();
      expect(fake.invocations.filter((i) => i.channel === 'health:summaries')).toHaveLength(1);
      expect(health.detailsRead).toBe(true);
    } finally {
      watch.stop();
    }
  }, 60_000);

  it('the fleet search asks main once per query and reads no cached answer itself', async () => {
    const { fleet, fake } = await fleetOf();
    fake.invocations.length = 0;
    const index = new SearchIndex(fleet);
    let query = $state('host-of');
    let live: LiveSearch | undefined;
    const stop = $effect.root(() => {
      live = index.live(() => query, 500);
    });
    try {
      await settle();
      const systems = SITES * PER_SITE;
      const found = live?.results.filter((e) => e.text.startsWith('host-of')) ?? [];
      expect(found).toHaveLength(systems);
      expect(new Set(found.map((e) => e.system)).size).toBe(systems);
      query = 's2-sys7';
      await settle();
      // The exact match first, then the host named after it and that host's address.
      expect(live?.results.map((e) => `${e.kind} ${e.text} (${e.context})`)).toEqual(['system s2-sys7 (Site 2)', 'host 10.0.0.1 (host host-of-s2-sys7)', 'host host-of-s2-sys7 (10.0.0.1)']);
      // Two queries, two requests: no cached answer crossed IPC.
      expect(fake.invocations.map((i) => i.channel)).toEqual(['search:query', 'search:query']);
    } finally {
      stop();
    }
  }, 60_000);

  it('mapLimitBatched hands over every result once, in batches, the rest also when a call fails', async () => {
    const batches: number[][] = [];
    await mapLimitBatched([1, 2, 3, 4, 5, 6, 7], 2, 3, async (n) => n * 10, (done) => batches.push(done.map(([, r]) => r)));
    expect(batches.map((b) => b.length)).toEqual([3, 3, 1]);
    expect(batches.flat().sort((a, b) => a - b)).toEqual([10, 20, 30, 40, 50, 60, 70]);

    const published: number[] = [];
    await expect(
      mapLimitBatched([1, 2, 3], 1, 10, async (n) => {
        if (n === 3) throw new Error('unreadable');
        return n;
      }, (done) => published.push(...done.map(([, r]) => r))),
    ).rejects.toThrow('unreadable');
    expect(published).toEqual([1, 2]);
  });
});
