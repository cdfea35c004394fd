import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { Response } from '../../../app/ipc/contract.js';
import { REPORT_FORMAT, type ReportModel, type ReportSection } from '../../../app/reports/model.js';
import type { ReportSummary } from '../../../app/reports/schema.js';
import { setApi } from '../../../renderer/lib/api.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { ReportsState } from '../../../renderer/reports/reports.svelte.js';
import ReportsView from '../../../renderer/views/ReportsView.svelte';
import { deferred, sent, withChannels, type Handlers } from './support/channels.js';
import { fakeApi, key, settle, site, status } from './support/fake-api.js';
import { renderComponent, type Rendered } from './support/render.js';

const AT = '2026-03-01T10:00:00.000Z';

function section(extra: Partial<ReportSection> = {}): ReportSection {
  return {
    id: 'config',
    kind: 'config',
    title: 'Configuration snapshot',
    description: 'The configuration each system reported.',
    dataAges: [
      { siteId: 's2', siteName: 'Site two', system: 'prod-a', at: '2026-03-01T09:00:00.000Z', ageSeconds: 3600, state: 'ok' },
      { siteId: 's2', siteName: 'Site two', system: 'prod-b', at: null, ageSeconds: null, state: 'unreachable' },
    ],
    tables: [
      {
        id: 'config.pools',
        title: 'Pools',
        columns: [
          { id: 'site', label: 'Site', type: 'text' },
          { id: 'system', label: 'System', type: 'text' },
          { id: 'pool', label: 'Pool', type: 'text' },
          { id: 'size', label: 'Size', type: 'bytes' },
          { id: 'used', label: 'Used', type: 'percent' },
          { id: 'thin', label: 'Thin', type: 'bool' },
        ],
        key: ['site', 'system', 'pool'],
        rows: [['Site two', 'prod-a', 'ssd-pool', 2 * 1024 ** 4, 81.14, true]],
      },
      {
        id: 'config.volumes',
        title: 'Volumes',
        columns: [
          { id: 'system', label: 'System', type: 'text' },
          { id: 'volume', label: 'Volume', type: 'text' },
        ],
        key: ['system', 'volume'],
        rows: Array.from({ length: 5000 }, (_, i) => ['prod-a', `vol-${String(i).padStart(4, '0')}`]),
      },
      { id: 'config.hosts', title: 'Hosts', columns: [{ id: 'host', label: 'Host', type: 'text' }], key: ['host'], rows: [], empty: 'No hosts are defined.' },
    ],
    ...extra,
  };
}

function model(extra: Partial<ReportModel> = {}): ReportModel {
  return {
    format: REPORT_FORMAT,
    kind: 'config',
    title: 'Configuration snapshot',
    generatedAt: AT,
    generatedBy: 'auditor',
    appVersion: '0.1.0',
    source: 'cache',
    scope: { sites: [{ id: 's2', name: 'Site two' }], systems: [{ siteId: 's2', siteName: 'Site two', system: 'prod-a' }] },
    period: { since: null, until: null },
    sections: [section()],
    notes: ['prod-b could not be read: nothing of it is cached.'],
    ...extra,
  };
}

function summary(id: number, kind: ReportSummary['kind'], generatedAt = AT): ReportSummary {
  return { id, kind, title: kind, generatedAt, generatedBy: 'auditor', source: 'cache', sites: ['Site two'], siteIds: ['s2'], systems: 1, sha256: `${id}`.repeat(64).slice(0, 64) };
}

const stored = (id: number, m: ReportModel = model()): Response<'reports:open'> => ({ id, summary: { ...summary(id, m.kind), sha256: 'ab'.repeat(32) }, model: m });

let app: Rendered | undefined;
let target: HTMLElement | undefined;


async function render(handlers: Handlers, reports = new ReportsState()) {
  const fake = fakeApi({ sites: [site('s1', 'Site one'), site('s2', 'Site two')], statuses: [status('s2', 'prod-a', 'ok')] });
  setApi(withChannels(fake, { 'reports:list': () => [], ...handlers }));
  const fleet = new FleetStore({ eventBatchMs: 0 });
  await fleet.load();
  const stop = fleet.listen();
  app = renderComponent(ReportsView, { fleet, reports });
  target = app.target;
  await settle();
  const el = target;
  const q = <T extends Element = HTMLElement>(testid: string) => el.querySelector<T>(`[data-testid="${testid}"]`);
  return { fake, el, q, reports, stop };
}

function type(input: HTMLInputElement, text: string): void {
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}

function click(el: Element | null): void {
  (el as HTMLElement).click();
  flushSync();
}

describe('generating a report', () => {
  it('sends the chosen kind, sites and source, shows progress while busy, then previews the model', async () => {
    const pending = deferred<Response<'reports:generate'>>();
    const { fake, el, q, stop } = await render({ 'reports:generate': () => pending.promise });

    click(q('report-kind-config'));
    click(q('report-site-s2'));
    click(q('report-source-cache'));
    click(q('report-generate'));

    expect(sent(fake, 'reports:generate')).toEqual([{ kind: 'config', sites: ['s2'], offline: true }]);
    const button = q<HTMLButtonElement>('report-generate') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.textContent).toContain('Generating');
    expect(q('report-form')?.getAttribute('aria-busy')).toBe('true');
    expect(el.querySelector('progress')).not.toBeNull();
    // A refresh running for the report shows its reads.
    fake.emit('fleet:status', status('s2', 'prod-a', 'refreshing', { progress: { done: 3, total: 25 } }));
    expect(q('report-status')?.textContent).toContain('Refreshing 1 system: 3/25 reads');

    pending.resolve(stored(7));
    await settle();
    stop();

    expect(button.disabled).toBe(false);
    const preview = q('report-preview') as HTMLElement;
    expect(preview.dataset.reportId).toBe('7');
    expect(preview.querySelector('h2')?.textContent).toContain('Configuration snapshot');
    expect(document.activeElement).toBe(preview.querySelector('h2'));
    expect(q('report-source')?.textContent).toBe('offline cache only');
    expect(q('report-notes')?.textContent).toContain('prod-b could not be read');

    // Per-system data ages, with the system that has nothing cached said in words.
    const ages = [...preview.querySelectorAll('[role="grid"][aria-label^="Data age"] [role="row"]')].slice(1).map((r) => r.textContent);
    expect(ages[0]).toContain('2026-03-01T09:00:00.000Z');
    expect(ages[0]).toContain('60 min');
    expect(ages[1]).toContain('nothing cached');
    expect(ages[1]).toContain('no data');

    // Cells are shown as the export shows them.
    const pools = q('report-table-config.pools') as HTMLElement;
    const cells = [...pools.querySelectorAll('[role="row"][aria-rowindex="2"] [role="gridcell"]')].map((c) => c.textContent?.trim());
    expect(cells).toEqual(['Site two', 'prod-a', 'ssd-pool', '2.00 TiB', '81.1 %', 'yes']);
    expect(q('report-table-config.hosts')?.textContent).toContain('No hosts are defined.');

    // 5000 rows: all counted, few rendered.
    const volumes = (q('report-table-config.volumes') as HTMLElement).querySelector('[role="grid"]') as HTMLElement;
    expect(volumes.dataset.rowCount).toBe('5000');
    expect(volumes.querySelectorAll('[role="row"]').length).toBeLessThan(60);

    // The history is read again, so the new report is listed.
    expect(sent(fake, 'reports:list').length).toBe(2);
  });

  it('says why generation failed and lets the admin try again', async () => {
    const { q } = await render({
      'reports:generate': () => {
        throw Object.assign(new Error('no site named "gone"'), { code: 'not-found' });
      },
    });
    click(q('report-generate'));
    await settle();
    expect(q('report-form')?.querySelector('[role="alert"]')?.textContent).toContain('no site named "gone"');
    expect((q('report-generate') as HTMLButtonElement).disabled).toBe(false);
    expect(q('report-preview')).toBeNull();
  });

  it('sends the action log period only for kinds that have one', async () => {
    const { fake, q } = await render({ 'reports:generate': () => stored(1, model({ kind: 'audit' })) });
    click(q('report-kind-audit'));
    type(q('report-since') as HTMLInputElement, '2026-01-01');
    type(q('report-until') as HTMLInputElement, '2026-02-01');
    click(q('report-generate'));
    await settle();
    click(q('report-kind-inventory'));
    click(q('report-generate'));
    await settle();
    expect(sent(fake, 'reports:generate')).toEqual([{ kind: 'audit', since: '2026-01-01', until: '2026-02-01' }, { kind: 'inventory' }]);
  });
});

describe('exporting a report', () => {
  it('sends the chosen formats (never a path) and lists every file written with its SHA-256', async () => {
    const result: Response<'reports:export'> = {
      kind: 'saved',
      dir: '/srv/audits/q1',
      files: [
        { path: 'csv/config.pools.csv', bytes: 120, sha256: 'c'.repeat(64) },
        { path: 'report.html', bytes: 20480, sha256: 'd'.repeat(64) },
      ],
      manifestSha256: 'e'.repeat(64),
    };
    const reports = new ReportsState();
    const { fake, q } = await render({ 'reports:open': (r) => stored(r.id), 'reports:export': () => result }, reports);
    await reports.open(4);
    await settle();

    click(q('export-format-pdf'));
    click(q('export-format-json'));
    click(q('export-submit'));
    await settle();
    expect(sent(fake, 'reports:export')).toEqual([{ id: 4, formats: ['html', 'csv'] }]);
    expect(q('export-result')?.textContent).toContain('Written to /srv/audits/q1');

    const rows = [...document.querySelectorAll('[data-testid="export-file"]')].map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).toEqual([
      ['csv/config.pools.csv', '120 B', 'c'.repeat(64)],
      ['report.html', '20.0 KiB', 'd'.repeat(64)],
    ]);
    expect(q('export-manifest-sha')?.textContent).toBe('e'.repeat(64));
  });

  it('in the browser shell, downloads the one ZIP main hands over; a cancelled dialog says so', async () => {
    const zip: Response<'reports:export'> = { kind: 'download', fileName: 'fleetdeck-report-4.zip', mimeType: 'application/zip', base64: 'UEsFBg==', files: [{ path: 'report.json', bytes: 2, sha256: 'f'.repeat(64) }], manifestSha256: 'e'.repeat(64) };
    let answer: Response<'reports:export'> = zip;
    const reports = new ReportsState();
    await render({ 'reports:open': (r) => stored(r.id), 'reports:export': () => answer }, reports);
    await reports.open(4);
    const downloaded: unknown[] = [];
    await reports.exportCurrent(['json'], (file) => downloaded.push(file));
    await settle();
    expect(downloaded).toEqual([zip]);
    expect(document.querySelector('[data-testid="export-result"]')?.textContent).toContain('Downloaded fleetdeck-report-4.zip');
    answer = { kind: 'cancelled' };
    await reports.exportCurrent(['json'], (file) => downloaded.push(file));
    await settle();
    expect(downloaded).toHaveLength(1);
    expect(document.querySelector('[data-testid="export-cancelled"]')).not.toBeNull();
  });

  it('refuses to export with no format chosen', async () => {
    const reports = new ReportsState();
    const { fake, q } = await render({ 'reports:open': (r) => stored(r.id), 'reports:export': () => ({ kind: 'cancelled' }) }, reports);
    await reports.open(4);
    await settle();
    for (const f of ['pdf', 'html', 'csv', 'json']) click(q(`export-format-${f}`));
    click(q('export-submit'));
    expect(q('report-export')?.querySelector('[role="alert"]')?.textContent).toContain('at least one format');
    expect(sent(fake, 'reports:export')).toEqual([]);
  });
});

describe('the report history', () => {
  const history = [summary(5, 'config', '2026-03-05T00:00:00Z'), summary(4, 'inventory', '2026-03-04T00:00:00Z'), summary(3, 'audit', '2026-03-03T00:00:00Z'), summary(2, 'config', '2026-03-02T00:00:00Z')];
  const diff: Response<'reports:diff'> = {
    from: { id: 2, kind: 'config', generatedAt: '2026-03-02T00:00:00Z' },
    to: { id: 5, kind: 'config', generatedAt: '2026-03-05T00:00:00Z' },
    tables: [
      {
        id: 'config.hosts',
        title: 'Hosts',
        keyColumns: ['system', 'host'],
        columns: [
          { id: 'system', label: 'System', type: 'text' },
          { id: 'host', label: 'Host', type: 'text' },
          { id: 'os', label: 'OS', type: 'text' },
        ],
        added: [['prod-a', 'esx-09', 'VMware']],
        removed: [['prod-a', 'win-old', 'Windows']],
        changed: [{ key: ['prod-a', 'db-01'], changes: [{ column: 'os', label: 'OS', before: 'Linux', after: 'VMware' }] }],
      },
      {
        id: 'config.volumes',
        title: 'Volumes',
        keyColumns: ['volume'],
        columns: [
          { id: 'volume', label: 'Volume', type: 'text' },
          { id: 'size', label: 'Size', type: 'bytes' },
          { id: 'thin', label: 'Thin', type: 'bool' },
        ],
        added: [],
        removed: [],
        changed: [
          {
            key: ['data-1'],
            changes: [
              { column: 'size', label: 'Size', before: 1024 ** 3, after: 2 * 1024 ** 3 },
              { column: 'thin', label: 'Thin', before: false, after: true },
            ],
          },
        ],
      },
    ],
    summary: { added: 1, removed: 1, changed: 2 },
  };

  it('reopens a report from the keyboard', async () => {
    const { fake, q } = await render({ 'reports:list': () => history, 'reports:open': (r) => stored(r.id) });
    const grid = q('report-history-table') as HTMLElement;
    grid.focus();
    key(grid, 'ArrowDown');
    key(grid, 'ArrowDown');
    key(grid, 'Enter');
    await settle();
    expect(sent(fake, 'reports:open')).toEqual([{ id: 4 }]);
    expect(q('report-preview')?.dataset.reportId).toBe('4');
  });

  it('compares two configuration snapshots and shows rows added, removed and changed per table', async () => {
    const { fake, el, q } = await render({ 'reports:list': () => history, 'reports:diff': () => diff });
    const from = q('diff-from') as HTMLSelectElement;
    // Only reports holding a configuration snapshot can be compared.
    expect([...from.options].map((o) => o.value)).toEqual(['5', '3', '2']);
    // Default: the two newest, older first.
    expect(from.value).toBe('3');
    expect((q('diff-to') as HTMLSelectElement).value).toBe('5');

    from.value = '2';
    from.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    click(q('diff-submit'));
    await settle();
    expect(sent(fake, 'reports:diff')).toEqual([{ from: 2, to: 5 }]);
    expect(q('report-diff')?.querySelector('h2')?.textContent).toContain('from #2');

    expect(q('diff-summary')?.textContent?.replace(/\s+/g, ' ').trim()).toBe('1 row added, 1 removed, 2 changed in 2 tables.');
    const rowsOf = (testid: string) =>
      [...(el.querySelector(`[data-testid="${testid}"]`) as HTMLElement).querySelectorAll('[role="row"]')].slice(1).map((r) => [...r.querySelectorAll('[role="gridcell"]')].map((c) => c.textContent?.trim()));
    expect(rowsOf('diff-added-config.hosts')).toEqual([['prod-a', 'esx-09', 'VMware']]);
    expect(rowsOf('diff-removed-config.hosts')).toEqual([['prod-a', 'win-old', 'Windows']]);
    expect(rowsOf('diff-changed-config.hosts')).toEqual([['prod-a / db-01', 'OS', 'Linux', 'VMware']]);
    expect(q('diff-added-config.volumes')).toBeNull();
    expect(rowsOf('diff-changed-config.volumes')).toEqual([
      ['data-1', 'Size', '1.00 GiB', '2.00 GiB'],
      ['data-1', 'Thin', 'no', 'yes'],
    ]);
  });

  it('says so when nothing changed, and explains why two snapshots are needed', async () => {
    const none: Response<'reports:diff'> = { ...diff, tables: [], summary: { added: 0, removed: 0, changed: 0 } };
    const first = await render({ 'reports:list': () => history, 'reports:diff': () => none });
    click(first.q('diff-submit'));
    await settle();
    expect(first.q('diff-summary')?.textContent?.trim()).toBe('No configuration changes.');
    app?.unmount();
    app = undefined;

    const second = await render({ 'reports:list': () => [summary(2, 'config'), summary(1, 'inventory')] });
    expect(second.q('diff-from')).toBeNull();
    expect(second.q('report-history')?.textContent).toContain('at least two configuration snapshots');
  });
});
