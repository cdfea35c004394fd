import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cell, ReportModel } from '../../../app/reports/model.js';
import { verifyExport } from '../../../main/reports/manifest.js';
import type { GeneratedReport } from '../../../main/reports/service.js';
import { MARKERS, filesUnder, flipByte, pdfText, reportHarness, setMarkerSecrets, type ReportHarness } from './support.js';

const HOSTILE_DESCRIPTION = '=HYPERLINK("http://evil.example/x","click")';

function rows(model: ReportModel, tableId: string): Array<Record<string, Cell>> {
  for (const s of model.sections) {
    for (const t of s.tables) if (t.id === tableId) return t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c.id, r[i] ?? null])));
  }
  throw new Error(`no table ${tableId}`);
}

describe('reports against the simulator (2 sites × 2 systems)', () => {
  let h: ReportHarness;
  let systems: string[];
  let audit: GeneratedReport;
  let pack: string;

  beforeAll(async () => {
    h = await reportHarness({ sites: 2, systems: 2 });
    systems = h.sim.manifest.sites.flatMap((s) => s.systems);
    const site = h.saved[0]!;
    await h.fleet.refresh();
    const first = h.sim.manifest.sites[0]!.systems[0]!;
    await setMarkerSecrets(h, site.id, first);
    const app = (h.sim.fleet.sites[0]!.systems[0]!.apps[0]!).name;
    await h.fleet.call(site.id, first, 'PUT /applications/edit', { query: { application: app }, body: { Description: HOSTILE_DESCRIPTION } });
    audit = await h.reports.generate({ kind: 'audit' });
    pack = path.join(h.tempDir(), 'pack');
    await h.reports.export(audit.id, pack, ['pdf', 'html', 'csv', 'json']);
  }, 45_000);
  afterAll(async () => h?.close());

  it('refreshes first and covers every system of every site with fresh data ages', () => {
    expect(audit.model.source).toBe('fresh');
    expect(audit.model.scope.systems.map((s) => s.system).sort()).toEqual([...systems].sort());
    const ages = audit.model.sections.find((s) => s.kind === 'config')?.dataAges ?? [];
    expect(ages).toHaveLength(systems.length);
    for (const a of ages) {
      expect(a.state).toBe('ok');
      expect(a.ageSeconds).not.toBeNull();
      expect(a.ageSeconds as number).toBeLessThan(120);
    }
  });

  it('builds from the cache without touching its read bookkeeping, with every drive\'s SMART text read', async () => {
    // The systems' answers (a site's system list is the fleet's own read of which systems it has).
    const uses = (): unknown => h.db.prepare("SELECT site_id, system, key, use_seq FROM cache_use WHERE system <> '' ORDER BY site_id, system, key").all();
    const before = uses();
    const offline = await h.reports.generate({ kind: 'smart', offline: true });
    // A report reads every answer: recording that as use would only flatten the LRU order views keep.
    expect(uses()).toEqual(before);
    const drives = offline.model.sections[0]?.tables.find((t) => t.id === 'smart.drives')?.rows ?? [];
    expect(drives.length).toBeGreaterThan(0);
    expect(drives.filter((r) => r.at(-3) === 'no SMART data')).toEqual([]);
    expect(offline.model.sections[0]?.tables.find((t) => t.id === 'smart.drives')).toEqual(audit.model.sections.find((s) => s.kind === 'smart')?.tables.find((t) => t.id === 'smart.drives'));
  });

  it('exports a report just generated as it exports it reopened from the history, byte for byte', async () => {
    const x = await h.reports.generate({ kind: 'audit', offline: true });
    const fresh = await h.reports.export(x.id, path.join(h.tempDir(), 'fresh'), ['pdf', 'html', 'csv', 'json']);
    // Another report generated since: x now comes back from the history (read, checked, redacted again).
    await h.reports.generate({ kind: 'inventory', offline: true });
    const reopened = await h.reports.export(x.id, path.join(h.tempDir(), 'reopened'), ['pdf', 'html', 'csv', 'json']);
    expect(fresh.manifest.files.length).toBeGreaterThan(4);
    expect(reopened.manifest.files).toEqual(fresh.manifest.files);
  }, 30_000);

  it('inventory: systems with nodes and versions, hardware with serials and firmware', () => {
    const inv = rows(audit.model, 'inventory.systems');
    expect(inv.map((r) => r.system).sort()).toEqual([...systems].sort());
    for (const r of inv) expect(r).toMatchObject({ nodes: expect.any(Number), managementVersion: expect.stringMatching(/^\d+\.\d+/) });
    const drives = rows(audit.model, 'inventory.hardware').filter((r) => String(r.component).startsWith('Drive'));
    expect(drives.length).toBeGreaterThan(20);
    for (const d of drives) expect(d).toMatchObject({ serial: expect.any(String), firmware: expect.any(String) });
    expect(rows(audit.model, 'inventory.versions').filter((r) => r.component === 'Firmware')).toHaveLength(systems.length);
  });

  it('health: every pool of every system has a capacity and an outlook', () => {
    const pools = rows(audit.model, 'health.pools');
    for (const system of systems) expect(pools.filter((p) => p.system === system).length).toBeGreaterThanOrEqual(3);
    for (const p of pools) {
      expect(p.capacity).toEqual(expect.any(Number));
      expect(p.outlook).toMatch(/growing|not growing|full now/);
    }
  });

  it('SMART: the degrading drive of the first system shows its risk and findings', () => {
    const first = h.sim.manifest.sites[0]!.systems[0]!;
    const risky = rows(audit.model, 'smart.drives').filter((d) => d.system === first && (d.risk === 'warning' || d.risk === 'critical'));
    expect(risky.length).toBeGreaterThanOrEqual(1);
    expect(rows(audit.model, 'smart.findings').some((f) => f.system === first && /Reallocated|Pending/i.test(String(f.subject)))).toBe(true);
  });

  it('configuration: new user, host, SNMP target, and node CHAP only as set; action log records the writes masked', () => {
    const first = h.sim.manifest.sites[0]!.systems[0]!;
    expect(rows(audit.model, 'config.users')).toContainEqual(expect.objectContaining({ system: first, user: 'audit-user', role: 'Viewer', twoFactor: 'off' }));
    expect(rows(audit.model, 'config.hosts')).toContainEqual(expect.objectContaining({ system: first, host: 'marker-host', iqn: 'iqn.2024-01.com.example:marker' }));
    expect(rows(audit.model, 'config.notificationTargets')).toContainEqual(expect.objectContaining({ system: first, name: 'marker-trap', type: 'SNMP' }));
    const security = rows(audit.model, 'config.nodeSecurity').filter((r) => r.system === first);
    expect(security.length).toBeGreaterThanOrEqual(2);
    for (const r of security) expect(r).toMatchObject({ targetChap: 'set', sed: 'supplied', supportTunnel: expect.any(String) });
    expect(rows(audit.model, 'config.volumes').some((v) => v.system === first && v.encryption === 'on')).toBe(true);
    const actions = rows(audit.model, 'actions.records');
    expect(actions.map((a) => a.operation)).toEqual(expect.arrayContaining(['POST /users/create', 'PUT /nodes/chap', 'POST /notifications/targets/snmp/add']));
    expect(String(actions.find((a) => a.operation === 'POST /users/create')?.parameters)).toContain('"Password":"[redacted]"');
    expect(rows(audit.model, 'actions.verification')[0]).toMatchObject({ intact: true });
  });

  it('exports a PDF whose text names every system', () => {
    const text = pdfText(path.join(pack, 'report.pdf'));
    expect(text).toContain('Audit pack');
    for (const s of systems) expect(text).toContain(s);
    expect(text).toMatch(/Data age/);
  });

  it('neutralizes a formula in a CSV cell that came from a system', () => {
    const csv = fs.readFileSync(path.join(pack, 'csv', 'config.applications.csv'), 'utf8');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/x"",""click"")"`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('verify passes, then names the one file whose byte changed', async () => {
    expect(await verifyExport(pack)).toMatchObject({ ok: true, changed: [], missing: [], added: [] });
    const copy = path.join(h.tempDir(), 'copy');
    fs.cpSync(pack, copy, { recursive: true });
    flipByte(path.join(copy, 'csv', 'smart.drives.csv'));
    expect(await verifyExport(copy)).toMatchObject({ ok: false, changed: ['csv/smart.drives.csv'], missing: [], added: [] });
  });

  it('keeps every marker secret out of every exported file and the data dir', () => {
    const files = [...filesUnder(pack), ...filesUnder(h.dataDir)];
    expect(files.some((f) => f.path.endsWith('.db'))).toBe(true);
    expect(files.some((f) => f.path.endsWith('(text)'))).toBe(true);
    // The grep must look at real content: the host and user made with the markers are there.
    expect(files.find((f) => f.path.endsWith('report.json'))?.text).toContain('marker-host');
    for (const f of files) for (const [name, secret] of Object.entries(MARKERS)) expect(f.text.includes(secret), `${name} in ${f.path}`).toBe(false);
  });

  it('compares two configuration snapshots: an added host appears keyed by name', async () => {
    const site = h.saved[1]!;
    const system = h.sim.manifest.sites[1]!.systems[0]!;
    const before = await h.reports.generate({ kind: 'config', sites: [site.name] });
    await h.fleet.call(site.id, system, 'POST /hosts/create', { body: { Name: 'diff-host', Iqn: 'iqn.2024-01.com.example:diff' } });
    const after = await h.reports.generate({ kind: 'config', sites: [site.name] });
    const diff = h.reports.diff(before.id, after.id);
    const hosts = diff.tables.find((t) => t.id === 'config.hosts');
    expect(hosts?.added).toEqual([expect.arrayContaining([site.name, system, 'diff-host'])]);
    expect(hosts?.removed).toEqual([]);
    expect(h.reports.list().slice(0, 2).map((r) => r.id)).toEqual([after.id, before.id]);
    expect(h.reports.open(before.id).model).toEqual(before.model);
  });

  it('with every site down still builds and exports the pack from the cache, with data ages', async () => {
    for (const s of h.sim.sites) await s.stop();
    // Two hours pass (the app's clock follows the simulator's): the cached data is that old now.
    h.sim.clock.advance(7200);
    const down = await h.reports.generate({ kind: 'audit' });
    expect(down.model.source).toBe('fresh');
    for (const site of h.saved) expect(down.model.notes.join('\n')).toContain(`Site ${site.name}: could not be refreshed for this report`);
    const ages = down.model.sections.find((s) => s.kind === 'inventory')?.dataAges ?? [];
    expect(ages.map((a) => a.system).sort()).toEqual([...systems].sort());
    for (const a of ages) {
      expect(a).toMatchObject({ state: 'unreachable', at: expect.any(String) });
      expect(a.ageSeconds).toBeGreaterThanOrEqual(7200);
    }

    const offline = await h.reports.generate({ kind: 'audit', offline: true });
    expect(offline.model.source).toBe('cache');
    const dir = path.join(h.tempDir(), 'offline');
    const written = await h.reports.export(offline.id, dir, ['html', 'csv', 'json']);
    expect(written.manifest).toMatchObject({ source: 'cache', kind: 'audit' });
    expect(written.manifest.dataAges).toHaveLength(systems.length);
    for (const a of written.manifest.dataAges) expect(a.ageSeconds).toBeGreaterThanOrEqual(7200);
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(html).toContain('was unreachable when this report was made');
    expect(html).toMatch(/<td>2\.0 h<\/td>/);
    expect((await verifyExport(dir)).ok).toBe(true);
  }, 30_000);
});
