/**
 * `npm run bench`: measured speed of Fleetdeck, each figure beside a baseline measured in the same
 * run. Prints figures and goals; asserts nothing (BENCHMARKS.md explains each and keeps the latest).
 *
 *   npx tsx test/bench/run.ts [--only refresh,simulator,ipc,rss,renderer,audit,normalise,poll,compliance,metrics,syslog,coldstart,scale,auditscale,growth,monitor] [--poll-minutes N] [--monitor-minutes N] [--json FILE]
 *
 * The fleet-scale parts (coldstart, scale, auditscale, growth: test/bench/scale.ts) are not in the
 * default run (they take several minutes); name them with --only.
 *
 * Builds out/ first when a source is newer (the RSS and renderer parts run the compiled app); needs
 * Debian's Chromium.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { build } from '../../bin/build.js';
import { parseAnswerJson } from '../../app/answers/json-text.js';
import { normaliseAnswer } from '../../app/answers/normalise.js';
import { getOperation } from '../../app/catalog/index.js';
import { NOTIFICATIONS_CACHE, REFRESH_READS } from '../../app/fleet/refresh-plan.js';
import { Fleet, FLEET_LIMITS } from '../../main/core/fleet.js';
import { dispatch } from '../../main/ipc/handlers.js';
import { openRuntime, type Runtime } from '../../main/runtime.js';
import { EXPORT_FORMATS } from '../../main/reports/export.js';
import { openSecretStore } from '../../main/secrets/secret-store.js';
import { startBrowserShell } from '../../main/shells/browser-shell.js';
import { SiteStore, openStores } from '../../main/store/index.js';
import { cacheKey } from '../../main/store/offline-cache.js';
import { answerText } from '../../simulator/answer-dialects.js';
import { startSimulator, type Dialect } from '../../simulator/index.js';
import { benchCompliance } from './compliance.js';
import { benchMetrics } from './metrics.js';
import { benchMonitor } from './monitor.js';
import { benchSyslogForward } from './syslog-forward.js';
import { benchColdStart, measureSize, reportAudit, reportGrowth, reportScale, SIZES, type BenchIo, type SizeFigures } from './scale.js';
import { ROOT, criticalPath, fleetRequestCap, mb, median, ms, quantile, runRssChild, startChildSimulator, verdict, type ChildSimulator, type Figure, type SiteLoad } from './support.js';

const { values: flags } = parseArgs({ options: { only: { type: 'string' }, json: { type: 'string' }, 'poll-minutes': { type: 'string' }, 'monitor-minutes': { type: 'string' } } });
const only = new Set((flags.only ?? 'refresh,simulator,ipc,rss,renderer,audit,normalise,poll,compliance,metrics,syslog').split(','));
const figures: Figure[] = [];
const LATENCY_MS = 25;
/** Tries of the first-paint and audit-pack figures; the median is reported with the range. */
const PAINT_TRIES = 5;
const AUDIT_TRIES = 3;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The element with the median key (the upper one of an even count). */
function medianBy<T>(items: readonly T[], key: (t: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor(sorted.length / 2)] as T;
}

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

function report(f: Figure): void {
  figures.push(f);
  const parts = [`${f.name.padEnd(58)} ${f.value.padStart(12)}`];
  if (f.baseline) parts.push(`baseline ${f.baseline}`);
  if (f.goal) parts.push(`goal ${f.goal}: ${f.verdict}`);
  process.stdout.write(`${parts.join('   ')}\n`);
}

const delta = (after: SiteLoad[], before: SiteLoad[]): number[] => after.map((s, i) => s.requests - (before[i]?.requests ?? 0));

async function addSites(fleet: Fleet, sim: ChildSimulator, count = sim.sites.length): Promise<string[]> {
  const ids: string[] = [];
  for (const s of sim.sites.slice(0, count)) ids.push((await fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password })).id);
  return ids;
}

/** A Fleet on a fresh data directory with explicit caps (the runtime's defaults unless given). */
async function fleetOn(dir: string, globalMaxInFlight: number): Promise<{ fleet: Fleet; close: () => Promise<void> }> {
  const stores = openStores(dir);
  const fleet = new Fleet({
    sites: new SiteStore({ dataDir: dir }),
    secrets: await openSecretStore({ disable: true }),
    cache: stores.cache,
    actionLog: stores.actionLog,
    user: 'bench',
    timeoutMs: 30_000,
    globalMaxInFlight,
    // One request at a time is one system at a time: others waiting would spend their deadlines.
    maxSystemsAtOnce: Math.min(globalMaxInFlight, FLEET_LIMITS.systemsAtOnce),
  });
  return {
    fleet,
    close: async () => {
      await fleet.close();
      stores.close();
    },
  };
}

async function benchRefresh(sim: ChildSimulator): Promise<Runtime> {
  const sites = sim.sites.length;
  const systems = sim.sites.reduce((n, s) => n + s.systems.length, 0);
  // Cold: the first refresh of a fresh process and simulator (JIT on both sides, the simulator
  // building each system's answers for the first time), at the same latency. Reported, not the figure.
  for (let i = 0; i < sites; i++) await sim.setFaults(i, { latencyMs: LATENCY_MS });
  let coldMs: number;
  {
    const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-cold-'));
    const cold = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
    await addSites(cold.fleet, sim);
    const t0 = performance.now();
    await cold.fleet.refresh({ force: true });
    coldMs = performance.now() - t0;
    await cold.close();
    rmSync(dir, { recursive: true, force: true });
  }

  // The app as configured: openRuntime's defaults (per-site cap 4, the fleet-wide backstop).
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-refresh-'));
  const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
  const ids = await addSites(rt.fleet, sim);
  const cap = rt.sites.get(ids[0]!)!.polling.maxInFlight;
  const globalCap = fleetRequestCap(cap, FLEET_LIMITS);
  let before = await sim.status();
  const simCpu = sim.cpuMs();
  const cpu = process.cpuUsage();
  let t = performance.now();
  const statuses = await rt.fleet.refresh({ force: true });
  const parallelMs = performance.now() - t;
  const cpuUsed = process.cpuUsage(cpu);
  const simCpuMs = sim.cpuMs() - simCpu;
  let after = await sim.status();
  const perSite = delta(after, before);
  const total = perSite.reduce((a, b) => a + b, 0);
  const ok = statuses.filter((s) => s.state === 'ok').length;
  const appCpuMs = (cpuUsed.user + cpuUsed.system) / 1000;
  const cp = criticalPath(perSite, cap, globalCap, LATENCY_MS, appCpuMs);
  const peak = Math.max(...after.map((s) => s.peakInFlight));
  const cpuShare = appCpuMs / parallelMs;
  // The simulator shares the machine's cores with the app (a real fleet answers from its own hardware):
  // its share says how much of the wall time is the test rig's, not Fleetdeck's.
  const simShare = simCpuMs / parallelMs;
  const perRequest = `per request: app ${(appCpuMs / total).toFixed(2)} ms, simulator ${(simCpuMs / total).toFixed(2)} ms of CPU`;
  log(`parallel refresh: ${ok}/${statuses.length} ok, ${total} requests (${Math.min(...perSite)}–${Math.max(...perSite)} per site), peak ${peak} in flight per site, app CPU ${(cpuShare * 100).toFixed(0)}% of one core, simulator ${(simShare * 100).toFixed(0)}%; ${perRequest}`);

  // Sequential: one request at a time across the whole fleet (per-site cap 1, fleet-wide cap 1).
  const seqDir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-seq-'));
  const seq = await fleetOn(seqDir, 1);
  const seqSites = new SiteStore({ dataDir: seqDir });
  for (const id of await addSites(seq.fleet, sim)) await seqSites.update(id, { polling: { maxInFlight: 1 } });
  before = await sim.status();
  t = performance.now();
  const seqStatuses = await seq.fleet.refresh({ force: true });
  const sequentialMs = performance.now() - t;
  after = await sim.status();
  const seqTotal = delta(after, before).reduce((a, b) => a + b, 0);
  log(`sequential refresh: ${seqStatuses.filter((s) => s.state === 'ok').length}/${seqStatuses.length} ok, ${seqTotal} requests`);
  await seq.close();
  rmSync(seqDir, { recursive: true, force: true });

  report({
    name: `refresh ${systems} systems (${sites} sites × ${systems / sites}), ${LATENCY_MS} ms latency`,
    value: ms(parallelMs),
    baseline: `${ok}/${statuses.length} ok, ${total} requests, app CPU ${(cpuShare * 100).toFixed(0)}% of a core, simulator ${(simShare * 100).toFixed(0)}% (of ${cpus().length} cores: ${(((appCpuMs + simCpuMs) / parallelMs / cpus().length) * 100).toFixed(0)}% together); ${perRequest}; cold first refresh ${ms(coldMs)}`,
  });
  report({
    name: 'critical-path bound (max of per-site, fleet-wide and main\'s CPU)',
    value: ms(cp.bound),
    baseline: `per-site ${ms(cp.perSite)} (cap ${cap}), fleet-wide ${ms(cp.global)} (${globalCap} in flight), main's CPU ${ms(cp.cpu)}`,
  });
  report({ name: 'refresh wall time / critical-path bound', value: `${(parallelMs / cp.bound).toFixed(2)}×`, goal: '≤ 1.5', verdict: verdict(parallelMs / cp.bound <= 1.5) });
  report({
    name: 'sequential refresh (1 request at a time) / parallel',
    value: `${(sequentialMs / parallelMs).toFixed(1)}×`,
    baseline: `sequential ${ms(sequentialMs)}, ${seqTotal} requests`,
    goal: '≥ 10',
    verdict: verdict(sequentialMs / parallelMs >= 10),
  });
  for (let i = 0; i < sites; i++) await sim.setFaults(i, { latencyMs: 0 });
  return rt;
}

function benchSimulator(): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/bench/simulator-bench.ts', '--connections', '16', '--requests', '20000'], { cwd: ROOT, encoding: 'utf8' });
  const out = run.stdout ?? '';
  const rate = (label: string): number => Number(new RegExp(`${label}\\s+(\\d+) req/s`).exec(out)?.[1] ?? Number.NaN);
  const version = rate('GET /Version \\(baseline\\)');
  const hosts = rate('GET /hosts/list');
  const mix = rate('mix of lists');
  report({ name: 'simulator GET /hosts/list (16 connections, own process)', value: `${hosts.toFixed(0)} req/s`, baseline: `GET /Version ${version.toFixed(0)} req/s`, goal: '≥ 3,000', verdict: verdict(hosts >= 3000) });
  report({ name: 'simulator mix of 10 list operations', value: `${mix.toFixed(0)} req/s`, baseline: `GET /Version ${version.toFixed(0)} req/s`, goal: '≥ 3,000', verdict: verdict(mix >= 3000) });
}

async function timeRoundTrips(pool: Pool, path: string, headers: Record<string, string>, body: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await pool.request({ path, method: 'POST', headers, body });
    await res.body.text();
    out.push(performance.now() - t);
  }
  return out;
}

async function benchIpc(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-ipc-'));
  const rt = await openRuntime({ dataDir: dir, memorySecrets: true });
  const token = 'B'.repeat(32);
  const shell = await startBrowserShell({ handlers: rt.handlers, rendererDir: dir, token, subscribe: () => () => undefined });
  // Baseline: the same client against a bare node:http server echoing the body.
  const echo: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
  const echoPort = (echo.address() as AddressInfo).port;
  const shellPool = new Pool(`http://127.0.0.1:${shell.port}`, { connections: 1 });
  const echoPool = new Pool(`http://127.0.0.1:${echoPort}`, { connections: 1 });
  const headers = { 'content-type': 'application/json', 'x-fleetdeck-token': token };
  await timeRoundTrips(shellPool, '/ipc/app:info', headers, '{}', 500);
  await timeRoundTrips(echoPool, '/ipc/app:info', headers, '{}', 500);
  const shellTimes = await timeRoundTrips(shellPool, '/ipc/app:info', headers, '{}', 5000);
  const echoTimes = await timeRoundTrips(echoPool, '/ipc/app:info', headers, '{}', 5000);
  report({
    name: 'IPC round trip app:info, browser shell (median)',
    value: ms(median(shellTimes)),
    baseline: `raw node:http echo ${ms(median(echoTimes))} (p99 ${ms(quantile(shellTimes, 0.99))} vs ${ms(quantile(echoTimes, 0.99))})`,
  });
  await shellPool.close();
  await echoPool.close();
  await new Promise<void>((r) => echo.close(() => r()));
  await shell.close();
  await rt.close();
  rmSync(dir, { recursive: true, force: true });
}

async function benchRss(): Promise<void> {
  const sim = await startChildSimulator({ sites: 50, systems: 4, seed: 'bench-rss' });
  const r = await runRssChild(sim.sites);
  await sim.stop();
  report({
    name: `main-process RSS after caching ${r.systems} systems (${r.ok} ok)`,
    value: mb(r.after.rss),
    baseline: `before ${mb(r.before.rss)}; peak during refresh ${mb(r.peakRss)}; 50 ms after it ${mb(r.quickRss)}; JS heap used ${mb(r.before.heapUsed)} → ${mb(r.after.heapUsed)} (reserved ${mb(r.after.heapTotal)}, external ${mb(r.after.external)}); cache ${mb(r.cacheBytes)} on disk; refresh ${ms(r.refreshMs)}`,
    goal: '< 250 MB',
    verdict: verdict(r.after.rss < 250 * 1024 * 1024),
  });
}

interface NodeLike {
  Name?: string;
  Drives?: Array<Record<string, unknown>>;
  [k: string]: unknown;
}

/** 10,000 drives on 40 nodes, cloned from a real /resources/list answer with unique ids, names and serials. */
function manyDrives(real: { Data: NodeLike[] }, system: string, count: number): { Data: NodeLike[] } {
  const templates = real.Data.flatMap((n) => n.Drives ?? []);
  const perNode = 250;
  const nodes: NodeLike[] = [];
  for (let n = 0; n * perNode < count; n++) {
    const base = real.Data[n % real.Data.length] as NodeLike;
    const name = `${system}-n${String(n + 1).padStart(2, '0')}`;
    const drives = Array.from({ length: Math.min(perNode, count - n * perNode) }, (_, j) => {
      const t = templates[j % templates.length] as Record<string, unknown>;
      const id = n * 1000 + j + 1;
      return { ...t, Id: id, Name: `sd${j}`, Slot: j, ResourceSerial: `BENCH${String(id).padStart(8, '0')}` };
    });
    nodes.push({ ...base, Name: name, Drives: drives });
  }
  // Through JSON, like every answer the app caches: no object shared between nodes.
  return JSON.parse(JSON.stringify({ Data: nodes })) as { Data: NodeLike[] };
}

/** 100,000 notification records cloned from real ones, newest first, 30 s apart, with unique ids. */
function manyNotifications(real: { Data: Array<Record<string, unknown>> }, count: number): { Data: Array<Record<string, unknown>> } {
  const now = Date.now();
  const records = Array.from({ length: count }, (_, i) => {
    const t = real.Data[i % real.Data.length] as Record<string, unknown>;
    return { ...t, Id: count - i, Timestamp: new Date(now - i * 30_000).toISOString().slice(0, 19), Message: `${String(t.Message ?? '')} (#${count - i})` };
  });
  return JSON.parse(JSON.stringify({ Data: records })) as { Data: Array<Record<string, unknown>> };
}

interface PageTiming {
  ms: number;
  fetchMs: number;
  longestTask: number;
  rows: number;
}

async function benchRenderer(): Promise<void> {
  const rendererDir = join(ROOT, 'out/renderer');
  const { chromium } = await import('playwright-core');
  const sim = await startSimulator({ sites: 1, systems: 3, seed: 'bench-renderer', controlServer: false });
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-renderer-'));
  const rt = await openRuntime({ dataDir: dir, memorySecrets: true });
  const m = sim.manifest.sites[0]!;
  const site = await rt.fleet.addSite({ name: m.name, baseUrl: m.baseUrl, username: m.username, password: m.password });
  await rt.fleet.refresh({ force: true });
  const [drivesSystem, notesSystem, baseSystem] = rt.fleet.systemsOf(site.id) as [string, string, string];
  const resourcesRead = REFRESH_READS.find((r) => r.op === 'GET /resources/list')!;
  const resourcesKey = cacheKey(resourcesRead.op, resourcesRead.query);
  const notificationsKey = cacheKey(NOTIFICATIONS_CACHE.op, NOTIFICATIONS_CACHE.query);
  const realResources = rt.cache.get(site.id, drivesSystem, resourcesKey)!.value as { Data: NodeLike[] };
  const realNotes = rt.cache.get(site.id, notesSystem, notificationsKey)!.value as { Data: Array<Record<string, unknown>> };
  const baseDrives = (rt.cache.get(site.id, baseSystem, resourcesKey)!.value as { Data: NodeLike[] }).Data.reduce((n, x) => n + (x.Drives?.length ?? 0), 0);
  // Paused: the views are served from the offline cache, which now holds the big answers.
  await rt.fleet.setPaused(site.id, true);
  rt.cache.put(site.id, drivesSystem, resourcesKey, manyDrives(realResources, drivesSystem, 10_000));
  rt.cache.put(site.id, notesSystem, notificationsKey, manyNotifications(realNotes, 100_000));
  const shell = await startBrowserShell({
    handlers: rt.handlers,
    rendererDir,
    subscribe: (emit) => rt.fleet.on((e) => (e.type === 'status' ? emit('fleet:status', e.status) : emit('fleet:notifications', { siteId: e.siteId, system: e.system, count: e.count }))),
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // BENCH_DEBUG=1 shows the page's console and errors.
    if (process.env.BENCH_DEBUG) {
      page.on('console', (m) => log(`page console ${m.type()}: ${m.text().slice(0, 300)}`));
      page.on('pageerror', (e) => log(`page error: ${e.message.slice(0, 300)}`));
    }
    // tsx compiles the functions handed to page.evaluate with esbuild's name-keeping helper: define it in the page.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.addInitScript(() => {
      const w = window as unknown as { __longtasks: Array<{ start: number; duration: number }> };
      w.__longtasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longtasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(shell.url);
    // Not 'networkidle': the event stream is a fetch that stays open, so the network never idles.
    await page.waitForSelector(`[data-testid="tree-system-${site.id}-${drivesSystem}"]`);

    const openSystem = async (system: string): Promise<void> => {
      await page.click(`[data-testid="tree-system-${site.id}-${system}"] > .row`);
      await page.waitForSelector(`[data-testid="system-page"][data-system="${system}"]`);
      await page.waitForTimeout(300);
    };

    /** Clicks an area of the open system and times it until `table` shows `rows` rows and the frame is painted. */
    const timeArea = (area: string, table: string, rows: number): Promise<PageTiming> =>
      page.evaluate(
        async ({ area, table, rows }) => {
          const w = window as unknown as { __longtasks: Array<{ start: number; duration: number }> };
          const nextFrame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));
          const button = [...document.querySelectorAll<HTMLButtonElement>('nav.areas button')].find((b) => b.textContent?.trim() === area);
          if (!button) throw new Error(`no area button ${area}`);
          const t0 = performance.now();
          button.click();
          for (;;) {
            await nextFrame();
            const grid = document.querySelector<HTMLElement>(`[data-testid="${table}"]`);
            if (grid && Number(grid.dataset.rowCount) === rows && grid.querySelector('.body [role="row"]')) break;
            if (performance.now() - t0 > 60_000) {
              const area = document.querySelector('[aria-labelledby="components-title"]')?.textContent?.replace(/\s+/g, ' ').slice(0, 600);
              throw new Error(`${table} never showed ${rows} rows (it shows ${grid?.dataset.rowCount ?? 'no table'}; the area says: ${area})`);
            }
          }
          // The frame in which the rows were found paints after this callback: wait for it.
          await new Promise<void>((r) => setTimeout(r, 0));
          const t1 = performance.now();
          const fetches = performance.getEntriesByType('resource').filter((e) => e.name.includes('/ipc/cache:read') && e.startTime >= t0) as PerformanceResourceTiming[];
          return {
            ms: t1 - t0,
            fetchMs: Math.max(0, ...fetches.map((f) => f.responseEnd - t0)),
            longestTask: Math.max(0, ...w.__longtasks.filter((t) => t.start >= t0 && t.start <= t1).map((t) => t.duration)),
            rows: document.querySelectorAll(`[data-testid="${table}"] .body [role="row"]`).length,
          };
        },
        { area, table, rows },
      );

    /** Scrolls a table through its rows at frame pace, then jumps around; returns the longest task and frame. */
    const scroll = (testid: string): Promise<{ longestTask: number; longestFrame: number; p95Frame: number; frames: number; rowsInDom: number; scrolls: string }> =>
      page.evaluate(async (testid) => {
        const w = window as unknown as { __longtasks: Array<{ start: number; duration: number }> };
        const table = document.querySelector<HTMLElement>(`[data-testid="${testid}"] .scroller`);
        if (!table) throw new Error('no scroller');
        // What the user scrolls: the table's own scroller when it is virtualized (its height is
        // bounded), else the nearest ancestor that scrolls (the page, with every row rendered).
        let scroller: HTMLElement = table;
        for (let el: HTMLElement | null = table; el; el = el.parentElement) {
          if (el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY !== 'visible') {
            scroller = el;
            break;
          }
        }
        const scrolls = scroller === table ? 'table' : `page <${scroller.tagName.toLowerCase()}>`;
        const frames: number[] = [];
        let last = performance.now();
        const t0 = last;
        const frame = async (): Promise<void> => {
          await new Promise((r) => requestAnimationFrame(() => r(undefined)));
          const now = performance.now();
          frames.push(now - last);
          last = now;
        };
        let rowsInDom = 0;
        const max = scroller.scrollHeight - scroller.clientHeight;
        // At frame pace through the rows, for at most 20 s (a view that does not virtualize is slow here).
        for (let i = 0; i < 400 && performance.now() - t0 < 20_000; i++) {
          scroller.scrollTop = Math.min(max, scroller.scrollTop + 1500);
          await frame();
          rowsInDom = Math.max(rowsInDom, table.querySelectorAll('.body [role="row"]').length);
        }
        for (let i = 0; i < 40 && performance.now() - t0 < 25_000; i++) {
          scroller.scrollTop = ((i * 7919) % 97) / 97 * max;
          await frame();
        }
        await new Promise((r) => setTimeout(r, 100));
        const sorted = [...frames].sort((a, b) => a - b);
        return {
          longestTask: Math.max(0, ...w.__longtasks.filter((t) => t.start >= t0).map((t) => t.duration)),
          longestFrame: sorted.at(-1) ?? 0,
          p95Frame: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
          frames: frames.length,
          rowsInDom,
          scrolls,
        };
      }, testid);

    // Five times each (this VM's timings vary by ±30 % from one try to the next): the median counts.
    const smalls: PageTiming[] = [];
    const bigs: PageTiming[] = [];
    for (let i = 0; i < PAINT_TRIES; i++) {
      await openSystem(baseSystem);
      smalls.push(await timeArea('Hardware', 'drives-table', baseDrives));
      await openSystem(drivesSystem);
      bigs.push(await timeArea('Hardware', 'drives-table', 10_000));
    }
    const big = medianBy(bigs, (t) => t.ms);
    const small = medianBy(smalls, (t) => t.ms);
    report({
      name: `renderer: first paint of the 10,000-drive table (median of ${PAINT_TRIES})`,
      value: ms(big.ms),
      baseline: `range ${ms(Math.min(...bigs.map((t) => t.ms)))}–${ms(Math.max(...bigs.map((t) => t.ms)))}; ${baseDrives} drives ${ms(small.ms)}; of which the cache:read answer ${ms(big.fetchMs)} vs ${ms(small.fetchMs)}; longest task ${big.longestTask ? ms(big.longestTask) : 'none ≥ 50 ms'}; ${big.rows} rows in the DOM`,
      goal: '< 200 ms',
      verdict: verdict(big.ms < 200),
    });

    // The same table component bounded by its own height (the drives table): what scrolling costs when it virtualizes.
    const drivesScroll = await scroll('drives-table');
    report({
      name: 'renderer: longest task scrolling the 10,000-drive table',
      value: drivesScroll.longestTask ? ms(drivesScroll.longestTask) : 'none ≥ 50 ms',
      baseline: `longest frame ${ms(drivesScroll.longestFrame)}, p95 ${ms(drivesScroll.p95Frame)}; at most ${drivesScroll.rowsInDom} rows in the DOM (scrolls: ${drivesScroll.scrolls})`,
      goal: '< 50 ms',
      verdict: verdict(drivesScroll.longestTask < 50),
    });

    await openSystem(notesSystem);
    const shown = await timeArea('Notifications', 'notifications-table', 1000);
    // The view shows the newest `Top` records (1,000 by default, up to 100,000): raise it to all of them.
    const raise = await page.evaluate(async () => {
      const w = window as unknown as { __longtasks: Array<{ start: number; duration: number }> };
      const input = [...document.querySelectorAll<HTMLInputElement>('input[type="number"]')].find((i) => i.closest('label')?.textContent?.trim().startsWith('Top'));
      if (!input) throw new Error('no Top input');
      const t0 = performance.now();
      input.value = '100000';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      for (;;) {
        await new Promise((r) => requestAnimationFrame(() => r(undefined)));
        if (Number(document.querySelector<HTMLElement>('[data-testid="notifications-table"]')?.dataset.rowCount) === 100_000) break;
        if (performance.now() - t0 > 60_000) throw new Error('never showed 100,000 rows');
      }
      // Then the frame with the rows is laid out and painted.
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const t1 = performance.now();
      return { ms: t1 - t0, longestTask: Math.max(0, ...w.__longtasks.filter((t) => t.start >= t0 && t.start <= t1).map((t) => t.duration)) };
    });
    await page.waitForTimeout(300);

    const all = await scroll('notifications-table');
    // Baseline: the same scroll with the default 1,000 rows.
    await page.evaluate(() => {
      const input = [...document.querySelectorAll<HTMLInputElement>('input[type="number"]')].find((i) => i.closest('label')?.textContent?.trim().startsWith('Top'));
      if (input) {
        input.value = '1000';
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    await page.waitForFunction(() => Number(document.querySelector<HTMLElement>('[data-testid="notifications-table"]')?.dataset.rowCount) === 1000);
    await page.waitForTimeout(300);
    const thousand = await scroll('notifications-table');
    report({
      name: 'renderer: longest task scrolling 100,000 notifications',
      value: all.longestTask ? ms(all.longestTask) : 'none ≥ 50 ms',
      baseline: `1,000 rows: ${thousand.longestTask ? ms(thousand.longestTask) : 'none ≥ 50 ms'}; longest frame ${ms(all.longestFrame)} vs ${ms(thousand.longestFrame)}, p95 ${ms(all.p95Frame)} vs ${ms(thousand.p95Frame)}; ${all.rowsInDom} rows in the DOM (scrolls: ${all.scrolls}) vs ${thousand.rowsInDom}`,
      goal: '< 50 ms',
      verdict: verdict(all.longestTask < 50),
    });
    report({
      name: 'renderer: showing all 100,000 cached notifications (Top 1,000 → 100,000)',
      value: ms(raise.ms),
      baseline: `longest task ${ms(raise.longestTask)}; opening the area with 1,000 shown ${ms(shown.ms)} (cache read of all 100,000 ${ms(shown.fetchMs)}, longest task ${ms(shown.longestTask)})`,
    });
  } finally {
    await browser.close();
    await shell.close();
    await rt.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchAudit(rt: Runtime): Promise<void> {
  const systems = rt.fleet.status().length;
  const time = async (request: Record<string, unknown>): Promise<{ generateMs: number; exportMs: number; files: number }> => {
    const out = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-audit-'));
    const dirOut = join(out, 'pack');
    let t = performance.now();
    const generated = await dispatch(rt.handlers, 'reports:generate', request);
    const generateMs = performance.now() - t;
    if (!generated.ok) throw new Error(`reports:generate: ${generated.error.message}`);
    const id = (generated.value as { id: number }).id;
    t = performance.now();
    // As the Electron shell exports once the admin has chosen the folder.
    const exported = await rt.reports.export(id, dirOut, ['pdf', 'html', 'csv', 'json']);
    const exportMs = performance.now() - t;
    rmSync(out, { recursive: true, force: true });
    return { generateMs, exportMs, files: exported.manifest.files.length };
  };
  const firstSite = rt.sites.list()[0]!.id;
  const one = await time({ kind: 'audit', sites: [firstSite] });
  const runs: Array<{ generateMs: number; exportMs: number; files: number }> = [];
  for (let i = 0; i < AUDIT_TRIES; i++) runs.push(await time({ kind: 'audit' }));
  const total = (r: { generateMs: number; exportMs: number }): number => r.generateMs + r.exportMs;
  const all = medianBy(runs, total);
  const offline = await time({ kind: 'audit', offline: true });
  report({
    name: `audit pack for ${systems} systems: refresh + build + export (4 formats, median of ${AUDIT_TRIES})`,
    value: ms(total(all)),
    baseline: `range ${ms(Math.min(...runs.map(total)))}–${ms(Math.max(...runs.map(total)))}; generate ${ms(all.generateMs)} + export ${ms(all.exportMs)} (${all.files} files); 3 systems ${ms(total(one))}; from cache (--offline) ${ms(total(offline))}`,
    goal: '< 10 s',
    verdict: verdict(total(all) < 10_000),
  });
  // Where the export time goes: the same stored report, one format at a time.
  const generated = await dispatch(rt.handlers, 'reports:generate', { kind: 'audit', offline: true });
  if (!generated.ok) throw new Error(generated.error.message);
  const id = (generated.value as { id: number }).id;
  const perFormat: string[] = [];
  for (const format of EXPORT_FORMATS) {
    const out = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-audit-format-'));
    const t = performance.now();
    const r = await rt.reports.export(id, join(out, 'pack'), [format]).then(
      () => ms(performance.now() - t),
      (err: unknown) => `failed (${err instanceof Error ? err.message : String(err)})`,
    );
    perFormat.push(`${format} ${r}`);
    rmSync(out, { recursive: true, force: true });
  }
  report({ name: `audit pack for ${systems} systems: export time per format`, value: '', baseline: perFormat.join(', ') });
}

/**
 * The response normaliser on the largest answers the views read: the 10,000-drive hardware list
 * and 100,000 notification records, as the document writes them and as a camelCase, numbers-as-
 * strings system does. Baseline: JSON.parse alone of the same text (what the client did before).
 */
async function benchNormalise(): Promise<void> {
  const sim = await startSimulator({ sites: 1, systems: 1, seed: 'bench-normalise', controlServer: false });
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-normalise-'));
  const rt = await openRuntime({ dataDir: dir, memorySecrets: true });
  try {
    const m = sim.manifest.sites[0]!;
    const site = await rt.fleet.addSite({ name: m.name, baseUrl: m.baseUrl, username: m.username, password: m.password });
    await rt.fleet.refresh({ force: true });
    const [system] = rt.fleet.systemsOf(site.id) as [string];
    const resourcesRead = REFRESH_READS.find((r) => r.op === 'GET /resources/list')!;
    const drives = manyDrives(rt.cache.get(site.id, system, cacheKey(resourcesRead.op, resourcesRead.query))!.value as { Data: NodeLike[] }, system, 10_000);
    const notes = manyNotifications(rt.cache.get(site.id, system, cacheKey(NOTIFICATIONS_CACHE.op, NOTIFICATIONS_CACHE.query))!.value as { Data: Array<Record<string, unknown>> }, 100_000);
    const cases: Array<[string, string, unknown, Dialect[]]> = [
      ['10,000 drives', 'GET /resources/list', drives, []],
      ['10,000 drives, camelCase, numbers as strings', 'GET /resources/list', drives, ['envelope-lower', 'numeric-strings']],
      ['100,000 notifications', 'GET /notifications/query', notes, []],
    ];
    for (const [what, opKey, value, dialects] of cases) {
      const op = getOperation(opKey);
      const text = answerText(new Set(dialects), op, value);
      const parse: number[] = [];
      const normalise: number[] = [];
      for (let i = 0; i < 7; i++) {
        let t = performance.now();
        JSON.parse(text);
        parse.push(performance.now() - t);
        t = performance.now();
        const r = normaliseAnswer(op.response, parseAnswerJson(text));
        normalise.push(performance.now() - t);
        if (!r.ok) throw new Error(`${what}: not understood`);
      }
      const p = median(parse);
      const n = median(normalise);
      report({ name: `normaliser: ${what} (${mb(text.length)})`, value: ms(n), baseline: `JSON.parse alone ${ms(p)} (${(n / p).toFixed(2)}×)` });
    }
  } finally {
    await rt.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Systems polled by the poll part, and their interval: the 200 systems every 60 s. */
const POLL_SITES = 50;
const POLL_SYSTEMS_PER_SITE = 4;
const POLL_INTERVAL_S = 60;

/**
 * Background polling of 200 systems every 60 s, in real time (default 3 minutes, `--poll-minutes`):
 * requests per system of a full refresh and of a steady poll (the simulator's own counts), and
 * main's CPU share (process.cpuUsage over wall time) while only the schedule runs. The poll that
 * re-reads configuration (once per `slowReadMaxAgeMs`, 15 min) is measured apart, on a fleet that
 * finds all of it due.
 */
async function benchPoll(): Promise<void> {
  const minutes = Number(flags['poll-minutes'] ?? 3);
  const sim = await startChildSimulator({ sites: POLL_SITES, systems: POLL_SYSTEMS_PER_SITE, seed: 'poll' });
  const systems = POLL_SITES * POLL_SYSTEMS_PER_SITE;
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-poll-'));
  try {
    const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
    const ids = await addSites(rt.fleet, sim);
    for (const id of ids) {
      const site = rt.sites.get(id)!;
      await rt.fleet.editSite(id, { polling: { ...site.polling, intervalSeconds: POLL_INTERVAL_S } });
    }
    const total = async (): Promise<number> => (await sim.status()).reduce((n, x) => n + x.requests, 0);
    // The full refresh that fills the cache, five sites at a time: all 200 at once do not finish
    // within each system's 60 s refresh deadline on a shared 2-core machine (the refresh part
    // measures that case), and polling would then start from systems never read.
    let before = await total();
    const tFull = performance.now();
    let ok = 0;
    for (let i = 0; i < ids.length; i += 5) ok += (await rt.fleet.refresh({ siteIds: ids.slice(i, i + 5), force: true })).filter((x) => x.state === 'ok').length;
    const fullMs = performance.now() - tFull;
    const full = (await total()) - before;
    log(`poll: full refresh of ${systems} systems: ${ok} ok, ${full} requests in ${ms(fullMs)}`);

    // Polling alone, in real time: every final status of a system is one system poll.
    let systemPolls = 0;
    let notOk = 0;
    const off = rt.fleet.on((e) => {
      if (e.type !== 'status' || e.status.state === 'refreshing') return;
      systemPolls++;
      if (e.status.state !== 'ok') notOk++;
    });
    before = await total();
    rt.fleet.startPolling();
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, minutes * 60_000));
    const wallMs = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    const steady = (await total()) - before;
    off();
    await rt.close();
    const cpuShare = (used.user + used.system) / 1000 / wallMs;
    log(`poll: ${minutes} min at ${POLL_INTERVAL_S} s: ${systemPolls} system polls (${notOk} not ok), ${steady} requests`);
    // Printed at once, so a failure in the part below does not lose them.
    log(`poll: steady poll ${(systemPolls ? steady / systemPolls : Number.NaN).toFixed(1)} requests per system; main CPU ${(cpuShare * 100).toFixed(2)} % (${((used.user + used.system) / 1000).toFixed(0)} ms over ${ms(wallMs)})`);

    // The poll that finds configuration due (every 15 min at most): a fleet on the same cache with a zero age.
    const stores = openStores(dir);
    const slowSites = new SiteStore({ dataDir: dir });
    const slowFleet = new Fleet({ sites: slowSites, secrets: await openSecretStore({ disable: true }), cache: stores.cache, actionLog: stores.actionLog, user: 'bench', timeoutMs: 30_000, slowReadMaxAgeMs: 0 });
    for (const site of slowSites.list()) {
      const s = sim.sites.find((x) => x.name === site.name);
      if (s) await slowFleet.login(site.id, { password: s.password });
    }
    before = await total();
    await slowFleet.refresh({ mode: 'steady' });
    const slowPoll = (await total()) - before;
    await slowFleet.close();
    slowSites.close();
    stores.close();

    const perSteady = systemPolls ? steady / systemPolls : Number.NaN;
    const perSlow = slowPoll / systems;
    const pollsPerSlow = FLEET_LIMITS.slowReadMaxAgeMs / (POLL_INTERVAL_S * 1000);
    report({ name: `full refresh, requests per system (${systems} systems)`, value: (full / systems).toFixed(1), baseline: `${full} requests, logins included` });
    report({
      name: `steady poll, requests per system (${minutes} min of polling at ${POLL_INTERVAL_S} s)`,
      value: perSteady.toFixed(1),
      baseline: `${steady} requests over ${systemPolls} system polls; full refresh ${(full / systems).toFixed(1)}`,
      goal: '≤ 15',
      verdict: verdict(perSteady <= 15),
    });
    report({
      name: 'poll with configuration due (once per 15 min), per system',
      value: perSlow.toFixed(1),
      baseline: `averaged over 15 min at ${POLL_INTERVAL_S} s: ${((perSteady * (pollsPerSlow - 1) + perSlow) / pollsPerSlow).toFixed(1)} per poll`,
    });
    report({
      name: `main CPU while polling ${systems} systems every ${POLL_INTERVAL_S} s`,
      value: `${(cpuShare * 100).toFixed(2)} %`,
      baseline: `${((used.user + used.system) / 1000).toFixed(0)} ms CPU over ${ms(wallMs)} of wall time, one core = 100 %`,
      goal: '< 5 %',
      verdict: verdict(cpuShare < 0.05),
    });
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The fleet-scale parts: each fleet size is measured once and serves every part that
 * asks for it (the growth table reuses the 60-, 200- and 1,000-system figures of the others).
 */
async function benchScaleParts(): Promise<void> {
  const io: BenchIo = { report, log };
  if (only.has('coldstart')) await benchColdStart(io);
  if (only.has('monitor')) await benchMonitor(io, Number(flags['monitor-minutes'] ?? 16));
  const growth = only.has('growth');
  const at1000 = only.has('scale') || growth;
  const at200 = only.has('auditscale') || growth;
  const measured: SizeFigures[] = [];
  if (at200 || growth) measured.push(await measureSize(SIZES.s60, new Set(['refresh', ...(growth ? (['rss'] as const) : []), 'audit']), io));
  if (at200) measured.push(await measureSize(SIZES.s200, new Set(['refresh', ...(growth ? (['rss'] as const) : []), 'audit']), io));
  if (at1000) measured.push(await measureSize(SIZES.s1000, new Set(['refresh', 'rss', 'ui', ...(growth ? (['audit'] as const) : [])]), io));
  const s1000 = measured.find((m) => m.size === SIZES.s1000);
  if (only.has('scale') && s1000) reportScale(s1000, io);
  if (only.has('auditscale')) {
    for (const m of measured) if (m.audit && m.size !== SIZES.s1000) reportAudit(m, m.size === SIZES.s60 ? 10_000 : 20_000, io);
  }
  if (growth) reportGrowth(measured, io);
}

async function main(): Promise<void> {
  if (!build(log)) throw new Error('the build failed');
  process.stdout.write(`Fleetdeck bench — ${new Date().toISOString()} — node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'})\n`);
  let refreshed: Runtime | undefined;
  let sim: ChildSimulator | undefined;
  process.stdout.write(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(', ')}\n`);
  if (only.has('refresh') || only.has('audit')) {
    sim = await startChildSimulator({ sites: 20, systems: 3, seed: 'bench' });
    if (only.has('refresh')) refreshed = await benchRefresh(sim);
  }
  if (only.has('simulator')) benchSimulator();
  if (only.has('ipc')) await benchIpc();
  if (only.has('rss')) await benchRss();
  if (only.has('renderer')) await benchRenderer();
  if (only.has('normalise')) await benchNormalise();
  if (only.has('poll')) await benchPoll();
  if (only.has('compliance')) await benchCompliance({ report, log });
  if (only.has('metrics')) await benchMetrics({ report, log });
  if (only.has('syslog')) await benchSyslogForward({ report, log });
  if (only.has('audit') && sim) {
    if (!refreshed) {
      const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-audit-data-'));
      refreshed = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
      for (const s of sim.sites) await refreshed.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
      await refreshed.fleet.refresh({ force: true });
    }
    await benchAudit(refreshed);
  }
  await refreshed?.close();
  await sim?.stop();
  await benchScaleParts();
  process.stdout.write(`load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(', ')}\n`);
  if (flags.json) writeFileSync(flags.json, `${JSON.stringify(figures, null, 2)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
