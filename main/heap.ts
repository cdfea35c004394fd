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

/**
 * V8 options the `fleetdeck` launchers (`build/bin/fleetdeck`, `fleetdeck.cmd`, the shebang of
 * `bin/fleetdeck.js`) put on the runtime's command line, for every command: V8 reads them when it
 * sets up the heap, so `setFlagsFromString` is too late for them.
 *
 * A monitor works a few seconds in each minute and waits between. By default V8 takes each wait
 * for the end of the work: its memory reducer runs up to three full collections that shrink the
 * heap and let die the object shapes (maps) the optimised code was built for, so that code is
 * thrown away and the next poll runs unoptimised and compiles it again. Without the reducer, and
 * with shapes kept for 16 full collections (not 2), that work is done once; the heap stays near
 * its working size instead (see BENCHMARKS.md for the monitor's CPU and RSS).
 */
export const RUNTIME_V8_FLAGS: readonly string[] = ['--no-memory-reducer', '--retain-maps-for-n-gc=16'];

/** The {@link RUNTIME_V8_FLAGS} this process was started without (node's command line: `execArgv`). */
export function missingRuntimeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  const spelt = (a: string): string => a.replace(/_/g, '-');
  return RUNTIME_V8_FLAGS.filter((flag) => !execArgv.some((a) => spelt(a) === flag));
}
