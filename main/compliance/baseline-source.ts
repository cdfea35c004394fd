import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
