import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openRuntime } from '../../main/runtime.js';
import type { FleetSize } from './scale.js';
import { startChildSimulator, type ChildSimulator } from './support.js';

/**
 * A data dir (`dir/data`) holding the cache of a `size` fleet with every site paused, built once
 * and kept: the simulator's sites are written to `dir/bench-sites.json`, and a dir that has it is
 * used as it is (the drivers `search-filter.ts` and `first-paint.ts` run again on the same cache).
 */
export async function cachedFleet(dir: string, size: FleetSize): Promise<ChildSimulator['sites']> {
  const manifest = join(dir, 'bench-sites.json');
  if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as ChildSimulator['sites'];
  mkdirSync(dir, { recursive: true });
  const sim = await startChildSimulator({ ...size, seed: 'bench-scale' });
  try {
    const rt = await openRuntime({ dataDir: join(dir, 'data'), memorySecrets: true, timeoutMs: 60_000 });
    const ids: string[] = [];
    for (const s of sim.sites) ids.push((await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password })).id);
    await rt.fleet.refresh({ force: true });
    for (const id of ids) await rt.fleet.setPaused(id, true);
    await rt.close();
    writeFileSync(manifest, JSON.stringify(sim.sites));
    return sim.sites;
  } finally {
    await sim.stop();
  }
}
