import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { Nav, type SystemRoute } from '../../../renderer/lib/nav.svelte.js';
import { READS } from '../../../renderer/lib/reads.js';
import SystemPage from '../../../renderer/views/SystemPage.svelte';
import type { SystemStatusView } from '../../../app/ipc/contract.js';
import { cacheKey, fakeApi, settle, site, status, type CachedAnswer } from './support/fake-api.js';
import { renderComponent, type Rendered } from './support/render.js';

const AT = '2025-02-03T04:05:06Z';

function cached(): Map<string, CachedAnswer> {
  const put = (read: { op: string; query: Record<string, unknown> }, value: unknown): [string, CachedAnswer] => [cacheKey('s1', 'prod-a', read.op, read.query), { value, at: AT, stale: true }];
  return new Map([
    put(READS.nodes, {
      Data: [
        { Name: 'node-1', State: 'Running', HAState: 'Normal', TargetChap: { ChapName: 'chap-user-1' }, Isns: {}, Iqn: 'iqn.2025-01.example:node-1' },
        { Name: 'node-2', State: 'Running', HAState: 'Normal' },
      ],
    }),
    put(READS.resources, { Data: [{ Name: 'node-1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'OK', ResourceSerial: 'SER-1' }] }] }),
    put(READS.network, { Data: [] }),
    put(READS.tunnel, { Data: [{ Name: 'node-1', SupportTunnelStatus: 'Disabled' }] }),
    put(READS.notifications, {
      Data: [
        { Id: 1, Timestamp: '2025-02-03T04:00:00', Level: 2, Module: 'Nodes', Node: 'node-1', Message: 'Utility run' },
        { Id: 2, Timestamp: '2025-02-03T04:01:00', Level: 4, Module: 'Hardware', Node: 'node-2', Message: 'Drive d7 failed' },
        { Id: 3, Timestamp: '2025-02-03T04:02:00', Level: 3, Module: 'Hardware', Node: 'node-1', Message: 'Fan slow' },
      ],
    }),
  ]);
}

let app: Rendered | undefined;
let target: HTMLElement | undefined;


async function render(state: SystemStatusView['state'], area = 'hardware', extra: Partial<SystemStatusView> = {}) {
  const fake = fakeApi({ sites: [site('s1', 'Site one')], statuses: [status('s1', 'prod-a', state, { lastSuccessAt: AT, ...extra })], cache: cached(), call: () => 'Node node-2 took over node node-1.' });
  setApi(fake.api);
  const fleet = new FleetStore();
  await fleet.load();
  const route: SystemRoute = { view: 'system', siteId: 's1', system: 'prod-a', area };
  app = renderComponent(SystemPage, { fleet, nav: new Nav(), route });
  target = app.target;
  await settle();
  return { el: target, fake };
}

const byTestId = (el: HTMLElement, id: string) => el.querySelector<HTMLElement>(`[data-testid="${id}"]`);

describe('a system whose answers were not understood', () => {
  const problem = 'protocol error: GET /hosts/list answered {"items": [3 objects], "total": 3}';

  it('says so, naming the read and what came back, and still shows what was read before with its time', async () => {
    const { el } = await render('protocol-error', 'hardware', { lastError: problem });
    const banner = byTestId(el, 'protocol-error-banner');
    expect(banner?.getAttribute('role')).toBe('alert');
    expect(banner?.textContent).toContain(`Answers not understood: ${problem}`);
    expect(el.querySelector('[data-state="protocol-error"]')?.textContent).toContain('answers not understood');
    expect(byTestId(el, 'drives-table')?.dataset.rowCount).toBe('1');
    expect(byTestId(el, 'read-only-banner')).toBeNull();
  });

  it('presents a list it could not read as not cached, never as an empty table', async () => {
    const { el } = await render('protocol-error', 'hosts', { lastError: problem });
    expect(el.textContent).toContain('No cached hosts yet');
    expect(el.textContent).not.toContain('No hosts on this system');
    const table = byTestId(el, 'hosts-table') as HTMLElement;
    expect(table.classList.contains('unread')).toBe(true);
  });
});

describe('a system whose refresh was truncated', () => {
  it('says what the refresh left out, and nothing when it left nothing out', async () => {
    const { el } = await render('ok', 'hardware', { truncated: 'SMART read for 256 of 20000 drives (failing drives first)' });
    expect(byTestId(el, 'truncated-notice')?.textContent).toMatch(/Not read in full.*SMART read for 256 of 20000 drives/s);
    app?.unmount();
    app = undefined;
    const { el: whole } = await render('ok');
    expect(byTestId(whole, 'truncated-notice')).toBeNull();
  });
});

describe('a system that is not reachable', () => {
  it.each([
    ['unreachable', 'the system is unreachable'],
    ['paused', 'polling of this site is paused'],
    ['login-required', 'the session needs a new login'],
  ] as const)('opens read-only from the cache when %s, saying why', async (state, reason) => {
    const { el } = await render(state);
    expect(byTestId(el, 'read-only-banner')?.textContent).toContain(reason);
    // Every panel of the view carries the time its data was read.
    const area = byTestId(el, 'area-hardware') as HTMLElement;
    const stamps = [...area.querySelectorAll<HTMLElement>('[data-testid="as-of"]')];
    expect(stamps.length).toBeGreaterThanOrEqual(2);
    for (const stamp of stamps) {
      expect(stamp.querySelector('time')?.getAttribute('datetime')).toBe(AT);
      expect(stamp.textContent).toMatch(/^as of .*, cached\)$/s);
    }
    expect(byTestId(el, 'node-node-1')).not.toBeNull();
    expect(byTestId(el, 'drives-table')?.dataset.rowCount).toBe('1');
  });

  it('disables write actions with the reason and never calls the system', async () => {
    const { el, fake } = await render('unreachable');
    const takeover = byTestId(el, 'takeover-node-1') as HTMLButtonElement;
    expect(takeover.getAttribute('aria-disabled')).toBe('true');
    expect(takeover.title).toBe('Read-only: the system is unreachable');
    expect(takeover.textContent).toContain('read-only: the system is unreachable');
    takeover.click();
    flushSync();
    expect(document.querySelector('[data-testid="confirm-dialog"]')).toBeNull();
    expect(fake.calls()).toEqual([]);
  });

  it('shows only whether CHAP and iSNS are set', async () => {
    const { el } = await render('unreachable');
    const node = byTestId(el, 'node-node-1') as HTMLElement;
    expect(node.textContent).toMatch(/iSCSI CHAP\s*set/);
    expect(node.textContent).toMatch(/iSNS\s*not set/);
    expect(el.textContent).not.toContain('chap-user-1');
  });

  it('filters the cached notifications and explains why it cannot query', async () => {
    const { el, fake } = await render('unreachable', 'notifications');
    expect(byTestId(el, 'notifications-table')?.dataset.rowCount).toBe('3');
    const minLevel = byTestId(el, 'notif-min-level') as HTMLSelectElement;
    minLevel.value = '3';
    minLevel.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    expect(byTestId(el, 'notifications-table')?.dataset.rowCount).toBe('2');
    const search = byTestId(el, 'notif-search') as HTMLInputElement;
    search.value = 'drive';
    search.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect(byTestId(el, 'notifications-table')?.dataset.rowCount).toBe('1');
    expect(byTestId(el, 'notif-count')?.textContent).toContain('1 shown of 3 cached');
    const query = [...el.querySelectorAll('button')].find((b) => b.textContent?.includes('Query the system')) as HTMLButtonElement;
    expect(query.getAttribute('aria-disabled')).toBe('true');
    query.click();
    await settle(2);
    expect(fake.calls()).toEqual([]);
  });
});

describe('a reachable system', () => {
  it('asks for the node name before a takeover, then sends it through the system session', async () => {
    const { el, fake } = await render('ok');
    expect(byTestId(el, 'read-only-banner')).toBeNull();
    (byTestId(el, 'takeover-node-1') as HTMLButtonElement).click();
    flushSync();
    const dialog = document.querySelector('[data-testid="confirm-dialog"]') as HTMLElement;
    expect(dialog.getAttribute('role')).toBe('dialog');
    const input = dialog.querySelector('[data-testid="confirm-input"]') as HTMLInputElement;
    const submit = dialog.querySelector('[data-testid="confirm-submit"]') as HTMLButtonElement;
    expect(document.activeElement).toBe(input);
    input.value = 'node-2';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect(submit.disabled).toBe(true);
    input.value = 'node-1';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    expect(submit.disabled).toBe(false);
    submit.click();
    await settle();
    expect(fake.calls()).toEqual([{ site: 's1', system: 'prod-a', operation: 'PUT /nodes/takeover', body: { Node: 'node-1' } }]);
    expect(fake.invocations.some((i) => i.channel === 'fleet:refresh')).toBe(true);
    expect(document.querySelector('[data-testid="confirm-dialog"]')).toBeNull();
    expect(byTestId(el, 'node-node-1')?.textContent).toContain('Node node-2 took over node node-1.');
  });

  it('closes the confirmation with Escape without calling the system', async () => {
    const { el, fake } = await render('ok');
    (byTestId(el, 'takeover-node-1') as HTMLButtonElement).click();
    flushSync();
    const dialog = document.querySelector('[data-testid="confirm-dialog"]') as HTMLElement;
    dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    flushSync();
    expect(document.querySelector('[data-testid="confirm-dialog"]')).toBeNull();
    expect(fake.calls()).toEqual([]);
  });
});
