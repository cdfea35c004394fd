/**
 * Runs in its own process (started by test/bench/run.ts with --expose-gc) so its RSS is the main
 * process's alone: opens a runtime, adds every site of a simulator manifest, refreshes them all,
 * and prints one JSON line with the RSS and heap before and after.
 *
 *   node --expose-gc --import tsx test/bench/rss-child.ts MANIFEST.json
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRuntime } from '../../main/runtime.js';
import type { ManifestSite } from './support.js';

const gc = (globalThis as { gc?: () => void }).gc;
const settle = async (): Promise<NodeJS.MemoryUsage> => {
  // Two collections with a turn between: what is left is what the runtime really holds.
  gc?.();
  await new Promise((r) => setTimeout(r, 50));
  gc?.();
  return process.memoryUsage();
};

const manifest = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as { sites: ManifestSite[] };
const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-rss-'));
const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
for (const s of manifest.sites) await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
const before = await settle();
const started = performance.now();
const statuses = await rt.fleet.refresh({ force: true });
const refreshMs = performance.now() - started;
const peakRss = process.memoryUsage().rss;
const after = await settle();
process.stdout.write(
  `${JSON.stringify({
    systems: statuses.length,
    ok: statuses.filter((s) => s.state === 'ok').length,
    refreshMs,
    cacheBytes: rt.cache.sizeBytes(),
    before: { rss: before.rss, heapUsed: before.heapUsed },
    peakRss,
    after: { rss: after.rss, heapUsed: after.heapUsed, heapTotal: after.heapTotal, external: after.external, arrayBuffers: after.arrayBuffers },
  })}\n`,
);
await rt.close();
rmSync(dir, { recursive: true, force: true });
