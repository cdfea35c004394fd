import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetHealth } from '../../../renderer/lib/fleet-health.svelte.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { Nav } from '../../../renderer/lib/nav.svelte.js';
import { READS } from '../../../renderer/lib/reads.js';
import FleetOverview from '../../../renderer/views/FleetOverview.svelte';
import { cacheKey, fakeApi, site, status, type CachedAnswer } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

// The systems table draws its cells itself (looks, not LevelPill/StateBadge snippets): what
// it shows, and that a row follows its system's connection and health.

const AT = '2025-02-03T04:05:06Z';
const healthOf = (volumes: number): CachedAnswer => ({
  value: {
    Volumes: { VolumesHealthInPercentage: volumes },
    HardwareResources: { HardwareResourcesHealthInPercentage: 100 },
    HardwareUtilization: { HardwareUtilizationInPercentage: 10 },
    CapacityUtilization: { CapacityInBytes: 100, CapacityUsageInBytes: 50, PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 100, CapacityUsageInBytes: 50 }] },
  },
  at: AT,
});

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  vi.useRealTimers();
});

async function overview(): Promise<{ el: HTMLElement; cache: Map<string, CachedAnswer>; fake: ReturnType<typeof fakeApi>; health: FleetHealth }> {
  const key = (system: string) => cacheKey('alpha', system, READS.health.op, READS.health.query);
  const cache = new Map([
    [key('a-1'), healthOf(100)],
    [key('a-2'), healthOf(100)],
  ]);
  const fake = fakeApi({ sites: [site('alpha', 'Alpha DC')], statuses: [status('alpha', 'a-1', 'ok'), status('alpha', 'a-2', 'ok')], cache });
  setApi(fake.api);
  const fleet = new FleetStore({ eventBatchMs: 20 });
  await fleet.load();
  stop = fleet.listen();
  const health = new FleetHealth(fleet);
  await health.load();
  const el = renderComponent(FleetOverview, { fleet, nav: new Nav(), health }).target;
  flushSync();
  return { el, cache, fake, health };
}

/** The cell of `column` (its header's text) in the row of `system`. */
function cell(el: HTMLElement, system: string, column: string): HTMLElement {
  const table = el.querySelector('[data-testid="overview-table"]') as HTMLElement;
  const index = [...table.querySelectorAll('[role="columnheader"]')].findIndex((h) => h.textContent?.trim() === column);
  const row = table.querySelector(`[data-testid="overview-row-alpha-${system}"]`) as HTMLElement;
  return row.querySelectorAll<HTMLElement>('[role="gridcell"]')[index] as HTMLElement;
}

describe('FleetOverview systems table', () => {
  it('shows health and capacity as pills on their colour, HA not known as a muted dash, the connection as an icon and a word', async () => {
    const { el } = await overview();
    const level = cell(el, 'a-1', 'Health').querySelector<HTMLElement>('.pill')!;
    expect(level.textContent).toBe('ok');
    expect(level.dataset.level).toBe('ok');
    expect(level.classList.contains('tone-ok')).toBe(true);
    expect(cell(el, 'a-1', 'Health').hasAttribute('title')).toBe(false);
    const capacity = cell(el, 'a-1', 'Capacity');
    expect(capacity.querySelector<HTMLElement>('.pill.tone-ok')?.textContent).toMatch(/^50\s?% allocated$/);
    expect(capacity.title).not.toBe('');
    // No node list cached: HA is not known, a muted dash.
    expect(cell(el, 'a-1', 'HA').querySelector('.muted')?.textContent).toBe('—');
    const badge = cell(el, 'a-1', 'Connection').querySelector<HTMLElement>('.state-badge')!;
    expect(badge.dataset.state).toBe('ok');
    expect(badge.textContent?.trim()).toBe('ok');
    expect(badge.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    expect(badge.title).toBe('Connected; data is current.');
    expect(cell(el, 'a-1', 'System').textContent).toBe('a-1');
    expect(cell(el, 'a-1', 'System').title).toBe('a-1');
  });

  it("follows a system's connection state and its health as they change", async () => {
    vi.useFakeTimers();
    const { el, cache, fake, health } = await overview();
    fake.emit('fleet:status', status('alpha', 'a-1', 'certificate-changed'));
    // The store's batch interval (20 ms here) on the fake clock.
    await vi.advanceTimersByTimeAsync(20);
    flushSync();
    const badge = cell(el, 'a-1', 'Connection').querySelector<HTMLElement>('.state-badge')!;
    expect(badge.dataset.state).toBe('certificate-changed');
    expect(badge.textContent?.trim()).toBe('certificate changed');
    expect(badge.classList.contains('tone-critical')).toBe(true);
    // A changed certificate makes the system critical, whatever its health says.
    expect(cell(el, 'a-1', 'Health').querySelector<HTMLElement>('.pill')?.dataset.level).toBe('critical');
    // The worst first: it moved to the top.
    const rows = () => [...el.querySelectorAll<HTMLElement>('[data-testid="overview-table"] [role="rowgroup"] [role="row"]')].sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')));
    expect(rows()[0]?.dataset.testid).toBe('overview-row-alpha-a-1');

    expect(cell(el, 'a-2', 'Health').querySelector<HTMLElement>('.pill')?.dataset.level).toBe('ok');
    cache.set(cacheKey('alpha', 'a-2', READS.health.op, READS.health.query), healthOf(40));
    await health.load();
    flushSync();
    const level = cell(el, 'a-2', 'Health');
    expect(level.querySelector<HTMLElement>('.pill')?.dataset.level).toBe('critical');
    expect(level.querySelector<HTMLElement>('.pill')?.textContent).toBe('critical');
    expect(level.title).toMatch(/^volumes: 40 % healthy/);
  });
});

describe('FleetOverview lists', () => {
  it('says which systems sent only part of their drive list, above the drives not OK', async () => {
    const { el, cache, health } = await overview();
    expect(el.querySelector('[data-testid="incomplete-note"]')).toBeNull();
    cache.set(cacheKey('alpha', 'a-1', READS.resources.op, READS.resources.query), {
      value: { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'sda', ResourceStatus: 'Failed' }] }], Incomplete: { Read: 1, Total: 30 } },
      at: AT,
    });
    await health.load();
    await health.detailsSettled();
    await health.load();
    flushSync();
    const notes = [...el.querySelectorAll('[data-testid="incomplete-note"]')].map((n) => n.textContent ?? '');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('a-1 drives (incomplete: 1 of 30)');
    expect(el.querySelector('[data-testid="overview-drives"]')?.getAttribute('data-row-count')).toBe('1');
  });
});
