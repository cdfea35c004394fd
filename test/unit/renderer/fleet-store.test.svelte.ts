import { describe, expect, it, vi } from 'vitest';
import { setApi, startFirstReads } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { compareText } from '../../../renderer/lib/format.js';
import type { SystemStatusView } from '../../../app/ipc/contract.js';
import { fakeApi, site, status } from './support/fake-api.js';

async function store(eventBatchMs = 0) {
  const fake = fakeApi({ sites: [site('b', 'Bravo'), site('a', 'Alpha')], statuses: [status('a', 'x', 'stale'), status('b', 'y', 'ok', { lastSuccessAt: 't1' })], simulated: true });
  setApi(fake.api);
  const fleet = new FleetStore({ eventBatchMs });
  await fleet.load();
  return { fleet, fake };
}

describe('FleetStore', () => {
  it('takes the reads the first script sent, once: the first load asks main nothing more, a second load asks again', async () => {
    const fake = fakeApi({ sites: [site('a', 'Alpha')], statuses: [status('a', 'x', 'ok')] });
    setApi(fake.api);
    startFirstReads();
    const sent = (): string[] => fake.invocations.map((i) => i.channel);
    expect(sent()).toEqual(['app:info', 'sites:list', 'fleet:status', 'health:briefs']);
    const fleet = new FleetStore({ eventBatchMs: 0 });
    await fleet.load();
    expect(sent()).toHaveLength(4);
    expect(fleet.systems.map((s) => `${s.site?.name}/${s.system}`)).toEqual(['Alpha/x']);
    await fleet.load();
    expect(sent()).toEqual(['app:info', 'sites:list', 'fleet:status', 'health:briefs', 'app:info', 'sites:list', 'fleet:status']);
  });

  it('sends the first reads in one exchange over a transport that batches, each answer decoded on its own', async () => {
    const fake = fakeApi({ sites: [site('a', 'Alpha')], statuses: [status('a', 'x', 'ok')] });
    const batches: string[][] = [];
    setApi({
      ...fake.api,
      invokeAll: (calls) => {
        batches.push(calls.map(([channel]) => channel));
        return calls.map(([channel, request]) => (channel === 'sites:list' ? Promise.reject(new Error('the site list could not be read')) : fake.api.invoke(channel as 'app:info', request as never)));
      },
    });
    startFirstReads();
    expect(batches).toEqual([['app:info', 'sites:list', 'fleet:status', 'health:briefs']]);
    const fleet = new FleetStore({ eventBatchMs: 0 });
    await fleet.load();
    // One read's refusal is that read's: said as any failed load.
    expect(fleet.error).toMatch(/the site list could not be read/);
    // Nothing was asked one call at a time; a second load asks again, as single calls.
    expect(fake.invocations.map((i) => i.channel)).toEqual(['app:info', 'fleet:status', 'health:briefs']);
    await fleet.load();
    expect(fleet.error).toBeUndefined();
    expect(fleet.systems.map((s) => `${s.site?.name}/${s.system}`)).toEqual(['Alpha/x']);
    expect(batches).toHaveLength(1);
  });

  it('says a first read that failed as any failed load, and reads again on the next load', async () => {
    const fake = fakeApi({ sites: [site('a', 'Alpha')], statuses: [status('a', 'x', 'ok')] });
    let refuse = true;
    setApi({
      invoke: async (channel, request) => {
        if (channel === 'fleet:status' && refuse) throw Object.assign(new Error('the cache could not be read'), { code: 'store' });
        return fake.api.invoke(channel, request);
      },
      on: fake.api.on,
    });
    startFirstReads();
    const fleet = new FleetStore({ eventBatchMs: 0 });
    await fleet.load();
    expect(fleet.error).toMatch(/the cache could not be read/);
    expect(fleet.systems).toEqual([]);
    refuse = false;
    await fleet.load();
    expect(fleet.error).toBeUndefined();
    expect(fleet.systems).toHaveLength(1);
  });

  it('shows its first read with another one: nothing is published until that one has settled, even when it failed', async () => {
    const fake = fakeApi({ sites: [site('a', 'Alpha')], statuses: [status('a', 'x', 'ok')] });
    setApi(fake.api);
    let fail!: (err: Error) => void;
    const health = new Promise<void>((_, reject) => (fail = reject));
    const fleet = new FleetStore({ eventBatchMs: 0 });
    const loading = fleet.load({ with: health });
    await vi.waitFor(() => expect(fake.invocations.map((i) => i.channel)).toContain('fleet:status'));
    await new Promise((r) => setTimeout(r, 0));
    expect(fleet.loaded).toBe(false);
    expect(fleet.systems).toEqual([]);
    fail(new Error('main is busy'));
    await loading;
    expect(fleet.loaded).toBe(true);
    expect(fleet.error).toBeUndefined();
    expect(fleet.systems.map((s) => s.system)).toEqual(['x']);
  });

  it('loads info, sites and statuses, sorted by site name', async () => {
    const { fleet } = await store();
    expect(fleet.info?.simulated).toBe(true);
    expect(fleet.systems.map((s) => `${s.site?.name}/${s.system}`)).toEqual(['Alpha/x', 'Bravo/y']);
  });

  it('orders systems as one stable sort by site name then system name would, grouping by site name first', async () => {
    // Two sites of one name (their systems interleave by name), names the collator holds equal in
    // two spellings (é composed and decomposed), one named like a prototype's property; systems of
    // one name under sites of equal names stay in the order main gave them.
    const sites = [site('s2', 'Lyon'), site('s1', 'Lyon'), site('s3', 'Z\u00e9ta'), site('s4', 'Ze\u0301ta'), site('s5', 'alpha'), site('s6', '__proto__'), site('s7', 'Beta')];
    const names = ['b-2', 'a-10', 'A-9', 'c', 'zz', 'é', 'e'];
    const statuses = sites.flatMap((s, i) => names.map((n, j) => status(s.id, names[(i + j) % names.length]!, j % 2 ? 'ok' : 'stale')));
    const given = sites.flatMap((s) => statuses.filter((x) => x.siteId === s.id));
    const nameOf = (id: string): string => sites.find((x) => x.id === id)!.name;
    const expected = [...given].sort((a, b) => compareText(nameOf(a.siteId), nameOf(b.siteId)) || compareText(a.system, b.system));
    setApi(fakeApi({ sites, statuses }).api);
    const fleet = new FleetStore({ eventBatchMs: 0 });
    await fleet.load();
    const shown = (list: ReadonlyArray<{ siteId: string; system: string; state: string }>): string[] => list.map((s) => `${s.siteId}/${s.system}/${s.state}`);
    expect(shown(fleet.systems.map((s) => s.status))).toEqual(shown(expected));
    expect(fleet.systems.every((s) => s.site?.id === s.siteId)).toBe(true);
  });

  it('moves a system’s data version when a refresh finishes or new data arrived, not on progress', async () => {
    const { fleet, fake } = await store();
    const stop = fleet.listen();
    expect(fleet.version('a', 'x')).toBe(0);
    // The first load moved no version.
    expect(fleet.versionsMoved).toBe(0);
    fake.emit('fleet:status', status('a', 'x', 'refreshing', { progress: { done: 1, total: 4 } }));
    fake.emit('fleet:status', status('a', 'x', 'refreshing', { progress: { done: 2, total: 4 } }));
    expect(fleet.version('a', 'x')).toBe(0);
    expect(fleet.versionsMoved).toBe(0);
    fake.emit('fleet:status', status('a', 'x', 'ok', { lastSuccessAt: 't2' }));
    expect(fleet.version('a', 'x')).toBe(1);
    expect(fleet.versionsMoved).toBe(1);
    fake.emit('fleet:status', status('b', 'y', 'ok', { lastSuccessAt: 't3' }));
    expect(fleet.version('b', 'y')).toBe(1);
    expect(fleet.version('a', 'x')).toBe(1);
    expect(fleet.versionsMoved).toBe(2);
    // One publication that moves several systems' versions is one move.
    fleet.applyAll([status('a', 'x', 'ok', { lastSuccessAt: 't4' }), status('b', 'y', 'ok', { lastSuccessAt: 't5' })]);
    expect([fleet.version('a', 'x'), fleet.version('b', 'y'), fleet.versionsMoved]).toEqual([2, 2, 3]);
    stop();
  });

  it('moves the data version when a background poll ends (no refreshing status before it), ok or with errors', async () => {
    const { fleet, fake } = await store();
    const stop = fleet.listen();
    fake.emit('fleet:status', status('b', 'y', 'ok', { lastSuccessAt: 't2' }));
    expect(fleet.version('b', 'y')).toBe(1);
    // A poll where some reads failed: the success time stays, the error time moves; what it did read is new.
    fake.emit('fleet:status', status('b', 'y', 'stale', { lastSuccessAt: 't2', lastErrorAt: 't3', lastError: '1 read(s) failed' }));
    expect(fleet.version('b', 'y')).toBe(2);
    // The same status again (an event repeated) is no new data.
    fake.emit('fleet:status', status('b', 'y', 'stale', { lastSuccessAt: 't2', lastErrorAt: 't3', lastError: '1 read(s) failed' }));
    expect(fleet.version('b', 'y')).toBe(2);
    stop();
  });

  it('sums refresh progress over the systems refreshing now', async () => {
    const { fleet, fake } = await store();
    const stop = fleet.listen();
    expect(fleet.progress).toBeUndefined();
    fake.emit('fleet:status', status('a', 'x', 'refreshing', { progress: { done: 3, total: 20 } }));
    fake.emit('fleet:status', status('b', 'y', 'refreshing', { progress: { done: 5, total: 22 } }));
    expect(fleet.progress).toEqual({ done: 8, total: 42, systems: 2 });
    stop();
  });

  it('applies a burst of status events at once after the batch interval', async () => {
    const { fleet, fake } = await store(10);
    vi.useFakeTimers();
    const stop = fleet.listen();
    try {
      fake.emit('fleet:status', status('a', 'x', 'refreshing'));
      fake.emit('fleet:status', status('a', 'x', 'unreachable'));
      expect(fleet.status('a', 'x')?.state).toBe('stale');
      await vi.advanceTimersByTimeAsync(9);
      expect(fleet.status('a', 'x')?.state, 'not before the interval').toBe('stale');
      await vi.advanceTimersByTimeAsync(1);
      expect(fleet.status('a', 'x')?.state).toBe('unreachable');
      expect(fleet.version('a', 'x')).toBe(1);
    } finally {
      stop();
      vi.useRealTimers();
    }
  });

  describe('each system’s newest status, whatever the order of arrival (main’s seq)', () => {
    /** A fleet whose `fleet:status` answers are held until `answer` hands them out, each one the snapshot given then. */
    function heldSnapshots() {
      const fake = fakeApi({ sites: [site('a', 'Alpha'), site('b', 'Bravo')] });
      const held: Array<(systems: SystemStatusView[]) => void> = [];
      setApi({
        invoke: (channel, request) =>
          channel === 'fleet:status'
            ? (new Promise((resolve) => held.push((systems) => resolve([{ siteId: 'a', systems: systems.filter((s) => s.siteId === 'a') }, { siteId: 'b', systems: systems.filter((s) => s.siteId === 'b') }]))) as never)
            : fake.api.invoke(channel, request),
        on: fake.api.on,
      });
      const asked = (): Promise<void> => vi.waitFor(() => expect(held.length).toBeGreaterThan(0));
      const answer = async (...systems: SystemStatusView[]): Promise<void> => {
        // (vi.waitFor moves fake timers: not called once asked.)
        if (held.length === 0) await asked();
        held.shift()!(systems);
      };
      return { fake, asked, answer };
    }
    const shown = (fleet: FleetStore): string[] => fleet.systems.map((s) => `${s.system}:${s.status.state}:${s.status.seq}`);

    it('a snapshot read before an event but answered after it (the Electron gap) does not overwrite it', async () => {
      const { fake, answer } = heldSnapshots();
      const fleet = new FleetStore({ eventBatchMs: 0 });
      const stop = fleet.listen();
      const loading = fleet.load();
      // The preload hands over the status it kept (x refreshed at 8) before main's answer (as of 5) arrives.
      fake.emit('fleet:status', status('a', 'x', 'ok', { lastSuccessAt: 't8', seq: 8 }));
      await answer(status('a', 'x', 'stale', { lastSuccessAt: 't1', seq: 5 }), status('b', 'y', 'ok', { seq: 2 }));
      await loading;
      expect(shown(fleet)).toEqual(['x:ok:8', 'y:ok:2']);
      stop();
    });

    it('an event newer than the snapshot applied before it is taken', async () => {
      const { fake, answer } = heldSnapshots();
      const fleet = new FleetStore({ eventBatchMs: 0 });
      const loading = fleet.load();
      await answer(status('a', 'x', 'stale', { seq: 5 }), status('b', 'y', 'ok', { seq: 2 }));
      await loading;
      const stop = fleet.listen();
      fake.emit('fleet:status', status('a', 'x', 'refreshing', { seq: 6 }));
      expect(shown(fleet)).toEqual(['x:refreshing:6', 'y:ok:2']);
      // An event the snapshot already held (sent before main answered it) changes nothing.
      fake.emit('fleet:status', status('b', 'y', 'stale', { seq: 1 }));
      expect(shown(fleet)).toEqual(['x:refreshing:6', 'y:ok:2']);
      stop();
    });

    it('an event replayed twice is taken once: the second publishes nothing and moves no data version', async () => {
      const { fake, answer } = heldSnapshots();
      const fleet = new FleetStore({ eventBatchMs: 0 });
      const loading = fleet.load();
      await answer(status('a', 'x', 'refreshing', { seq: 5 }));
      await loading;
      const stop = fleet.listen();
      const done = status('a', 'x', 'ok', { lastSuccessAt: 't9', seq: 9 });
      fake.emit('fleet:status', done);
      const systems = fleet.systems;
      expect([fleet.version('a', 'x'), fleet.versionsMoved]).toEqual([1, 1]);
      fake.emit('fleet:status', { ...done });
      expect(fleet.systems).toBe(systems);
      expect([fleet.version('a', 'x'), fleet.versionsMoved]).toEqual([1, 1]);
      stop();
    });

    it('a later snapshot older than what the store has is left out per system; a newer one is taken', async () => {
      const { fake, answer } = heldSnapshots();
      const fleet = new FleetStore({ eventBatchMs: 0 });
      let loading = fleet.load();
      await answer(status('a', 'x', 'stale', { seq: 3 }), status('b', 'y', 'stale', { seq: 4 }));
      await loading;
      const stop = fleet.listen();
      fake.emit('fleet:status', status('a', 'x', 'ok', { lastSuccessAt: 't7', seq: 7 }));
      // Older for x (6 < 7), newer for y (6 > 4).
      loading = fleet.load();
      await answer(status('a', 'x', 'refreshing', { seq: 6 }), status('b', 'y', 'ok', { lastSuccessAt: 't6', seq: 6 }));
      await loading;
      expect(shown(fleet)).toEqual(['x:ok:7', 'y:ok:6']);
      // Newer for both.
      loading = fleet.load();
      await answer(status('a', 'x', 'unreachable', { seq: 10 }), status('b', 'y', 'paused', { seq: 11 }));
      await loading;
      expect(shown(fleet)).toEqual(['x:unreachable:10', 'y:paused:11']);
      stop();
    });

    it('batched events applied after a snapshot answered in between: the newer of each system wins, either way', async () => {
      const { fake, asked, answer } = heldSnapshots();
      const fleet = new FleetStore({ eventBatchMs: 10 });
      const loading = fleet.load();
      await asked();
      vi.useFakeTimers();
      const stop = fleet.listen();
      try {
        // Queued for the batch: x newer than the snapshot will be, y older.
        fake.emit('fleet:status', status('a', 'x', 'ok', { lastSuccessAt: 't8', seq: 8 }));
        fake.emit('fleet:status', status('b', 'y', 'refreshing', { seq: 3 }));
        await answer(status('a', 'x', 'refreshing', { seq: 6 }), status('b', 'y', 'ok', { lastSuccessAt: 't5', seq: 5 }));
        await loading;
        expect(shown(fleet)).toEqual(['x:refreshing:6', 'y:ok:5']);
        await vi.advanceTimersByTimeAsync(10);
        expect(shown(fleet)).toEqual(['x:ok:8', 'y:ok:5']);
      } finally {
        stop();
        vi.useRealTimers();
      }
    });

    it('a refresh’s answer older than an event heard during it does not overwrite it', async () => {
      const { fake, answer } = heldSnapshots();
      const fleet = new FleetStore({ eventBatchMs: 0 });
      const loading = fleet.load();
      await answer(status('a', 'x', 'stale', { seq: 1 }));
      await loading;
      const stop = fleet.listen();
      fake.emit('fleet:status', status('a', 'x', 'refreshing', { seq: 4 }));
      fleet.applyAll([status('a', 'x', 'stale', { seq: 2 })]);
      expect(shown(fleet)).toEqual(['x:refreshing:4']);
      stop();
    });
  });

  it('keeps a load failure as an error instead of throwing', async () => {
    setApi({
      invoke: () => Promise.reject(Object.assign(new Error('no main'), { code: 'unreachable' })),
      on: () => () => {},
    });
    const fleet = new FleetStore();
    await fleet.load();
    expect(fleet.loaded).toBe(true);
    expect(fleet.error).toBe('no main');
  });
});
