import { parseArgs } from 'node:util';
import { normalizeFingerprint } from '../../../app/fingerprint.js';
import type { ReportDiff } from '../../../app/reports/diff.js';
import { formatAge } from '../../../app/reports/format.js';
import { terminalField } from '../../../app/safe-text.js';
import { REPORT_KINDS, isReportKind, overallDataAges, type Cell } from '../../../app/reports/model.js';
import { EXPORT_FORMATS, assertExportDir, parseFormats, type ExportFormat, type ExportResult } from '../../reports/export.js';
import { verifyExport } from '../../reports/manifest.js';
import { ReportRequestError } from '../../reports/service.js';
import { DATA_DIR, withRuntime } from '../context.js';
import { CliError, EXIT, printJson, printRow, type CliIo } from '../io.js';

const USAGE = `usage:
  fleetdeck report KIND [--site NAME]... [--format ${EXPORT_FORMATS.join(',')}] --out DIR [--offline] [--since ISO] [--until ISO] [--json]
      KIND: ${REPORT_KINDS.join(', ')}
  fleetdeck report verify DIR [--manifest-sha256 HEX]
  fleetdeck report list [--json]
  fleetdeck report diff ID1 ID2 [--json]
  fleetdeck report export ID --out DIR [--format ${EXPORT_FORMATS.join(',')}]`;

/** `fleetdeck report …`: generate, verify, list, compare and re-export audit reports. */
export async function reportCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'verify':
      return verifyCommand(io, rest);
    case 'list':
      return listCommand(io, rest);
    case 'diff':
      return diffCommand(io, rest);
    case 'export':
      return exportCommand(io, rest);
    case undefined:
      throw new CliError(USAGE, EXIT.usage);
    default:
      if (!isReportKind(sub)) throw new CliError(`unknown report kind "${sub}"\n${USAGE}`, EXIT.usage);
      return generateCommand(io, sub, rest);
  }
}

/** Request mistakes (unknown site, bad time, non-empty directory) are usage errors, exit 2. */
async function asUsage<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (err) {
    if (err instanceof ReportRequestError || (err instanceof Error && /is not empty|unknown format|at least one format/.test(err.message))) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
}

function formatsOf(text: string | undefined): ExportFormat[] {
  try {
    return text === undefined ? [...EXPORT_FORMATS] : parseFormats(text);
  } catch (err) {
    throw new CliError((err as Error).message, EXIT.usage);
  }
}

async function generateCommand(io: CliIo, kind: (typeof REPORT_KINDS)[number], args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      ...DATA_DIR,
      site: { type: 'string', multiple: true },
      format: { type: 'string' },
      out: { type: 'string' },
      offline: { type: 'boolean', default: false },
      since: { type: 'string' },
      until: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}"\n${USAGE}`, EXIT.usage);
  if (!values.out) throw new CliError(`report ${kind} needs --out DIR (a new or empty directory)\n${USAGE}`, EXIT.usage);
  const out = values.out;
  const formats = formatsOf(values.format);
  await asUsage(() => assertExportDir(out));
  return withRuntime(io, values['data-dir'], async (rt) => {
    const reports = rt.reports;
    const generated = await asUsage(() => reports.generate({ kind, sites: values.site, offline: values.offline ?? false, since: values.since, until: values.until }));
    const written = await asUsage(() => reports.export(generated.id, out, formats));
    if (values.json) {
      printJson(io, { id: generated.id, kind, dir: written.dir, manifestSha256: written.manifestSha256, files: written.manifest.files, dataAges: written.manifest.dataAges, notes: generated.model.notes });
      return EXIT.ok;
    }
    io.stdout(`report ${generated.id}: ${terminalField(generated.model.title)} (${generated.model.source === 'fresh' ? 'refreshed first' : 'offline cache only'})\n`);
    printWritten(io, written);
    io.stdout('data ages (oldest data per system):\n');
    const ages = overallDataAges(generated.model);
    if (!ages.length) io.stdout('  no systems in scope\n');
    for (const a of ages) printRow(io, [`${a.siteName} / ${a.system}`, a.state, a.at ? `as of ${a.at} (${formatAge(a.ageSeconds ?? 0)} old)` : 'no data cached'], '  ');
    for (const n of generated.model.notes) io.stderr(`note: ${terminalField(n)}\n`);
    return EXIT.ok;
  });
}

function printWritten(io: CliIo, written: ExportResult): void {
  const csv = written.manifest.files.filter((f) => f.path.startsWith('csv/')).length;
  const main = written.manifest.files.filter((f) => !f.path.startsWith('csv/')).map((f) => f.path);
  io.stdout(`wrote ${written.dir}: ${[...main, ...(csv ? [`${csv} CSV files in csv/`] : []), 'manifest.json'].join(', ')}\n`);
  io.stdout(`manifest SHA-256 ${written.manifestSha256} (record it: "fleetdeck report verify" prints it again)\n`);
}

async function verifyCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options: { 'manifest-sha256': { type: 'string' } } });
  const dir = positionals[0];
  if (positionals.length !== 1 || !dir) throw new CliError(`usage: fleetdeck report verify DIR [--manifest-sha256 HEX]`, EXIT.usage);
  const typed = values['manifest-sha256'];
  const expected = typed === undefined ? undefined : normalizeFingerprint(typed);
  if (typed !== undefined && !expected) throw new CliError(`--manifest-sha256 takes the 64 hex digits printed at export (colons allowed), not "${typed}"`, EXIT.usage);
  let result;
  try {
    result = await verifyExport(dir);
  } catch (err) {
    throw new CliError(`verification FAILED: ${(err as Error).message}`, EXIT.api);
  }
  if (expected && expected !== result.manifestSha256) {
    throw new CliError(`verification FAILED: manifest.json has SHA-256 ${result.manifestSha256}, not the ${expected} recorded at export: it was replaced`, EXIT.api);
  }
  if (result.ok) {
    io.stdout(`${dir}: intact — ${result.intact.length} file(s) match manifest.json (report ${result.manifest.reportId ?? '-'}, ${result.manifest.kind}, generated ${result.manifest.generatedAt} by ${result.manifest.generatedBy})\n`);
    io.stdout(`manifest SHA-256 ${result.manifestSha256}\n`);
    return EXIT.ok;
  }
  for (const f of result.changed) io.stderr(`changed: ${f}\n`);
  for (const f of result.missing) io.stderr(`missing: ${f}\n`);
  for (const f of result.added) io.stderr(`added: ${f}\n`);
  const parts = [
    result.changed.length ? `${result.changed.length} changed (${result.changed.join(', ')})` : '',
    result.missing.length ? `${result.missing.length} missing (${result.missing.join(', ')})` : '',
    result.added.length ? `${result.added.length} not in the manifest (${result.added.join(', ')})` : '',
  ].filter(Boolean);
  throw new CliError(`verification FAILED for ${dir}: ${parts.join('; ')}`, EXIT.api);
}

async function listCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { ...DATA_DIR, json: { type: 'boolean', default: false } } });
  return withRuntime(io, values['data-dir'], async (rt) => {
    const rows = rt.reports.list();
    if (values.json) printJson(io, rows);
    else if (!rows.length) io.stdout('no reports yet: "fleetdeck report KIND --out DIR" makes one\n');
    else for (const r of rows) printRow(io, [String(r.id), r.generatedAt, r.kind, r.source, r.sites.join(',') || '-', `${r.systems} system(s)`, r.generatedBy]);
    return EXIT.ok;
  }, { secrets: false });
}

function reportId(text: string | undefined): number {
  const n = Number(text);
  if (!text || !Number.isInteger(n) || n < 1) throw new CliError(`"${text ?? ''}" is not a report id (see "fleetdeck report list")`, EXIT.usage);
  return n;
}

async function diffCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options: { ...DATA_DIR, json: { type: 'boolean', default: false } } });
  if (positionals.length !== 2) throw new CliError('usage: fleetdeck report diff ID1 ID2 [--json]', EXIT.usage);
  const from = reportId(positionals[0]);
  const to = reportId(positionals[1]);
  return withRuntime(io, values['data-dir'], async (rt) => {
    const diff = await asUsage(async () => rt.reports.diff(from, to));
    if (values.json) printJson(io, diff);
    else io.stdout(diffText(diff));
    return EXIT.ok;
  }, { secrets: false });
}

/** A diff for the terminal: `+` added rows, `-` removed rows, `~` changed cells. */
export function diffText(d: ReportDiff): string {
  const lines = [`configuration changes from report ${d.from.id} (${d.from.generatedAt}) to report ${d.to.id} (${d.to.generatedAt}):`];
  if (!d.tables.length) lines.push('  no changes');
  // Values are systems' text: one line each, whatever they hold.
  const show = (v: Cell): string => (v === null ? '—' : terminalField(String(v)));
  for (const t of d.tables) {
    lines.push(`${terminalField(t.title)}:`);
    for (const r of t.added) lines.push(`  + ${r.map(show).join(' | ')}`);
    for (const r of t.removed) lines.push(`  - ${r.map(show).join(' | ')}`);
    for (const c of t.changed) lines.push(`  ~ ${c.key.map(show).join(' / ')}: ${c.changes.map((x) => `${x.label} ${show(x.before)} → ${show(x.after)}`).join('; ')}`);
  }
  lines.push(`${d.summary.added} added, ${d.summary.removed} removed, ${d.summary.changed} changed`);
  return `${lines.join('\n')}\n`;
}

async function exportCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options: { ...DATA_DIR, out: { type: 'string' }, format: { type: 'string' } } });
  if (positionals.length !== 1 || !values.out) throw new CliError('usage: fleetdeck report export ID --out DIR [--format pdf,html,csv,json]', EXIT.usage);
  const id = reportId(positionals[0]);
  const out = values.out;
  const formats = formatsOf(values.format);
  return withRuntime(io, values['data-dir'], async (rt) => {
    const written = await asUsage(() => rt.reports.export(id, out, formats));
    io.stdout(`report ${id}\n`);
    printWritten(io, written);
    return EXIT.ok;
  }, { secrets: false });
}
