/**
 * Closing the app while a refresh is still reading. The runtime closed its databases under the
 * refresh, whose answers then arrived and were written to a closed libsql connection: its
 * `inTransaction` aborts the whole process (a Rust panic, exit 134; 2 of 6 bench runs). Now the
 * close abandons the running refreshes first, waits for them, and only then closes the databases;
 * the cut-short refreshes leave no failure status, no alert, and nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemState, SystemStatus } from '../../../app/domain/site.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { StoreError } from '../../../main/store/index.js';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';
import { FakeTimers } from '../../unit/main/core/fake-timers.js';
import { until } from '../../support/until.js';
import { siteInput, tempDataDir } from '../support/simulated-fleet.js';

const FAILED: ReadonlySet<SystemState> = new Set(['unreachable', 'stale', 'protocol-error']);

describe('closing the runtime while a refresh is reading', () => {
  let sim: SimulatorHandle;
  const removers: Array<() => void> = [];

  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 3, seed: 'close-mid-refresh', controlServer: false });
  });
  afterAll(async () => {
    await sim.close();
    for (const remove of removers) remove();
  });

  /** A runtime on a new data dir with the simulated site added, and every status it emits. */
  async function runtime(timers?: FakeTimers): Promise<{ rt: Runtime; dir: string; statuses: SystemStatus[] }> {
    const { dir, remove } = tempDataDir('fd-close-mid-refresh-');
    removers.push(remove);
    const rt = await openRuntime({ dataDir: dir, memorySecrets: true, searchIndex: false, ...(timers ? { timers } : {}) });
    await rt.fleet.addSite(siteInput(sim.manifest.sites[0]!));
    const statuses: SystemStatus[] = [];
    rt.fleet.on((e) => {
      if (e.type === 'status') statuses.push(e.status);
    });
    return { rt, dir, statuses };
  }

  it('against a slow site: the process lives on, the refresh settles, the databases are closed, no failure is recorded', async () => {
    sim.control.setFaults(0, { latencyMs: 150 });
    const { rt, dir, statuses } = await runtime();
    try {
      const refresh = rt.fleet.refresh({ force: true });
      // Mid-refresh: the systems are being read and requests are in flight.
      await until(() => statuses.some((s) => s.state === 'refreshing') && sim.control.status()[0]!.inFlight > 0, () => 'a system refreshing with requests in flight');
      const before = statuses.length;
      await rt.close();
      await expect(refresh).resolves.toBeDefined();
      expect(rt.db.open).toBe(false);
      // Nothing the close cut short is reported as the system's failure.
      expect(statuses.slice(before).filter((s) => FAILED.has(s.state))).toEqual([]);
      // A write arriving after the close is refused with a clear error instead of reaching libsql.
      const late = (() => {
        try {
          rt.cache.put(rt.sites.list()[0]!.id, sim.manifest.sites[0]!.systems[0]!, 'late', {}, new Date());
          return undefined;
        } catch (err) {
          return err;
        }
      })();
      expect(late).toBeInstanceOf(StoreError);
      expect(late).toMatchObject({ reason: 'closed', message: expect.stringContaining('closed') });

      // Opened again: no alert was raised for the cut-short refresh.
      const again = await openRuntime({ dataDir: dir, memorySecrets: true, searchIndex: false });
      try {
        expect(again.alerts.list()).toEqual([]);
      } finally {
        await again.close();
      }
    } finally {
      sim.control.setFaults(0, { latencyMs: 0 });
      if (rt.db.open) await rt.close();
    }
  });

  it('while reads wait to be retried on the fleet timers: the close does not wait for the clock', async () => {
    const timers = new FakeTimers(Date.now());
    const { rt, statuses } = await runtime(timers);
    try {
      // Slow at first, so the refresh is still reading when every later read is answered by a
      // proxy's 503 with Retry-After: those reads wait on `timers` to be tried again.
      sim.control.setFaults(0, { latencyMs: 100 });
      const refresh = rt.fleet.refresh({ force: true });
      await until(() => statuses.some((s) => s.state === 'refreshing'), () => 'a system refreshing');
      sim.control.proxyErrors(0, 1_000, { status: 503, retryAfterSeconds: 5 });
      sim.control.setFaults(0, { latencyMs: 0 });
      await until(
        () => sim.control.status()[0]!.inFlight === 0 && sim.control.status()[0]!.pendingProxyErrors < 1_000,
        () => `reads answered by the proxy, waiting to be retried (${JSON.stringify(sim.control.status()[0])})`,
      );
      expect(statuses.filter((s) => s.state === 'ok')).toEqual([]);
      const before = statuses.length;
      // Neither the close nor the refresh needs the fake clock to move.
      await rt.close();
      await expect(refresh).resolves.toBeDefined();
      expect(rt.db.open).toBe(false);
      expect(statuses.slice(before).filter((s) => FAILED.has(s.state))).toEqual([]);
    } finally {
      sim.control.proxyErrors(0, 0);
      sim.control.setFaults(0, { latencyMs: 0 });
      if (rt.db.open) await rt.close();
    }
  });
});
