/**
 * What the monitor's polls cost, without its waits: the `monitor` part's fleet (1,000 systems,
 * 100 sites × 10, 25 ms latency, the simulator in its own process) refreshed once, then polled in
 * rounds back to back in this process (`mode: 'steady'`, ten sites at a time), each round a minute
 * later: `Date` is moved on by `--shift` seconds a round, so the detail re-reads (5 min) and slow
 * reads (15 min) fall due in their rounds as in a monitor's minutes, and the simulator's clock with
 * it, so its answers move (loads, sensors, clocks) as a system's do between polls.
 * Prints each round's CPU, requests and CPU per system, and the mean over rounds 2 onward. With
 * `--gap SECONDS`, each round waits that long first, idle, as the monitor waits between its polls:
 * work after an idle wait costs more CPU than the same work back to back (see BENCHMARKS.md).
 *
 * Without `--gap`, no idle waits: a V8 profile of rounds `--from`..`--to` (`--profile FILE`; round 0 is the first
 * refresh; with `--heap`, a sampling heap profile of every allocation instead) is not biased towards
 * the work next to a wait, as the monitor's own profile is (see `monitor-profile.ts`). Run it with the
 * launchers' V8 options (and `--expose-gc` for the heap kept after each round), e.g. `node --no-memory-reducer --retain-maps-for-n-gc=16 --import tsx
 * test/bench/steady-polls.ts`. Prints, asserts nothing.
 *
 *   npx tsx test/bench/steady-polls.ts [--rounds N] [--shift SECONDS] [--gap SECONDS] [--profile FILE [--heap] [--from R] [--to R]]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

// Installed before the runtime's modules load: every `new Date()` and `Date.now()` they make reads it.
const RealDate = Date;
let shiftMs = 0;
class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + shiftMs);
    else super(...(args as [number]));
  }
  static override now(): number {
    return RealDate.now() + shiftMs;
  }
}
globalThis.Date = ShiftedDate as DateConstructor;

const { openRuntime } = await import('../../main/runtime.js');
const { MONITOR_FLEET, startMonitorSimulator } = await import('./monitor-fleet.js');

const { values: flags } = parseArgs({
  options: { rounds: { type: 'string' }, shift: { type: 'string' }, profile: { type: 'string' }, heap: { type: 'boolean' }, gap: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
});
const ROUNDS = Number(flags.rounds ?? 16);
const SHIFT_S = Number(flags.shift ?? 60);
const GAP_S = Number(flags.gap ?? 0);
const FROM = Number(flags.from ?? 2);
const TO = Number(flags.to ?? ROUNDS);
const SYSTEMS_IN_ALL = MONITOR_FLEET.sites * MONITOR_FLEET.systems;
const AT_ONCE = 10;

const sim = await startMonitorSimulator();
const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-steady-polls-'));
try {
  // As the monitor opens it: no search index, no deferring to a monitor, no forwarding.
  const rt = await openRuntime({ dataDir: dir, memorySecrets: true, searchIndex: false, deferToMonitor: false, forward: false });
  const ids: string[] = [];
  for (const s of sim.sites) ids.push((await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password })).id);
  let session: Session | undefined;
  // Round 0 is the first (full) refresh.
  const startProfile = async (r: number): Promise<void> => {
    if (!flags.profile || r !== FROM) return;
    session = new Session();
    session.connect();
    if (flags.heap) {
      await session.post('HeapProfiler.enable');
      // Objects a collection took count too: every allocation, not only what lives at the end.
      await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as { samplingInterval: number });
    } else {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
    }
  };
  const stopProfile = async (r: number): Promise<void> => {
    if (!session || r !== TO) return;
    const { profile } = flags.heap ? await session.post('HeapProfiler.stopSampling') : await session.post('Profiler.stop');
    writeFileSync(flags.profile as string, JSON.stringify(profile));
    session.disconnect();
    session = undefined;
  };
  await startProfile(0);
  const t0 = performance.now();
  const c00 = process.cpuUsage();
  await rt.fleet.refresh({ force: true });
  const first = process.cpuUsage(c00);
  // With node's --expose-gc: the heap that stays (after a full collection), and RSS then.
  const kept = (): string => {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) return '';
    gc();
    const m = process.memoryUsage();
    return `, heap kept ${(m.heapUsed / 1048576).toFixed(1)} MB, RSS ${(m.rss / 1048576).toFixed(0)} MB`;
  };
  process.stdout.write(`first refresh: ${(performance.now() - t0).toFixed(0)} ms, CPU ${((first.user + first.system) / 1000).toFixed(0)} ms${kept()}\n`);
  await stopProfile(0);
  const requests = async (): Promise<number> => (await sim.status()).reduce((n, s) => n + s.requests, 0);
  let sum = 0;
  for (let r = 1; r <= ROUNDS; r++) {
    if (GAP_S > 0) await new Promise((resolve) => setTimeout(resolve, GAP_S * 1000));
    // The wait moved the clock too: a round still starts `--shift` seconds after the last.
    shiftMs += (SHIFT_S - GAP_S) * 1000;
    // The systems' time moves as much: what their answers show of it (loads, sensors, clocks) moves as in a minute.
    await sim.advanceClock(SHIFT_S - GAP_S);
    await startProfile(r);
    const q0 = await requests();
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < ids.length) await rt.fleet.refresh({ siteIds: [ids[next++] as string], mode: 'steady' });
      }),
    );
    const used = process.cpuUsage(c0);
    const cpuMs = (used.user + used.system) / 1000;
    const q = (await requests()) - q0;
    if (r >= 2) sum += cpuMs;
    process.stdout.write(`round ${r} (+${(shiftMs / 60_000).toFixed(0)} min): ${(performance.now() - w0).toFixed(0)} ms, CPU ${cpuMs.toFixed(0)} ms (${((cpuMs * 1000) / SYSTEMS_IN_ALL).toFixed(0)} µs per system), ${q} requests${kept()}\n`);
    await stopProfile(r);
  }
  if (ROUNDS >= 2) process.stdout.write(`rounds 2–${ROUNDS}: ${(sum / (ROUNDS - 1)).toFixed(0)} ms CPU a round = ${((sum / (ROUNDS - 1) / (SHIFT_S * 1000)) * 100).toFixed(2)} % of a core at one round per ${SHIFT_S} s\n`);
  await rt.close();
} finally {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
}
