import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { startMetricsEndpoint } from '../../main/metrics/endpoint.js';
import { FleetMetrics } from '../../main/metrics/fleet-metrics.js';
import { APP_VERSION, openRuntime } from '../../main/runtime.js';
import { startSimulator } from '../../simulator/index.js';
import { copiedSystem } from './cached-fleet.js';
import type { BenchIo } from './scale.js';
import { median, ms, verdict } from './support.js';

const SYSTEMS = 1000;
const TRIES = 5;
const GOAL_MS = 250;

/**
 * One scrape of 1,000 systems' metrics: one simulated system's refreshed answers copied under 1,000
 * names into a real cache file, a runtime opened on it (its summaries computed once, as a monitor's
 * polls would have), then `/metrics` read over HTTP as Prometheus reads it. The endpoint builds
 * every system's series from its summary and cached lists in the background from its start (the
 * first scrape comes once that is done); the scrapes (the steady state, one every 15 s) reuse them; the endpoint writes a system's series again in the background after
 * each of its polls. Baseline: the same runtime's
 * `health:briefs` read of the 1,000 systems (the overview's first frame).
 */
export async function benchMetrics(io: BenchIo): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-metrics-'));
  const sim = await startSimulator({ sites: 1, systems: 1, seed: 'bench-metrics', controlServer: false });
  try {
    const first = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 60_000 });
    const s = sim.manifest.sites[0]!;
    await copiedSystem(first, s, SYSTEMS);
    await first.close();

    const rt = await openRuntime({ dataDir: dir, memorySecrets: true });
    rt.summaries.summaries({ form: 'brief' });
    // The endpoint writes every system's series in the background from its start (slices of 20 ms):
    // its CPU and wall time until done; the first scrape comes after, as Prometheus's first one does
    // on a monitor that has run a few seconds.
    const warmCpu = process.cpuUsage();
    const warmStart = performance.now();
    const ep = await startMetricsEndpoint(rt, { listen: '127.0.0.1:0' });
    await ep.ready();
    const warmWall = performance.now() - warmStart;
    const warmUsed = process.cpuUsage(warmCpu);
    io.log(`metrics: every system's series written in the background after the start: ${ms((warmUsed.user + warmUsed.system) / 1000)} of CPU over ${ms(warmWall)}`);
    try {
      const scrape = async (gzip: boolean): Promise<{ wall: number; cpu: number; bytes: number; text: string }> => {
        const cpu = process.cpuUsage();
        const start = performance.now();
        const r = await request(ep.url, { headers: { accept: 'application/openmetrics-text;version=1.0.0', ...(gzip ? { 'accept-encoding': 'gzip' } : {}) } });
        const body = Buffer.from(await r.body.arrayBuffer());
        const wall = performance.now() - start;
        const used = process.cpuUsage(cpu);
        return { wall, cpu: (used.user + used.system) / 1000, bytes: body.length, text: gzip ? '' : body.toString() };
      };
      const cold = await scrape(false);
      const systems = new Set([...cold.text.matchAll(/^fleetdeck_system_level\{site="[^"]*",system="([^"]*)"/gm)].map((m) => m[1])).size;
      const series = cold.text.split('\n').filter((l) => l && !l.startsWith('#')).length;
      const warm: Array<Awaited<ReturnType<typeof scrape>>> = [];
      const zipped: Array<Awaited<ReturnType<typeof scrape>>> = [];
      for (let t = 0; t < TRIES; t++) {
        warm.push(await scrape(false));
        zipped.push(await scrape(true));
      }
      // The endpoint's own work apart from HTTP and the reading client: every system's series written
      // (after a start, and spread over each poll round in the background), then collect and format, warm.
      const collector = new FleetMetrics(rt, { version: APP_VERSION });
      const buildCpu = process.cpuUsage();
      collector.scrape('openmetrics');
      const built = process.cpuUsage(buildCpu);
      io.log(`metrics: every system's series written in ${ms((built.user + built.system) / 1000)} of CPU (${((built.user + built.system) / 1000 / SYSTEMS).toFixed(2)} ms per system and poll)`);
      const collect: number[] = [];
      const collectCpu: number[] = [];
      let pageText = '';
      for (let t = 0; t < TRIES; t++) {
        const cpu = process.cpuUsage();
        const start = performance.now();
        pageText = collector.scrape('openmetrics');
        collect.push(performance.now() - start);
        const used = process.cpuUsage(cpu);
        collectCpu.push((used.user + used.system) / 1000);
      }
      for (const level of [1, 6]) {
        const cpu = process.cpuUsage();
        const size = gzipSync(pageText, { level }).length;
        const used = process.cpuUsage(cpu);
        io.log(`metrics: gzip level ${level}: ${(size / 1024).toFixed(0)} KB, CPU ${ms((used.user + used.system) / 1000)}`);
      }
      const briefReads: number[] = [];
      for (let t = 0; t < TRIES; t++) {
        const start = performance.now();
        rt.summaries.summaries({ form: 'brief' });
        briefReads.push(performance.now() - start);
      }
      const warmMs = median(warm.map((w) => w.wall));
      io.log(`metrics: ${systems} systems, ${series} series, first scrape ${ms(cold.wall)} (CPU ${ms(cold.cpu)}); load average ${loadavg()[0]?.toFixed(1)}`);
      io.report({
        name: `metrics: one scrape of ${systems} systems (steady state)`,
        value: ms(warmMs),
        baseline: `collect and format ${ms(median(collect))} (CPU ${ms(median(collectCpu))}); first scrape ${ms(cold.wall)}; health:briefs read ${ms(median(briefReads))}; CPU of server and client ${ms(median(warm.map((w) => w.cpu)))}`,
        goal: `< ${GOAL_MS} ms`,
        verdict: verdict(warmMs < GOAL_MS && cold.wall < GOAL_MS),
      });
      io.report({
        name: `metrics: one gzipped scrape of ${systems} systems`,
        value: ms(median(zipped.map((w) => w.wall))),
        baseline: `CPU ${ms(median(zipped.map((w) => w.cpu)))}`,
      });
      io.report({
        name: 'metrics: endpoint size per system',
        value: `${(cold.bytes / systems / 1024).toFixed(1)} KB`,
        baseline: `gzipped ${(median(zipped.map((z) => z.bytes)) / systems / 1024).toFixed(2)} KB; ${(series / systems).toFixed(0)} series per system; whole page ${(cold.bytes / 1048576).toFixed(1)} MB`,
      });
    } finally {
      await ep.close();
      await rt.close();
    }
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
