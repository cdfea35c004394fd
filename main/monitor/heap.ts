import { setFlagsFromString } from 'node:v8';

/**
 * How far past what its last full collection kept alive V8 lets the monitor's heap grow, in per
 * cent. A refresh of a large fleet allocates answers (texts, parsed values, rows) fast while what
 * stays alive is small (the summaries, alerts and memos of 1,000 systems: about 80 MB); left to its
 * own measure, V8 lets the garbage pile up to several times that before it collects, and the
 * process keeps those pages. Bounded so, a monitor of 1,000 systems stays under 300 MB, for more
 * frequent (shorter) collections. An admin's own `--heap-growing-percent` wins.
 */
export const HEAP_GROWING_PERCENT = 50;

/** Bounds the heap's growth of this process (the monitor's own) unless its command line set it. */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  if ([...execArgv, ...nodeOptions.split(/\s+/)].some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
