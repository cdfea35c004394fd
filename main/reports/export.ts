import fs from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../app/errors.js';
import { overallDataAges, type ReportModel } from '../../app/reports/model.js';
import type { Redacted } from '../../app/redact.js';
import { csvFiles } from './csv.js';
import { renderHtml } from './html.js';
import { MANIFEST_FILE, MANIFEST_FORMAT, manifestSelfHash, sha256, type Manifest } from './manifest.js';
import { writeReportPdf } from './pdf.js';
import { fileError, makePrivateDir, writePrivate } from './save-grants.js';

/** The export formats. */
export const EXPORT_FORMATS = ['pdf', 'html', 'csv', 'json'] as const;
/** One of {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What {@link reportFiles} builds: the formats chosen, by whom and when. */
export interface ReportFilesOptions {
  formats: readonly ExportFormat[];
  /** Id of the report in the history, recorded in the manifest. */
  reportId?: number | null;
  /** Who exports (OS user) and when. */
  exportedBy: string;
  exportedAt: Date;
}

/** Where and how {@link exportReport} writes. */
export interface ExportOptions extends ReportFilesOptions {
  /** Target directory: created when missing; must be empty when it exists. */
  dir: string;
}

/** A report's files as {@link reportFiles} builds them, manifest.json last. */
export interface ReportFiles {
  /** Every file, its path relative to the export folder (`/`-separated). */
  files: Array<{ path: string; data: Buffer }>;
  manifest: Manifest;
  /** SHA-256 of manifest.json: the fingerprint to record outside the export. */
  manifestSha256: string;
}

/** What {@link exportReport} wrote. */
export interface ExportResult {
  dir: string;
  manifest: Manifest;
  /** SHA-256 of manifest.json: the fingerprint to record outside the directory. */
  manifestSha256: string;
}

/**
 * Builds a report in the chosen formats plus `manifest.json` (who, when, what, scope, source, data
 * ages, SHA-256 of every file). The model must come redacted (from `buildReport`, or from the
 * history, which redacts what it reads back): every format is written from it as it is.
 * @throws InputError when no format is given.
 */
export async function reportFiles(m: Redacted<ReportModel>, o: ReportFilesOptions): Promise<ReportFiles> {
  const formats = [...new Set(o.formats)];
  if (!formats.length) throw new InputError('choose at least one format: pdf, html, csv, json');
  const files: Array<{ path: string; data: Buffer }> = [];
  if (formats.includes('pdf')) files.push({ path: 'report.pdf', data: await writeReportPdf(m) });
  if (formats.includes('html')) files.push({ path: 'report.html', data: Buffer.from(renderHtml(m), 'utf8') });
  if (formats.includes('json')) files.push({ path: 'report.json', data: Buffer.from(`${JSON.stringify(m, null, 2)}\n`, 'utf8') });
  if (formats.includes('csv')) for (const f of csvFiles(m)) files.push({ path: f.path, data: Buffer.from(f.content, 'utf8') });

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
  const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
  files.push({ path: MANIFEST_FILE, data: text });
  return { files, manifest, manifestSha256: sha256(text) };
}

/**
 * Writes {@link reportFiles} to a directory, private to the user (folders 0700, files 0600: an
 * audit pack names users, hosts and every write).
 * @throws InputError when the directory exists and is not empty (a manifest must describe the whole
 *   directory), when no format is given, or when the file system refuses the path.
 */
export async function exportReport(m: Redacted<ReportModel>, o: ExportOptions): Promise<ExportResult> {
  if (o.dir.includes('\0')) throw new InputError('the path holds a character no file name may hold (NUL)');
  const built = await reportFiles(m, o);
  const dir = path.resolve(o.dir);
  await prepareDir(dir);
  for (const f of built.files) {
    const target = path.join(dir, ...f.path.split('/'));
    await makePrivateDir(path.dirname(target), true);
    // 'wx': never overwrite something that appeared meanwhile.
    await writePrivate(target, f.data, 'wx');
  }
  return { dir, manifest: built.manifest, manifestSha256: built.manifestSha256 };
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
    throw fileError(err, dir);
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
  await makePrivateDir(dir, true);
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
