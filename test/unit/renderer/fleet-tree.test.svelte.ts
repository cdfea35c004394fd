import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FleetTree from '../../../renderer/components/FleetTree.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import type { FleetHealth } from '../../../renderer/lib/fleet-health.svelte.js';
import { firstFrame } from '../../../renderer/lib/first-frame.svelte.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { Nav } from '../../../renderer/lib/nav.svelte.js';
import { fakeApi, key, settle, site, status } from './support/fake-api.js';
import { fakeElementSize, fakeResizeObserver } from './support/fake-layout.js';
import { renderComponent } from './support/render.js';

const AREAS = [
  { id: 'summary', title: 'Summary' },
  { id: 'hardware', title: 'Hardware' },
];

let target: HTMLElement;
let fake: ReturnType<typeof fakeApi>;
let nav: Nav;
let stop: () => void;

beforeEach(async () => {
  fake = fakeApi({
    sites: [site('alpha', 'Alpha DC', { group: 'East', tags: ['prod'] }), site('beta', 'Beta DC', { group: 'West', tags: ['dr'] })],
    statuses: [
      status('alpha', 'prod-a', 'ok'),
      status('alpha', 'prod-b', 'unreachable', { lastError: 'connect ECONNREFUSED' }),
      status('beta', 'dr-a', 'login-required'),
      status('beta', 'dr-b', 'certificate-changed'),
      status('beta', 'dr-c', 'refreshing', { progress: { done: 3, total: 25 } }),
      status('beta', 'dr-d', 'stale'),
      status('beta', 'dr-e', 'paused'),
    ],
  });
  setApi(fake.api);
  const fleet = new FleetStore({ eventBatchMs: 20 });
  await fleet.load();
  stop = fleet.listen();
  nav = new Nav();
  target = renderComponent(FleetTree, { fleet, nav, areas: AREAS }).target;
  flushSync();
});

afterEach(() => {
  stop();
});

const item = (testid: string) => target.querySelector<HTMLElement>(`[data-testid="${testid}"]`) as HTMLElement;
const focused = () => (document.activeElement as HTMLElement | null)?.dataset.testid;
const tabStops = () => [...target.querySelectorAll('[role="treeitem"][tabindex="0"]')];

describe('FleetTree', () => {
  it('is an ARIA tree of sites, systems and (on demand) areas', () => {
    const tree = target.querySelector('[role="tree"]') as HTMLElement;
    expect(tree.dataset.testid).toBe('fleet-tree');
    const alpha = item('tree-site-alpha');
    expect(alpha.getAttribute('role')).toBe('treeitem');
    expect(alpha.getAttribute('aria-expanded')).toBe('true');
    // Flat: a system's place under its site is its level and position, and it follows its site.
    expect(alpha.getAttribute('aria-level')).toBe('1');
    expect([...target.querySelectorAll<HTMLElement>('[role="treeitem"]')].map((e) => e.dataset.testid).slice(0, 3)).toEqual(['tree-site-alpha', 'tree-system-alpha-prod-a', 'tree-system-alpha-prod-b']);
    expect(item('tree-system-alpha-prod-a').getAttribute('aria-level')).toBe('2');
    expect([item('tree-system-alpha-prod-a').getAttribute('aria-posinset'), item('tree-system-alpha-prod-a').getAttribute('aria-setsize')]).toEqual(['1', '2']);
    expect(item('tree-system-alpha-prod-a').getAttribute('aria-expanded')).toBe('false');
    expect(item('tree-area-alpha-prod-a-summary')).toBeNull();
  });

  it('shows every system state as an icon and as text', () => {
    const expected: Array<[string, string]> = [
      ['tree-system-alpha-prod-a', 'ok'],
      ['tree-system-alpha-prod-b', 'unreachable'],
      ['tree-system-beta-dr-a', 'login required'],
      ['tree-system-beta-dr-b', 'certificate changed'],
      ['tree-system-beta-dr-c', 'refreshing'],
      ['tree-system-beta-dr-d', 'stale'],
      ['tree-system-beta-dr-e', 'paused'],
    ];
    for (const [id, text] of expected) {
      const badge = item(id).querySelector('.state-badge') as HTMLElement;
      expect(badge.querySelector('svg'), id).not.toBeNull();
      expect(badge.textContent?.trim(), id).toBe(text);
    }
    expect(item('tree-system-beta-dr-c').textContent).toContain('3/25');
  });

  it("shows a followed system's health and HA as words on their colour, the reasons as tooltips, and reads them out", async () => {
    const fleet = new FleetStore({ eventBatchMs: 20 });
    await fleet.load();
    const rollups: Record<string, unknown> = {
      'prod-a': { level: 'warning', reasons: ['pool p1 87% allocated', 'drive 3 degraded'], ha: { level: 'critical', label: 'taken over', text: 'node-b taken over by node-a' } },
      'prod-b': { level: 'ok', reasons: [], ha: { level: 'ok', label: 'normal', text: '2 nodes normal' } },
    };
    const health = { of: (_siteId: string, system: string) => (rollups[system] ? { rollup: rollups[system] } : undefined) } as unknown as FleetHealth;
    const el = renderComponent(FleetTree, { fleet, nav, areas: AREAS, health }).target;
    flushSync();
    const row = (id: string) => el.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
    const warned = row('tree-system-alpha-prod-a');
    const level = warned.querySelector<HTMLElement>('[data-testid="tree-health"]')!;
    expect(level.textContent).toBe('warning');
    expect(level.dataset.level).toBe('warning');
    expect(level.classList.contains('tone-warning')).toBe(true);
    expect(level.title).toBe('pool p1 87% allocated; drive 3 degraded');
    const ha = warned.querySelector<HTMLElement>('[data-testid="tree-ha"]')!;
    expect(ha.textContent).toBe('HA taken over');
    expect(ha.dataset.level).toBe('critical');
    expect(ha.classList.contains('tone-critical')).toBe(true);
    expect(ha.title).toBe('node-b taken over by node-a');
    expect(warned.getAttribute('aria-label')).toBe('prod-a, warning, HA taken over');
    // A healthy roll-up on a system that does not answer: the level the overview and the alert
    // show (critical, the connection as its reason), no HA pill while HA is normal, the state beside it.
    const down = row('tree-system-alpha-prod-b');
    const downLevel = down.querySelector<HTMLElement>('[data-testid="tree-health"]')!;
    expect(downLevel.textContent).toBe('critical');
    expect(downLevel.title).toBe('the system is unreachable');
    expect(down.querySelector('[data-testid="tree-ha"]')).toBeNull();
    expect(down.querySelector('.state-badge')?.textContent?.trim()).toBe('unreachable');
    expect(row('tree-system-beta-dr-a').getAttribute('aria-label')).toContain('health not read yet');
  });

  it("follows a system's health as it changes, in the same row", async () => {
    const fleet = new FleetStore({ eventBatchMs: 20 });
    await fleet.load();
    const rollups = $state<Record<string, { level: string; reasons: string[]; ha?: { level: string; label: string; text: string } }>>({ 'prod-a': { level: 'ok', reasons: [] } });
    const health = { of: (_siteId: string, system: string) => (rollups[system] ? { rollup: rollups[system] } : undefined) } as unknown as FleetHealth;
    const el = renderComponent(FleetTree, { fleet, nav, areas: AREAS, health }).target;
    flushSync();
    const row = el.querySelector<HTMLElement>('[data-testid="tree-system-alpha-prod-a"]')!;
    expect(row.querySelector<HTMLElement>('[data-testid="tree-health"]')?.dataset.level).toBe('ok');
    rollups['prod-a'] = { level: 'critical', reasons: ['pool p1 full'], ha: { level: 'warning', label: 'degraded', text: 'node-b down' } };
    flushSync();
    expect(el.querySelector('[data-testid="tree-system-alpha-prod-a"]')).toBe(row);
    const level = row.querySelector<HTMLElement>('[data-testid="tree-health"]')!;
    expect([level.textContent, level.dataset.level, level.title, level.classList.contains('tone-critical')]).toEqual(['critical', 'critical', 'pool p1 full', true]);
    expect(row.querySelector<HTMLElement>('[data-testid="tree-ha"]')?.textContent).toBe('HA degraded');
    expect(row.querySelectorAll('[data-testid="tree-health"]')).toHaveLength(1);
    expect(row.getAttribute('aria-label')).toBe('prod-a, critical, HA degraded');
  });

  it('follows status events, applying a burst of them together', async () => {
    vi.useFakeTimers();
    try {
      fake.emit('fleet:status', status('alpha', 'prod-b', 'refreshing', { progress: { done: 1, total: 25 } }));
      fake.emit('fleet:status', status('alpha', 'prod-b', 'refreshing', { progress: { done: 2, total: 25 } }));
      fake.emit('fleet:status', status('alpha', 'prod-b', 'ok'));
      expect(item('tree-system-alpha-prod-b').querySelector('.state-badge')?.textContent?.trim()).toBe('unreachable');
      // The store's batch interval (20 ms here) on the fake clock: the burst lands as one.
      await vi.advanceTimersByTimeAsync(20);
      flushSync();
      expect(item('tree-system-alpha-prod-b').querySelector('.state-badge')?.textContent?.trim()).toBe('ok');
    } finally {
      vi.useRealTimers();
    }
  });

  it('moves with Up/Down/Home/End, keeping one tab stop', () => {
    expect(tabStops()).toHaveLength(1);
    item('tree-site-alpha').focus();
    key(item('tree-site-alpha'), 'ArrowDown');
    expect(focused()).toBe('tree-system-alpha-prod-a');
    key(document.activeElement as Element, 'ArrowDown');
    expect(focused()).toBe('tree-system-alpha-prod-b');
    key(document.activeElement as Element, 'ArrowUp');
    expect(focused()).toBe('tree-system-alpha-prod-a');
    expect(tabStops().map((e) => (e as HTMLElement).dataset.testid)).toEqual(['tree-system-alpha-prod-a']);
    key(document.activeElement as Element, 'End');
    expect(focused()).toBe('tree-system-beta-dr-e');
    key(document.activeElement as Element, 'Home');
    expect(focused()).toBe('tree-site-alpha');
  });

  it('opens and closes with Right/Left and moves between parent and child', () => {
    item('tree-system-alpha-prod-a').focus();
    key(item('tree-system-alpha-prod-a'), 'ArrowRight');
    expect(item('tree-system-alpha-prod-a').getAttribute('aria-expanded')).toBe('true');
    expect(item('tree-area-alpha-prod-a-summary')).not.toBeNull();
    key(item('tree-system-alpha-prod-a'), 'ArrowRight');
    expect(focused()).toBe('tree-area-alpha-prod-a-summary');
    key(document.activeElement as Element, 'ArrowLeft');
    expect(focused()).toBe('tree-system-alpha-prod-a');
    key(document.activeElement as Element, 'ArrowLeft');
    expect(item('tree-system-alpha-prod-a').getAttribute('aria-expanded')).toBe('false');
    expect(item('tree-area-alpha-prod-a-summary')).toBeNull();
    key(document.activeElement as Element, 'ArrowLeft');
    expect(focused()).toBe('tree-site-alpha');
    key(document.activeElement as Element, 'ArrowLeft');
    expect(item('tree-site-alpha').getAttribute('aria-expanded')).toBe('false');
    expect(item('tree-system-alpha-prod-a')).toBeNull();
  });

  it('opens and closes a row with its twisty without opening it, and opens an area with a click', () => {
    const twisty = (testid: string) => item(testid).querySelector<HTMLElement>('.twisty') as HTMLElement;
    twisty('tree-system-alpha-prod-a').click();
    flushSync();
    expect(item('tree-system-alpha-prod-a').getAttribute('aria-expanded')).toBe('true');
    expect(nav.route).toEqual({ view: 'overview' });
    // An area has nothing to open: its (empty) twisty is part of the row, and a click opens the area.
    expect(twisty('tree-area-alpha-prod-a-hardware').textContent).toBe('');
    twisty('tree-area-alpha-prod-a-hardware').click();
    flushSync();
    expect(nav.route).toEqual({ view: 'system', siteId: 'alpha', system: 'prod-a', area: 'hardware' });
    twisty('tree-site-alpha').click();
    flushSync();
    expect(item('tree-site-alpha').getAttribute('aria-expanded')).toBe('false');
    expect(item('tree-system-alpha-prod-a')).toBeNull();
  });

  it('opens a system with Enter and an area with Space, marking the selection', () => {
    item('tree-system-beta-dr-a').focus();
    key(item('tree-system-beta-dr-a'), 'Enter');
    expect(nav.route).toEqual({ view: 'system', siteId: 'beta', system: 'dr-a', area: 'summary' });
    expect(item('tree-system-beta-dr-a').getAttribute('aria-selected')).toBe('true');
    expect(item('tree-system-alpha-prod-a').getAttribute('aria-selected')).toBe('false');
    key(item('tree-system-beta-dr-a'), 'ArrowRight');
    key(document.activeElement as Element, 'ArrowDown');
    key(document.activeElement as Element, 'ArrowDown');
    expect(focused()).toBe('tree-area-beta-dr-a-hardware');
    key(document.activeElement as Element, ' ');
    expect(nav.route).toEqual({ view: 'system', siteId: 'beta', system: 'dr-a', area: 'hardware' });
    expect(item('tree-area-beta-dr-a-hardware').getAttribute('aria-selected')).toBe('true');
  });

  it('filters by system, site or state text', async () => {
    const filter = item('tree-filter') as HTMLInputElement;
    filter.value = 'unreach';
    filter.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    const systems = [...target.querySelectorAll<HTMLElement>('[data-testid^="tree-system-"]')].map((e) => e.dataset.testid);
    expect(systems).toEqual(['tree-system-alpha-prod-b']);
    filter.value = 'beta dc';
    filter.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    await settle(1);
    expect(target.querySelectorAll('[data-testid^="tree-system-beta-"]')).toHaveLength(5);
    expect(target.querySelector('[data-testid^="tree-system-alpha-"]')).toBeNull();
  });

  it('groups by site group and by tag', () => {
    const select = target.querySelector('select') as HTMLSelectElement;
    select.value = 'group';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    const groups = [...target.querySelectorAll<HTMLElement>('[data-testid^="tree-group-"]')].map((e) => e.dataset.testid);
    expect(groups).toEqual(['tree-group-East', 'tree-group-West']);
    const order = [...target.querySelectorAll<HTMLElement>('[role="treeitem"]')].map((e) => e.dataset.testid);
    expect(order.indexOf('tree-system-beta-dr-a')).toBeGreaterThan(order.indexOf('tree-group-West'));
    expect(item('tree-system-beta-dr-a').getAttribute('aria-level')).toBe('3');
    select.value = 'tag';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    expect([...target.querySelectorAll<HTMLElement>('[data-testid^="tree-group-"]')].map((e) => e.dataset.testid)).toEqual(['tree-group-dr', 'tree-group-prod']);
  });
});

describe('FleetTree with a big fleet', () => {
  it('renders only the rows in view, flat, with ARIA positions', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => status('big', `sys-${String(i).padStart(4, '0')}`, 'ok'));
    const big = fakeApi({ sites: [site('big', 'Big site')], statuses: many });
    setApi(big.api);
    const fleet = new FleetStore({ eventBatchMs: 0 });
    await fleet.load();
    const listening = fleet.listen();
    const el = renderComponent(FleetTree, { fleet, nav: new Nav(), areas: AREAS }).target;
    try {
      const items = el.querySelectorAll('[role="treeitem"]');
      expect(items.length).toBeLessThan(60);
      const first = el.querySelector('[data-testid="tree-system-big-sys-0000"]') as HTMLElement;
      expect(first.getAttribute('aria-level')).toBe('2');
      expect(first.getAttribute('aria-setsize')).toBe('2000');
      expect(first.getAttribute('aria-posinset')).toBe('1');
      // What follows a row's name is drawn in the flat rows too: the site's count, each system's state.
      expect(el.querySelector('[data-testid="tree-site-big"] .count')?.textContent).toBe('2000');
      expect(first.querySelector('.state-badge')?.getAttribute('data-state')).toBe('ok');
      (el.querySelector('[data-testid="tree-site-big"]') as HTMLElement).focus();
      key(document.activeElement as Element, 'End');
      await settle(2);
      const last = document.activeElement as HTMLElement;
      expect(last.dataset.testid).toBe('tree-system-big-sys-1999');
      // A row scrolled into the window has its parts, once, and follows its system's state.
      expect(last.querySelectorAll('.state-badge')).toHaveLength(1);
      big.emit('fleet:status', status('big', 'sys-1999', 'unreachable'));
      await settle(8);
      const moved = el.querySelector('[data-testid="tree-system-big-sys-1999"]') as HTMLElement;
      expect(moved.querySelectorAll('.state-badge')).toHaveLength(1);
      expect(moved.querySelector('.state-badge')?.getAttribute('data-state')).toBe('unreachable');
    } finally {
      listening();
    }
  });
});

describe('FleetTree with a big fleet, by pointer', () => {
  // The flat layout's rows are drawn without an each block (one effect for the window), with
  // the nested layout's markup; a click does what it does there.
  it('opens and closes a row with its twisty without opening it, opens a system or area with a click, and shows it selected', async () => {
    const many = Array.from({ length: 600 }, (_, i) => status('big', `sys-${String(i).padStart(4, '0')}`, 'ok'));
    setApi(fakeApi({ sites: [site('big', 'Big site')], statuses: many }).api);
    const fleet = new FleetStore();
    await fleet.load();
    const nav = new Nav();
    const el = renderComponent(FleetTree, { fleet, nav, areas: AREAS }).target;
    flushSync();
    const row = (testid: string): HTMLElement => el.querySelector<HTMLElement>(`[data-testid="${testid}"]`) as HTMLElement;
    const sys = row('tree-system-big-sys-0001');
    expect(sys.querySelector('.name')?.textContent).toBe('sys-0001');
    expect(sys.querySelector('.twisty')?.textContent).toBe('▸');
    (sys.querySelector('.twisty') as HTMLElement).click();
    flushSync();
    expect(row('tree-system-big-sys-0001').getAttribute('aria-expanded')).toBe('true');
    expect(row('tree-system-big-sys-0001').querySelector('.twisty')?.classList.contains('open')).toBe(true);
    expect(nav.route).toEqual({ view: 'overview' });
    expect(row('tree-area-big-sys-0001-hardware').getAttribute('aria-level')).toBe('3');
    (row('tree-area-big-sys-0001-hardware').querySelector('.name') as HTMLElement).click();
    flushSync();
    expect(nav.route).toEqual({ view: 'system', siteId: 'big', system: 'sys-0001', area: 'hardware' });
    expect(row('tree-area-big-sys-0001-hardware').getAttribute('aria-selected')).toBe('true');
    (row('tree-system-big-sys-0001').querySelector('.twisty') as HTMLElement).click();
    flushSync();
    expect(row('tree-area-big-sys-0001-hardware')).toBeNull();
    // Closed, the system row stands for the selection.
    expect(row('tree-system-big-sys-0001').getAttribute('aria-selected')).toBe('true');
    (row('tree-system-big-sys-0002').querySelector('.name') as HTMLElement).click();
    flushSync();
    expect(nav.route).toMatchObject({ view: 'system', siteId: 'big', system: 'sys-0002' });
    expect([...el.querySelectorAll('[role="treeitem"][aria-selected="true"]')].map((e) => (e as HTMLElement).dataset.testid)).toEqual(['tree-system-big-sys-0002']);
    expect([...el.querySelectorAll('[role="treeitem"][tabindex="0"]')].map((e) => (e as HTMLElement).dataset.testid)).toEqual(['tree-system-big-sys-0002']);
  });
});

describe('FleetTree in the first frame', () => {
  // The frame is mounted hidden, so the tree has no size before its first layout. It rendered
  // its window for 600 px, then again for the height its observer read after that layout (a second
  // render and layout in the first frame at 1,000 systems). The window's height covers the tree.
  it("renders the rows of the window's height before it is laid out, and a measured height needing no more renders nothing again", async () => {
    const many = Array.from({ length: 2000 }, (_, i) => status('big', `sys-${String(i).padStart(4, '0')}`, 'ok'));
    setApi(fakeApi({ sites: [site('big', 'Big site')], statuses: many }).api);
    const fleet = new FleetStore();
    await fleet.load();
    let height = 0;
    const size = fakeElementSize('clientHeight', () => height);
    const layout = fakeResizeObserver('manual');
    firstFrame.pending = true;
    try {
      const el = renderComponent(FleetTree, { fleet, nav: new Nav(), areas: AREAS }).target;
      flushSync();
      const items = (): Element[] => [...el.querySelectorAll('[role="treeitem"]')];
      // The site and the systems down to the window's height (jsdom's window: 768 px, 28 px rows).
      const first = items();
      expect(first).toHaveLength(Math.ceil(window.innerHeight / 28));
      // Laid out shorter than that: the same rows, the same elements.
      height = 600;
      layout.deliver();
      flushSync();
      expect(items()).toEqual(first);
      // Taller than the window (it grew): the rows it now shows.
      height = window.innerHeight + 10 * 28;
      layout.deliver();
      flushSync();
      expect(items()).toHaveLength(Math.ceil(height / 28));
    } finally {
      firstFrame.pending = false;
      layout.restore();
      size();
    }
  });
});

describe('FleetTree filtering a big fleet', () => {
  // A keystroke in the filter of a 1,000-system tree rebuilt every system's node (with its
  // areas) and, once few rows matched, swapped the whole tree from the virtual layout to the nested
  // one. Typing now keeps the layout and the rows that stay shown.
  it('keeps the flat layout and the rows still shown while typing, with keyboard and ARIA intact', async () => {
    const sites = Array.from({ length: 100 }, (_, i) => site(`s${i}`, `Site ${String(i).padStart(3, '0')}`));
    const statuses = sites.flatMap((s, i) => Array.from({ length: 10 }, (_, j) => status(s.id, `s${String(i).padStart(3, '0')}-sys${j}`, 'ok')));
    const big = fakeApi({ sites, statuses });
    setApi(big.api);
    const fleet = new FleetStore();
    await fleet.load();
    const el = renderComponent(FleetTree, { fleet, nav: new Nav(), areas: AREAS }).target;
    const input = el.querySelector<HTMLInputElement>('[data-testid="tree-filter"]') as HTMLInputElement;
    const typeIn = (text: string): void => {
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      flushSync();
    };
    const systems = (): string[] => [...el.querySelectorAll<HTMLElement>('[data-testid^="tree-system-"]')].map((e) => e.dataset.testid as string);
    const row = (testid: string): HTMLElement => el.querySelector<HTMLElement>(`[data-testid="${testid}"]`) as HTMLElement;

    typeIn('s050');
    expect(systems()).toEqual(Array.from({ length: 10 }, (_, j) => `tree-system-s50-s050-sys${j}`));
    const kept = row('tree-system-s50-s050-sys3');
    typeIn('s050-sys');
    expect(systems()).toHaveLength(10);
    // The same element: the row was not rendered again.
    expect(row('tree-system-s50-s050-sys3')).toBe(kept);
    typeIn('s050-sys3');
    expect(systems()).toEqual(['tree-system-s50-s050-sys3']);
    expect(row('tree-system-s50-s050-sys3')).toBe(kept);
    const siteRow = row('tree-site-s50');
    expect(siteRow.getAttribute('role')).toBe('treeitem');
    expect(siteRow.getAttribute('aria-expanded')).toBe('true');
    expect(siteRow.getAttribute('aria-level')).toBe('1');
    expect(kept.getAttribute('aria-level')).toBe('2');
    expect(kept.getAttribute('aria-setsize')).toBe('1');
    expect(kept.getAttribute('aria-expanded')).toBe('false');

    // Keyboard: down to the system, open it, down to its first area.
    siteRow.focus();
    key(siteRow, 'ArrowDown');
    expect((document.activeElement as HTMLElement).dataset.testid).toBe('tree-system-s50-s050-sys3');
    key(document.activeElement as Element, 'ArrowRight');
    expect(row('tree-system-s50-s050-sys3').getAttribute('aria-expanded')).toBe('true');
    key(document.activeElement as Element, 'ArrowDown');
    expect((document.activeElement as HTMLElement).dataset.testid).toBe('tree-area-s50-s050-sys3-summary');
    expect([...el.querySelectorAll('[role="treeitem"][tabindex="0"]')]).toHaveLength(1);

    // Cleared, every site and system is there again.
    typeIn('');
    expect(el.querySelector<HTMLElement>('.tree-rows')?.style.height).toBe(`${(100 + 1000 + AREAS.length) * 28}px`);
  });
});
