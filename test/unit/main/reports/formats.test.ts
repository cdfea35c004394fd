import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../../../app/reports/build.js';
import { csvCell, csvFiles, neutralize, toCsv } from '../../../../main/reports/csv.js';
import { exportReport, parseFormats } from '../../../../main/reports/export.js';
import { renderHtml } from '../../../../main/reports/html.js';
import { manifestSelfHash, verifyExport, type Manifest } from '../../../../main/reports/manifest.js';
import { writeReportPdf } from '../../../../main/reports/pdf.js';
import { ReportStore } from '../../../../main/reports/store.js';
import { openReportsDatabase } from '../../../../main/store/open.js';
import type { ReportModel } from '../../../../app/reports/model.js';
import { fixtureInput } from '../../app/reports/fixtures.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-report-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const model = buildReport('audit', fixtureInput());
describe('CSV', () => {
  it('neutralizes every cell a spreadsheet would run as a formula', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(neutralize(`${lead}1+1`)).toBe(`'${lead}1+1`);
    expect(neutralize('esx01')).toBe('esx01');
    expect(neutralize('a=b')).toBe('a=b');
    // Numbers are values, not formulas: a negative number stays a number.
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('=cmd|" /C calc"!A0')).toBe(`"'=cmd|"" /C calc""!A0"`);
  });

  it('quotes per RFC 4180 and ends every line with CRLF', () => {
    expect(toCsv(['a', 'b'], [['x,y', 'say "hi"'], ['line1\nline2', null], [true, 3.5]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line1\nline2",\r\nyes,3.5\r\n');
  });

  it('writes one file per table plus data ages and report facts; hostile host names arrive as text', () => {
    const files = csvFiles(model);
    const paths = files.map((f) => f.path);
    expect(paths).toContain('csv/config.hosts.csv');
    expect(paths).toContain('csv/data-ages.csv');
    expect(paths).toContain('csv/report.csv');
    expect(paths).toHaveLength(model.sections.reduce((n, s) => n + s.tables.length, 0) + 2);
    const hosts = files.find((f) => f.path === 'csv/config.hosts.csv')?.content ?? '';
    expect(hosts.split('\r\n')[0]).toBe('Site,System,Host,IP,WWNs,IQN,NQN,CHAP,Paired with');
    expect(hosts).toContain(`"'=HYPERLINK(""http://evil"")"`);
    const ages = files.find((f) => f.path === 'csv/data-ages.csv')?.content ?? '';
    expect(ages).toContain('inventory,West DC,beta,unreachable,2025-01-14T00:00:00.000Z,129600');
    expect(ages).toContain('inventory,West DC,gamma,stale,,');
  });
});

describe('HTML', () => {
  const html = renderHtml(model);

  it('is self-contained: no script, no external reference, a CSP that forbids loading anything', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\ssrc=/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/<link/i);
    for (const href of html.match(/href="[^"]*"/g) ?? []) expect(href).toMatch(/^href="#/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it('escapes values from the systems and shows data ages, notes and formatted units', () => {
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; OLTP');
    expect(html).toContain('=HYPERLINK(&quot;http://evil&quot;)');
    expect(html).toContain('<td>2025-01-14T00:00:00.000Z</td><td>1.5 d</td>');
    expect(html).toContain('no data cached');
    expect(html).toContain('West DC / beta was unreachable');
    expect(html).toContain('<td class="num">10.0 TiB</td>');
    expect(html).toMatch(/<td class="critical[^"]*">critical<\/td>/);
  });

  it('marks a drive whose SMART text could not be read unknown, unlike an ok one', () => {
    const input = fixtureInput();
    const nvme = input.systems[0]?.smart[1];
    if (nvme) nvme.value = 'Smartctl open device: /dev/nvme0 failed: No such device';
    const smart = renderHtml(buildReport('smart', input));
    expect(smart).toMatch(/<td>nvme0n1<\/td>(<td[^>]*>[^<]*<\/td>)*<td class="unknown[^"]*">unknown<\/td>/);
  });

  it('shows site and system in one cell, so a printed row still says where it is from', () => {
    expect(html).toContain('<th>Site / system</th>');
    expect(html).not.toContain('<tr><th>Site</th><th>System</th>');
    expect(html).toContain('<td>West DC / beta</td>');
  });
});

describe('export and verify', () => {
  it('writes the formats and a manifest whose hashes verify, then names a changed, missing or added file', async () => {
    const dir = path.join(tempDir(), 'pack');
    const written = await exportReport(model, { dir, formats: ['pdf', 'html', 'csv', 'json'], reportId: 7, exportedBy: 'bob', exportedAt: new Date('2025-02-01T00:00:00Z') });
    // Written here, titled and dated as the report: the same bytes as the writer gives (reproducible from the model).
    const pdfBytes = fs.readFileSync(path.join(dir, 'report.pdf'));
    expect(pdfBytes.equals(await writeReportPdf(model))).toBe(true);
    const pdf = await PDFDocument.load(pdfBytes);
    expect(pdf.getPageCount()).toBeGreaterThan(model.sections.length);
    expect(pdf.getTitle()).toBe(model.title);
    expect(pdf.getCreationDate()?.toISOString()).toBe(new Date(model.generatedAt).toISOString());
    expect(written.manifest).toMatchObject({ reportId: 7, kind: 'audit', generatedBy: 'auditor-os-user', exportedBy: 'bob', appVersion: '9.9.9', source: 'cache', scope: { sites: ['East DC', 'West DC'] } });
    expect(written.manifest.dataAges).toContainEqual({ site: 'West DC', system: 'beta', state: 'unreachable', at: '2025-01-14T00:00:00.000Z', ageSeconds: 129600 });
    expect(written.manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(['report.pdf', 'report.html', 'report.json', 'csv/config.hosts.csv']));
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'))).toEqual(model);

    const ok = await verifyExport(dir);
    expect(ok).toMatchObject({ ok: true, changed: [], missing: [], added: [], manifestSha256: written.manifestSha256 });
    expect(ok.intact).toHaveLength(written.manifest.files.length);

    const csv = path.join(dir, 'csv', 'config.users.csv');
    const bytes = fs.readFileSync(csv);
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] as number) ^ 1;
    fs.writeFileSync(csv, bytes);
    fs.rmSync(path.join(dir, 'report.html'));
    fs.writeFileSync(path.join(dir, 'csv', 'extra.csv'), 'x');
    expect(await verifyExport(dir)).toMatchObject({ ok: false, changed: ['csv/config.users.csv'], missing: ['report.html'], added: ['csv/extra.csv'] });
  });

  it.skipIf(process.platform === 'win32')('writes its folders 0700 and its files 0600 under umask 022', async () => {
    const previous = process.umask(0o022);
    try {
      const dir = path.join(tempDir(), 'reports', 'pack');
      await exportReport(model, { dir, formats: ['pdf', 'html', 'csv', 'json'], exportedBy: 'bob', exportedAt: new Date() });
      const chosen = tempDir();
      fs.chmodSync(chosen, 0o755);
      await exportReport(model, { dir: chosen, formats: ['json'], exportedBy: 'bob', exportedAt: new Date() });
      const modes = (root: string): Array<[string, number]> =>
        fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).map((p) => [p, fs.statSync(path.join(root, p)).mode & 0o777] as [string, number]);
      for (const root of [dir, chosen]) {
        expect(fs.statSync(root).mode & 0o777, root).toBe(0o700);
        for (const [p, mode] of modes(root)) expect(mode, p).toBe(fs.statSync(path.join(root, p)).isDirectory() ? 0o700 : 0o600);
      }
      expect(modes(dir).map(([p]) => p)).toEqual(expect.arrayContaining(['csv', 'manifest.json', 'report.pdf', 'report.html', 'report.json']));
      expect(fs.statSync(path.dirname(dir)).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it('refuses a non-empty directory and an unknown format', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'old.txt'), 'x');
    await expect(exportReport(model, { dir, formats: ['json'], exportedBy: 'bob', exportedAt: new Date() })).rejects.toThrow(/is not empty/);
    expect(() => parseFormats('pdf,docx')).toThrow(/unknown format "docx"/);
    expect(parseFormats('JSON, csv,json')).toEqual(['json', 'csv']);
  });

  it('catches an edit of the manifest itself', async () => {
    const dir = path.join(tempDir(), 'pack');
    await exportReport(model, { dir, formats: ['json'], exportedBy: 'bob', exportedAt: new Date() });
    const file = path.join(dir, 'manifest.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"generatedBy": "auditor-os-user"', '"generatedBy": "someone-else"'));
    await expect(verifyExport(dir)).rejects.toThrow(/manifest.json was changed after export/);
  });

  it('rejects a manifest that points outside the directory', async () => {
    const dir = path.join(tempDir(), 'pack');
    await exportReport(model, { dir, formats: ['json'], exportedBy: 'bob', exportedAt: new Date() });
    const file = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { files: Array<{ path: string }> };
    manifest.files[0]!.path = '../../etc/passwd';
    // Rewritten consistently (self-hash recomputed), as a forger would.
    const forged = { ...manifest, selfSha256: manifestSelfHash(manifest as unknown as Manifest) };
    fs.writeFileSync(file, JSON.stringify(forged));
    await expect(verifyExport(dir)).rejects.toThrow(/invalid path/);
  });
});

describe('report history', () => {
  it('keeps every report with its model, lists newest first and reopens it', () => {
    const db = openReportsDatabase(tempDir());
    try {
      const store = new ReportStore(db);
      const first = store.save(model);
      const second = store.save(buildReport('config', fixtureInput()));
      expect(second.id).toBeGreaterThan(first.id);
      expect(store.list().map((r) => [r.id, r.kind, r.sites, r.siteIds, r.systems])).toEqual([
        [second.id, 'config', ['East DC', 'West DC'], ['east', 'west'], 3],
        [first.id, 'audit', ['East DC', 'West DC'], ['east', 'west'], 3],
      ]);
      expect(store.get(first.id)?.model).toEqual(model);
      expect(store.get(999)).toBeUndefined();
    } finally {
      db.close();
    }
  });
});

describe('what the report writers take', () => {
  it('is a model that went through redact(): a plain one fails the typecheck at every writer', async () => {
    const plain: ReportModel = structuredClone(model);
    // @ts-expect-error a model that was never redacted cannot be rendered
    expect(renderHtml(plain)).toContain(model.title);
    // @ts-expect-error nor written as CSV
    expect(csvFiles(plain).length).toBeGreaterThan(0);
    // @ts-expect-error nor written as PDF
    expect((await writeReportPdf(plain)).length).toBeGreaterThan(0);
    // @ts-expect-error nor exported
    await expect(exportReport(plain, { dir: tempDir(), formats: ['json'], exportedBy: 'bob', exportedAt: new Date() })).resolves.toHaveProperty('manifestSha256');
    const db = openReportsDatabase(tempDir());
    try {
      // @ts-expect-error nor kept in the history
      expect(new ReportStore(db).save(plain).id).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
