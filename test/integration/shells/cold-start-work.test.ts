import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SetTimer } from '../../../main/core/start-gate.js';
import type { FleetEvent } from '../../../main/core/fleet-state.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import { answerJson } from '../../../main/ipc/raw-json.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { SimClock, startSimulator, type SimulatorHandle } from '../../../simulator/index.js';
import { pausedCachedFleet } from '../support/cached-fleet.js';

/**
 * What main does while the window loads. A start from the cache of paused
 * sites emits no status event for systems already paused (nothing re-evaluates the fleet for
 * nothing), and the search index reads no cached answer until the window has read its first frame
 * (`health:briefs`) and had time to paint it; then it reads every system, as before.
 */

const PASSWORD = 'cold-start-pw-1';
let sim: SimulatorHandle;
let dataDir: string;
let rt: Runtime | undefined;

beforeAll(async () => {
  sim = await startSimulator({ sites: 2, systems: 2, password: PASSWORD, controlServer: false, clock: new SimClock(), seed: 'cold-start' });
  dataDir = await pausedCachedFleet(sim, PASSWORD, 'cold-start');
}, 120_000);

afterAll(async () => {
  await rt?.close();
  await sim?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Lets queued immediates (the index's background slices) run. */
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

describe('a cold start from the cache of paused sites', { timeout: 120_000 }, () => {
  it('emits no status event for the already paused systems, and reads for the search only after the window’s first frame', async () => {
    const timers: Array<{ ms: number; run: () => void; cancelled: boolean }> = [];
    const setTimer: SetTimer = (run, ms) => {
      const t = { ms, run, cancelled: false };
      timers.push(t);
      return () => (t.cancelled = true);
    };
    rt = await openRuntime({ dataDir, memorySecrets: true, timeoutMs: 10_000, startGate: { settleMs: 1500, fallbackMs: 10_000, setTimer } });
    const systems = rt.fleet.status();
    expect(systems).toHaveLength(4);
    expect(systems.every((s) => s.state === 'paused')).toBe(true);

    // The shells' first-contact refresh: the paused sites are not contacted, and nothing changed.
    const events: FleetEvent[] = [];
    const off = rt.fleet.on((e) => events.push(e));
    await rt.fleet.refresh({ force: true });
    off();
    expect(events).toEqual([]);

    // Nothing read for the search while the window loads.
    await turns(20);
    expect(rt.search.pending).toBe(4);
    // The details read is not the first frame's: the gate keeps waiting for the roll-ups.
    expect(JSON.parse(answerJson(await dispatch(rt.handlers, 'health:summaries', {})))).toMatchObject({ ok: true });
    expect(timers.filter((t) => !t.cancelled).map((t) => t.ms)).toEqual([10_000]);
    const answer = JSON.parse(answerJson(await dispatch(rt.handlers, 'health:briefs', {}))) as { ok: boolean; value: { systems: unknown[] } };
    expect(answer.ok).toBe(true);
    expect(answer.value.systems).toHaveLength(4);
    await turns(20);
    expect(rt.search.pending).toBe(4);

    // The window had its settle time: the index reads every system in the background, as before.
    const settle = timers.filter((t) => !t.cancelled);
    expect(settle.map((t) => t.ms)).toEqual([1500]);
    settle[0]!.run();
    for (let i = 0; i < 100 && rt.search.pending > 0; i++) await turns(1);
    expect(rt.search.pending).toBe(0);
    const found = rt.search.query(systems[0]!.system, 10);
    expect(found.pending).toBe(0);
    expect(found.total).toBeGreaterThan(0);
  });
});
