import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTRACT, type Channel } from '../../../app/ipc/contract.js';
import { createHandlers, dispatch, type Handlers } from '../../../main/ipc/handlers.js';
import { ReportStore } from '../../../main/reports/store.js';
import { reportHarness, type ReportHarness } from './support.js';

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

  beforeAll(async () => {
    h = await reportHarness({ sites: 2, systems: 1 });
    await h.fleet.refresh();
    const base = { fleet: h.fleet, sites: h.sites, actionLog: h.actionLog, version: 'test', keychain: 'memory' as const, simulatedSiteIds: new Set<string>(), reports: h.reports };
    handlers = createHandlers(base);
    scoped = createHandlers({ ...base, scopedSite: h.saved[0]!.id });
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

    const dir = path.join(h.tempDir(), 'ipc-export');
    const exported = await call(handlers, 'reports:export', { id: first.id, formats: ['json', 'csv'], dir });
    if (!exported.ok) throw new Error(exported.error.message);
    const files = (exported.value as { files: Array<{ path: string }> }).files.map((f) => f.path);
    expect(files).toContain('report.json');
    expect(fs.existsSync(path.join(dir, 'manifest.json'))).toBe(true);
  });

  it('refuses bad requests with a code: unknown id, relative directory, non-config diff, bad time', async () => {
    expect(await call(handlers, 'reports:open', { id: 9999 })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await call(handlers, 'reports:export', { id: 1, formats: ['json'], dir: 'relative/dir' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/absolute/) } });
    expect(await call(handlers, 'reports:export', { id: 1, formats: ['docx'], dir: '/tmp/x' })).toMatchObject({ ok: false, error: { code: 'validation' } });
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
      const exported = await call(scoped, 'reports:export', { id, formats: ['json'], dir: path.join(h.tempDir(), 'scoped-export') });
      expect(exported.ok).toBe(true);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
    const other = await call(handlers, 'reports:generate', { kind: 'inventory', sites: [h.saved[1]!.name], offline: true });
    if (!other.ok) throw new Error(other.error.message);
    const dir = path.join(h.tempDir(), 'out-of-scope');
    expect(await call(scoped, 'reports:export', { id: (other.value as { id: number }).id, formats: ['json'], dir })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/outside this window's scope/) } });
    expect(fs.existsSync(dir)).toBe(false);
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
