import fs from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../app/errors.js';
import { overallDataAges, type ReportModel } from '../../app/reports/model.js';
import type { Redacted } from '../../app/redact.js';
import { csvFiles } from './csv.js';
import { renderHtml } from './html.js';
import { MANIFEST_FILE, MANIFEST_FORMAT, manifestSelfHash, sha256, type Manifest } from './manifest.js';
import { writeReportPdf } from './pdf.js';

/** The export formats. */
export const EXPORT_FORMATS = ['pdf', 'html', 'csv', 'json'] as const;
/** One of {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Where and how {@link exportReport} writes. */
export interface ExportOptions {
  /** Target directory: created when missing; must be empty when it exists. */
  dir: string;
  formats: readonly ExportFormat[];
  /** Id of the report in the history, recorded in the manifest. */
  reportId?: number | null;
  /** Who writes the files (OS user) and when. */
  exportedBy: string;
  exportedAt: Date;
}

/** What {@link exportReport} wrote. */
export interface ExportResult {
  dir: string;
  manifest: Manifest;
  /** SHA-256 of manifest.json: the fingerprint to record outside the directory. */
  manifestSha256: string;
}

/**
 * Writes a report in the chosen formats plus `manifest.json` (who, when, what, scope, source, data
 * ages, SHA-256 of every file). The model must come redacted (from `buildReport`, or from the
 * history, which redacts what it reads back): every format is written from it as it is.
 * @throws Error when the directory exists and is not empty (a manifest must describe the whole
 *   directory), or when no format is given.
 */
export async function exportReport(m: Redacted<ReportModel>, o: ExportOptions): Promise<ExportResult> {
  const formats = [...new Set(o.formats)];
  if (!formats.length) throw new InputError('choose at least one format: pdf, html, csv, json');
  const dir = path.resolve(o.dir);
  await prepareDir(dir);

  const files: Array<{ path: string; data: Buffer }> = [];
  if (formats.includes('pdf')) files.push({ path: 'report.pdf', data: await writeReportPdf(m) });
  if (formats.includes('html')) files.push({ path: 'report.html', data: Buffer.from(renderHtml(m), 'utf8') });
  if (formats.includes('json')) files.push({ path: 'report.json', data: Buffer.from(`${JSON.stringify(m, null, 2)}\n`, 'utf8') });
  if (formats.includes('csv')) for (const f of csvFiles(m)) files.push({ path: f.path, data: Buffer.from(f.content, 'utf8') });

  for (const f of files) {
    const target = path.join(dir, ...f.path.split('/'));
    if (path.dirname(target) !== dir) await privateDir(path.dirname(target));
    // 'wx': never overwrite something that appeared meanwhile; 0600, as the action log's exports.
    await fs.writeFile(target, f.data, { flag: 'wx', mode: 0o600 });
  }
  const body: Omit<Manifest, 'selfSha256'> = {
    format: MANIFEST_FORMAT,
    reportId: o.reportId ?? null,
    title: m.title,
    kind: m.kind,
    generatedAt: m.generatedAt,
    generatedBy: m.generatedBy,
    exportedAt: o.exportedAt.toISOString(),
    exportedBy: o.exportedBy,
    appVersion: m.appVersion,
    source: m.source,
    scope: { sites: m.scope.sites.map((s) => s.name), systems: m.scope.systems.map((s) => ({ site: s.siteName, system: s.system })) },
    period: m.period,
    dataAges: overallDataAges(m).map((a) => ({ site: a.siteName, system: a.system, state: a.state, at: a.at, ageSeconds: a.ageSeconds })),
    files: files.map((f) => ({ path: f.path, bytes: f.data.length, sha256: sha256(f.data) })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
  const manifest: Manifest = { ...body, selfSha256: manifestSelfHash(body) };
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  await fs.writeFile(path.join(dir, MANIFEST_FILE), text, { flag: 'wx', mode: 0o600 });
  return { dir, manifest, manifestSha256: sha256(text) };
}

/**
 * Refuses a directory that exists and is not empty (checked before a report is generated, so a
 * mistyped --out does not leave a report in the history that was never written).
 * @returns whether the directory exists.
 */
export async function assertExportDir(dir: string): Promise<boolean> {
  let entries: string[];
  try {
    entries = await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  if (entries.length) throw new InputError(`${dir} is not empty: choose a new or empty directory, so its manifest describes every file in it`, 'conflict');
  return true;
}

/**
 * A report holds users, hosts and the action log: the folders it creates are the owner's alone
 * (0700, whatever the umask), and an empty folder chosen for it is made so too.
 */
async function prepareDir(dir: string): Promise<void> {
  await assertExportDir(dir);
  await privateDir(dir);
}

async function privateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode passes through the umask, and leaves a folder that existed as it was.
  if (process.platform !== 'win32') await fs.chmod(dir, 0o700);
}

/** Parses `pdf,html,csv,json` (any order, any case). @throws Error naming an unknown format. */
export function parseFormats(text: string): ExportFormat[] {
  const out: ExportFormat[] = [];
  for (const f of text.split(',').map((x) => x.trim().toLowerCase()).filter(Boolean)) {
    if (!(EXPORT_FORMATS as readonly string[]).includes(f)) throw new InputError(`unknown format "${f}" (known: ${EXPORT_FORMATS.join(', ')})`);
    if (!out.includes(f as ExportFormat)) out.push(f as ExportFormat);
  }
  if (!out.length) throw new InputError(`give at least one format (${EXPORT_FORMATS.join(', ')})`);
  return out;
}
