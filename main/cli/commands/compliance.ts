import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CHECK_RESULTS, type CheckOutcome, type Evidence } from '../../../app/compliance/evaluate.js';
import type { Baseline } from '../../../app/compliance/baseline.js';
import { SEVERITIES } from '../../../app/compliance/baseline.js';
import { BaselineError, parseBaseline } from '../../../app/compliance/parse.js';
import { terminalField } from '../../../app/safe-text.js';
import { SECURE_BASELINE } from '../../../app/compliance/secure-baseline.js';
import { evaluateFleet, type SystemCompliance } from '../../compliance/fleet-compliance.js';
import { withRuntime } from '../context.js';
import { CliError, EXIT, printJson, printRow, type CliIo } from '../io.js';

/** The baseline in force and how to recognise it: the SHA-256 of its file's bytes. */
export interface BaselineSource {
  baseline: Baseline;
  /** The file read; absent for the shipped baseline. */
  file?: string;
  sha256: string;
}

/** The shipped baseline's text: what `--print-baseline` writes and what its hash is taken of. */
export function secureBaselineText(): string {
  return `${JSON.stringify(SECURE_BASELINE, null, 2)}\n`;
}

/** Reads the baseline of `file`, or the shipped one; a malformed file is refused line by line (a `validation` error). */
export function loadBaseline(file: string | undefined): BaselineSource {
  if (file === undefined) return { baseline: SECURE_BASELINE, sha256: sha256(secureBaselineText()) };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read the baseline ${file}: ${(err as Error).message}`, EXIT.usage);
  }
  try {
    return { baseline: parseBaseline(text, file), file, sha256: sha256(text) };
  } catch (err) {
    if (!(err instanceof BaselineError)) throw err;
    // One problem a line; each kept to one line, since it may quote the file.
    const lines = err.problems.map((p) => `  line ${p.line}${p.path ? ` (${terminalField(p.path)})` : ''}: ${terminalField(p.message)}`);
    throw new CliError(`${file}: not a usable baseline\n${lines.join('\n')}`, EXIT.usage);
  }
}

/**
 * `fleetdeck compliance [--baseline FILE] [--site NAME]... [--json] [--print-baseline]`: every
 * cached system against the baseline (the shipped one without `--baseline`), from the offline
 * cache alone. Exits {@link EXIT.checksFailing} when any check fails on any system, else 0; a check
 * that cannot tell does not fail the run but is printed as such.
 */
export async function complianceCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
      'data-dir': { type: 'string' },
      baseline: { type: 'string' },
      site: { type: 'string', multiple: true, default: [] },
      json: { type: 'boolean', default: false },
      'print-baseline': { type: 'boolean', default: false },
    },
  });
  if (values['print-baseline']) {
    io.stdout(values.baseline === undefined ? secureBaselineText() : `${JSON.stringify(loadBaseline(values.baseline).baseline, null, 2)}\n`);
    return EXIT.ok;
  }
  const source = loadBaseline(values.baseline);
  return withRuntime(io, values['data-dir'], async (rt) => {
    const siteIds = new Set<string>();
    for (const name of values.site ?? []) {
      const site = rt.sites.get(name);
      if (!site) throw new CliError(`no site named "${name}"`, EXIT.usage);
      siteIds.add(site.id);
    }
    const now = new Date();
    const systems = evaluateFleet({ baseline: source.baseline, cache: rt.cache, sites: rt.sites.list(), ...(siteIds.size ? { siteIds } : {}), now });
    const meta = { name: source.baseline.name, version: source.baseline.version, sha256: source.sha256, ...(source.file ? { file: source.file } : {}) };
    if (values.json) printJson(io, { baseline: meta, evaluatedAt: now.toISOString(), systems });
    else printText(io, meta, systems);
    return systems.some((s) => s.counts.fail > 0) ? EXIT.checksFailing : EXIT.ok;
  });
}

function printText(io: CliIo, meta: { name: string; version: string; sha256: string }, systems: readonly SystemCompliance[]): void {
  io.stdout(`baseline ${meta.name} ${meta.version} (sha256 ${meta.sha256})\n`);
  if (!systems.length) {
    io.stdout('no cached systems: refresh first (fleetdeck refresh)\n');
    return;
  }
  for (const s of systems) {
    const c = s.counts;
    printRow(io, [s.site, s.system, `${c.fail} fail, ${c['cannot-tell']} cannot tell, ${c.pass} pass, ${c['not-applicable']} not applicable`]);
    for (const check of worstFirst(s.checks)) printRow(io, [RESULT_WORD[check.result], check.severity, check.id, check.title, check.reason, evidenceText(check.evidence)], '  ');
  }
}

const RESULT_WORD: Record<CheckOutcome['result'], string> = { fail: 'FAIL', 'cannot-tell': 'CANNOT TELL', pass: 'pass', 'not-applicable': 'n/a' };

/** Result worst first, then severity highest first, then the baseline's order. */
function worstFirst(checks: readonly CheckOutcome[]): CheckOutcome[] {
  const rank = (c: CheckOutcome): number => CHECK_RESULTS.indexOf(c.result) * 10 + (SEVERITIES.length - SEVERITIES.indexOf(c.severity));
  return checks.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map((x) => x.c);
}

function evidenceText(e: Evidence | undefined): string {
  if (!e) return '';
  const when = e.at ? `, read ${e.at}${e.ageSeconds !== undefined ? ` (${ageText(e.ageSeconds)} ago)` : ''}` : ', not cached';
  const values = e.values.map((v) => `${v.item !== undefined ? `${v.item}: ` : ''}${v.field}=${v.value === undefined ? '(absent)' : JSON.stringify(v.value)}`);
  return `[${e.op}${when}]${values.length ? ` ${values.join('; ')}` : ''}`;
}

function ageText(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 360) / 10} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
