/**
 * Where main's memory goes at scale (issue 17): the RSS child's run, with process.memoryUsage()
 * by phase and, with --snapshot FILE, a V8 heap snapshot after the refresh and the index settled.
 *
 *   node --expose-gc test/bench/rss-probe.mjs MANIFEST.json [--snapshot FILE]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot, getHeapSpaceStatistics } from 'node:v8';
import { openRuntime } from '../../out/main/runtime.js';

const gc = globalThis.gc;
const MB = (n) => Math.round(n / 1048576);
const mem = (label) => {
  const m = process.memoryUsage();
  const line = { label, rss: MB(m.rss), heapUsed: MB(m.heapUsed), heapTotal: MB(m.heapTotal), external: MB(m.external), arrayBuffers: MB(m.arrayBuffers), nonHeap: MB(m.rss - m.heapTotal) };
  process.stderr.write(`${JSON.stringify(line)}\n`);
  return m;
};
const settle = async (idleMs) => {
  gc?.();
  await new Promise((r) => setTimeout(r, idleMs));
  gc?.();
};
const args = process.argv.slice(2);
const snap = args.includes('--snapshot') ? args[args.indexOf('--snapshot') + 1] : undefined;
const manifest = JSON.parse(readFileSync(args[0] ?? '', 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-probe-'));
const cpu0 = process.cpuUsage();
const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 60_000 });
for (const s of manifest.sites) await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
await settle(1000);
mem('after open + sites');
let peakRss = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 20);
const t = performance.now();
const statuses = await rt.fleet.refresh({ force: true });
const refreshMs = performance.now() - t;
clearInterval(sampler);
process.stderr.write(`${JSON.stringify({ label: 'peak during refresh', rss: MB(peakRss), heapUsed: MB(peakHeap), refreshMs: Math.round(refreshMs), ok: statuses.filter((s) => s.state === 'ok').length })}\n`);
mem('right after refresh');
rt.search.settle();
mem('after search index settled');
await settle(1000);
const after = mem('after GC + 1 s idle');
for (const s of getHeapSpaceStatistics()) process.stderr.write(`  ${s.space_name}: used ${MB(s.space_used_size)} of ${MB(s.space_size)}\n`);
const u = process.cpuUsage(cpu0);
process.stderr.write(`cpu ${Math.round((u.user + u.system) / 1000)} ms; cache ${MB(rt.cache.sizeBytes())} MB on disk\n`);
if (snap) {
  writeHeapSnapshot(snap);
  process.stderr.write(`snapshot ${snap}\n`);
}
process.stdout.write(`${JSON.stringify({ rss: after.rss, peakRss, heapUsed: after.heapUsed })}\n`);
await rt.close();
rmSync(dir, { recursive: true, force: true });
