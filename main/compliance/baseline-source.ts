import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Baseline } from '../../app/compliance/baseline.js';
import { parseBaseline } from '../../app/compliance/parse.js';
import type { BaselineMeta } from '../../app/compliance/results.js';
import { SECURE_BASELINE } from '../../app/compliance/secure-baseline.js';

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

/** The shipped secure baseline. */
export function shippedBaseline(): BaselineSource {
  return { baseline: SECURE_BASELINE, sha256: sha256(secureBaselineText()) };
}

/**
 * Reads a baseline file (JSON or YAML).
 * @throws the file system's error when it cannot be read; BaselineError naming each problem's line
 */
export function readBaselineFile(file: string): BaselineSource {
  const text = readFileSync(file, 'utf8');
  return { baseline: parseBaseline(text, file), file, sha256: sha256(text) };
}

/** Names of the baseline file an admin may put in the data directory, in the order they are looked for. */
export const DATA_DIR_BASELINES = ['compliance-baseline.yaml', 'compliance-baseline.yml', 'compliance-baseline.json'] as const;

/**
 * The baseline in force for a data directory: its `compliance-baseline.yaml` (or `.yml`, `.json`)
 * when there is one, else the shipped one. A file that cannot be used is named in `problem` (each
 * problem with its line), and the shipped baseline is used until it is corrected.
 */
export function dataDirBaseline(dataDir: string): { source: BaselineSource; problem?: string } {
  const file = DATA_DIR_BASELINES.map((name) => join(dataDir, name)).find((f) => existsSync(f));
  if (file === undefined) return { source: shippedBaseline() };
  try {
    return { source: readBaselineFile(file) };
  } catch (err) {
    return { source: shippedBaseline(), problem: `${err instanceof Error ? err.message : String(err)}\nthe shipped secure baseline is used until it is corrected` };
  }
}

/** What a report, the window and `--json` say of the baseline: name, version, hash and each check. */
export function baselineMeta(source: BaselineSource): BaselineMeta {
  const b = source.baseline;
  return {
    name: b.name,
    version: b.version,
    sha256: source.sha256,
    ...(source.file !== undefined ? { file: source.file } : {}),
    checks: b.checks.map((c) => ({ id: c.id, title: c.title, rationale: c.rationale, severity: c.severity, fixable: c.fix !== undefined })),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
