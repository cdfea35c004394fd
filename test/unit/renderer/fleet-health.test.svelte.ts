import { flushSync } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { planTotal } from '../../../app/capacity/plan.js';
import type { FleetdeckApi } from '../../../app/ipc/contract.js';
import { setApi, startFirstReads } from '../../../renderer/lib/api.js';
import { briefOf, type HealthBrief, type RollupBrief } from '../../../app/health/summary-facts.js';
import type { SystemStatusView } from '../../../app/ipc/contract.js';
import { FleetHealth, overviewOf, type Sequenced } from '../../../renderer/lib/fleet-health.svelte.js';
import { FleetStore, type FleetSystem } from '../../../renderer/lib/fleet.svelte.js';
import { compareText } from '../../../renderer/lib/format.js';
import { levelRank, rollupHealth, systemLevel, type Level } from '../../../renderer/lib/health.js';
import { READS } from '../../../renderer/lib/reads.js';
import { cacheKey, fakeApi, site, status } from './support/fake-api.js';

// FleetHealth reads every system's health brief from main in one call (what the first
// frame shows), the details (pools, drives, pairs, errors) after that frame is painted, then only the
// summaries main computed again, instead of eight cache reads per system.

const healthOf = (volumes: number) => ({
  Volumes: { VolumesHealthInPercentage: volumes },
  HardwareResources: { HardwareResourcesHealthInPercentage: 100 },
  HardwareUtilization: { HardwareUtilizationInPercentage: 10 },
  CapacityUtilization: { CapacityInBytes: 100, CapacityUsageInBytes: 50, PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 100, CapacityUsageInBytes: 50 }] },
});

/** Every FleetHealth made: the details read each schedules after its first frame ends before the next test's API is set. */
const made: FleetHealth[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((h) => h.detailsSettled()));
});

async function setup() {
  const sites = [site('a', 'Alpha'), site('b', 'Beta')];
  const statuses = [status('a', 'a1', 'ok', { lastSuccessAt: '2026-01-01T00:00:00Z' }), status('a', 'a2', 'unreachable'), status('b', 'b1', 'ok', { lastSuccessAt: '2026-01-01T00:00:00Z' })];
  const fake = fakeApi({ sites, statuses });
  const put = (siteId: string, system: string, read: { op: string; query: Record<string, unknown> }, value: unknown, at: string) => fake.cache.set(cacheKey(siteId, system, read.op, read.query), { value, at });
  put('a', 'a1', READS.health, healthOf(100), '2026-01-01T00:00:00Z');
  put('a', 'a2', READS.health, healthOf(100), '2025-12-01T00:00:00Z');
  put('b', 'b1', READS.health, healthOf(100), '2026-01-01T00:00:00Z');
  put('b', 'b1', READS.notifications, { Data: [{ Level: 5, Timestamp: '2026-01-01T00:00:00Z', Message: 'pool offline' }] }, '2026-01-01T00:00:00Z');
  put('b', 'b1', READS.resources, { Data: [{ Name: 'n1', Drives: [{ Id: 7, Name: 'd7', ResourceStatus: 'Failed' }] }] }, '2026-01-01T00:00:00Z');
  let failNext: string | undefined;
  const api: FleetdeckApi = {
    invoke: (channel, request) => {
      if (failNext === channel) {
        failNext = undefined;
        return Promise.reject(Object.assign(new Error('main is busy'), { code: 'internal' }));
      }
      return fake.api.invoke(channel, request);
    },
    on: fake.api.on,
  };
  setApi(api);
  const fleet = new FleetStore({ eventBatchMs: 0 });
  await fleet.load();
  fleet.listen();
  const health = new FleetHealth(fleet);
  made.push(health);
  const reads = () => fake.invocations.filter((i) => i.channel.startsWith('health:')).map((i) => ({ [i.channel]: i.request }));
  return { fake, fleet, health, put, reads, failOnce: (channel: 'health:briefs' | 'health:summaries') => (failNext = channel) };
}

/** Reads the roll-ups, then the details as after the first frame. */
async function loadBoth(health: FleetHealth): Promise<void> {
  await health.load();
  await health.detailsSettled();
  flushSync();
}

describe('FleetHealth on health:briefs and health:summaries', () => {
  it('takes its first roll-up read from the ones the first script sent, asking main nothing more for it; later reads ask again', async () => {
    const { fake, health, reads } = await setup();
    startFirstReads();
    const sent = reads().length;
    expect(reads().at(-1)).toEqual({ 'health:briefs': {} });
    await health.load();
    flushSync();
    expect(reads()).toHaveLength(sent);
    expect(health.rows.map((r) => r.system)).toHaveLength(3);
    await health.detailsSettled();
    expect(reads().slice(sent)).toEqual([{ 'health:summaries': {} }]);
    expect(fake.invocations.filter((i) => i.channel === 'health:briefs')).toHaveLength(1);
  });

  it('shows every system from one roll-up read: levels with the connection state, worst first, data ages, totals; the details say they are not read yet', async () => {
    const { fake, health, reads } = await setup();
    await health.load();
    flushSync();
    expect(reads()).toEqual([{ 'health:briefs': {} }]);
    expect(fake.invocations.some((i) => i.channel === 'cache:read')).toBe(false);
    // a2 is unreachable: its ok roll-up is shown as critical (as its alert is); b1's failed drive makes it critical.
    expect(health.rows.map((r) => `${r.system} ${r.level} ${r.at}`)).toEqual(['a2 critical 2025-12-01T00:00:00Z', 'b1 critical 2026-01-01T00:00:00Z', 'a1 ok 2026-01-01T00:00:00Z']);
    expect(health.of('b', 'b1')).toMatchObject({ at: '2026-01-01T00:00:00Z', drives: 1, lagging: 0, rollup: { level: 'critical' } });
    expect(health.totals).toMatchObject({ usable: 300, allocated: 150, drives: 1, lagging: 0, pools: 0, byLevel: { critical: 2, unknown: 0, warning: 0, ok: 1 } });
    expect(health.loading).toBe(false);
    // The details are not there yet, and say so: no empty list passed off as "none".
    expect(health.detailsRead).toBe(false);
    expect(health.details('b', 'b1')).toBeUndefined();
    expect(health.errors).toEqual([]);
    expect(health.plan).toEqual([]);
  });

  it('reads the details after the first frame: the attention lists and capacity planning, agreeing with the roll-ups', async () => {
    const { health, reads } = await setup();
    await health.load();
    const brief = health.of('b', 'b1');
    await health.detailsSettled();
    flushSync();
    expect(reads()).toEqual([{ 'health:briefs': {} }, { 'health:summaries': {} }]);
    expect(health.detailsRead).toBe(true);
    expect(health.errors.map((e) => `${e.system}: ${e.Message}`)).toEqual(['b1: pool offline']);
    expect(health.drives.map((d) => `${d.siteId}/${d.system} ${d.node} ${d.drive.Name}`)).toEqual(['b/b1 n1 d7']);
    expect(health.plan.map((p) => `${p.system} ${p.pool}`)).toEqual(['a1 p', 'a2 p', 'b1 p']);
    const t = planTotal(health.plan);
    expect(health.totals).toMatchObject({ usable: t.usable, allocated: t.allocated, drives: health.drives.length, lagging: health.lagging.length, pools: health.pools.length });
    // The roll-up read first is kept: main computed nothing again in between.
    expect(health.of('b', 'b1')).toBe(brief);
  });

  it("reads only what main computed again after a system's refresh ended, roll-ups before the details are read, whole summaries after", async () => {
    const { fake, fleet, health, put, reads } = await setup();
    await health.load();
    put('b', 'b1', READS.health, healthOf(50), '2026-01-02T00:00:00Z');
    fake.emit('fleet:status', status('b', 'b1', 'ok', { lastSuccessAt: '2026-01-02T00:00:00Z' }));
    expect(fleet.version('b', 'b1')).toBe(1);
    await health.load();
    flushSync();
    const since = (reads()[1]?.['health:briefs'] as { since?: number } | undefined)?.since;
    expect(since).toBeGreaterThan(0);
    // b1 is critical now, beside a2 (unreachable): the two critical systems come first.
    expect(health.rows.slice(0, 2).map((r) => r.system).sort()).toEqual(['a2', 'b1']);
    expect(health.rows.find((r) => r.system === 'b1')).toMatchObject({ level: 'critical', at: '2026-01-02T00:00:00Z' });

    await health.detailsSettled();
    const first = health.of('a', 'a1');
    const firstDetails = health.details('a', 'a1');
    put('a', 'a2', READS.health, healthOf(70), '2026-01-03T00:00:00Z');
    fake.emit('fleet:status', status('a', 'a2', 'unreachable', { lastSuccessAt: '2026-01-03T00:00:00Z' }));
    await health.load();
    flushSync();
    const last = reads().at(-1) as { 'health:summaries'?: { since?: number } };
    expect(last['health:summaries']?.since).toBeGreaterThan(since ?? 0);
    expect(health.of('a', 'a2')).toMatchObject({ at: '2026-01-03T00:00:00Z', rollup: { level: 'critical' } });
    expect(health.details('a', 'a2')?.at).toBe('2026-01-03T00:00:00Z');
    // The other systems' facts are the very objects read first: nothing else was sent again.
    expect(health.of('a', 'a1')).toBe(first);
    expect(health.details('a', 'a1')).toBe(firstDetails);
  });

  it('publishes nothing for a read that brings no change: the rows and totals are not built again', async () => {
    const { health, reads } = await setup();
    await health.load();
    flushSync();
    const rows = health.rows;
    const totals = health.totals;
    // The read the window makes when its fleet list is first shown, before main computed anything again.
    await health.load();
    flushSync();
    expect(reads()).toEqual([{ 'health:briefs': {} }, { 'health:briefs': { since: expect.any(Number) } }]);
    expect(health.rows).toBe(rows);
    expect(health.totals).toBe(totals);
  });

  it('folds loads asked for during a read into one more read', async () => {
    const { health, reads } = await setup();
    await Promise.all([health.load(), health.load(), health.load()]);
    expect(reads()).toHaveLength(2);
    expect(health.loading).toBe(false);
  });

  it('keeps what it showed, and says why, when a read fails; the next read recovers', async () => {
    const { fake, health, put, failOnce } = await setup();
    await loadBoth(health);
    failOnce('health:summaries');
    put('a', 'a1', READS.health, healthOf(50), '2026-01-03T00:00:00Z');
    fake.emit('fleet:status', status('a', 'a1', 'ok', { lastSuccessAt: '2026-01-03T00:00:00Z' }));
    await health.load();
    expect(health.error).toContain('main is busy');
    expect(health.rows).toHaveLength(3);
    expect(health.of('a', 'a1')?.at).toBe('2026-01-01T00:00:00Z');
    // The details read before stay shown: only a first details read that fails is told in their place.
    expect(health.detailsError).toBeUndefined();
    await health.load();
    expect(health.error).toBeUndefined();
    expect(health.of('a', 'a1')?.at).toBe('2026-01-03T00:00:00Z');
  });

  it('says why the details are missing when their first read fails, and reads them at the next load', async () => {
    const { health, failOnce, reads } = await setup();
    failOnce('health:summaries');
    await health.load();
    await health.detailsSettled();
    expect(health.detailsRead).toBe(false);
    expect(health.detailsError).toContain('main is busy');
    expect(health.rows.map((r) => r.at)).toContain('2026-01-01T00:00:00Z');
    await health.load();
    expect(reads().at(-1)).toEqual({ 'health:summaries': {} });
    expect(health.detailsRead).toBe(true);
    expect(health.detailsError).toBeUndefined();
    expect(health.errors).toHaveLength(1);
  });

  it("lists the fleet's 100 newest errors, newest first, merged across systems", async () => {
    const sites = [site('a', 'Alpha')];
    const statuses = Array.from({ length: 7 }, (_, i) => status('a', `s${i}`, 'ok'));
    const fake = fakeApi({ sites, statuses });
    // 7 systems × 20 errors kept each, their times interleaved across systems (and one tie).
    for (const [i, st] of statuses.entries()) {
      const records = Array.from({ length: 25 }, (_, j) => ({ Id: j, Level: 4, Timestamp: new Date(Date.UTC(2026, 0, 1, 0, (j * 7 + i * 3) % 180)).toISOString(), Message: `${st.system} e${j}` }));
      fake.cache.set(cacheKey('a', st.system, READS.notifications.op, READS.notifications.query), { value: { Data: records }, at: '2026-01-02T00:00:00Z' });
    }
    setApi(fake.api);
    const fleet = new FleetStore({ eventBatchMs: 0 });
    await fleet.load();
    const health = new FleetHealth(fleet);
    made.push(health);
    await loadBoth(health);
    const all = statuses.flatMap((st) => health.details('a', st.system)?.errors ?? []);
    expect(all).toHaveLength(140);
    const expected = all
      .map((e) => e.Timestamp ?? '')
      .sort((x, y) => y.localeCompare(x))
      .slice(0, 100);
    expect(health.errors.map((e) => e.Timestamp)).toEqual(expected);
    expect(new Set(health.errors.map((e) => `${e.system} ${e.Message}`)).size).toBe(100);
  });
});

describe('overviewOf: the overview rows and totals of a large fleet in one walk', () => {
  // What the overview showed before its rows and totals were computed together: the
  // rule itself, written plainly, to hold the faster walk to the same order and the same rows.
  function plainly(systems: readonly FleetSystem[], briefs: ReadonlyMap<string, Sequenced<HealthBrief>>) {
    const nothing = briefOf({ rollup: rollupHealth(undefined), at: undefined, drives: [], lagging: [] }).rollup;
    const lowest = (r: RollupBrief) =>
      Math.min(100, ...r.dimensions.map((d) => (d.name === 'volumes' || d.name === 'hardware' ? (d.percent ?? 100) : d.name === 'ha' ? 100 : 100 - (d.percent ?? 0))));
    const rows = systems.map((s) => {
      const b = briefs.get(s.key);
      const rollup = b?.rollup ?? nothing;
      return { key: s.key, siteId: s.siteId, siteName: s.site?.name ?? s.siteId, system: s.system, state: s.status.state, rollup, level: systemLevel(rollup, s.status.state), at: b?.at, drives: b?.drives ?? 0, lagging: b?.lagging ?? 0 };
    });
    const sorted = [...rows].sort((a, b) => levelRank(a.level) - levelRank(b.level) || lowest(a.rollup) - lowest(b.rollup) || compareText(a.system, b.system));
    const byLevel = { critical: 0, unknown: 0, warning: 0, ok: 0 };
    for (const r of rows) byLevel[r.level]++;
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
    return {
      rows: sorted,
      totals: { usable: sum((r) => r.rollup.capacity.usable), allocated: sum((r) => r.rollup.capacity.allocated), byLevel, pools: sum((r) => r.rollup.capacity.attention), drives: sum((r) => r.drives), lagging: sum((r) => r.lagging) },
    };
  }

  it('orders 1,200 systems as the rule says (level with the connection, lowest figure, name; ties kept in fleet order) and counts the same totals', () => {
    const levels: Level[] = ['ok', 'warning', 'critical', 'unknown'];
    const states: Array<SystemStatusView['state']> = ['ok', 'ok', 'ok', 'paused', 'unreachable', 'certificate-changed', 'protocol-error', 'refreshing'];
    // Names with ties, case, accents and another script (the collator decides those), the same name at several sites.
    const names = ['atlas', 'Atlas', 'ätlas', 'zeta', 'beta-2', 'beta-10', 'Ωmega', 'core_1', 'core-1'];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed >>> 12) % n;
    };
    const sites = Array.from({ length: 40 }, (_, i) => site(`s${i}`, `Site ${i % 13}`));
    const statuses: SystemStatusView[] = [];
    const entries: Array<[string, Sequenced<HealthBrief>]> = [];
    for (let i = 0; i < 1200; i++) {
      const siteId = `s${i % 41}`; // s40 is not a known site: its systems group under the site id
      const system = `${names[random(names.length)]}-${random(30)}`;
      if (statuses.some((s) => s.siteId === siteId && s.system === system)) continue;
      statuses.push(status(siteId, system, states[random(states.length)]!));
      if (random(10) === 0) continue; // no roll-up read yet
      const percent = (n: number) => (random(4) === 0 ? undefined : [40, 40.5, 59.75, 100, 24.090026637034477][n]);
      entries.push([`${siteId}\u0000${system}`, {
        seq: i,
        at: random(5) === 0 ? undefined : `2026-01-0${1 + random(9)}T00:00:00Z`,
        drives: random(3),
        lagging: random(2),
        rollup: {
          level: levels[random(4)]!,
          dimensions: [
            { name: 'volumes', level: 'ok', percent: percent(random(5)), text: '' },
            { name: 'hardware', level: 'ok', percent: percent(random(5)), text: '' },
            { name: 'utilization', level: 'ok', percent: percent(random(5)), text: '' },
            { name: 'capacity', level: 'ok', percent: percent(random(5)), text: '' },
            { name: 'ha', level: 'ok', text: '' },
          ].slice(0, 2 + random(4)) as RollupBrief['dimensions'],
          reasons: [],
          ha: undefined,
          capacity: { level: 'ok', verdict: undefined, usable: random(1000), allocated: random(500), unknownUsable: 0, pools: 1, attention: random(2) },
        },
      }]);
    }
    const briefs: ReadonlyMap<string, Sequenced<HealthBrief>> = new Map(entries);
    const fleet = new FleetStore({ eventBatchMs: 0 });
    fleet.sites = sites;
    fleet.applyAll(statuses);
    const systems = fleet.systems;
    expect(systems.length).toBeGreaterThan(1000);
    const got = overviewOf(systems, briefs);
    const want = plainly(systems, briefs);
    expect(got.rows).toEqual(want.rows);
    expect(got.rows.map((r) => r.key)).toEqual(want.rows.map((r) => r.key));
    expect(got.totals).toEqual(want.totals);
    // Each row is the brief's roll-up itself, not a copy.
    for (const r of got.rows) if (briefs.has(r.key)) expect(r.rollup).toBe(briefs.get(r.key)!.rollup);
    // The fleet holds rows of every level.
    expect(new Set(got.rows.map((r) => r.level))).toEqual(new Set(levels));
  });
});
