import { beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, dispatch } from '../../../main/ipc/handlers.js';
import type { Runtime } from '../../../main/runtime.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'bulk-site-password';
const CHAP_SECRET = 'Bulk-Chap-9q7x';

/**
 * A bulk change through the app's own runtime against the simulator: three systems on three
 * sites, one refusing (a fault injected on its site); every write is in the action log, and the
 * retry sends only to the one that refused.
 */
describe('bulk change against the simulator', () => {
  const world = useSimulatedFleet({ simulator: { sites: 3, systems: 1, seed: 'bulk-tests', password: PASSWORD }, prefix: 'fd-bulk-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  const targets = () => rt.sites.list().map((s) => ({ siteId: s.id, system: rt.fleet.systemsOf(s.id)[0] as string }));

  beforeAll(async () => {
    ({ sim, rt } = world);
    await rt.fleet.refresh({ force: true });
  });

  it('logs every write, shows the refusal, and the retry resends only to the refused system', async () => {
    const [a, b, c] = targets();
    if (!a || !b || !c) throw new Error('three systems expected');
    sim.control.setFaults(1, { errorRate: 1, errorMode: 'status' });
    const started = rt.bulk.start({ operation: 'PUT /nodes/chap', targets: [a, b, c], params: { body: { ChapName: 'bulk-chap', ChapSecret: CHAP_SECRET } }, maxInFlight: 2 });
    const first = await rt.bulk.settled(started.id);
    expect(first.targets.map((t) => t.outcome)).toEqual(['ok', 'refused', 'ok']);
    expect(first.targets[1]?.message).toMatch(/Simulated fault/);

    const log = () => rt.actionLog.list({}).filter((e) => e.operation === 'PUT /nodes/chap');
    expect(log().map((e) => `${e.siteId}/${e.system}:${e.result}`).sort()).toEqual(
      [`${a.siteId}/${a.system}:ok`, `${b.siteId}/${b.system}:refused`, `${c.siteId}/${c.system}:ok`].sort(),
    );
    expect(JSON.stringify(log())).not.toContain(CHAP_SECRET);

    sim.control.setFaults(1, { errorRate: 0 });
    rt.bulk.retry(started.id);
    const second = await rt.bulk.settled(started.id);
    expect(second.targets.map((t) => t.outcome)).toEqual(['ok', 'ok', 'ok']);
    expect(second.targets.map((t) => t.attempts)).toEqual([1, 2, 1]);
    const perSystem = (t: { siteId: string }) => log().filter((e) => e.siteId === t.siteId).map((e) => e.result);
    expect(perSystem(a)).toEqual(['ok']);
    expect(perSystem(b).sort()).toEqual(['ok', 'refused']);
    expect(perSystem(c)).toEqual(['ok']);
    // Each system holds the CHAP credentials sent, once.
    for (const i of [0, 1, 2]) expect(sim.fleet.sites[i]?.systems[0]?.chap).toEqual({ name: 'bulk-chap', secret: CHAP_SECRET });
  });

  it('a window scoped to one site neither starts nor sees a bulk change on other sites', async () => {
    const [a, b] = targets();
    if (!a || !b) throw new Error('two systems expected');
    const scoped = createHandlers({ fleet: rt.fleet, sites: rt.sites, actionLog: rt.actionLog, version: 'test', keychain: 'memory', simulatedSiteIds: new Set(), scopedSite: a.siteId, bulk: rt.bulk });
    const before = rt.bulk.list().length;
    const refused = await dispatch(scoped, 'bulk:start', { operation: 'PUT /nodes/isns', targets: [{ site: b.siteId, system: b.system }], body: { Address: '10.0.0.9' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(rt.bulk.list()).toHaveLength(before);
    // The change of the test before spans three sites: this window does not list it.
    expect(await dispatch(scoped, 'bulk:list', {})).toEqual({ ok: true, value: [] });
  });

  it('a write left without an answer is outcome unknown and is never sent again by a retry', async () => {
    const [a, b] = targets();
    if (!a || !b) throw new Error('two systems expected');
    // The first site applies the write but never answers it.
    sim.control.setFaults(0, { hangPaths: ['/nodes/isns'] });
    try {
      const started = rt.bulk.start({ operation: 'PUT /nodes/isns', targets: [a, b], params: { body: { Address: '10.9.8.7' } } });
      const done = await rt.bulk.settled(started.id);
      expect(done.targets.map((t) => t.outcome)).toEqual(['unknown', 'ok']);
      expect(done.targets[0]?.message).toMatch(/not resent/);
      expect(() => rt.bulk.retry(started.id)).toThrow(/nothing to retry/);
      const log = rt.actionLog.list({}).filter((e) => e.operation === 'PUT /nodes/isns');
      expect(log.map((e) => `${e.siteId}:${e.result}`).sort()).toEqual([`${a.siteId}:unknown`, `${b.siteId}:ok`].sort());
      // It did happen on the system, once.
      expect(sim.fleet.sites[0]?.systems[0]?.isns.address).toBe('10.9.8.7');
    } finally {
      sim.control.setFaults(0, { hangPaths: [] });
    }
  }, 60_000);
});
