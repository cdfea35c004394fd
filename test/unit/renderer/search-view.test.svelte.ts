// The fleet search is answered by main (`search:query`). The view shows main's first
// results with the total, says "still reading" while main's index has systems to read and asks
// again until it has none, and never shows an unfinished answer as final.
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Request } from '../../../app/ipc/contract.js';
import type { SearchAnswer, SearchEntry } from '../../../app/search/entries.js';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { Nav } from '../../../renderer/lib/nav.svelte.js';
import { READS } from '../../../renderer/lib/reads.js';
import AppHeader from '../../../renderer/components/AppHeader.svelte';
import SearchView from '../../../renderer/views/SearchView.svelte';
import { PENDING_RETRY_MS, SearchIndex } from '../../../renderer/views/search.svelte.js';
import { cacheKey, fakeApi, site, status, type FakeFleet } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

const AT = '2025-02-03T04:05:06Z';

/** Lets IPC promises settle under fake timers, then renders. */
async function tick(ms = 0): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await vi.advanceTimersByTimeAsync(i === 0 ? ms : 0);
    flushSync();
  }
}

async function mountView(query: string, fake: FakeFleet) {
  const api = fakeApi({ sites: [site('s1', 'Site one'), site('s2', 'Site two')], statuses: [status('s1', 'alpha', 'ok'), status('s2', 'beta', 'ok')], ...fake });
  setApi(api.api);
  const fleet = new FleetStore();
  await fleet.load();
  const nav = new Nav();
  const view = renderComponent(SearchView, { fleet, nav, index: new SearchIndex(fleet), query });
  await tick();
  const note = (): string => view.target.querySelector('header p')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  const rows = (): string[] =>
    [...view.target.querySelectorAll('[data-testid="search-results"] .body [role="row"]')].map((r) =>
      [...r.children].map((c) => c.textContent?.trim() ?? '').join(' | '),
    );
  return { api, fleet, nav, view, note, rows };
}

const entry = (system: string, text: string): SearchEntry => ({ siteId: 's1', system, kind: 'host', text, context: '', area: 'hosts', detail: { kind: 'host', host: text } });

describe('the fleet search view on main’s index', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('shows what main finds in the cached data, asking once, with no cache read of its own', async () => {
    const cache = new Map([
      [cacheKey('s1', 'alpha', READS.hosts.op, READS.hosts.query), { value: { Data: [{ Name: 'esx-01', Iqn: 'iqn.1998-01.com.vmware:esx-01' }] }, at: AT }],
      [cacheKey('s2', 'beta', READS.resources.op, READS.resources.query), { value: { Data: [{ Name: 'n1', Drives: [{ Id: 3, Name: 'd3', ResourceSerial: 'ZL-ESX-9' }] }] }, at: AT }],
    ]);
    const { api, note, rows } = await mountView('esx', { cache });
    expect(rows()).toEqual(['host | esx-01 |  | alpha | Site one', 'IQN | iqn.1998-01.com.vmware:esx-01 | host esx-01 | alpha | Site one', 'drive | ZL-ESX-9 | d3 on n1 | beta | Site two']);
    expect(note()).toBe('3 results in the cached data of 2 systems.');
    expect(api.invocations.filter((i) => i.channel === 'cache:read')).toEqual([]);
    expect(api.invocations.filter((i) => i.channel === 'search:query').map((i) => i.request)).toEqual([{ query: 'esx', limit: 500 }]);
  });

  it('says "still reading" while main’s index is incomplete and asks again until it is complete', async () => {
    const answers: SearchAnswer[] = [
      { results: [], total: 0, systems: 2, pending: 2 },
      { results: [entry('alpha', 'esx-01')], total: 1, systems: 2, pending: 1 },
      { results: [entry('alpha', 'esx-01'), entry('beta', 'esx-02')], total: 2, systems: 2, pending: 0 },
    ];
    const asked: Array<Request<'search:query'>> = [];
    const { note, rows, view } = await mountView('esx', { search: (r) => (asked.push(r), answers[Math.min(asked.length - 1, answers.length - 1)] as SearchAnswer) });
    // Nothing found yet, and not shown as "nothing matches".
    expect(note()).toBe('0 results in the cached data of 2 systems (still reading… 2 to go).');
    expect(view.target.textContent).toContain('Nothing found yet: still reading the cached data…');
    expect(view.target.textContent).not.toContain('Nothing in the cached data matches');
    await tick(PENDING_RETRY_MS);
    expect(note()).toBe('1 result in the cached data of 2 systems (still reading… 1 to go).');
    expect(rows()).toHaveLength(1);
    await tick(PENDING_RETRY_MS);
    expect(note()).toBe('2 results in the cached data of 2 systems.');
    expect(rows()).toHaveLength(2);
    // Complete: no more asking.
    await tick(PENDING_RETRY_MS * 4);
    expect(asked).toHaveLength(3);
  });

  it('asks again when a system’s refresh has ended (new cached data), not while it runs', async () => {
    const asked: Array<Request<'search:query'>> = [];
    const { fleet } = await mountView('esx', { search: (r) => (asked.push(r), { results: [], total: 0, systems: 2, pending: 0 }) });
    expect(asked).toHaveLength(1);
    fleet.apply(status('s1', 'alpha', 'refreshing'));
    await tick();
    expect(asked).toHaveLength(1);
    fleet.apply(status('s1', 'alpha', 'ok', { lastSuccessAt: '2026-01-01T00:00:00Z' }));
    await tick();
    expect(asked).toHaveLength(2);
  });

  it('says how many match when main returns only the first of them', async () => {
    const { note } = await mountView('esx', { search: () => ({ results: [entry('alpha', 'esx-01')], total: 1234, systems: 2, pending: 0 }) });
    expect(note()).toBe('First 1 of 1234 results in the cached data of 2 systems.');
  });

  it('says the search failed rather than showing an empty result', async () => {
    const { note, view } = await mountView('esx', {
      search: () => {
        throw new Error('the fleet search is not available in this process');
      },
    });
    expect(note()).toBe('The search failed: the fleet search is not available in this process');
    expect(view.target.textContent).not.toContain('Nothing in the cached data matches');
  });

  it('opens the system area of a result', async () => {
    const { nav, view } = await mountView('esx', { search: () => ({ results: [entry('alpha', 'esx-01')], total: 1, systems: 2, pending: 0 }) });
    const row = view.target.querySelector<HTMLElement>('[data-testid="search-results"] .body [role="row"]');
    row?.click();
    flushSync();
    expect(nav.route).toEqual({ view: 'system', siteId: 's1', system: 'alpha', area: 'hosts', detail: { kind: 'host', host: 'esx-01' } });
  });
});

describe('the header search box on main’s index', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('suggests main’s first matches as you type, from the second letter on', async () => {
    const asked: Array<Request<'search:query'>> = [];
    const api = fakeApi({
      sites: [site('s1', 'Site one')],
      statuses: [status('s1', 'alpha', 'ok')],
      search: (r) => (asked.push(r), { results: r.query ? [entry('alpha', `${r.query}-01`)] : [], total: r.query ? 1 : 0, systems: 1, pending: 0 }),
    });
    setApi(api.api);
    const fleet = new FleetStore();
    await fleet.load();
    const view = renderComponent(AppHeader, { fleet, nav: new Nav(), index: new SearchIndex(fleet), onpalette: () => undefined });
    const input = view.target.querySelector<HTMLInputElement>('[data-testid="fleet-search"]');
    if (!input) throw new Error('no search box');
    input.dispatchEvent(new FocusEvent('focus'));
    input.value = 'e';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await tick();
    expect(view.target.querySelector('[data-testid="search-suggestions"]')).toBeNull();
    input.value = 'esx';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await tick();
    const options = [...view.target.querySelectorAll('[data-testid="search-suggestions"] [role="option"]')].map((o) => o.textContent?.replace(/\s+/g, ' ').trim());
    expect(options).toEqual(['host esx-01 alpha']);
    // The focus warmed main's index (a blank query), then one query of 8 for what was typed.
    expect(asked).toEqual([{ query: '', limit: 1 }, { query: 'esx', limit: 8 }]);
  });
});
