import { flushSync } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Channel, FleetdeckApi, Request, Response } from '../../../app/ipc/contract.js';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { Nav } from '../../../renderer/lib/nav.svelte.js';
import { READS } from '../../../renderer/lib/reads.js';
import CompareView from '../../../renderer/views/CompareView.svelte';
import DriftView from '../../../renderer/views/DriftView.svelte';
import { cacheKey, fakeApi, settle, site, status, type CachedAnswer } from './support/fake-api.js';
import { cleanup, renderComponent, type } from './support/render.js';

const AT = '2025-02-03T04:05:06Z';
const SYSTEMS = ['alpha', 'beta', 'gamma', 'delta'];

function cache(): Map<string, CachedAnswer> {
  const entries: Array<[string, CachedAnswer]> = [];
  const put = (system: string, read: { op: string; query: Record<string, unknown> }, value: unknown): void => void entries.push([cacheKey('s1', system, read.op, read.query), { value, at: AT }]);
  const versions: Record<string, string> = { alpha: '5.5.0', beta: '5.5.0', gamma: '5.4.2' };
  for (const system of SYSTEMS) {
    if (versions[system]) put(system, READS.version, { Versions: [{ Component: 'Management', Version: versions[system], BuildNumber: `${versions[system]}.1` }] });
    put(system, READS.users, { Data: [{ Name: 'admin', Role: 'Administrator' }, { Name: 'ops', Role: system === 'beta' ? 'Administrator' : 'Monitor' }] });
    put(system, READS.nodes, { Data: [{ Name: `${system}-n1`, TargetChap: { ChapName: 'tgt', ChapSecret: '[redacted]' }, Isns: { IsnsAddress: '10.0.0.9', AccessControl: false } }] });
    put(system, READS.notificationSettings, { NotificationTargets: [{ Name: 'ops-email', Type: 0, MinEventLevel: 3, IsEnabled: true }] });
  }
  return new Map(entries);
}

async function mount(component: typeof DriftView | typeof CompareView, failing?: string) {
  const fake = fakeApi({ sites: [site('s1', 'Site one')], statuses: SYSTEMS.map((s) => status('s1', s, 'ok')), cache: cache() });
  const exports: unknown[] = [];
  // A cached answer main could not read: cache:read refuses it.
  const api: FleetdeckApi = {
    ...fake.api,
    invoke: <C extends Channel>(channel: C, request: Request<C>): Promise<Response<C>> => {
      if (channel === 'cache:read' && (request as { system?: string }).system === failing) return Promise.reject(Object.assign(new Error('unrecognised answer'), { code: 'unrecognised-answer' }));
      if (channel !== 'table:export') return fake.api.invoke(channel, request);
      exports.push(request);
      return Promise.resolve({ kind: 'saved', path: '/tmp/x.csv', bytes: 1, sha256: 'ab'.repeat(32) } as Response<C>);
    },
  };
  setApi(api);
  const fleet = new FleetStore();
  await fleet.load();
  const app = renderComponent(component, { fleet, nav: new Nav() });
  await settle();
  return { el: app.target, fake, exports };
}

afterEach(() => cleanup());

describe('version drift view', () => {
  it('highlights the minority version, lists a system without a version as not reported, and filters to a version', async () => {
    const { el } = await mount(DriftView, 'delta');
    const row = el.querySelector('[data-testid="drift-row"][data-subject="Management"]');
    expect(row?.getAttribute('data-drifting')).toBe('true');
    const chips = [...(row?.querySelectorAll<HTMLButtonElement>('[data-testid="drift-version"]') ?? [])];
    expect(chips.map((c) => [c.dataset.version, c.dataset.outlier])).toEqual([
      ['5.5.0', 'false'],
      ['5.4.2', 'true'],
    ]);
    expect(row?.querySelector('[data-testid="drift-not-reported"]')?.textContent).toMatch(/not reported\s*× 1/);
    // The unreadable answer is said, not shown as an empty list.
    expect(el.querySelector('[role="alert"]')?.textContent).toContain('delta');
    chips[1]?.click();
    flushSync();
    const list = el.querySelector('[data-testid="drift-systems"]');
    expect([...(list?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual([expect.stringContaining('gamma')]);
  });
});

describe('configuration comparison view', () => {
  it('marks the differing role of two checked systems and exports without a secret value', async () => {
    const { el, exports } = await mount(CompareView);
    expect(el.querySelector('[data-testid="compare-hint"]')).not.toBeNull();
    type(el.querySelector<HTMLInputElement>('[data-testid="compare-filter"]') as HTMLInputElement, 'a');
    for (const s of ['alpha', 'beta']) {
      const box = el.querySelector<HTMLInputElement>(`[data-testid="compare-pick-${s}"]`) as HTMLInputElement;
      box.checked = true;
      box.dispatchEvent(new Event('change', { bubbles: true }));
    }
    await settle();
    const role = el.querySelector('[data-testid="compare-line"][data-item="ops"][data-field="Role"]');
    expect(role?.getAttribute('data-differs')).toBe('true');
    expect(role?.textContent).toContain('≠');
    expect(el.querySelector('[data-testid="compare-line"][data-item="admin"][data-field="Role"]')?.getAttribute('data-differs')).toBe('false');
    expect(el.querySelector('[data-testid="compare-line"][data-field="Target CHAP secret"]')?.textContent).toContain('set');
    expect(el.querySelector('[data-testid="compare-table"]')?.textContent).not.toContain('[redacted]');

    el.querySelector<HTMLInputElement>('[data-testid="compare-export-format-json"]')?.click();
    el.querySelector<HTMLButtonElement>('[data-testid="compare-export-submit"]')?.click();
    await settle();
    expect(exports).toHaveLength(1);
    const sent = exports[0] as { format: string; columns: string[]; rows: unknown[][] };
    expect(sent.format).toBe('json');
    expect(sent).not.toHaveProperty('file');
    expect(sent.columns).toEqual(['Section', 'Item', 'Setting', 'Site one/alpha', 'Site one/beta', 'Differs']);
    expect(sent.rows).toContainEqual(['Users', 'ops', 'Role', 'Monitor', 'Administrator', true]);
    expect(JSON.stringify(sent)).not.toContain('[redacted]');
    expect(el.querySelector('[data-testid="compare-export-done"]')?.textContent).toContain('/tmp/x.csv');
  });
});
