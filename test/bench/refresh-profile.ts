/**
 * Where a full refresh's CPU goes, main's and the simulator's (the refresh ratio of BENCHMARKS.md): the
 * `refresh` part's fleet (20 sites × 3 systems, 25 ms latency, the simulator in its own process),
 * refreshed `--runs` times by one runtime after a first (cold) refresh. Prints wall time, main's
 * and the simulator's CPU per request and their shares of a core, per run. Run under
 * `node --cpu-prof` (e.g. `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx
 * test/bench/refresh-profile.ts`) for main's profile; `--sim-prof DIR` writes the simulator's there.
 *
 * With `--fresh` each run is the first refresh of a new runtime and data dir, as the `refresh` part's.
 *
 *   npx tsx test/bench/refresh-profile.ts [--runs N] [--fresh] [--sim-prof DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { subscribe } from 'node:diagnostics_channel';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Limiter } from '../../main/core/limiter.js';
import { openRuntime, type Runtime } from '../../main/runtime.js';
import { criticalPath, ms, startChildSimulator } from './support.js';

const { values: flags } = parseArgs({ options: { runs: { type: 'string' }, 'sim-prof': { type: 'string' }, fresh: { type: 'boolean' } } });
const RUNS = Number(flags.runs ?? 3);
const LATENCY_MS = 25;

async function main(): Promise<void> {
  const sim = await startChildSimulator({ sites: 20, systems: 3, seed: 'bench', ...(flags['sim-prof'] ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${flags['sim-prof']}`] } : {}) });
  const dirs: string[] = [];
  const open = async (): Promise<Runtime> => {
    const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-refresh-profile-'));
    dirs.push(dir);
    const opened = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
    for (const s of sim.sites) await opened.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
    return opened;
  };
  try {
    for (let i = 0; i < sim.sites.length; i++) await sim.setFaults(i, { latencyMs: LATENCY_MS });
    let rt = await open();
    await rt.fleet.refresh({ force: true });
    const cap = rt.sites.list()[0]?.polling.maxInFlight ?? 4;
    process.stdout.write(`load average ${loadavg().map((x) => x.toFixed(2)).join(', ')}${flags.fresh ? '; each run the first refresh of a new runtime, as the refresh part' : ''}\n`);
    // How full the fleet-wide cap of 32 is kept (time-weighted slots in use) and how long each read holds its slot.
    const globalOf = (r: Runtime): Limiter => (r.fleet as unknown as { globalLimiter: Limiter }).globalLimiter;
    let global = globalOf(rt);
    // Slots in use integrated over time; by Little's law, that integral over the slots granted is the mean hold.
    let area = 0;
    let last = performance.now();
    let holds = 0;
    const step = (limiter: Limiter): void => {
      const now = performance.now();
      area += limiter.inFlight * (now - last);
      last = now;
    };
    const acquire0 = Limiter.prototype.acquire;
    const release0 = Limiter.prototype.release;
    Limiter.prototype.acquire = function (this: Limiter, signal?: AbortSignal): Promise<void> | undefined {
      if (this !== global) return acquire0.call(this, signal);
      // A waiter's slot is taken in drain(), inside a release: in use stays level there.
      step(this);
      return acquire0.call(this, signal);
    };
    Limiter.prototype.release = function (this: Limiter): void {
      if (this === global) {
        step(this);
        holds++;
      }
      release0.call(this);
    };
    // Each request's time from undici's request object to its headers written, to its answer's headers, to its end.
    const marks = new WeakMap<object, number[]>();
    const spans = { queued: 0, answered: 0, body: 0, n: 0 };
    subscribe('undici:request:create', (m) => marks.set((m as { request: object }).request, [performance.now()]));
    subscribe('undici:client:sendHeaders', (m) => marks.get((m as { request: object }).request)?.push(performance.now()));
    subscribe('undici:request:headers', (m) => marks.get((m as { request: object }).request)?.push(performance.now()));
    subscribe('undici:request:trailers', (m) => {
      const t = marks.get((m as { request: object }).request);
      if (t?.length !== 3) return;
      const end = performance.now();
      spans.queued += (t[1] as number) - (t[0] as number);
      spans.answered += (t[2] as number) - (t[1] as number);
      spans.body += end - (t[2] as number);
      spans.n++;
    });
    for (let run = 0; run < RUNS; run++) {
      if (flags.fresh) {
        await rt.close();
        rt = await open();
        global = globalOf(rt);
      }
      spans.queued = spans.answered = spans.body = spans.n = 0;
      area = 0;
      holds = 0;
      last = performance.now();
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      const before = await sim.status();
      const simCpu = sim.cpuMs();
      const cpu = process.cpuUsage();
      const t = performance.now();
      const statuses = await rt.fleet.refresh({ force: true });
      const wall = performance.now() - t;
      const used = process.cpuUsage(cpu);
      const simMs = sim.cpuMs() - simCpu;
      loop.disable();
      const after = await sim.status();
      const perSite = after.map((s, i) => s.requests - (before[i]?.requests ?? 0));
      const total = perSite.reduce((a, b) => a + b, 0);
      const appMs = (used.user + used.system) / 1000;
      const bound = criticalPath(perSite, cap, 32, LATENCY_MS).bound;
      process.stdout.write(
        `run ${run + 1}: ${statuses.filter((s) => s.state === 'ok').length}/${statuses.length} ok, ${total} requests, wall ${ms(wall)} = ${(wall / bound).toFixed(2)}× bound; ` +
          `main CPU ${ms(appMs)} (${(appMs / total).toFixed(3)} ms per request, ${((appMs / wall) * 100).toFixed(0)}% of a core), ` +
          `simulator CPU ${ms(simMs)} (${(simMs / total).toFixed(3)} ms per request, ${((simMs / wall) * 100).toFixed(0)}%); ` +
          `fleet-wide slots in use ${(area / wall).toFixed(1)} of 32 on average, each held ${(area / holds).toFixed(1)} ms; ` +
          `per request: ${(spans.queued / spans.n).toFixed(2)} ms to its headers written, ${(spans.answered / spans.n).toFixed(1)} ms to the answer's headers, ${(spans.body / spans.n).toFixed(2)} ms to its end; ` +
          `main's event loop delay mean ${(loop.mean / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(0)} ms\n`,
      );
    }
    process.stdout.write(`load average ${loadavg().map((x) => x.toFixed(2)).join(', ')}\n`);
    await rt.close();
  } finally {
    await sim.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
