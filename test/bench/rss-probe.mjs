/**
 * Where main's memory goes at scale: the RSS child's run, with process.memoryUsage()
 * by phase and, with --snapshot FILE, a V8 heap snapshot after the refresh and the index settled;
 * with --snapshot-mid FILE, one when half the systems have ended their refresh (what a refresh holds).
 *
 *   node --expose-gc test/bench/rss-probe.mjs MANIFEST.json [--snapshot FILE] [--snapshot-mid FILE]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot, getHeapSpaceStatistics } from 'node:v8';
import { openRuntime } from '../../out/main/runtime.js';

const gc = globalThis.gc;
const MB = (n) => Math.round(n / 1048576);
/** Resident memory by kind of mapping (Linux): V8's and malloc's anonymous memory, malloc's brk heap, files mapped (code, SQLite). */
const smaps = () => {
  let text;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  const out = {};
  let kind = 'anon';
  for (const line of text.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1] ?? '';
      kind = !name ? 'anon' : name.startsWith('[') ? name : /\.node$/.test(name) ? 'native addons' : /\.db(-shm|-wal)?$/.test(name) ? 'sqlite files' : name.includes('/node') ? 'node binary' : 'other files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] = (out[kind] ?? 0) + Number(rss[1]);
  }
  return Object.fromEntries(Object.entries(out).filter(([, kb]) => kb >= 1024).map(([k, kb]) => [k, Math.round(kb / 1024)]));
};
const mem = (label) => {
  const m = process.memoryUsage();
  const line = { label, rss: MB(m.rss), heapUsed: MB(m.heapUsed), heapTotal: MB(m.heapTotal), external: MB(m.external), arrayBuffers: MB(m.arrayBuffers), nonHeap: MB(m.rss - m.heapTotal) };
  process.stderr.write(`${JSON.stringify(line)}\n  smaps MB: ${JSON.stringify(smaps())}\n`);
  return m;
};
const settle = async (idleMs) => {
  gc?.();
  await new Promise((r) => setTimeout(r, idleMs));
  gc?.();
};
const args = process.argv.slice(2);
const snap = args.includes('--snapshot') ? args[args.indexOf('--snapshot') + 1] : undefined;
const snapMid = args.includes('--snapshot-mid') ? args[args.indexOf('--snapshot-mid') + 1] : undefined;
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
let ended = 0;
const systems = manifest.sites.reduce((n, s) => n + s.systems.length, 0);
const offMid = rt.fleet.on((e) => {
  if (!snapMid || e.type !== 'status' || e.status.state === 'refreshing' || ++ended !== Math.floor(systems / 2)) return;
  mem('half the systems refreshed');
  writeHeapSnapshot(snapMid);
  process.stderr.write(`snapshot ${snapMid}\n`);
});
const t = performance.now();
const statuses = await rt.fleet.refresh({ force: true });
const refreshMs = performance.now() - t;
clearInterval(sampler);
offMid();
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
