/**
 * The fleet the monitor benches watch (`monitor.ts`, `monitor-ab.ts`, `monitor-profile.ts`,
 * `steady-polls.ts`): 100 sites × 10 systems of one child simulator at 25 ms latency, polled every
 * 60 s, and the `fleetdeck monitor` they start on it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUNTIME_V8_FLAGS } from '../../main/heap.js';
import { openRuntime } from '../../main/runtime.js';
import { startChildSimulator, type ChildSimulator } from './support.js';

export const MONITOR_FLEET = { sites: 100, systems: 10, latencyMs: 25, intervalSeconds: 60 } as const;

/** The simulator of {@link MONITOR_FLEET}, every site answering after its latency. */
export async function startMonitorSimulator(): Promise<ChildSimulator> {
  const sim = await startChildSimulator({ sites: MONITOR_FLEET.sites, systems: MONITOR_FLEET.systems, seed: 'bench-monitor' });
  for (let i = 0; i < MONITOR_FLEET.sites; i++) await sim.setFaults(i, { latencyMs: MONITOR_FLEET.latencyMs });
  return sim;
}

/** The simulator's sites in `dataDir` as an admin adds them, polled at the fleet's interval (their passwords in memory only). */
export async function addMonitorSites(sim: ChildSimulator, dataDir: string): Promise<void> {
  const rt = await openRuntime({ dataDir, memorySecrets: true });
  try {
    for (const s of sim.sites) {
      const site = await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
      await rt.fleet.editSite(site.id, { polling: { ...site.polling, intervalSeconds: MONITOR_FLEET.intervalSeconds } });
    }
  } finally {
    await rt.close();
  }
}

/** The sites' passwords in a secrets file (mode 0600), as a service account has them. */
export function writeSecretsFile(sim: ChildSimulator, file: string): void {
  writeFileSync(file, JSON.stringify(Object.fromEntries(sim.sites.map((s) => [s.name, s.password]))), { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * `fleetdeck monitor` of the built checkout `root` on `dataDir`, started as the launchers start it
 * (their V8 options, after `nodeArgs`), keychain in memory; its log on stderr.
 */
export function spawnMonitor(root: string, dataDir: string, secretsFile: string, nodeArgs: readonly string[] = []): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...nodeArgs, ...RUNTIME_V8_FLAGS, join(root, 'bin/fleetdeck.js'), 'monitor', '--data-dir', dataDir, '--secrets-file', secretsFile], {
    env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' },
    stdio: ['ignore', 'ignore', 'pipe'],
  }) as unknown as ChildProcessWithoutNullStreams;
}
