import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionEntry } from '../../../app/domain/action.js';
import type { Response } from '../../../app/ipc/contract.js';
import { setApi } from '../../../renderer/lib/api.js';
import { EMPTY_FORM, requestOf } from '../../../renderer/lib/action-log.js';
import { ActionLogState } from '../../../renderer/lib/action-log.svelte.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import ActionLogView from '../../../renderer/views/ActionLogView.svelte';
import { sent, withChannels, type Handlers } from './support/channels.js';
import { fakeApi, key, settle, site, status } from './support/fake-api.js';
import { choose, renderComponent, type } from './support/render.js';

const AT = '2026-03-01T10:00:00.000Z';

function entry(seq: number, extra: Partial<ActionEntry> = {}): ActionEntry {
  return { seq, at: `2026-03-01T09:${String(seq % 60).padStart(2, '0')}:00.000Z`, user: 'ops as admin', siteId: 's1', system: 'prod-a', operation: 'POST /users/create', params: { body: { Name: `u${seq}`, Password: '[redacted]' } }, result: 'ok', message: `User 'u${seq}' created.`, completedAt: AT, hash: 'ab'.repeat(32), ...extra };
}

function page(records: ActionEntry[], total = records.length, offset = 0): Response<'log:query'> {
  return { total, offset, records, at: AT };
}

async function render(handlers: Handlers) {
  const fake = fakeApi({ sites: [site('s1', 'Site one'), site('s2', 'Site two')], statuses: [status('s1', 'prod-a', 'ok'), status('s2', 'dr-b', 'ok')] });
  setApi(withChannels(fake, { 'log:query': () => page([entry(3, { result: 'refused', message: "User 'u1' already exists." }), entry(1)]), ...handlers }));
  const fleet = new FleetStore({ eventBatchMs: 0 });
  await fleet.load();
  const log = new ActionLogState();
  const app = renderComponent(ActionLogView, { fleet, log });
  await settle();
  const q = <T extends Element = HTMLElement>(testid: string) => app.target.querySelector<T>(`[data-testid="${testid}"]`) as T;
  return { fake, el: app.target, q, log };
}

function click(el: Element | null): void {
  (el as HTMLElement).click();
  flushSync();
}

afterEach(() => vi.restoreAllMocks());

describe('the filter a form stands for', () => {
  it('leaves out empty fields, sends local times as ISO, and refuses times it cannot read or in the wrong order', () => {
    expect(requestOf(EMPTY_FORM)).toEqual({ request: {} });
    const since = '2026-03-01T08:00';
    expect(requestOf({ site: 's1', system: 'prod-a', operation: '  users/create ', results: ['ok', 'unknown'], since, until: '' })).toEqual({
      request: { site: 's1', system: 'prod-a', operation: 'users/create', results: ['ok', 'unknown'], since: new Date(since).toISOString() },
    });
    expect(requestOf({ ...EMPTY_FORM, since: 'soon' })).toEqual({ problem: 'From: “soon” is not a date and time.' });
    expect(requestOf({ ...EMPTY_FORM, since, until: '2026-03-01T07:00' })).toEqual({ problem: 'Until must be later than From.' });
  });
});

describe('the action log view', () => {
  it('reads the newest page on opening, with its count and data age, and opens a record by keyboard', async () => {
    const { fake, el, q } = await render({});
    expect(sent(fake, 'log:query')).toEqual([{ offset: 0, limit: 200 }]);
    expect(q('action-count').textContent?.trim()).toBe('2 writes');
    expect(el.querySelector('[data-testid="as-of"] time')?.getAttribute('datetime')).toBe(AT);
    const rows = [...q('action-table').querySelectorAll('[role="row"]')].slice(1).map((r) => r.textContent);
    expect(rows[0]).toContain('Site one');
    expect(rows[0]).toContain('refused');
    expect(rows[1]).toContain('POST /users/create');

    const grid = q('action-table');
    key(grid, 'ArrowDown');
    key(grid, 'Enter');
    await settle();
    const record = q('action-record');
    expect(record.textContent).toContain('Write #3');
    expect(q('action-params').textContent).toContain('"Password": "[redacted]"');
    expect(q('action-answer').textContent).toBe("User 'u1' already exists.");
  });

  it('explains each outcome choice in one plain phrase', async () => {
    const { el } = await render({});
    const choices = [...el.querySelectorAll('label.choice')].map((l) => l.textContent?.replace(/\s+/g, ' ').trim() ?? '');
    expect(choices).toHaveLength(4);
    // "error (failed (records of …))" read as a riddle: one pair of brackets per choice.
    for (const c of choices) expect(c.match(/\(/g) ?? [], c).toHaveLength(1);
    expect(choices.find((c) => c.startsWith('error'))).toContain('earlier versions of Fleetdeck');
  });

  it('sends the filter to main and says when nothing matches; a bad period is refused before anything is sent', async () => {
    const { fake, el, q } = await render({});
    choose(q<HTMLSelectElement>('action-filter-site'), 's2');
    // Only the chosen site's systems are offered.
    expect([...q<HTMLSelectElement>('action-filter-system').options].map((o) => o.value)).toEqual(['', 'dr-b']);
    choose(q<HTMLSelectElement>('action-filter-system'), 'dr-b');
    type(q<HTMLInputElement>('action-filter-operation'), 'hosts');
    click(q('action-filter-result-unknown'));
    type(q<HTMLInputElement>('action-filter-since'), '2026-03-01T08:00');
    type(q<HTMLInputElement>('action-filter-until'), '2026-03-01T07:00');
    click(q('action-filter-apply'));
    await settle();
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('Until must be later than From.');
    expect(sent(fake, 'log:query')).toHaveLength(1);

    setApi(withChannels(fake, { 'log:query': () => page([]) }));
    type(q<HTMLInputElement>('action-filter-until'), '');
    click(q('action-filter-apply'));
    await settle();
    expect(sent(fake, 'log:query').at(-1)).toEqual({ site: 's2', system: 'dr-b', operation: 'hosts', results: ['unknown'], since: new Date('2026-03-01T08:00').toISOString(), offset: 0, limit: 200 });
    expect(q('action-count').textContent?.trim()).toBe('0 writes matching the filter');
    expect(q('action-table').textContent).toContain('No write matches this filter.');
  });

  it('reads the next page from main with the same filter', async () => {
    const first = Array.from({ length: 200 }, (_, i) => entry(500 - i));
    const { fake, q } = await render({ 'log:query': (r) => (r.offset ? page([entry(300), entry(299)], 202, 200) : page(first, 202)) });
    expect(q('action-count').textContent?.trim()).toBe('Newest 200 of 202 writes');
    click(q('action-more'));
    await settle();
    expect(sent(fake, 'log:query').at(-1)).toEqual({ offset: 200, limit: 200 });
    expect(q('action-count').textContent?.trim()).toBe('202 writes');
    expect(q('action-table').dataset.rowCount).toBe('202');
  });

  it('verifies the chain: intact, or the first broken record with its time and why', async () => {
    let answer: Response<'log:verify'> = { ok: true, count: 4, writes: 2, problems: [] };
    const { q } = await render({ 'log:verify': () => answer });
    click(q('action-verify-run'));
    await settle();
    expect(q('action-verify-result').textContent?.replace(/\s+/g, ' ')).toContain('Chain intact: 4 records verified, the intents and outcomes of 2 writes.');
    answer = { ok: false, count: 4, writes: 2, problems: [{ seq: 3, at: '2026-03-01T09:03:00.000Z', reason: 'record content does not match its hash: it was edited' }, { seq: 0, reason: 'the head record of the chain is missing' }] };
    click(q('action-verify-run'));
    await settle();
    const result = q('action-verify-result');
    expect(result.getAttribute('role')).toBe('status');
    expect(result.textContent).toContain('Chain broken (2 problems)');
    expect(q('action-verify-seq').textContent).toBe('#3');
    expect(result.querySelector('time')?.getAttribute('datetime')).toBe('2026-03-01T09:03:00.000Z');
    expect(result.textContent).toContain('it was edited');
  });

  it('in a window scoped to one site, says the chain is verified whole and how much of it is the site\'s', async () => {
    const { q } = await render({ 'app:info': () => ({ version: '0.0.0-test', simulated: false, keychain: 'memory', scopedSite: 's1' }), 'log:verify': () => ({ ok: true, count: 4, writes: 2, problems: [], site: { id: 's1', count: 2 } }) });
    expect(q('action-verify-what').textContent).toMatch(/every site's records .* verified whole, not only this site's/);
    click(q('action-verify-run'));
    await settle();
    expect(q('action-verify-result').textContent?.replace(/\s+/g, ' ')).toContain("Chain intact: 4 records verified, the intents and outcomes of 2 writes, in the whole log; 2 of the records are this site's.");
  });

  it('exports the filtered writes: a download in the browser shell, the saved path in Electron', async () => {
    let answer: Response<'log:export'> = { kind: 'download', fileName: 'fleetdeck-actions-x.csv', mimeType: 'text/csv; charset=utf-8', content: 'Seq\r\n1\r\n', count: 1 };
    const { fake, q } = await render({ 'log:export': () => answer });
    const created = vi.fn((_blob: Blob) => 'blob:fleetdeck-test');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    click(q('action-export-csv'));
    await settle();
    expect(sent(fake, 'log:export')).toEqual([{ format: 'csv' }]);
    expect(clicked.map((a) => [a.download, a.href])).toEqual([['fleetdeck-actions-x.csv', 'blob:fleetdeck-test']]);
    expect(await (created.mock.calls[0]?.[0] as Blob).text()).toBe('Seq\r\n1\r\n');
    expect(q('action-export-note').textContent).toBe('1 write exported to fleetdeck-actions-x.csv.');

    answer = { kind: 'saved', path: '/home/me/actions.json', count: 2 };
    click(q('action-export-json'));
    await settle();
    expect(q('action-export-note').textContent).toBe('2 writes saved to /home/me/actions.json.');
    expect(clicked).toHaveLength(1);
  });
});
