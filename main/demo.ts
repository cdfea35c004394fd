import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type SimulatorHandle } from '../simulator/index.js';
import { openRuntime, type Runtime, type RuntimeOptions } from './runtime.js';

/**
 * Polling interval of the demo's sites, seconds. The simulated systems change by themselves (drives
 * degrade, notifications arrive), so the demo is set to poll like a monitored site rather than
 * "on demand"; real sites keep the store's default until the admin sets one.
 */
export const DEMO_POLLING_SECONDS = 60;

export interface DemoFleet {
  runtime: Runtime;
  simulator: SimulatorHandle;
  close(): Promise<void>;
}

/**
 * The embedded demo fleet: the simulator's demo state (3 sites × 3 systems, a degrading drive, a
 * replication pair) served on loopback, with its own throwaway data directory and in-memory
 * secrets, so nothing simulated mixes with the admin's real sites or keychain.
 */
export async function startDemoFleet(options: { scopedSite?: string | undefined } & Pick<RuntimeOptions, 'printToPdf'> = {}): Promise<DemoFleet> {
  const simulator = await startSimulator({ demo: true, controlServer: false });
  // Its own throwaway data dir: apart from real sites and from other instances' demos.
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-demo-'));
  // Sites are added first, then the runtime that serves them is opened knowing which are simulated.
  const setup = await openRuntime({ dataDir: dir, memorySecrets: true });
  const ids = new Set<string>();
  const passwords = new Map<string, string>();
  for (const s of simulator.manifest.sites) {
    const site = await setup.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, tags: ['simulated'], group: 'Demo fleet' });
    await setup.sites.update(site.id, { polling: { intervalSeconds: DEMO_POLLING_SECONDS } });
    ids.add(site.id);
    passwords.set(site.id, s.password);
  }
  await setup.close();
  const scoped = options.scopedSite ? setup.sites.get(options.scopedSite)?.id : undefined;
  if (options.scopedSite && !scoped) throw new Error(`the demo fleet has no site named "${options.scopedSite}"`);
  // Simulated passwords stay in memory by design: no keychain warning for the demo fleet.
  const runtime = await openRuntime({
    dataDir: dir,
    memorySecrets: true,
    simulatedSiteIds: ids,
    scopedSite: scoped,
    ...(options.printToPdf ? { printToPdf: options.printToPdf } : {}),
  });
  for (const [id, password] of passwords) await runtime.fleet.login(id, { password }).catch(() => undefined);
  return {
    runtime,
    simulator,
    close: async () => {
      await runtime.close();
      await simulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
