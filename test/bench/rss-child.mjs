/**
 * Runs in its own process (started by test/bench/run.ts) so its RSS is the main process's alone,
 * and on the compiled runtime (out/main, as shipped; the TypeScript loader alone adds about
 * 30 MB): opens a runtime, adds every site of a simulator manifest, refreshes them all, and prints
 * one JSON line with the RSS and heap before, at the peak of, and after the refresh.
 *
 *   node --expose-gc test/bench/rss-child.mjs MANIFEST.json
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundHeapGrowth } from '../../out/main/heap.js';
import { openRuntime } from '../../out/main/runtime.js';

// As the shells and the monitor do at start.
boundHeapGrowth();

/** @type {(() => void) | undefined} */
const gc = globalThis.gc;
/** Collects, lets the app idle for `idleMs`, collects again: what is left is what the runtime holds. */
const settle = async (idleMs) => {
  gc?.();
  // V8 hands freed heap pages back on a background thread; an idle app gets them back within ~0.5 s.
  await new Promise((r) => setTimeout(r, idleMs));
  gc?.();
  return process.memoryUsage();
};

const manifest = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-rss-'));
const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
for (const s of manifest.sites) await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
const before = await settle(1000);
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
const cpuBefore = process.cpuUsage();
const started = performance.now();
const statuses = await rt.fleet.refresh({ force: true });
const refreshMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const settledQuick = await settle(50);
const after = await settle(1000);
process.stdout.write(
  `${JSON.stringify({
    systems: statuses.length,
    ok: statuses.filter((s) => s.state === 'ok').length,
    refreshMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    cacheBytes: rt.cache.sizeBytes(),
    before: { rss: before.rss, heapUsed: before.heapUsed },
    peakRss,
    quickRss: settledQuick.rss,
    after: { rss: after.rss, heapUsed: after.heapUsed, heapTotal: after.heapTotal, external: after.external, arrayBuffers: after.arrayBuffers },
  })}\n`,
);
await rt.close();
rmSync(dir, { recursive: true, force: true });
