import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../main/runtime.js';
import { SELECTION_MAX_AGE_MS, SelectionScopes } from '../../../main/store/selection-scopes.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { until } from '../../support/until.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-SHARED-SELECT-3c1d';
const NODES = { op: 'GET /nodes/list', query: { sensors: true, gateway: true, vols: true, ip: true, sed: true } } as const;

/**
 * A site whose selection is the user's, not the session's (dialect `shared-selection`): selecting
 * one system moves every session. Reads must never be cached under a system that did not answer them.
 */
describe('a site that shares its selection between sessions', () => {
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 3, seed: 'shared-select', password: PASSWORD }, runtime: { timeoutMs: 5000 }, fresh: 'test', prefix: 'fd-shared-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let siteId: string;
  const systems = (): readonly string[] => sim.manifest.sites[0]!.systems;
  /** The systems whose nodes a system's cached node list names, other than itself. */
  const foreignNodes = (system: string): string[] => {
    const hit = rt.fleet.cached(siteId, system, NODES.op, NODES.query, { recordUse: false });
    const names = ((hit?.value as { Data?: Array<{ Name?: string }> } | undefined)?.Data ?? []).map((n) => n.Name ?? '');
    return names.filter((n) => !n.startsWith(system));
  };

  beforeEach(() => {
    ({ sim, rt } = world);
    siteId = world.siteIds[0]!;
    sim.control.setDialects(['shared-selection']);
  });
  afterEach(() => {
    sim.control.setDialects([]);
  });

  it('keeps what it learned in the data dir: the next process starts knowing the sharing, for a day', async () => {
    const site = rt.sites.get(siteId)!;
    expect(rt.fleet.selectionScope(siteId)).toBe('unknown');
    await rt.fleet.refresh({ force: true });
    expect(rt.fleet.selectionScope(siteId)).toBe('shared');
    expect(new SelectionScopes(rt.db).get(siteId, site.baseUrl, Date.now())).toEqual({ scope: 'shared', unflagged: false });
    // A new process (the CLI, the monitor) on the data dir: shared from the start, nothing learned again.
    rt = await world.reopen();
    expect(rt.fleet.selectionScope(siteId)).toBe('shared');
    // Learned more than a day ago, or at another URL: learned again.
    new SelectionScopes(rt.db).put(siteId, site.baseUrl, { scope: 'shared', unflagged: false }, new Date(Date.now() - SELECTION_MAX_AGE_MS - 60_000));
    rt = await world.reopen();
    expect(rt.fleet.selectionScope(siteId)).toBe('unknown');
    new SelectionScopes(rt.db).put(siteId, 'https://elsewhere.example:8443', { scope: 'session', unflagged: false }, new Date());
    rt = await world.reopen();
    expect(rt.fleet.selectionScope(siteId)).toBe('unknown');
  });

  it("caches every system's own answers, refreshing one system at a time once the sharing is seen", async () => {
    const statuses = await rt.fleet.refresh({ force: true });
    expect(statuses.map((s) => [s.system, s.state])).toEqual([...systems()].sort().map((s) => [s, 'ok']));
    // Each system's cache holds its own nodes (and pools, hosts …), never another's read through a shared selection.
    for (const system of systems()) {
      expect(rt.fleet.cached(siteId, system, NODES.op, NODES.query)).toBeDefined();
      expect(foreignNodes(system)).toEqual([]);
    }
    // A second refresh (sharing now known) is right too.
    await rt.fleet.refresh({ force: true });
    for (const system of systems()) expect(foreignNodes(system)).toEqual([]);
  });

  it('a site that also flags no system is refreshed one system at a time, each selected again before its reads', async () => {
    sim.control.setDialects(['shared-selection', 'no-current-system']);
    // Twice: the first refresh learns that the site flags nothing, the second starts knowing it.
    for (let i = 0; i < 2; i++) {
      const statuses = await rt.fleet.refresh({ force: true });
      expect(statuses.map((s) => [s.system, s.state])).toEqual([...systems()].sort().map((s) => [s, 'ok']));
      for (const system of systems()) expect(foreignNodes(system)).toEqual([]);
    }
  });

  it("a window's read of one system while another refreshes is that system's own", async () => {
    await rt.fleet.refresh({ force: true });
    const [first] = systems() as [string];
    const [nodes] = await Promise.all([rt.fleet.call(siteId, first, 'GET /nodes/list'), rt.fleet.refresh({ force: true })]);
    for (const n of nodes.Data ?? []) expect(n.Name?.startsWith(first)).toBe(true);
    for (const system of systems()) expect(foreignNodes(system)).toEqual([]);
  });

  it('a read found answered by another system is discarded, not cached', async () => {
    await rt.fleet.refresh({ force: true });
    const [first, second] = systems() as [string, string];
    const before = rt.fleet.cached(siteId, first, 'GET /hosts/list');
    // Another client of the same user selects the second system while the first is read.
    const user = sim.fleet.sites[0]!.sessions.values().next().value!.user;
    const idOf = (name: string): number => sim.fleet.sites[0]!.systems.find((s) => s.name === name)!.id;
    const selectAll = (id: number): void => {
      for (const s of sim.fleet.sites[0]!.sessions.values()) if (s.user === user) s.systemId = id;
    };
    // The check before the read finds the first system selected. Each request waits 300 ms before it
    // is handled: once the read has arrived (after the check), another client moves the selection,
    // so the read is answered by the second system and the check after it sees that.
    selectAll(idOf(first));
    sim.control.setFaults(0, { latencyMs: 300 });
    const arrived = (): number => sim.control.status()[0]!.requests;
    const start = arrived();
    const read = rt.fleet.call(siteId, first, 'GET /hosts/list');
    await until(() => arrived() >= start + 2, () => 'the read to reach the site');
    selectAll(idOf(second));
    await expect(read).rejects.toThrow(/selection moved to .*discarded/);
    sim.control.setFaults(0, { latencyMs: 0 });
    expect(rt.fleet.cached(siteId, first, 'GET /hosts/list')).toEqual(before);
  });
});
