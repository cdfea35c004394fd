/**
 * Where main's time goes in the `refresh` part's full refresh (60 systems = 20 sites × 3, 25 ms
 * latency, simulator in its own process), round after round on fresh data dirs: main's CPU per
 * refresh (`process.cpuUsage`), wall / critical-path bound, main's event-loop delay (p50/p99/max,
 * `monitorEventLoopDelay`), and the synchronous time spent in the cache's writes (`putRows`, `rowOf`)
 * (process CPU) and in the status event's listeners (health summaries, alert engine, search index). Prints figures,
 * asserts nothing. Add `--cpu-prof` to node's flags for a profile.
 *
 *   node --import tsx test/bench/refresh-probe.ts [--rounds N] [--sites 20] [--systems 3] [--profile FILE]
 *
 * `--profile FILE`: a CPU profile of the last round's refresh alone (`.cpuprofile`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { FleetState } from '../../main/core/fleet-state.js';
import { openRuntime } from '../../main/runtime.js';
import { OfflineCache } from '../../main/store/offline-cache.js';
import { criticalPath, startChildSimulator } from './support.js';

const { values: flags } = parseArgs({ options: { rounds: { type: 'string' }, profile: { type: 'string' }, sites: { type: 'string' }, systems: { type: 'string' } } });
const ROUNDS = Number(flags.rounds ?? 3);
const LATENCY_MS = 25;

/** Process CPU time (ms) inside a method, summed while `on` (wall time inside it is CPU plus preemption on a shared machine). */
function cpuMsNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
const timed = { emit: 0, emits: 0, putRows: 0, rowOf: 0, on: false };
/** The longest single call (wall ms) of the cache's write and of a status event's listeners. */
const longest = { putRows: 0, emit: 0 };
function wrap<K extends 'putRows' | 'rowOf'>(proto: OfflineCache, name: K): void {
  const original = proto[name] as (...a: unknown[]) => unknown;
  (proto as unknown as Record<string, unknown>)[name] = function (this: unknown, ...a: unknown[]): unknown {
    const t = cpuMsNow();
    const w = performance.now();
    try {
      return original.apply(this, a);
    } finally {
      if (timed.on) {
        timed[name] += cpuMsNow() - t;
        if (name === 'putRows') longest.putRows = Math.max(longest.putRows, performance.now() - w);
      }
    }
  };
}
wrap(OfflineCache.prototype, 'putRows');
wrap(OfflineCache.prototype, 'rowOf');
const emit = FleetState.prototype.emit;
FleetState.prototype.emit = function (this: FleetState, e): void {
  const t = cpuMsNow();
  const w = performance.now();
  try {
    emit.call(this, e);
  } finally {
    if (timed.on) {
      longest.emit = Math.max(longest.emit, performance.now() - w);
      timed.emit += cpuMsNow() - t;
      timed.emits++;
    }
  }
};

const sim = await startChildSimulator({ sites: Number(flags.sites ?? 20), systems: Number(flags.systems ?? 3), seed: 'bench' });
for (let i = 0; i < sim.sites.length; i++) await sim.setFaults(i, { latencyMs: LATENCY_MS });
process.stdout.write(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(', ')}\n`);
try {
  // Round 0 warms the JIT on both sides (the bench's cold refresh); not reported.
  for (let round = 0; round <= ROUNDS; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-refresh-probe-'));
    const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
    for (const s of sim.sites) await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
    const cap = rt.sites.list()[0]?.polling.maxInFlight ?? 4;
    const before = await sim.status();
    Object.assign(timed, { emit: 0, emits: 0, putRows: 0, rowOf: 0, on: true });
    Object.assign(longest, { putRows: 0, emit: 0 });
    const session = flags.profile && round === ROUNDS ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
    }
    const eld = monitorEventLoopDelay({ resolution: 1 });
    eld.enable();
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const statuses = await rt.fleet.refresh({ force: true });
    const wall = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    eld.disable();
    if (session && flags.profile) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(flags.profile, JSON.stringify(profile));
      session.disconnect();
    }
    timed.on = false;
    const after = await sim.status();
    const perSite = after.map((s, i) => s.requests - (before[i]?.requests ?? 0));
    const requests = perSite.reduce((a, b) => a + b, 0);
    const bound = criticalPath(perSite, cap, 32, LATENCY_MS).bound;
    const cpuMs = (used.user + used.system) / 1000;
    const ok = statuses.filter((s) => s.state === 'ok').length;
    const q = (p: number): string => (eld.percentile(p) / 1e6).toFixed(1);
    if (round > 0)
      process.stdout.write(
        `round ${round}: ${ok}/${statuses.length} ok, ${requests} requests; wall ${wall.toFixed(0)} ms / bound ${bound} = ${(wall / bound).toFixed(2)}x; ` +
          `main CPU ${cpuMs.toFixed(0)} ms (${((cpuMs / requests) * 1000).toFixed(0)} us/request, ${((cpuMs / wall) * 100).toFixed(0)} % of a core); ` +
          `event-loop delay p50 ${q(50)} p99 ${q(99)} max ${(eld.max / 1e6).toFixed(1)} ms; ` +
          `CPU in: status events ${timed.emit.toFixed(0)} ms (${timed.emits}), putRows ${timed.putRows.toFixed(0)} ms, rowOf ${timed.rowOf.toFixed(0)} ms; longest putRows ${longest.putRows.toFixed(1)} ms, status event ${longest.emit.toFixed(1)} ms (wall); load ${loadavg()[0]?.toFixed(2)}\n`,
      );
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  await sim.stop();
}
