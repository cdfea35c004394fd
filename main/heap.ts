import { setFlagsFromString } from 'node:v8';

/**
 * How far past what its last full collection kept alive V8 lets the heap grow, in per cent, in a
 * main process that holds a runtime for long: the monitor, the browser shell, Electron's main. A
 * refresh of a large fleet allocates answers (texts, parsed values, rows) fast while what stays
 * alive is small (the summaries, alerts and memos of 1,000 systems: about 100 MB); left to its own
 * measure, V8 lets the garbage pile up to several times that before it collects, and the process
 * keeps those pages. Bounded so, for more frequent (shorter) collections: the goals are a monitor
 * of 1,000 systems under 300 MB and a shell that cached them under 400 MB. An admin's own
 * `--heap-growing-percent` on node's command line wins.
 */
export const HEAP_GROWING_PERCENT = 50;

/** Bounds the heap's growth of this process unless node's command line set it (NODE_OPTIONS cannot). */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
