import { EXIT } from '../../../app/errors.js';
import { boundHeapGrowth, missingRuntimeFlags } from '../../heap.js';
import { startMonitor, STOP_BOUND_MS } from '../../monitor/monitor.js';
import { parseMonitorArgs } from '../../monitor/options.js';
import { resolveDataDir } from '../../store/data-dir.js';
import type { CliIo } from '../io.js';

/** Which signals stop the monitor, and how it waits for one (injected by tests). */
export interface StopSignals {
  /** Calls `handler` at the first SIGTERM or SIGINT; returns the unsubscribe. */
  on(handler: (signal: string) => void): () => void;
}

const PROCESS_SIGNALS: StopSignals = {
  on(handler) {
    const onTerm = (): void => handler('SIGTERM');
    const onInt = (): void => handler('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
    return () => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
    };
  },
};

/**
 * `fleetdeck monitor [--data-dir D] [--metrics-listen ADDR:PORT] [--metrics-web-config FILE]
 * [--secrets-file FILE]`: polls every site and evaluates the alerts until SIGTERM or SIGINT, then
 * stops cleanly and exits 0 (1 when the stop did not end within its bound). Exits
 * {@link EXIT.monitorRunning} when another monitor holds the data directory.
 */
export async function monitorCommand(io: CliIo, args: readonly string[], signals: StopSignals = PROCESS_SIGNALS): Promise<number> {
  const parsed = parseMonitorArgs(args);
  // The process is the monitor's own only when it answers the OS's signals (not a test's).
  const ownProcess = signals === PROCESS_SIGNALS;
  if (ownProcess) boundHeapGrowth();
  const dataDir = resolveDataDir({ flag: parsed.dataDir, env: io.env });
  const stopped = new Promise<string>((resolve) => {
    const off = signals.on((signal) => {
      off();
      resolve(signal);
    });
  });
  const lines = batchedLines(io.stderr);
  try {
    return await monitorUntilStopped(parsed, io, dataDir, stopped, lines, ownProcess ? missingRuntimeFlags() : []);
  } finally {
    lines.close();
  }
}

async function monitorUntilStopped(parsed: ReturnType<typeof parseMonitorArgs>, io: CliIo, dataDir: string, stopped: Promise<string>, lines: BatchedLines, missing: readonly string[]): Promise<number> {
  const monitor = await startMonitor(parsed, {
    dataDir,
    env: io.env,
    log: lines.log,
    memorySecrets: io.env.FLEETDECK_KEYCHAIN?.trim().toLowerCase() === 'memory',
    missingRuntimeFlags: missing,
  });
  const signal = await stopped;
  lines.flush();
  io.stderr(`${new Date().toISOString()} ${signal} received\n`);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_BOUND_MS)));
  const outcome = await Promise.race([monitor.stop().then(() => 'done' as const), bound]);
  clearTimeout(timer);
  lines.flush();
  if (outcome === 'late') {
    io.stderr(`${new Date().toISOString()} the stop did not end within ${STOP_BOUND_MS / 1000} s: exiting anyway\n`);
    return EXIT.internal;
  }
  return EXIT.ok;
}

interface BatchedLines {
  /** Takes one line (without its line end). */
  log: (line: string) => void;
  /** Writes the lines taken so far. */
  flush: () => void;
  /** Writes them, and no longer writes at the process's exit. */
  close: () => void;
}

/**
 * The monitor's log lines, written together once per turn of the event loop (and at once when the
 * process exits): a first refresh logs a line per alert raised, thousands, and one write each was a
 * system call each on a piped stderr.
 */
function batchedLines(write: (text: string) => void): BatchedLines {
  let waiting = '';
  let scheduled: NodeJS.Immediate | undefined;
  const flush = (): void => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (!waiting) return;
    const text = waiting;
    waiting = '';
    write(text);
  };
  process.on('exit', flush);
  return {
    log: (line) => {
      waiting += `${line}\n`;
      scheduled ??= setImmediate(flush);
    },
    flush,
    close: () => {
      flush();
      process.off('exit', flush);
    },
  };
}
