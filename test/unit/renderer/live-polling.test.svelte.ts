import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import LivePanel from '../../../renderer/areas/monitoring/LivePanel.svelte';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { SystemContext } from '../../../renderer/lib/system.svelte.js';
import { fakeApi, site, status } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

let visibility: DocumentVisibilityState = 'visible';

function setVisibility(v: DocumentVisibilityState): void {
  visibility = v;
  document.dispatchEvent(new Event('visibilitychange'));
  flushSync();
}

beforeEach(() => {
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'visibilityState');
});

async function render(state: 'ok' | 'unreachable') {
  const fake = fakeApi({
    sites: [site('s1', 'Site one')],
    statuses: [status('s1', 'prod-a', state)],
    call: (req) =>
      req.operation === 'GET /monitoring/performance/live'
        ? { Data: [{ Name: 'prod-a', ReadIops: 1200, WriteIops: 800, ReadLatencyInMilliseconds: 0.5, WriteLatencyInMilliseconds: 0.7 }] }
        : { Data: [{ EntityName: 'node-1', CPUInPercentage: 42, MemoryInPercentage: 61 }] },
  });
  setApi(fake.api);
  const fleet = new FleetStore();
  await fleet.load();
  const app = renderComponent(LivePanel, { sys: new SystemContext(fleet, 's1', 'prod-a'), intervalMs: 5000 });
  await vi.advanceTimersByTimeAsync(0);
  flushSync();
  return { fake, target: app.target, app };
}

const polls = (fake: ReturnType<typeof fakeApi>): number => fake.calls().filter((c) => c.operation === 'GET /monitoring/performance/live').length;

describe('live monitoring', () => {
  it('polls while mounted and visible, pauses while hidden, stops when unmounted', async () => {
    const { fake, target, app } = await render('ok');
    expect(polls(fake)).toBe(1);
    expect(target.textContent).toContain('1,200');
    expect(target.textContent).toContain('node-1');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(polls(fake)).toBe(3);

    setVisibility('hidden');
    expect(target.querySelector('[data-testid="live-panel"]')?.getAttribute('data-polling')).toBe('false');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(polls(fake)).toBe(3);

    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(polls(fake)).toBe(4);

    app.unmount();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(polls(fake)).toBe(4);
  });

  it('does not poll a system that is not reachable', async () => {
    const { fake, target } = await render('unreachable');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(polls(fake)).toBe(0);
    expect(target.textContent).toContain('paused: the system is unreachable');
  });
});
