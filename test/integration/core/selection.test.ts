import { beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/ipc/handlers.js';
import type { Runtime } from '../../../main/runtime.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'MARKER-SELECT-PASSWORD-9e1f';

/** `/systems/select` belongs to the session manager: a write meant for one system never lands on another. */
describe('selection integrity', () => {
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 2, seed: 'selection', password: PASSWORD }, runtime: { timeoutMs: 5000 }, fresh: 'test', prefix: 'fd-select-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let siteId: string;
  const ipc = (channel: string, payload: unknown) => dispatch(rt.handlers, channel, payload);
  const systemState = (name: string) => sim.fleet.sites[0]!.systems.find((s) => s.name === name)!;
  const hostsOn = (name: string): string[] => systemState(name).hosts.map((h) => h.name);

  beforeEach(async () => {
    ({ sim, rt } = world);
    siteId = world.siteIds[0]!;
    expect((await rt.fleet.refresh({ force: true })).map((st) => st.state)).toEqual(['ok', 'ok']);
  });

  it("the console cannot point a system's session at another system, and the next write lands on the system it names", async () => {
    const [first, second] = sim.manifest.sites[0]!.systems as [string, string];
    const select = await ipc('op:call', { site: siteId, system: first, operation: 'GET /systems/select', query: { name: second } });
    // Refused, not sent: the session stays on its system, so the write below lands there.
    expect(select).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringContaining("GET /systems/select is Fleetdeck's own") } });
    const write = await ipc('op:call', { site: siteId, system: first, operation: 'POST /hosts/create', body: { Name: 'meant-for-first', Iqn: 'iqn.2026-01.io.fleetdeck:first' } });
    expect(write).toMatchObject({ ok: true });
    expect(hostsOn(first)).toContain('meant-for-first');
    expect(hostsOn(second)).not.toContain('meant-for-first');
    // Reads of the first system are its own too.
    const nodes = await rt.fleet.call(siteId, first, 'GET /nodes/list');
    expect(nodes.Data?.length).toBeGreaterThan(0);
    for (const n of nodes.Data ?? []) expect(n.Name?.startsWith(first)).toBe(true);
    // Its answer is typed from the key (the normalised node list): a property it does not have fails the typecheck.
    // @ts-expect-error a node list answers { Data }, not { Nodes }
    expect(nodes.Nodes).toBeUndefined();
  });

  it('refuses the select on the site session too (no --system), before anything is sent', async () => {
    const second = sim.manifest.sites[0]!.systems[1]!;
    const before = sim.control.status()[0]!.requests;
    await expect(rt.fleet.call(siteId, undefined, 'GET /systems/select', { query: { name: second } })).rejects.toThrow(/choose the system instead/i);
    // A misspelt parameter of an operation named by its key fails the typecheck, and is refused unsent at run time.
    // @ts-expect-error `nmae` is not a query parameter of GET /hosts/list
    await expect(rt.fleet.call(siteId, second, 'GET /hosts/list', { query: { nmae: 'h1' } })).rejects.toThrow(/nmae/);
    expect(sim.control.status()[0]!.requests).toBe(before);
  });

  it('a session switched to another system behind its back is selected again before a write, and the log says so', async () => {
    const [first, second] = sim.manifest.sites[0]!.systems as [string, string];
    // Another program holding the same session selects the second system.
    for (const session of sim.fleet.sites[0]!.sessions.values()) if (session.systemId === systemState(first).id) session.systemId = systemState(second).id;
    await rt.fleet.call(siteId, first, 'POST /hosts/create', { body: { Name: 'still-first', Iqn: 'iqn.2026-01.io.fleetdeck:still-first' } });
    expect(hostsOn(first)).toContain('still-first');
    expect(hostsOn(second)).not.toContain('still-first');
    expect(rt.actionLog.list({ siteId }).at(-1)).toMatchObject({
      operation: 'POST /hosts/create',
      system: first,
      result: 'ok',
      message: expect.stringContaining(`the session of ${first} had been switched to ${second} (not by Fleetdeck); ${first} was selected again before the write`),
    });
  });

  it('confirms a session once: later writes on it send no extra list', async () => {
    const first = sim.manifest.sites[0]!.systems[0]!;
    await rt.fleet.call(siteId, first, 'POST /hosts/create', { body: { Name: 'confirm-1', Iqn: 'iqn.2026-01.io.fleetdeck:confirm-1' } });
    const before = sim.control.status()[0]!.requests;
    await rt.fleet.call(siteId, first, 'POST /hosts/create', { body: { Name: 'confirm-2', Iqn: 'iqn.2026-01.io.fleetdeck:confirm-2' } });
    expect(sim.control.status()[0]!.requests - before).toBe(1);
  });
});
