import { flushSync } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import App from '../../../renderer/App.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { firstFrame } from '../../../renderer/lib/first-frame.svelte.js';
import { fakeApi, key, settle, site, status } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

/**
 * The first frame is the tree and the overview. The window asks main first for what that
 * frame shows (sites, statuses, every system's roll-up) and reads the health details, the alerts and
 * the bulk jobs only once that frame is painted, so main answers the first frame's reads first and
 * the page parses less before painting. Nothing is left out: those are read right after.
 */
describe('the first frame', () => {
  it('reads the fleet and its health before the alerts and bulk jobs, and those right after', async () => {
    const fake = fakeApi({ sites: [site('s1', 'Site one')], statuses: [status('s1', 'prod-a', 'ok'), status('s1', 'prod-b', 'ok')] });
    setApi(fake.api);
    const { target } = renderComponent(App);
    // Until the fleet is shown and painted, lists leave their overscan out.
    expect(firstFrame.pending).toBe(true);
    // The overview's attention lists hold nothing before the details are read (after the frame):
    // until it is painted they are not built either, and each says it is reading.
    const lists = ['overview-pools', 'overview-drives', 'overview-replication', 'overview-errors'];
    const built = (): string[] => lists.filter((id) => target.querySelector(`[data-testid="${id}"]`));
    expect(built()).toEqual([]);
    expect([...target.querySelectorAll('[data-testid="details-reading"]')].map((e) => e.textContent)).toEqual(Array(4).fill('reading…'));
    const asked = (): string[] => fake.invocations.map((i) => i.channel);
    expect(asked()).toEqual(expect.arrayContaining(['sites:list', 'fleet:status', 'health:briefs']));
    expect(asked()).not.toContain('health:summaries');
    expect(asked()).not.toContain('alerts:list');
    expect(asked()).not.toContain('bulk:list');

    await settle();
    const channels = asked();
    const first = (c: string): number => channels.indexOf(c);
    for (const later of ['health:summaries', 'alerts:list', 'alertrules:get', 'bulk:list']) {
      expect(first(later), later).toBeGreaterThan(first('health:briefs'));
      expect(first(later), later).toBeGreaterThan(first('fleet:status'));
    }
    // The frame itself did not wait for them: the tree and the overview show both systems.
    expect(target.querySelectorAll('[data-testid^="tree-system-"]')).toHaveLength(2);
    expect(target.querySelector('[data-testid="fleet-totals"]')?.textContent).toContain('2 systems');
    expect(firstFrame.pending).toBe(false);
    expect(built()).toEqual(lists);
  });

  it('reads the roll-ups once for the first frame, and again only when a refresh has written new data', async () => {
    const fake = fakeApi({ sites: [site('s1', 'Site one')], statuses: [status('s1', 'prod-a', 'ok'), status('s1', 'prod-b', 'ok')] });
    setApi(fake.api);
    renderComponent(App);
    await settle();
    const reads = (channel: string): number => fake.invocations.filter((i) => i.channel === channel).length;
    const healthReads = (): number => reads('health:briefs') + reads('health:summaries');
    // The systems' first arrival is no new data: the first read already asked for their health
    // (then the details once the frame is painted).
    expect(reads('health:briefs')).toBe(1);
    const before = healthReads();

    // Status events are applied in batches (FleetStore's eventBatchMs): time is the fake clock's.
    vi.useFakeTimers();
    try {
      fake.emit('fleet:status', status('s1', 'prod-a', 'refreshing'));
      await vi.advanceTimersByTimeAsync(100);
      flushSync();
      expect(healthReads()).toBe(before);
      fake.emit('fleet:status', status('s1', 'prod-a', 'ok'));
      await vi.advanceTimersByTimeAsync(100);
      flushSync();
    } finally {
      vi.useRealTimers();
    }
    expect(healthReads()).toBe(before + 1);
  });

  it('opens the command palette on Ctrl+K pressed before its script was loaded', async () => {
    setApi(fakeApi({ sites: [site('s1', 'Site one')], statuses: [status('s1', 'prod-a', 'ok')] }).api);
    renderComponent(App);
    // Before the first frame: the palette is not part of it and loads on demand.
    key(window.document.body, 'k', { ctrlKey: true });
    await settle();
    expect(document.querySelector('[data-testid="command-palette"]')).not.toBeNull();
    expect(document.activeElement).toBe(document.querySelector('[data-testid="palette-input"]'));
  });
});
