import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';

/** What the updater asks before installing: whether a write is on its way to a system. */
describe('writes in flight', () => {
  let sim: SimulatorHandle;
  let dir: string;
  let rt: Runtime;

  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 1, seed: 'writes-in-flight', controlServer: false });
    dir = mkdtempSync(join(tmpdir(), 'fd-in-flight-'));
    rt = await openRuntime({ dataDir: join(dir, 'data'), memorySecrets: true, searchIndex: false });
  });
  afterAll(async () => {
    await rt.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts a write from its call until its outcome is recorded, refused or not; reads never', async () => {
    const s = sim.manifest.sites[0]!;
    const site = await rt.fleet.addSite({ name: 'in-flight', baseUrl: s.baseUrl, username: s.username, password: s.password });
    const system = s.systems[0]!;
    await rt.fleet.refresh({ force: true });
    const reading = rt.fleet.call(site.id, system, 'GET /hosts/list');
    expect(rt.fleet.writesInFlight).toBe(0);
    await reading;
    const writing = rt.fleet.call(site.id, system, 'POST /hosts/create', { body: { Name: 'in-flight', Iqn: 'iqn.2026-01.io.fleetdeck:in-flight' } });
    expect(rt.fleet.writesInFlight).toBe(1);
    await writing;
    expect(rt.fleet.writesInFlight).toBe(0);
    await expect(rt.fleet.call(site.id, system, 'POST /hosts/create', { body: {} })).rejects.toThrow();
    expect(rt.fleet.writesInFlight).toBe(0);
    expect(rt.bulk.running).toBe(0);
  }, 60_000);
});
