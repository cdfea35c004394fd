import { describe, expect, it } from 'vitest';
import { FleetState, type FleetEvent } from '../../../../main/core/fleet-state.js';
import type { OfflineCache } from '../../../../main/store/offline-cache.js';

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
