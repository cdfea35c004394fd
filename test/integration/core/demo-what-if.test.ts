import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoFleet, type DemoFleet } from '../../../main/demo.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import { linkStatus } from '../../../simulator/state/replication.js';

/** Each "what if" of the demo fleet, through `demo:whatif`, seen in what main reads back from the simulator. */
describe('the demo fleet driven through demo:whatif', () => {
  let demo: DemoFleet;
  beforeAll(async () => {
    demo = await startDemoFleet();
    await demo.runtime.fleet.refresh({ force: true });
  });
  afterAll(async () => demo?.close());

  const whatIf = async (request: Record<string, unknown>): Promise<string> => {
    const r = await dispatch(demo.runtime.handlers, 'demo:whatif', request);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return (r.value as { message: string }).message;
  };

  it('fills a pool to 99.5 % allocated with a new application, and lags a replication pair', async () => {
    const site = demo.runtime.sites.list()[0]!;
    const system = demo.simulator.manifest.sites[0]!.systems[0]!;
    expect(await whatIf({ action: 'fill-pool', site: site.id, system })).toMatch(/99\.5 % allocated .*\(simulated\)/);
    const state = demo.simulator.fleet.sites[0]!.systems.find((s) => s.name === system)!;
    expect(state.apps.some((a) => a.name.startsWith('what-if-fill-'))).toBe(true);

    const pairSite = demo.simulator.fleet.sites.findIndex((s) => s.links.length > 0);
    expect(pairSite).toBeGreaterThanOrEqual(0);
    const siteId = demo.runtime.sites.list()[pairSite]!.id;
    const message = await whatIf({ action: 'lag-replication', site: siteId });
    expect(message).toMatch(/full resynchronisation \(simulated\)/);
    const link = demo.simulator.fleet.sites[pairSite]!.links[0]!;
    expect(linkStatus(link, demo.simulator.clock.now() + 60_000)).toMatchObject({ status: 'Syncing', percent: expect.any(Number) });
    expect(linkStatus(link, demo.simulator.clock.now() + 60_000).percent).toBeLessThan(100);
  });

  it('stops a site until it is started again', async () => {
    const site = demo.runtime.sites.list()[1]!;
    expect(await whatIf({ action: 'stop-site', site: site.id })).toMatch(/stopped answering/);
    expect(demo.runtime.fleet.status().filter((s) => s.siteId === site.id).every((s) => s.state !== 'ok')).toBe(true);
    expect(await whatIf({ action: 'start-site', site: site.id })).toMatch(/answers again/);
    expect(demo.runtime.fleet.status().filter((s) => s.siteId === site.id).some((s) => s.state === 'ok')).toBe(true);
  });
});
