import { beforeAll, describe, expect, it } from 'vitest';
import { getOperation } from '../../../app/catalog/index.js';
import { OutcomeUnknownError } from '../../../main/core/errors.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import type { Runtime } from '../../../main/runtime.js';
import { realWait } from '../../../simulator/clock.js';
import { SimClock, type SimulatorHandle } from '../../../simulator/index.js';
import { until } from '../../support/until.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-LONG-PASSWORD-61aa';

/**
 * Operations that say how long they run get a timeout derived from it, not the ordinary request
 * timeout (3 s here: short, so the difference shows without waiting long, yet long enough that
 * the ordinary reads of a loaded machine are not cut by it), and can be cancelled.
 */
describe('time for long work', () => {
  let sim: SimulatorHandle;
  let rt: Runtime;
  let siteId: string;
  let system: string;
  let node: string;
  let driveId: number;
  const ipc = (channel: string, payload: unknown) => dispatch(rt.handlers, channel, payload);
  /** Told each time the simulated system starts to take its time (a utility runs, the analyzer analyses). */
  let onWait: (ms: number) => void = () => undefined;
  const clock = new SimClock(Date.now, (ms) => {
    onWait(ms);
    return realWait(ms);
  });
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 1, seed: 'long-runs', password: PASSWORD, dialects: ['slow-analyzer'], clock }, runtime: { timeoutMs: 3000 }, prefix: 'fd-long-' });

  beforeAll(async () => {
    ({ sim, rt } = world);
    const s = world.site(0);
    siteId = world.siteIds[0]!;
    system = s.systems[0]!;
    const state = sim.fleet.sites[0]!.systems[0]!;
    node = state.nodes[0]!.name;
    driveId = state.nodes[0]!.drives.find((d) => d.approved === 'Approved' && d.status === 'OK')!.id;
    // Warm the session and the cache (the analyzer's "all" counts the cached drives).
    await rt.fleet.refresh({ force: true });
  });

  it("a node utility runs as long as its timeoutSeconds allows, past the 3 s request timeout", async () => {
    // The request timeout must not end it: the run would be recorded as outcome unknown.
    const out = await rt.fleet.call(siteId, system, 'GET /nodes/utils/run', { query: { node, utility: 'sleep', args: '4', timeoutSeconds: 10 } });
    // sleep prints nothing, as on Linux.
    expect(out).toBe('');
    expect(rt.actionLog.list({ siteId }).at(-1)).toMatchObject({ operation: 'GET /nodes/utils/run', result: 'ok' });
  });

  it('the performance analyzer runs its iterations (4 tests × 1 s) past the request timeout', async () => {
    const out = await rt.fleet.call(siteId, system, 'GET /resources/drives/performance_analyzer', { query: { driveIds: [driveId], iterationTimeInSeconds: 1 } });
    expect(out.Data).toHaveLength(4);
  });

  it('derives the analyzer\'s timeout for "all" from the drives the system last listed', () => {
    const op = getOperation('GET /resources/drives/performance_analyzer');
    const drives = sim.fleet.sites[0]!.systems[0]!.nodes.flatMap((n) => n.drives).filter((d) => d.status !== 'Missing').length;
    const ms = rt.fleet.derivedTimeout(siteId, system, op, { all: true, iterationTimeInSeconds: 2 });
    expect(ms).toBe(2 * 4 * drives * 1000 + Math.max(30_000, Math.round((2 * 4 * drives * 1000) / 10)));
    expect(rt.fleet.derivedTimeout(siteId, system, getOperation('GET /hosts/list'), {})).toBeUndefined();
  });

  it('an explicit timeout still wins (the CLI\'s --timeout), and a write that times out is outcome unknown', async () => {
    const err = await rt.fleet.call(siteId, system, 'GET /nodes/utils/run', { query: { node, utility: 'sleep', args: '3', timeoutSeconds: 10 }, timeoutMs: 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as Error).message).toMatch(/timed out; it may or may not have happened and was not resent/);
  });

  it('cancelling a running utility over IPC ends the call at once as outcome unknown, recorded so', async () => {
    // The run the previous test gave up on may still be sleeping on the system: let it end first.
    await until(() => sim.control.status()[0]!.inFlight === 0, () => 'the earlier run to end');
    // The utility would run 60 s: an answer before that is the cancel's doing, not the system's.
    const utilityRuns = new Promise<number>((resolve) => (onWait = resolve));
    const running = ipc('op:call', { site: siteId, system, operation: 'GET /nodes/utils/run', query: { node, utility: 'sleep', args: '60', timeoutSeconds: 90 }, callId: 'long-1' });
    // The system has begun the utility's 60 s when the cancel comes.
    expect(await utilityRuns).toBe(60_000);
    onWait = () => undefined;
    expect(await ipc('op:cancel', { callId: 'long-1' })).toEqual({ ok: true, value: { cancelled: true } });
    const result = await running;
    // Ended while the system was still running it: the call did not wait for the utility.
    expect(sim.control.status()[0]!.inFlight).toBe(1);
    expect(result).toMatchObject({ ok: false, error: { code: 'outcome-unknown', message: expect.stringContaining('GET /nodes/utils/run was cancelled after it was sent; it may or may not have happened') } });
    expect(rt.actionLog.list({ siteId }).at(-1)).toMatchObject({ operation: 'GET /nodes/utils/run', result: 'unknown' });
    // Nothing left to cancel.
    expect(await ipc('op:cancel', { callId: 'long-1' })).toEqual({ ok: true, value: { cancelled: false } });
  });
});
