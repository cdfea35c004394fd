import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTRACT, type Channel } from '../../../app/ipc/contract.js';
import { createHandlers, dispatch, type Handlers } from '../../../main/ipc/handlers.js';
import { ReportStore } from '../../../main/reports/store.js';
import { reportHarness, type ReportHarness } from './support.js';
import { answeringDialogs } from '../../support/save-dialogs.js';

describe('reports:* IPC channels', () => {
  let h: ReportHarness;
  let handlers: Handlers;
  let scoped: Handlers;

  /** Dispatches like a shell does and checks the answer against the channel's response schema. */
  async function call(hs: Handlers, channel: Channel, request: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: { code: string; message: string } }> {
    const r = await dispatch(hs, channel, request);
    if (r.ok) expect(CONTRACT[channel].response.safeParse(r.value).success, channel).toBe(true);
    return r;
  }

  const base = () => ({ fleet: h.fleet, sites: h.sites, actionLog: h.actionLog, version: 'test', keychain: 'memory' as const, simulatedSiteIds: new Set<string>(), reports: h.reports });

  beforeAll(async () => {
    h = await reportHarness({ sites: 2, systems: 1 });
    await h.fleet.refresh();
    handlers = createHandlers(base());
    scoped = createHandlers({ ...base(), scopedSite: h.saved[0]!.id });
  });
  afterAll(async () => h?.close());

  it('generates, lists, opens, compares and exports reports', async () => {
    const a = await call(handlers, 'reports:generate', { kind: 'config', offline: true });
    const b = await call(handlers, 'reports:generate', { kind: 'audit', sites: [h.saved[1]!.name] });
    if (!a.ok || !b.ok) throw new Error('generate failed');
    const first = a.value as { id: number; model: { kind: string; source: string } };
    const second = b.value as { id: number; model: { source: string; scope: { sites: Array<{ name: string }> } } };
    expect(first.model).toMatchObject({ kind: 'config', source: 'cache' });
    expect(second.model.source).toBe('fresh');
    expect(second.model.scope.sites.map((s) => s.name)).toEqual([h.saved[1]!.name]);

    const list = await call(handlers, 'reports:list', {});
    expect(list.ok && (list.value as Array<{ id: number }>).map((r) => r.id)).toEqual([second.id, first.id]);
    const opened = await call(handlers, 'reports:open', { id: first.id });
    expect(opened.ok && (opened.value as { model: unknown }).model).toEqual(first.model);
    const diff = await call(handlers, 'reports:diff', { from: first.id, to: second.id });
    // The second report covers one site only: the other site's rows are "removed".
    expect(diff.ok && (diff.value as { summary: { removed: number } }).summary.removed).toBeGreaterThan(0);

    // Browser shell: one ZIP holding the export's folder, for the window to download.
    const exported = await call(handlers, 'reports:export', { id: first.id, formats: ['json', 'csv'] });
    if (!exported.ok) throw new Error(exported.error.message);
    const zip = exported.value as { kind: string; fileName: string; base64: string; files: Array<{ path: string }> };
    expect(zip).toMatchObject({ kind: 'download', fileName: expect.stringMatching(new RegExp(`^fleetdeck-report-${first.id}-.*\\.zip$`)) });
    expect(zip.files.map((f) => f.path)).toContain('report.json');
    const bytes = Buffer.from(zip.base64, 'base64');
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    expect(bytes.includes(Buffer.from(`${zip.fileName.replace(/\.zip$/, '')}/manifest.json`))).toBe(true);
  });

  it('in Electron, writes a new private folder inside the one chosen in main\'s folder dialog; cancelling writes nothing', async () => {
    const parent = h.tempDir();
    const dialogs = answeringDialogs([parent, undefined]);
    const electron = createHandlers({ ...base(), saveFile: dialogs });
    const generated = await call(electron, 'reports:generate', { kind: 'audit', offline: true });
    if (!generated.ok) throw new Error(generated.error.message);
    const id = (generated.value as { id: number }).id;
    const saved = await call(electron, 'reports:export', { id, formats: ['json', 'csv'] });
    if (!saved.ok) throw new Error(saved.error.message);
    const dir = (saved.value as { kind: string; dir: string }).dir;
    expect(saved.value).toMatchObject({ kind: 'saved' });
    expect(path.dirname(dir)).toBe(parent);
    expect(dialogs.asked).toEqual([{ kind: 'folder', name: path.basename(dir) }]);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'csv')).mode & 0o777).toBe(0o700);
    for (const f of ['manifest.json', 'report.json']) expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
    expect(await call(electron, 'reports:export', { id, formats: ['json'] })).toEqual({ ok: true, value: { kind: 'cancelled' } });
    expect(fs.readdirSync(parent)).toEqual([path.basename(dir)]);
  });

  it('table:export downloads in the browser shell, saves where the admin chose in Electron, and refuses any path the window names', async () => {
    const table = { title: 'Capacity planning', columns: ['System', 'Days'], rows: [['=HYPERLINK("x")', 12], ['beta', null]], format: 'csv' as const };
    const download = await call(handlers, 'table:export', table);
    expect(download).toMatchObject({ ok: true, value: { kind: 'download', fileName: expect.stringMatching(/^fleetdeck-capacity-planning-.*\.csv$/), content: 'System,Days\r\n"\'=HYPERLINK(""x"")",12\r\nbeta,\r\n' } });

    const target = path.join(h.tempDir(), 'plan.csv');
    const electron = createHandlers({ ...base(), saveFile: answeringDialogs([target]) });
    expect(await call(electron, 'table:export', table)).toMatchObject({ ok: true, value: { kind: 'saved', path: target, bytes: fs.statSync(target).size } });
    expect(fs.readFileSync(target, 'utf8')).toBe((download as { value: { content: string } }).value.content);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);

    const autostart = path.join(h.tempDir(), 'autostart', 'x.desktop');
    for (const file of [autostart, 'relative.csv', `${h.tempDir()}/a\0b.csv`, `/${'a'.repeat(5000)}`]) {
      for (const hs of [handlers, electron]) {
        const refused = await call(hs, 'table:export', { ...table, file });
        expect(refused).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringMatching(/cannot name where main writes/) } });
      }
    }
    expect(await call(handlers, 'reports:export', { id: 1, formats: ['json'], dir: h.tempDir() })).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringMatching(/cannot name where main writes/) } });
    expect(fs.existsSync(autostart)).toBe(false);
  });

  it('refuses bad requests with a code: unknown id, unknown format, non-config diff, bad time', async () => {
    expect(await call(handlers, 'reports:open', { id: 9999 })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await call(handlers, 'reports:export', { id: 1, formats: ['docx'] })).toMatchObject({ ok: false, error: { code: 'validation' } });
    const inv = await call(handlers, 'reports:generate', { kind: 'inventory', offline: true });
    const invId = inv.ok ? (inv.value as { id: number }).id : 0;
    expect(await call(handlers, 'reports:diff', { from: 1, to: invId })).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringMatching(/no configuration snapshot/) } });
    expect(await call(handlers, 'reports:generate', { kind: 'actions', offline: true, since: 'yesterday' })).toMatchObject({ ok: false, error: { code: 'validation' } });
  });

  it('in a window scoped to one site, generates for that site only and hides other reports', async () => {
    const mine = await call(scoped, 'reports:generate', { kind: 'inventory', offline: true });
    if (!mine.ok) throw new Error(mine.error.message);
    const model = (mine.value as { model: { scope: { sites: Array<{ id: string }> } } }).model;
    expect(model.scope.sites.map((s) => s.id)).toEqual([h.saved[0]!.id]);
    const visible = await call(scoped, 'reports:list', {});
    expect(visible.ok && (visible.value as Array<{ siteIds: string[] }>).every((r) => r.siteIds.every((id) => id === h.saved[0]!.id))).toBe(true);
    expect(await call(scoped, 'reports:open', { id: 1 })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await call(scoped, 'reports:generate', { kind: 'config', sites: [h.saved[1]!.name], offline: true })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('exports the report just generated without reading its model back from the history; a scoped window still may not export another site\'s', async () => {
    const generated = await call(scoped, 'reports:generate', { kind: 'audit', offline: true });
    if (!generated.ok) throw new Error(generated.error.message);
    const id = (generated.value as { id: number }).id;
    // Reading a stored model parses, checks and redacts all of it: a quarter of a second at 200 systems.
    const reads = vi.spyOn(ReportStore.prototype, 'get');
    try {
      const exported = await call(scoped, 'reports:export', { id, formats: ['json'] });
      expect(exported.ok).toBe(true);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
    const other = await call(handlers, 'reports:generate', { kind: 'inventory', sites: [h.saved[1]!.name], offline: true });
    if (!other.ok) throw new Error(other.error.message);
    const parent = h.tempDir();
    const electronScoped = createHandlers({ ...base(), scopedSite: h.saved[0]!.id, saveFile: answeringDialogs([parent]) });
    expect(await call(electronScoped, 'reports:export', { id: (other.value as { id: number }).id, formats: ['json'] })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/outside this window's scope/) } });
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it('in a window scoped to one site, Refresh (fleet:refresh with no sites) reads its own site only, and naming another is refused', async () => {
    const [own, other] = h.saved;
    const r = await call(scoped, 'fleet:refresh', { force: true });
    if (!r.ok) throw new Error(`refresh failed: ${r.error.message}`);
    const statuses = r.value as Array<{ siteId: string; state: string }>;
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses.map((s) => s.siteId))).toEqual(new Set([own!.id]));
    const status = await call(scoped, 'fleet:status', {});
    expect(status.ok && (status.value as Array<{ siteId: string }>).map((s) => s.siteId)).toEqual([own!.id]);
    const refused = await call(scoped, 'fleet:refresh', { sites: [other!.name] });
    expect(refused.ok).toBe(false);
  });
});
