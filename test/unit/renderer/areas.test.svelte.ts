import { flushSync } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Request } from '../../../app/ipc/contract.js';
import { AREAS } from '../../../renderer/areas/index.js';
import { AREA_LIST } from '../../../renderer/areas/list.js';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { Nav, type AreaDetail, type SystemRoute } from '../../../renderer/lib/nav.svelte.js';
import { READS } from '../../../renderer/lib/reads.js';
import SystemPage from '../../../renderer/views/SystemPage.svelte';
import { cacheKey, fakeApi, settle, site, status, type CachedAnswer } from './support/fake-api.js';
import { choose, renderComponent, type } from './support/render.js';

const AT = '2025-02-03T04:05:06Z';

/** A small system as the refresh would have cached it. */
function cached(): Map<string, CachedAnswer> {
  const put = (read: { op: string; query: Record<string, unknown> }, value: unknown): [string, CachedAnswer] => [cacheKey('s1', 'prod-a', read.op, read.query), { value, at: AT }];
  return new Map([
    put(READS.hosts, { Data: [{ Name: 'esx01', Iqn: 'iqn.1998-01.com.vmware:esx01', Wwns: [], Mappings: [{ Application: 'hr', Volume: 'data', LunId: 0 }], Pairs: [] }] }),
    put(READS.hostMappings, { Data: [{ Application: 'hr', Host: 'esx01', Volumes: ['data'], LunIds: ['0'] }] }),
    put(READS.applications, {
      Data: [
        { Application: 'hr', Template: 'Database', Volumes: [{ Volume: 'data', CapacityInBytes: 1e12, State: 'Ok' }, { Volume: 'log', CapacityInBytes: 1e11, State: 'Ok' }] },
        { Application: 'web', Template: 'FileShare', Volumes: [{ Volume: 'share', CapacityInBytes: 5e12, State: 'Ok' }] },
      ],
    }),
    put(READS.users, { Data: [{ Name: 'admin', Role: 'Administrator', Email: 'a@example.com', TwoStepAuthenticationEnabled: true }, { Name: 'ops', Role: 'Operator', TwoStepAuthenticationEnabled: false }] }),
    put(READS.replication, {
      Data: [
        {
          Application: 'hr',
          Volumes: [
            {
              Volume: 'data',
              Replication: {
                Role: 'Primary',
                LocalDataStatus: 'UpToDate',
                ReplicationPairs: [{ RemoteSystemName: 'prod-b', RemoteAppName: 'hr-dr', RemoteVolName: 'data', ReplicationProtocol: 'Synchronous', ConnectionStatus: 'Syncing', SyncInPercentage: 42.5 }],
              },
            },
          ],
        },
      ],
    }),
    put(READS.notificationSettings, { EmailSettings: { MailServerAddress: 'smtp.example.com', MailServerPort: 587 }, NotificationTargets: [{ Name: 'ops-email', Type: 0, MinEventLevel: 3, IsEnabled: true }] }),
    put(READS.version, { Versions: [{ Component: 'Management', Version: '5.5.0', BuildNumber: '5.5.0.1' }] }),
  ]);
}

let target: HTMLElement | undefined;
afterEach(() => {
  for (const el of document.body.querySelectorAll('.backdrop')) el.remove();
});

async function render(area: string, options: { state?: 'ok' | 'unreachable'; call?: (req: Request<'op:call'>) => unknown; detail?: AreaDetail; cache?: Map<string, CachedAnswer> } = {}) {
  const fake = fakeApi({
    sites: [site('s1', 'Site one')],
    statuses: [status('s1', 'prod-a', options.state ?? 'ok', { lastSuccessAt: AT }), status('s1', 'prod-b', 'ok')],
    cache: options.cache ?? cached(),
    call: options.call ?? (() => 'Done.'),
  });
  setApi(fake.api);
  const fleet = new FleetStore({ eventBatchMs: 0 });
  await fleet.load();
  const nav = new Nav();
  const route: SystemRoute = { view: 'system', siteId: 's1', system: 'prod-a', area, ...(options.detail ? { detail: options.detail } : {}) };
  target = renderComponent(SystemPage, { fleet, nav, route }).target;
  await settle();
  return { el: target, fake, nav };
}

const q = <T extends HTMLElement>(root: ParentNode, testid: string): T => {
  const el = root.querySelector<T>(`[data-testid="${testid}"]`);
  if (!el) throw new Error(`no [data-testid="${testid}"]`);
  return el;
};
const dialog = (): HTMLElement => q(document.body, 'op-dialog');
function check(root: ParentNode, label: string): void {
  const box = [...root.querySelectorAll('label')].find((l) => l.textContent?.trim() === label)?.querySelector('input');
  if (!box) throw new Error(`no checkbox ${label}`);
  box.click();
  flushSync();
}

describe('every area', () => {
  it('the list the tree and the palette show (the first frame carries only it) is the system page\'s, each with its component', () => {
    expect(AREAS.map(({ part, ...info }) => (expect(typeof part.load).toBe('function'), info))).toEqual(AREA_LIST);
  });

  it.each(AREAS.map((a) => a.id))('%s is built and opens offline, read-only, without errors', async (id) => {
    const area = AREAS.find((a) => a.id === id);
    expect(area?.ready).toBe(true);
    const { el, fake } = await render(id, { state: 'unreachable' });
    expect(q(el, 'read-only-banner').textContent).toContain('the system is unreachable');
    expect(q(el, `area-${id}`).children.length).toBeGreaterThan(0);
    expect(el.querySelector('.error[role="alert"]')).toBeNull();
    // Nothing is sent to a system that cannot be reached.
    expect(fake.calls()).toEqual([]);
  });
});

describe('lists the system sent only part of', () => {
  /** The cache with `read`'s list marked as the normaliser marks a partial answer. */
  function partial(read: { op: string; query: Record<string, unknown> }, mark: { Read: number; Total?: number }): Map<string, CachedAnswer> {
    const cache = cached();
    const k = cacheKey('s1', 'prod-a', read.op, read.query);
    const hit = cache.get(k)!;
    cache.set(k, { ...hit, value: { ...(hit.value as object), Incomplete: mark } });
    return cache;
  }

  it.each([
    ['hosts', READS.hosts, { Read: 1, Total: 40 }, 'incomplete: 1 of 40'],
    ['users', READS.users, { Read: 2 }, 'incomplete: 2 of more'],
    ['applications', READS.applications, { Read: 2, Total: 9 }, 'incomplete: 2 of 9'],
  ] as const)('the %s area says so above its table, and a whole list says nothing', async (area, read, mark, said) => {
    const { el } = await render(area, { cache: partial(read, mark) });
    const notes = [...el.querySelectorAll('[data-testid="incomplete-note"]')].map((n) => n.textContent ?? '');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(said);
    expect(notes[0]).toMatch(/at least that much, not the whole list/);
    const whole = await render(area);
    expect(whole.el.querySelector('[data-testid="incomplete-note"]')).toBeNull();
  });
});

describe('hosts and mappings', () => {
  it('lists cached hosts with their age, and creates a host after checking its identifiers', async () => {
    const { el, fake } = await render('hosts', { call: () => "Host 'esx09' created." });
    expect(q(el, 'hosts-table').dataset.rowCount).toBe('1');
    expect(el.querySelector('[data-testid="as-of"] time')?.getAttribute('datetime')).toBe(AT);

    q(el, 'host-create').click();
    flushSync();
    type(q(dialog(), 'field-body.Name'), 'esx09');
    type(q(dialog(), 'field-body.Nqn'), 'nqn.2014-08.org.nvmexpress:uuid:1aff2ec0');
    expect(dialog().textContent).toContain('has a malformed UUID');
    type(q(dialog(), 'field-body.Nqn'), 'nqn.2014-08.org.nvmexpress:uuid:1aff2ec0-7b83-73cf-e70e-96c41353390b');
    type(q(dialog(), 'field-body.ChapSecret'), 'chap-secret-123');
    q(dialog(), 'op-submit').click();
    await settle();
    expect(fake.calls()).toEqual([
      { site: 's1', system: 'prod-a', operation: 'POST /hosts/create', body: { Name: 'esx09', Nqn: 'nqn.2014-08.org.nvmexpress:uuid:1aff2ec0-7b83-73cf-e70e-96c41353390b', ChapSecret: 'chap-secret-123' } },
    ]);
    expect(document.querySelector('[data-testid="op-dialog"]')).toBeNull();
    expect(q(el, 'area-notice').textContent).toContain("Host 'esx09' created.");
    // The write refreshes the system so the cached tables catch up.
    expect(fake.invocations.some((i) => i.channel === 'fleet:refresh')).toBe(true);
  });

  it('reads a table live on demand, and keeps the cached rows with the reason when that fails', async () => {
    let fail = false;
    const { el, fake } = await render('hosts', {
      call: (req) => {
        if (fail) throw new Error('the site did not answer');
        return req.operation === 'GET /hosts/list' ? { Data: [{ Name: 'esx01' }, { Name: 'esx02' }] } : 'Done.';
      },
    });
    const readNow = () => (el.querySelector('[aria-label="Hosts"] [data-testid="read-now"]') as HTMLButtonElement).click();
    readNow();
    await settle();
    expect(fake.calls()).toEqual([{ site: 's1', system: 'prod-a', operation: READS.hosts.op, query: READS.hosts.query }]);
    expect(q(el, 'hosts-table').dataset.rowCount).toBe('2');
    expect(el.querySelector('[aria-label="Hosts"] [data-testid="as-of"]')?.textContent).toContain('live');
    fail = true;
    readNow();
    await settle();
    expect(q(el, 'hosts-table').dataset.rowCount).toBe('2');
    expect(el.querySelector('[aria-label="Hosts"] [role="alert"]')?.textContent).toBe('Could not load hosts: the site did not answer');
  });

  it("maps volumes chosen from the application's own, one LUN id per volume", async () => {
    const { el, fake } = await render('hosts', { call: () => 'Mapped 2 volume(s).' });
    q(el, 'host-map').click();
    flushSync();
    const volumes = q(dialog(), 'field-body.Volumes');
    expect(volumes.textContent).toContain('Nothing to choose from.');
    choose(q(dialog(), 'field-body.Application'), 'web');
    expect(volumes.textContent).toContain('share');
    choose(q(dialog(), 'field-body.Application'), 'hr');
    expect(volumes.textContent).not.toContain('share');
    check(q(dialog(), 'field-body.Hosts'), 'esx01');
    check(volumes, 'data');
    check(volumes, 'log');
    type(q(dialog(), 'field-body.LunIds'), '7');
    q(dialog(), 'op-submit').click();
    await settle();
    expect(q(dialog(), 'op-problems').textContent).toContain('give one LUN id per volume: 2 volume(s), 1 LUN id(s)');
    expect(fake.calls()).toEqual([]);
    type(q(dialog(), 'field-body.LunIds'), '7\n8');
    q(dialog(), 'op-submit').click();
    await settle();
    expect(fake.calls().map((c) => c.body)).toEqual([{ Application: 'hr', Hosts: ['esx01'], Volumes: ['data', 'log'], LunIds: ['7', '8'] }]);
  });

  it('unmaps only after the host name is typed', async () => {
    const { el, fake } = await render('hosts');
    (el.querySelector('[aria-label="Unmap hr/data from esx01"]') as HTMLButtonElement).click();
    flushSync();
    const confirm = q(document.body, 'confirm-dialog');
    const input = q<HTMLInputElement>(confirm, 'confirm-input');
    type(input, 'esx0');
    expect(q<HTMLButtonElement>(confirm, 'confirm-submit').disabled).toBe(true);
    type(input, 'esx01');
    q(confirm, 'confirm-submit').click();
    await settle();
    expect(fake.calls()).toEqual([{ site: 's1', system: 'prod-a', operation: 'DELETE /hosts/mappings/delete', query: { application: 'hr', hosts: ['esx01'], volumes: ['data'] } }]);
  });
});

describe('users', () => {
  it('shows two-factor state, and sends a password once without keeping it', async () => {
    const { el, fake } = await render('users', { call: () => "User 'eve' created." });
    expect(q(el, 'two-factor-summary').textContent).toContain('on for 1 of 2 users');
    q(el, 'user-create').click();
    flushSync();
    const password = q<HTMLInputElement>(dialog(), 'field-body.Password');
    expect(password.type).toBe('password');
    expect(password.autocomplete).toBe('new-password');
    type(q(dialog(), 'field-body.Name'), 'eve');
    type(password, 'correct horse battery');
    type(q(dialog(), 'field-body.Role'), 'Viewer');
    type(q(dialog(), 'field-body.Email'), 'eve@example.com');
    q(dialog(), 'op-submit').click();
    await settle();
    expect(fake.calls()[0]?.body).toEqual({ Name: 'eve', Password: 'correct horse battery', Role: 'Viewer', Email: 'eve@example.com' });
    expect(document.body.innerHTML).not.toContain('correct horse battery');
    q(el, 'user-create').click();
    flushSync();
    expect(q<HTMLInputElement>(dialog(), 'field-body.Password').value).toBe('');
  });
});

describe('replication', () => {
  it('shows each pair with its state and a labelled sync progress bar', async () => {
    const { el } = await render('replication');
    const bar = el.querySelector('progress') as HTMLProgressElement;
    expect(bar.value).toBe(42.5);
    expect(bar.getAttribute('aria-label')).toBe('Sync of hr/data: 42.5 %');
    expect(q(el, 'replication-table').textContent).toContain('prod-b: hr-dr/data');
    expect(q(el, 'replication-table').textContent).toContain('Syncing');
  });

  it('stops a pair only after the application name is typed', async () => {
    const { el, fake } = await render('replication');
    (el.querySelector('[aria-label="Stop hr/data/prod-b"]') as HTMLButtonElement).click();
    flushSync();
    const submit = q<HTMLButtonElement>(dialog(), 'op-submit');
    expect(submit.disabled).toBe(true);
    type(q(dialog(), 'op-confirm-input'), 'hr');
    submit.click();
    await settle();
    // The replication floating IP list is read live on opening; the stop is the only write.
    const writes = fake.calls().filter((c) => c.operation !== 'GET /replication/floatingips/list');
    expect(writes).toEqual([{ site: 's1', system: 'prod-a', operation: 'DELETE /replication/stop', query: { application: 'hr', volume: 'data', targetSystem: 'prod-b' } }]);
  });
});

describe('notification targets', () => {
  it('disables a target by name', async () => {
    const { el, fake } = await render('notification-targets');
    expect(q(el, 'targets-table').textContent).toContain('Warning');
    q(el, 'target-toggle-ops-email').click();
    await settle();
    expect(fake.calls()).toEqual([{ site: 's1', system: 'prod-a', operation: 'PUT /notifications/targets/disable', body: { Name: ['ops-email'] } }]);
  });
});

describe('operation console', () => {
  it('finds operations by words of their path, summary or group, and opens one with the keyboard', async () => {
    const { el, nav } = await render('console');
    const search = q<HTMLInputElement>(el, 'console-search');
    search.value = 'wwn';
    search.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    const options = [...el.querySelectorAll('[role="option"]')].map((o) => o.textContent?.replace(/\s+/g, ' ').trim());
    // Path matches first, then one whose summary mentions WWNs.
    expect(options).toEqual(['PUT /hosts/wwn/add w', 'DELETE /hosts/wwn/delete !', 'POST /hosts/create w']);
    search.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    flushSync();
    expect(nav.route).toEqual({ view: 'system', siteId: 's1', system: 'prod-a', area: 'console', detail: { kind: 'operation', op: 'DELETE /hosts/wwn/delete' } });
  });

  it('answers a read from the cache, with its age, when the system is unreachable', async () => {
    const { el, fake } = await render('console', { state: 'unreachable', detail: { kind: 'operation', op: 'GET /Version' } });
    q(el, 'op-submit').click();
    await settle();
    expect(fake.calls()).toEqual([]);
    expect(q(el, 'op-result').textContent).toContain('5.5.0.1');
    const stamp = el.querySelector('[aria-label="Answer"] [data-testid="as-of"] time');
    expect(stamp?.getAttribute('datetime')).toBe(AT);
  });
});
