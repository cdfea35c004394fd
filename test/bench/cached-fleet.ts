import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRuntime, type Runtime } from '../../main/runtime.js';
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

/**
 * A runtime on a working copy of the cached `size` fleet (built by {@link cachedFleet} in
 * BENCH_FLEET_DIR when set, kept there for the next run; else in a temp dir), so no run sees what an
 * earlier one left. `close` closes the runtime and removes the copy (and the built fleet unless kept).
 */
export async function openCachedCopy(size: FleetSize, label: string): Promise<{ rt: Runtime; sites: ChildSimulator['sites']; close: () => Promise<void> }> {
  const keep = process.env.BENCH_FLEET_DIR;
  const fleetDir = keep ?? mkdtempSync(join(tmpdir(), `fleetdeck-bench-${label}-`));
  const sites = await cachedFleet(fleetDir, size);
  const work = mkdtempSync(join(tmpdir(), `fleetdeck-bench-${label}-run-`));
  cpSync(join(fleetDir, 'data'), work, { recursive: true });
  const rt = await openRuntime({ dataDir: work, memorySecrets: true });
  return {
    rt,
    sites,
    close: async () => {
      await rt.close();
      rmSync(work, { recursive: true, force: true });
      if (!keep) rmSync(fleetDir, { recursive: true, force: true });
    },
  };
}

/**
 * One simulated system's refreshed answers copied under `systems - 1` more names (`<system>-copy-0001`
 * …) in `rt`'s cache: a fleet of `systems` as cheap to build as one. The site is added with its
 * password and paused, so nothing refreshes the copies. Returns the site's id, the system copied and
 * its cache entries.
 */
export async function copiedSystem(
  rt: Runtime,
  s: { name: string; baseUrl: string; username: string; password: string; systems: readonly string[] },
  systems: number,
): Promise<{ siteId: string; source: string; entries: ReturnType<Runtime['cache']['systemEntries']> }> {
  const site = await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
  await rt.fleet.refresh({ force: true });
  await rt.fleet.setPaused(site.id, true);
  const source = s.systems[0]!;
  const entries = rt.cache.systemEntries(site.id, source);
  for (let i = 1; i < systems; i++) {
    const rows = [...entries].map(([key, e]) => rt.cache.rowOf(key, JSON.parse(e.json) as unknown, e.at));
    rt.cache.putRows(site.id, `${source}-copy-${String(i).padStart(4, '0')}`, rows);
  }
  return { siteId: site.id, source, entries };
}
