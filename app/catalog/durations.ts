/**
 * How long an operation says it runs, read from its own parameters. The document gives two: node
 * utilities run up to `timeoutSeconds` (default 10, at most an hour), and the drive performance
 * analyzer runs `iterationTimeInSeconds` per iteration. Such a call needs a timeout of its own: the
 * fixed request timeout would abort it while the system is still working. `docs/assumptions.md`
 * lists what is assumed here.
 */

import type { OperationKey } from './operations.js';

/** A run time and the parameters it comes from, in words. */
export interface RunTime {
  ms: number;
  why: string;
}

/** Tests the performance analyzer runs per drive (random and sequential, read and write). */
export const ANALYZER_TESTS_PER_DRIVE = 4;
/** Defaults when the parameter is not sent: the document's 10 s for utilities, the same assumed for the analyzer. */
export const DEFAULT_UTILITY_SECONDS = 10;
export const DEFAULT_ITERATION_SECONDS = 10;
/** Longest timeout ever derived: a call that says it runs longer is still cut here. */
export const MAX_DERIVED_TIMEOUT_MS = 4 * 3600_000;
/** Added to a run time: the answer still has to be produced and sent after the work ends. */
export const MIN_MARGIN_MS = 30_000;

/**
 * The run time an operation's parameters announce, or undefined when it announces none.
 * @param driveCount drives the analyzer may test when its parameters do not list them (`all`,
 *   `hdd`, a pool): the system's drives as last read; unknown when undefined.
 */
export function announcedRunTime(opKey: OperationKey, query: Readonly<Record<string, unknown>>, driveCount?: number): RunTime | undefined {
  if (opKey === 'GET /nodes/utils/run') {
    const seconds = clamp(numberParam(query, 'timeoutSeconds') ?? DEFAULT_UTILITY_SECONDS, 1, 3600);
    return { ms: seconds * 1000, why: `timeoutSeconds ${seconds}` };
  }
  if (opKey === 'GET /resources/drives/performance_analyzer') {
    const iteration = clamp(numberParam(query, 'iterationTimeInSeconds') ?? DEFAULT_ITERATION_SECONDS, 1, 3600);
    const listed = listParam(query, 'driveIds');
    const drives = listed ?? driveCount;
    if (drives === undefined) return { ms: MAX_DERIVED_TIMEOUT_MS, why: `iterationTimeInSeconds ${iteration} on drives not counted yet` };
    const n = Math.max(1, drives);
    return { ms: iteration * ANALYZER_TESTS_PER_DRIVE * n * 1000, why: `${iteration} s × ${ANALYZER_TESTS_PER_DRIVE} tests × ${n} drive${n === 1 ? '' : 's'}` };
  }
  return undefined;
}

/** The request timeout for a run: its time plus a margin (10 %, at least 30 s), at most {@link MAX_DERIVED_TIMEOUT_MS}. */
export function timeoutForRun(run: RunTime): number {
  return Math.min(MAX_DERIVED_TIMEOUT_MS, run.ms + Math.max(MIN_MARGIN_MS, Math.round(run.ms / 10)));
}

function find(query: Readonly<Record<string, unknown>>, name: string): unknown {
  const lower = name.toLowerCase();
  return Object.entries(query).find(([k]) => k.toLowerCase() === lower)?.[1];
}

function numberParam(query: Readonly<Record<string, unknown>>, name: string): number | undefined {
  const v = find(query, name);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

function listParam(query: Readonly<Record<string, unknown>>, name: string): number | undefined {
  const v = find(query, name);
  if (Array.isArray(v)) return v.length || undefined;
  return v === undefined || v === '' ? undefined : 1;
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(n)));
}
