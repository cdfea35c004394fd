/**
 * Part `monitor`: `fleetdeck monitor` as an admin runs it (the built CLI in a process of its own)
 * watching 1,000 systems (100 sites × 10) at a 60 s interval and 25 ms of latency, the simulator
 * in its own process. Prints, asserts nothing:
 * - its first full refresh: from the "started" line to the "first refresh done" line;
 * - the most requests any site saw at once (its own cap is 4);
 * - while it only polls (`--monitor-minutes`, default 16): its CPU share of one core (/proc CPU
 *   time over wall time) from the second minute on, and its RSS: the larger of the first refresh's
 *   peak (`VmHWM`) and the largest sample after it, and the last;
 *   and the same window minute by minute, with the requests the simulator received, so a cost
 *   growing with age shows. The first minute holds about half a minute's polls, so it is left out
 *   of the share. Polls re-read detail lists once every 5 minutes and slow reads once every 15,
 *   each system on its own phase: a window shorter than 16 minutes misses part of that cost.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mb, ms, processCpuMs, processPeakRssBytes, processRssBytes, ROOT, verdict, type Figure } from './support.js';
import { addMonitorSites, MONITOR_FLEET, spawnMonitor, startMonitorSimulator, writeSecretsFile } from './monitor-fleet.js';

const { sites: SITES, systems: SYSTEMS, intervalSeconds: INTERVAL_S, latencyMs: LATENCY_MS } = MONITOR_FLEET;

export interface MonitorBenchIo {
  report: (f: Figure) => void;
  log: (m: string) => void;
}

export async function benchMonitor(io: MonitorBenchIo, minutes = 16): Promise<void> {
  const sim = await startMonitorSimulator();
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-monitor-'));
  const dataDir = join(dir, 'data');
  try {
    await addMonitorSites(sim, dataDir);
    const secretsFile = join(dir, 'secrets.json');
    writeSecretsFile(sim, secretsFile);

    const child = spawnMonitor(ROOT, dataDir, secretsFile);
    let stderr = '';
    const seen = (text: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const look = (): void => {
          if (stderr.includes(text)) {
            child.stderr.off('data', look);
            resolve(performance.now());
          }
        };
        child.stderr.on('data', look);
        child.once('exit', (code) => reject(new Error(`the monitor exited ${code} before "${text}": ${stderr.slice(-2000)}`)));
        look();
      });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const started = await seen(' started: ');
    const cpuAtStart = processCpuMs(child.pid);
    const done = await seen('first refresh done');
    const firstMs = done - started;
    // The monitor's own CPU over its first refresh: what a machine with nothing else running needs at least.
    const firstCpuMs = processCpuMs(child.pid) - cpuAtStart;
    // The first refresh holds the most answers at once: its peak RSS counts against the goal too.
    const firstPeakRss = processPeakRssBytes(child.pid);
    const summary = /first refresh done: ([^\n]*)/.exec(stderr)?.[1] ?? '';
    const loads = await sim.status();
    const peak = Math.max(...loads.map((l) => l.peakInFlight));
    const requests = loads.reduce((n, l) => n + l.requests, 0);
    io.log(`monitor: first refresh ${ms(firstMs)} (${summary}), its CPU ${ms(firstCpuMs)}, ${requests} requests, peak ${peak} in flight at one site`);

    const cpu0 = processCpuMs(child.pid);
    const t0 = performance.now();
    const rss: number[] = [];
    // One row per minute of the steady window: a cost that grows with the monitor's age shows here.
    const mark = async (): Promise<Mark> => ({
      at: performance.now(),
      cpuMs: processCpuMs(child.pid),
      requests: (await sim.status()).reduce((n, l) => n + l.requests, 0),
      changes: (stderr.match(/ → /g) ?? []).length,
      rss: processRssBytes(child.pid),
      dataDir: treeBytes(dataDir),
    });
    const marks = [await mark()];
    while (performance.now() - t0 < minutes * 60_000) {
      await new Promise((r) => setTimeout(r, 5_000));
      rss.push(processRssBytes(child.pid));
      if (performance.now() - marks.at(-1)!.at >= 60_000) marks.push(await mark());
    }
    const wallMs = performance.now() - t0;
    const cpuMs = processCpuMs(child.pid) - cpu0;
    io.log(perMinute(marks));
    const polls = (stderr.match(/ → /g) ?? []).length;
    const stopAt = performance.now();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const code = await exited;
    const stopMs = performance.now() - stopAt;

    io.report({
      name: `monitor: first full refresh, ${SITES * SYSTEMS} systems, ${LATENCY_MS} ms latency`,
      value: ms(firstMs),
      baseline: `${summary}; the monitor's CPU over it ${ms(firstCpuMs)} (${((firstCpuMs / requests) * 1000).toFixed(0)} µs per request); ${requests} requests; at most ${peak} in flight at one site (its cap 4); load average ${loadavg()[0]!.toFixed(1)}`,
      goal: '< 25 s',
      verdict: verdict(firstMs < 25_000),
    });
    const whole = cpuMs / wallMs;
    // The first minute holds about half a minute's polls (each site's first comes one jittered
    // interval after the first refresh ends): the whole minutes after it are the full load.
    const from = marks[1];
    const last = marks.at(-1)!;
    const share = marks.length > 2 && from ? (last.cpuMs - from.cpuMs) / (last.at - from.at) : whole;
    io.report({
      name: `monitor: main CPU watching ${SITES * SYSTEMS} systems every ${INTERVAL_S} s`,
      value: `${(share * 100).toFixed(2)} %`,
      baseline: `${marks.length > 2 ? `minutes 2–${marks.length - 1}` : 'the whole window (under 3 minutes)'}, one core = 100 %; the whole window with its first minute ${(whole * 100).toFixed(2)} % (${cpuMs.toFixed(0)} ms CPU over ${ms(wallMs)}); ${polls} state changes logged`,
      goal: '< 5 %',
      verdict: verdict(share < 0.05),
    });
    const steadyRss = Math.max(...rss);
    const maxRss = Math.max(steadyRss, firstPeakRss);
    io.report({
      name: `monitor: RSS watching ${SITES * SYSTEMS} systems`,
      value: mb(maxRss),
      baseline: `largest of the first refresh's peak (${mb(firstPeakRss)}) and of ${rss.length} samples every 5 s after it (${mb(steadyRss)}); last ${mb(rss.at(-1) ?? Number.NaN)}; stop on SIGTERM ${ms(stopMs)}, exit ${code}`,
      goal: '< 300 MB',
      verdict: verdict(maxRss < 300 * 1024 * 1024),
    });
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Mark {
  at: number;
  cpuMs: number;
  /** Requests the simulator received so far, all sites. */
  requests: number;
  /** State changes the monitor logged so far. */
  changes: number;
  rss: number;
  /** Bytes of every file in the data directory (the stores, their WAL). */
  dataDir: number;
}

/** The steady window minute by minute: CPU, requests served, CPU per request, RSS, data dir size. */
function perMinute(marks: readonly Mark[]): string {
  const rows = ['monitor: steady window per minute (CPU ms / requests at the simulator / µs CPU per request / state changes / RSS / data dir)'];
  for (let i = 1; i < marks.length; i++) {
    const a = marks[i - 1]!;
    const b = marks[i]!;
    const cpu = b.cpuMs - a.cpuMs;
    const requests = b.requests - a.requests;
    const wall = b.at - a.at;
    rows.push(
      `  minute ${i}: ${cpu.toFixed(0)} ms CPU (${((cpu / wall) * 100).toFixed(2)} %), ${requests} requests, ` +
        `${requests ? ((cpu / requests) * 1000).toFixed(0) : '-'} µs per request, ${b.changes - a.changes} changes, RSS ${mb(b.rss)}, data dir ${mb(b.dataDir)}`,
    );
  }
  return rows.join('\n');
}

/** Total size of the files under a directory, 0 where it cannot be read. */
function treeBytes(dir: string): number {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .reduce((n, e) => n + statSync(join(e.parentPath ?? e.path, e.name)).size, 0);
  } catch {
    return 0;
  }
}
