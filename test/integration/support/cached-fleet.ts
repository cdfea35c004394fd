import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openRuntime } from '../../../main/runtime.js';
import type { SimulatorHandle } from '../../../simulator/index.js';

/**
 * A new data dir holding the cache of every site of `sim`, each site then paused: what a shell
 * starts from in the cold-start tests (it contacts nothing, so the simulator may be gone by then).
 * The runtime that filled it is closed; the caller removes the dir.
 */
export async function pausedCachedFleet(sim: SimulatorHandle, password: string, prefix: string): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fleetdeck-${prefix}-`));
  const rt = await openRuntime({ dataDir, memorySecrets: true, timeoutMs: 10_000 });
  try {
    const ids: string[] = [];
    for (const s of sim.manifest.sites) ids.push((await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password })).id);
    await rt.fleet.refresh({ force: true });
    for (const id of ids) await rt.fleet.setPaused(id, true);
  } finally {
    await rt.close();
  }
  return dataDir;
}
