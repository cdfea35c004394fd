import { describe, expect, it } from 'vitest';
import { FleetState, RECORDED_OK_MS, type FleetEvent } from '../../../../main/core/fleet-state.js';
import { CACHE_DATABASE, openMemoryDatabase } from '../../../../main/store/open.js';
import type { OfflineCache } from '../../../../main/store/offline-cache.js';
import { SystemOutcomes } from '../../../../main/store/system-outcomes.js';

/** A cache that knows `systems` (as a start reads them) and nothing else. */
function cacheOf(systems: Array<{ siteId: string; system: string; at: string }>): OfflineCache {
  return { systems: () => systems, get: () => undefined } as unknown as OfflineCache;
}

describe('FleetState status sequence', () => {
  it('numbers every status change, in the status kept and in its event, whatever seq it was given', () => {
    const state = new FleetState(cacheOf([{ siteId: 's', system: 'cached', at: '2026-01-01T00:00:00Z' }]));
    const events: FleetEvent[] = [];
    state.on((e) => events.push(e));
    // Known from the cache, unchanged since the start.
    expect(state.get('s', 'cached')?.seq).toBe(0);
    state.setStatus({ siteId: 's', system: 'a', state: 'refreshing' });
    state.setStatus({ siteId: 's', system: 'b', state: 'ok' });
    // A status spread from the one kept carries its old number: it gets a new one.
    state.setStatus({ ...state.get('s', 'a')!, state: 'ok' });
    expect(events.map((e) => (e.type === 'status' ? `${e.status.system}:${e.status.state}:${e.status.seq}` : e.type))).toEqual(['a:refreshing:1', 'b:ok:2', 'a:ok:3']);
    expect(state.status('s').map((s) => `${s.system}:${s.seq}`)).toEqual(['a:3', 'b:2', 'cached:0']);
  });

  it('a site marked with the status its systems already have is no change (no event, no number), whatever their numbers', () => {
    const state = new FleetState(cacheOf([]));
    state.setStatus({ siteId: 's', system: 'a', state: 'paused' });
    const events: FleetEvent[] = [];
    state.on((e) => events.push(e));
    state.markSite('s', 'paused', undefined);
    expect(events).toEqual([]);
    state.markSite('s', 'stale', undefined);
    expect(events.map((e) => (e.type === 'status' ? `${e.status.state}:${e.status.seq}` : e.type))).toEqual(['stale:2']);
  });
});

describe('FleetState and the recorded outcomes', () => {
  const NOW = new Date('2026-03-01T12:00:00Z');
  const ago = (ms: number): string => new Date(NOW.getTime() - ms).toISOString();

  it('records every outcome but progress, and a later state starts from them: a recent ok ok, an old ok stale, a failure with why', () => {
    const outcomes = new SystemOutcomes(openMemoryDatabase(CACHE_DATABASE));
    const first = new FleetState(cacheOf([]), outcomes, NOW);
    first.setStatus({ siteId: 's', system: 'fresh', state: 'ok', lastSuccessAt: ago(60_000) });
    first.setStatus({ siteId: 's', system: 'old', state: 'ok', lastSuccessAt: ago(RECORDED_OK_MS + 1) });
    first.setStatus({ siteId: 's', system: 'down', state: 'unreachable', lastSuccessAt: ago(60_000), lastErrorAt: ago(1000), lastError: 'connection refused' });
    first.setStatus({ siteId: 's', system: 'paused', state: 'paused' });
    first.setStatus({ siteId: 's', system: 'fresh', state: 'refreshing', progress: { done: 1, total: 9 } });
    const later = new FleetState(cacheOf([{ siteId: 's', system: 'fresh', at: ago(60_000) }]), outcomes, NOW);
    expect(later.status('s').map((s) => [s.system, s.state, s.lastError, s.seq])).toEqual([
      ['down', 'unreachable', 'connection refused', 0],
      ['fresh', 'ok', undefined, 0],
      ['old', 'stale', undefined, 0],
      ['paused', 'stale', undefined, 0],
    ]);
    later.forgetSite('s');
    expect(outcomes.all()).toEqual([]);
  });

  it('adopts what another process recorded for one site: changed statuses set and sent, not recorded again; its own site only', () => {
    const db = openMemoryDatabase(CACHE_DATABASE);
    const outcomes = new SystemOutcomes(db);
    const app = new FleetState(cacheOf([]), outcomes, NOW);
    app.setStatus({ siteId: 's', system: 'a', state: 'stale' });
    app.setStatus({ siteId: 's', system: 'b', state: 'ok', lastSuccessAt: ago(5000) });
    // The monitor's polls, recorded in the shared file.
    const monitor = new FleetState(cacheOf([]), outcomes, NOW);
    monitor.setStatus({ siteId: 's', system: 'a', state: 'ok', lastSuccessAt: ago(1000) });
    monitor.setStatus({ siteId: 's', system: 'b', state: 'ok', lastSuccessAt: ago(5000) });
    monitor.setStatus({ siteId: 's', system: 'c', state: 'unreachable', lastError: 'no answer' });
    monitor.setStatus({ siteId: 'other', system: 'x', state: 'unreachable' });
    const events: FleetEvent[] = [];
    app.on((e) => events.push(e));
    const writes = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
    const before = writes.get()!.n;
    app.adoptRecorded('s', NOW);
    // b is unchanged: no event; the other site is not this poll's.
    expect(events.map((e) => (e.type === 'status' ? `${e.status.system}:${e.status.state}` : e.type))).toEqual(['a:ok', 'c:unreachable']);
    expect(app.get('s', 'c')?.lastError).toBe('no answer');
    expect(app.get('other', 'x')).toBeUndefined();
    expect(writes.get()!.n).toBe(before);
  });

  it("carries a system's clock offset and what told it to a later process: a report there says the clock", () => {
    const outcomes = new SystemOutcomes(openMemoryDatabase(CACHE_DATABASE));
    new FleetState(cacheOf([]), outcomes, NOW).setStatus({ siteId: 's', system: 'local', state: 'ok', lastSuccessAt: ago(1000), clockOffsetMs: -18_000_000, clockSource: 'records' });
    const later = new FleetState(cacheOf([{ siteId: 's', system: 'local', at: ago(1000) }]), outcomes, NOW);
    expect(later.get('s', 'local')).toMatchObject({ state: 'ok', clockOffsetMs: -18_000_000, clockSource: 'records' });
  });

  it("carries a system's percentage scale and date order to a later process, which reads its answers by them", () => {
    const outcomes = new SystemOutcomes(openMemoryDatabase(CACHE_DATABASE));
    new FleetState(cacheOf([]), outcomes, NOW).setStatus({ siteId: 's', system: 'eu', state: 'ok', lastSuccessAt: ago(1000), percentScale: 'fraction', dayFirst: true });
    const later = new FleetState(cacheOf([{ siteId: 's', system: 'eu', at: ago(1000) }]), outcomes, NOW);
    expect(later.get('s', 'eu')).toMatchObject({ state: 'ok', percentScale: 'fraction', dayFirst: true });
  });

  it('skips a recorded row that is not a status (a damaged file, another version), keeping the others', () => {
    const db = openMemoryDatabase(CACHE_DATABASE);
    const outcomes = new SystemOutcomes(db);
    outcomes.put({ siteId: 's', system: 'good', state: 'ok', lastSuccessAt: ago(1000) });
    const insert = db.prepare<[string, string]>("INSERT INTO system_outcomes (site_id, system, status) VALUES ('s', ?, ?)");
    insert.run('not-json', '{"siteId":');
    insert.run('odd-state', JSON.stringify({ siteId: 's', system: 'odd-state', state: 'levitating' }));
    insert.run('other-row', JSON.stringify({ siteId: 's', system: 'good', state: 'ok' }));
    insert.run('bad-field', JSON.stringify({ siteId: 's', system: 'bad-field', state: 'stale', lastError: 42 }));
    expect(outcomes.all()).toEqual([{ siteId: 's', system: 'good', state: 'ok', lastSuccessAt: ago(1000) }]);
  });
});

describe('FleetState sendingId', () => {
  it('names each event while its listeners run, and gives the rest of an event another after one sent inside it', () => {
    const state = new FleetState(cacheOf([]));
    const seen: Array<[string, number | undefined]> = [];
    state.on((e) => {
      if (e.type !== 'status') return;
      seen.push([`first ${e.status.system}`, state.sendingId]);
      // A listener that changes another system's status: its event is sent inside this one.
      if (e.status.system === 'outer') state.setStatus({ siteId: 's', system: 'inner', state: 'ok' });
    });
    state.on((e) => void (e.type === 'status' && seen.push([`second ${e.status.system}`, state.sendingId])));
    expect(state.sendingId).toBeUndefined();
    state.setStatus({ siteId: 's', system: 'outer', state: 'ok' });
    expect(state.sendingId).toBeUndefined();
    state.setStatus({ siteId: 's', system: 'later', state: 'ok' });
    const id = new Map(seen);
    expect(seen.map(([who]) => who)).toEqual(['first outer', 'first inner', 'second inner', 'second outer', 'first later', 'second later']);
    expect(id.get('first inner')).toBe(id.get('second inner'));
    expect(id.get('first later')).toBe(id.get('second later'));
    const ids = [id.get('first outer'), id.get('first inner'), id.get('second outer'), id.get('first later')];
    expect(ids.every((i) => typeof i === 'number')).toBe(true);
    expect(new Set(ids).size).toBe(4);
  });
});
