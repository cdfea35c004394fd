/**
 * Two builds of `fleetdeck monitor` side by side, under the same load: the `monitor` part's setup
 * (100 sites × 10 systems of one child simulator, 25 ms latency, 60 s interval), one data dir per
 * build, both monitors started together against the same simulator. Prints, per build, its first
 * full refresh (wall, and its own CPU time per request), its CPU share while it only polls (over
 * the same window for both) and its RSS (largest and last of samples every 5 s). Asserts nothing.
 * On a shared machine the CPU times are the figures to compare; each build's wall time includes
 * the other's load.
 *
 *   npx tsx test/bench/monitor-ab.ts --a DIR --b DIR [--minutes N]
 *
 * DIR is a built checkout (its `bin/fleetdeck.js` and `out/`); `--b` defaults to this one.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mb, ms, processCpuMs, processRssBytes, ROOT } from './support.js';
import { addMonitorSites, spawnMonitor, startMonitorSimulator, writeSecretsFile } from './monitor-fleet.js';

const { values: flags } = parseArgs({ options: { a: { type: 'string' }, b: { type: 'string' }, minutes: { type: 'string' } } });
if (!flags.a) throw new Error('--a DIR: the built checkout to compare with');
const MINUTES = Number(flags.minutes ?? 2);

interface Side {
  name: string;
  child: ChildProcessWithoutNullStreams;
  stderr: string;
  startedAt: number;
  cpuAtStart: number;
  firstMs: number;
  firstCpuMs: number;
  rss: number[];
}

const sim = await startMonitorSimulator();
const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-monitor-ab-'));
const sides: Side[] = [];
try {
  const secretsFile = join(dir, 'secrets.json');
  writeSecretsFile(sim, secretsFile);
  const roots: Array<[string, string]> = [['a', flags.a], ['b', flags.b ?? ROOT]];
  for (const [name] of roots) await addMonitorSites(sim, join(dir, name));
  for (const [name, root] of roots) {
    const child = spawnMonitor(root, join(dir, name), secretsFile);
    const side: Side = { name: `${name} (${root})`, child, stderr: '', startedAt: Number.NaN, cpuAtStart: Number.NaN, firstMs: Number.NaN, firstCpuMs: Number.NaN, rss: [] };
    child.stderr.on('data', (d: Buffer) => {
      side.stderr += d.toString();
      if (Number.isNaN(side.startedAt) && side.stderr.includes(' started: ')) {
        side.startedAt = performance.now();
        side.cpuAtStart = processCpuMs(child.pid);
      }
      if (Number.isNaN(side.firstMs) && side.stderr.includes('first refresh done')) {
        side.firstMs = performance.now() - side.startedAt;
        side.firstCpuMs = processCpuMs(child.pid) - side.cpuAtStart;
      }
    });
    child.once('exit', (code) => {
      if (Number.isNaN(side.firstMs)) process.stderr.write(`monitor ${name} exited ${code}: ${side.stderr.slice(-2000)}\n`);
    });
    sides.push(side);
  }
  while (sides.some((s) => Number.isNaN(s.firstMs))) {
    await new Promise((r) => setTimeout(r, 250));
    for (const s of sides) s.rss.push(processRssBytes(s.child.pid));
    if (sides.some((s) => s.child.exitCode !== null)) throw new Error('a monitor exited');
  }
  const requests = (await sim.status()).reduce((n, l) => n + l.requests, 0) / 2;
  const firstPeak = sides.map((s) => Math.max(...s.rss));
  const cpu0 = sides.map((s) => processCpuMs(s.child.pid));
  const t0 = performance.now();
  for (const s of sides) s.rss = [];
  while (performance.now() - t0 < MINUTES * 60_000) {
    await new Promise((r) => setTimeout(r, 5_000));
    for (const s of sides) s.rss.push(processRssBytes(s.child.pid));
  }
  const wall = performance.now() - t0;
  for (const [i, s] of sides.entries()) {
    const cpu = processCpuMs(s.child.pid) - (cpu0[i] as number);
    process.stdout.write(
      `${s.name}\n  first refresh ${ms(s.firstMs)}, its CPU ${ms(s.firstCpuMs)} (${((s.firstCpuMs / requests) * 1000).toFixed(0)} µs per request of ~${requests.toFixed(0)}), RSS peak ${mb(firstPeak[i] as number)}\n` +
        `  polling: ${((cpu / wall) * 100).toFixed(2)} % of a core (${cpu.toFixed(0)} ms CPU over ${ms(wall)}), RSS largest ${mb(Math.max(...s.rss))}, last ${mb(s.rss.at(-1) ?? Number.NaN)}\n`,
    );
  }
  process.stdout.write(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(', ')}\n`);
} finally {
  for (const s of sides) {
    const exited = new Promise<void>((resolve) => (s.child.exitCode !== null ? resolve() : s.child.once('exit', () => resolve())));
    s.child.kill('SIGTERM');
    await exited;
  }
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
}
