import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { FleetdeckApi } from '../../../app/ipc/contract.js';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetHealth } from '../../../renderer/lib/fleet-health.svelte.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { READS } from '../../../renderer/lib/reads.js';
import { cacheKey, fakeApi, site, status } from './support/fake-api.js';

// Issue 17: FleetHealth reads every system's health summary from main in one call, then only the
// summaries main computed again, instead of eight cache reads per system.

const healthOf = (volumes: number) => ({
  Volumes: { VolumesHealthInPercentage: volumes },
  HardwareResources: { HardwareResourcesHealthInPercentage: 100 },
  HardwareUtilization: { HardwareUtilizationInPercentage: 10 },
  CapacityUtilization: { CapacityInBytes: 100, CapacityUsageInBytes: 50, PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 100, CapacityUsageInBytes: 50 }] },
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
  let failNext = false;
  const api: FleetdeckApi = {
    invoke: (channel, request) => {
      if (failNext && channel === 'health:summaries') {
        failNext = false;
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
  const reads = () => fake.invocations.filter((i) => i.channel === 'health:summaries').map((i) => i.request);
  return { fake, fleet, health, put, reads, failOnce: () => (failNext = true) };
}

describe('FleetHealth on health:summaries', () => {
  it('shows every system from one read: levels with the connection state, worst first, data ages, errors', async () => {
    const { fake, health, reads } = await setup();
    await health.load();
    flushSync();
    expect(reads()).toEqual([{}]);
    expect(fake.invocations.some((i) => i.channel === 'cache:read')).toBe(false);
    // a2 is unreachable: its ok roll-up is shown as a warning, so it sorts first.
    expect(health.rows.map((r) => `${r.system} ${r.level} ${r.at}`)).toEqual(['a2 warning 2025-12-01T00:00:00Z', 'a1 ok 2026-01-01T00:00:00Z', 'b1 ok 2026-01-01T00:00:00Z']);
    expect(health.errors.map((e) => `${e.system}: ${e.Message}`)).toEqual(['b1: pool offline']);
    expect(health.of('b', 'b1')?.at).toBe('2026-01-01T00:00:00Z');
  });

  it("reads only what main computed again after a system's refresh ended", async () => {
    const { fake, fleet, health, put, reads } = await setup();
    await health.load();
    const first = health.of('a', 'a1');
    put('b', 'b1', READS.health, healthOf(50), '2026-01-02T00:00:00Z');
    fake.emit('fleet:status', status('b', 'b1', 'ok', { lastSuccessAt: '2026-01-02T00:00:00Z' }));
    expect(fleet.version('b', 'b1')).toBe(1);
    await health.load();
    flushSync();
    const [, second] = reads() as Array<{ since?: number }>;
    expect(second?.since).toBeGreaterThan(0);
    expect(health.rows[0]).toMatchObject({ system: 'b1', level: 'critical', at: '2026-01-02T00:00:00Z' });
    // The other systems' facts are the very objects read first: nothing else was sent again.
    expect(health.of('a', 'a1')).toBe(first);
  });

  it('folds loads asked for during a read into one more read', async () => {
    const { health, reads } = await setup();
    await Promise.all([health.load(), health.load(), health.load()]);
    expect(reads()).toHaveLength(2);
    expect(health.loading).toBe(false);
  });

  it('keeps what it showed, and says why, when a read fails; the next read recovers', async () => {
    const { fake, health, put, failOnce } = await setup();
    await health.load();
    failOnce();
    put('a', 'a1', READS.health, healthOf(50), '2026-01-03T00:00:00Z');
    fake.emit('fleet:status', status('a', 'a1', 'ok', { lastSuccessAt: '2026-01-03T00:00:00Z' }));
    await health.load();
    expect(health.error).toContain('main is busy');
    expect(health.rows).toHaveLength(3);
    expect(health.of('a', 'a1')?.at).toBe('2026-01-01T00:00:00Z');
    await health.load();
    expect(health.error).toBeUndefined();
    expect(health.of('a', 'a1')?.at).toBe('2026-01-03T00:00:00Z');
  });
});
