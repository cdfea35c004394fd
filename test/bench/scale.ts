/**
 * The fleet-scale parts of `npm run bench`: cold start from the cache, 1,000 systems
 * (refresh, RSS, first paint, tree filter, fleet search), the audit pack at scale with its time
 * split by phase, and the growth of refresh, RSS and audit pack over 60, 200 and 1,000 systems.
 * Each figure sits beside its baseline from the same run (BENCHMARKS.md explains how each is taken).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { writeReportPdf, type PdfPhase } from '../../main/reports/pdf.js';
import { exportReport } from '../../main/reports/export.js';
import { openRuntime, type Runtime } from '../../main/runtime.js';
import { FLEET_LIMITS } from '../../main/core/fleet-context.js';
import { startBrowserShell } from '../../main/shells/browser-shell.js';
import { criticalPath, fleetRequestCap, mb, median, ms, ROOT, runRssChild, startChildSimulator, verdict, type ChildSimulator, type Figure, type SiteLoad } from './support.js';

export interface BenchIo {
  report(f: Figure): void;
  log(line: string): void;
}

const LATENCY_MS = 25;
const PER_SITE_CAP = 4;
const GLOBAL_CAP = fleetRequestCap(PER_SITE_CAP, FLEET_LIMITS);
const COLD_TRIES = 3;

/** One fleet size of the growth table. */
export interface FleetSize {
  sites: number;
  systems: number;
}
export const SIZES = { s60: { sites: 20, systems: 3 }, s200: { sites: 50, systems: 4 }, s1000: { sites: 100, systems: 10 } } as const satisfies Record<string, FleetSize>;
const count = (s: FleetSize): number => s.sites * s.systems;

/**
 * Headless Chromium for the benches. Without the WebUI features turned off, each new page's window
 * also loaded the omnibox popup's WebUI in a renderer of its own (about 300 chrome:// requests and
 * their script, Chromium 156) while the measured page loaded: a page in Electron's window, or in a
 * desk's browser that opened its windows long before, does not compete with that on two cores.
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--disable-features=${NO_WEBUI_POPUPS}`],
    headless: true,
  });
}
const NO_WEBUI_POPUPS = ['PreloadTopChromeWebUI', 'WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'].join(',');

const VIEWPORT = { width: 1440, height: 900 };

/**
 * A browser context of its own, as a window's profile: a page opened in it after another loaded the
 * app finds the bundle in the HTTP cache and V8's code cache (a desk's browser, an Electron window
 * opened again); `browser.newPage` is a fresh profile every time.
 */
export function newProfile(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: VIEWPORT });
}

/**
 * A page that records long tasks and defines esbuild's name helper (tsx compiles page functions with
 * it): in a fresh profile of its own (a Browser), or in `profile` (a BrowserContext).
 */
export async function newPage(where: Browser | BrowserContext, expectSystems: number): Promise<Page> {
  const page = 'contexts' in where ? await where.newPage({ viewport: VIEWPORT }) : await where.newPage();
  if (process.env.BENCH_DEBUG) page.on('pageerror', (e) => process.stderr.write(`bench: page error: ${e.message.slice(0, 300)}\n`));
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.addInitScript((expect: number) => {
    const w = window as unknown as { __longtasks: Array<{ start: number; duration: number }>; __painted?: number };
    w.__longtasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    // From the first frame on: the frame in which the tree and the overview both show (the
    // overview's rows when the fleet has systems), then that frame painted.
    const check = (): void => {
      const tree = document.querySelector('[data-testid="fleet-tree"]');
      const totals = document.querySelector('[data-testid="fleet-totals"]');
      const rows = document.querySelectorAll('[data-testid="overview-table"] .body [role="row"]').length;
      const systems = document.querySelectorAll('[data-testid="fleet-tree"] [data-testid^="tree-system-"]').length;
      if (tree && totals && (expect === 0 || (rows > 0 && systems > 0))) {
        setTimeout(() => {
          w.__painted = performance.now();
          // Said on the console, which the bench reads without running anything in the page.
          console.debug(`fleetdeck-bench-painted ${w.__painted}`);
        }, 0);
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, expectSystems);
  return page;
}

/**
 * Navigates and waits until the tree and overview are painted; returns ms since navigation start.
 * Waits for the page's console line (`newPage`), not with `waitForFunction`: that compiles
 * Playwright's injected script in the page, 10-30 ms of the page's main thread while it loads, which
 * the app's window never spends.
 */
export async function firstPaint(page: Page, url: string): Promise<number> {
  const painted = page.waitForEvent('console', { predicate: (m) => m.text().startsWith(PAINTED), timeout: 120_000 });
  await page.goto(url, { waitUntil: 'commit' });
  return Number((await painted).text().slice(PAINTED.length));
}
const PAINTED = 'fleetdeck-bench-painted ';

/** One page load's first paint and where it went (ms from navigation). */
export interface PaintLoad {
  paint: number;
  /** The page's main-thread CPU to the frame (thread ticks: comparable where wall time is not on a loaded machine). */
  cpu: number;
  /** When the page's first IPC call left. */
  firstCall: number;
  /** When the last answer the frame read arrived. */
  lastAnswer: number;
}

/** {@link firstPaint}, with the page's main-thread CPU to the frame and when its first reads left and were answered. */
export async function timedFirstPaint(page: Page, url: string): Promise<PaintLoad> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const paint = await firstPaint(page, url);
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  const cpu = (metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000;
  const ipc = await page.evaluate(
    (p) =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .filter((r) => new URL(r.name).pathname.startsWith('/ipc/') && r.responseEnd <= p)
        .map((r) => [r.startTime, r.responseEnd]),
    paint,
  );
  return { paint, cpu, firstCall: Math.min(...ipc.map((r) => r[0]!)), lastAnswer: Math.max(...ipc.map((r) => r[1]!)) };
}

/**
 * Waits until process `pid` is quiet (under a tenth of a core over 300 ms, up to 20 s): the reads a
 * closed page left in flight (its health details, 4.5 MB at 1,000 systems) are answered before the
 * next page loads, or that page's first paint would wait behind them; the app's window loads once.
 */
export async function quiet(pid: number | undefined): Promise<void> {
  const until = performance.now() + 20_000;
  let before = processCpuMs(pid);
  while (before !== undefined && performance.now() < until) {
    await new Promise((r) => setTimeout(r, 300));
    const now = processCpuMs(pid);
    if (now === undefined || now - before <= 30) return;
    before = now;
  }
}

/** Ctrl+K until the command palette shows: the page takes input. Returns when it did. */
async function answersKeypress(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await page.waitForSelector('[data-testid="command-palette"]', { timeout: 120_000 });
  await page.keyboard.press('Escape');
}

/** A data dir holding the cache of a `size` fleet with every site paused (nothing is fetched at start). */
async function cachedFleetDir(size: FleetSize, seed: string): Promise<{ dir: string; sim: ChildSimulator }> {
  const sim = await startChildSimulator({ ...size, seed });
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-cached-'));
  const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
  const ids: string[] = [];
  for (const s of sim.sites) ids.push((await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password })).id);
  await rt.fleet.refresh({ force: true });
  for (const id of ids) await rt.fleet.setPaused(id, true);
  await rt.close();
  return { dir, sim };
}

/**
 * Starts the browser shell as `npm start` does without Electron (`root`'s bundled entry, default this
 * checkout's), in a process of its own on `dataDir`, its keychain in memory; `url` resolves with the
 * address it printed. The scale part's first paint, paint-ab.ts and the cold start use it.
 */
export function startShellProcess(dataDir: string, root: string = ROOT): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, [join(root, 'out/bundle/shells/web.js'), '--data-dir', dataDir], {
    cwd: root,
    env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.stderr?.resume();
    child.once('exit', (code) => reject(new Error(`${root}: the browser shell exited ${code} before serving: ${out}`)));
  });
  return { child, url };
}

/** Stops a shell started by {@link startShellProcess} and waits for it to exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  await exited;
}

interface ColdStart {
  total: number;
  serving: number;
  /** CPU time (user + system) of the shell's process when it printed its URL; undefined off Linux. */
  servingCpu: number | undefined;
  painted: number;
  answered: number;
}

/**
 * CPU time a process has used so far, ms (Linux: /proc/PID/stat, in clock ticks of 10 ms). The
 * wall figures swing with the machine's load; this one much less.
 */
function processCpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** One cold start: process start → URL printed → tree and overview painted → a keypress answered. */
async function coldStart(browser: Browser, dataDir: string, expectSystems: number): Promise<ColdStart> {
  const page = await newPage(browser, expectSystems);
  const t0 = performance.now();
  const shell = startShellProcess(dataDir);
  try {
    const url = await shell.url;
    const serving = performance.now() - t0;
    const servingCpu = processCpuMs(shell.child.pid);
    await firstPaint(page, url);
    const painted = performance.now() - t0;
    await answersKeypress(page);
    const answered = performance.now() - t0;
    return { total: answered, serving, servingCpu, painted, answered };
  } finally {
    await page.close();
    await stopProcess(shell.child);
  }
}

/** ` (main CPU to serving 480 ms, median)`: the shell process's CPU time when it served, over the tries. */
function cpuText(tries: readonly ColdStart[]): string {
  const cpu = tries.map((t) => t.servingCpu).filter((c): c is number => c !== undefined);
  return cpu.length ? ` (main CPU to serving ${ms(median(cpu))}, median)` : '';
}

/** Part `coldstart`: the browser shell from process start to an interactive overview, 200 cached systems vs an empty data dir. */
export async function benchColdStart(io: BenchIo): Promise<void> {
  const size = SIZES.s200;
  const { dir, sim } = await cachedFleetDir(size, 'bench-cold');
  await sim.stop();
  const empty = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-empty-'));
  const browser = await launchChromium();
  try {
    // Once each untimed: the OS file cache holds the app's files and Chromium's, as on a desk that ran it before.
    await coldStart(browser, dir, count(size));
    const fleet: ColdStart[] = [];
    const base: ColdStart[] = [];
    for (let i = 0; i < COLD_TRIES; i++) {
      // A copy per try, so no start sees the WAL or bookkeeping an earlier start left.
      const copy = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-cold-copy-'));
      cpSync(dir, copy, { recursive: true });
      fleet.push(await coldStart(browser, copy, count(size)));
      rmSync(copy, { recursive: true, force: true });
      const fresh = join(empty, `try-${i}`);
      base.push(await coldStart(browser, fresh, 0));
    }
    const m = fleet.sort((a, b) => a.total - b.total)[Math.floor(fleet.length / 2)] as ColdStart;
    const b = base.sort((a, b) => a.total - b.total)[Math.floor(base.length / 2)] as ColdStart;
    io.report({
      name: `cold start to an interactive overview, ${count(size)} cached systems (median of ${COLD_TRIES})`,
      value: ms(m.total),
      baseline: `range ${ms(fleet[0]!.total)}–${ms(fleet.at(-1)!.total)}; serving ${ms(m.serving)}${cpuText(fleet)}, tree + overview painted ${ms(m.painted)}, keypress answered ${ms(m.answered)}; empty data dir (demo fleet) ${ms(b.total)} (serving ${ms(b.serving)}${cpuText(base)}, painted ${ms(b.painted)})`,
      goal: '< 1 s',
      verdict: verdict(m.total < 1000),
    });
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  }
}

const delta = (after: SiteLoad[], before: SiteLoad[]): number[] => after.map((s, i) => s.requests - (before[i]?.requests ?? 0));

export interface RefreshFigures {
  systems: number;
  ok: number;
  wallMs: number;
  boundMs: number;
  perSiteMs: number;
  globalMs: number;
  /** Main's CPU time over the refresh: one thread cannot finish sooner. */
  cpuMs: number;
  requests: number;
  sequentialMs: number;
  cpuShare: number;
}

/** One full refresh of a fresh runtime at 25 ms latency, with its critical-path bound and sequential estimate; the runtime stays open, cached. */
export async function refreshAtScale(sim: ChildSimulator): Promise<{ rt: Runtime; dir: string; figures: RefreshFigures }> {
  for (let i = 0; i < sim.sites.length; i++) await sim.setFaults(i, { latencyMs: LATENCY_MS });
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-scale-'));
  const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 60_000 });
  for (const s of sim.sites) await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
  const before = await sim.status();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const statuses = await rt.fleet.refresh({ force: true });
  const wallMs = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const perSite = delta(await sim.status(), before);
  const requests = perSite.reduce((a, b) => a + b, 0);
  const cp = criticalPath(perSite, PER_SITE_CAP, GLOBAL_CAP, LATENCY_MS, (used.user + used.system) / 1000);
  for (let i = 0; i < sim.sites.length; i++) await sim.setFaults(i, { latencyMs: 0 });
  return {
    rt,
    dir,
    figures: {
      systems: statuses.length,
      ok: statuses.filter((s) => s.state === 'ok').length,
      wallMs,
      boundMs: cp.bound,
      perSiteMs: cp.perSite,
      globalMs: cp.global,
      cpuMs: cp.cpu,
      requests,
      // One request at a time, each held at least L: the least a sequential refresh could take.
      sequentialMs: requests * LATENCY_MS,
      cpuShare: (used.user + used.system) / 1000 / wallMs,
    },
  };
}

export interface RssFigures {
  afterRss: number;
  peakRss: number;
  beforeRss: number;
  heapUsed: number;
  cacheBytes: number;
  ok: number;
}

/**
 * Main-process RSS in a process of its own (test/bench/rss-child.mjs) after caching every system of
 * `sim`, refreshed at the same 25 ms latency as the refresh figures (BENCHMARKS.md sets both on that
 * fleet; at 0 ms the same refresh runs ~3× faster, so its garbage piles up faster).
 */
export async function rssAtScale(sim: ChildSimulator): Promise<RssFigures> {
  for (let i = 0; i < sim.sites.length; i++) await sim.setFaults(i, { latencyMs: LATENCY_MS });
  let r;
  try {
    r = await runRssChild(sim.sites);
  } finally {
    for (let i = 0; i < sim.sites.length; i++) await sim.setFaults(i, { latencyMs: 0 });
  }
  return { afterRss: r.after.rss, peakRss: r.peakRss, beforeRss: r.before.rss, heapUsed: r.after.heapUsed, cacheBytes: r.cacheBytes, ok: r.ok };
}

/** The first paint's figures over one shell's page loads. */
export interface PaintFigures {
  paintMs: number;
  paintRange: [number, number];
  /** Medians over the loads: the page's main-thread CPU to the frame, its first call left, its last answer in. */
  paintCpuMs: number;
  firstCallMs: number;
  lastAnswerMs: number;
}

/** The median figures of a shell's loads. */
export function paintFigures(loads: readonly PaintLoad[]): PaintFigures {
  const paints = loads.map((l) => l.paint);
  return {
    paintMs: median(paints),
    paintRange: [Math.min(...paints), Math.max(...paints)],
    paintCpuMs: median(loads.map((l) => l.cpu)),
    firstCallMs: median(loads.map((l) => l.firstCall)),
    lastAnswerMs: median(loads.map((l) => l.lastAnswer)),
  };
}

/**
 * The renderer's figures at scale. The first paint (the headline, `paintMs` and the fields beside
 * it) is served by the app's shell in a process of its own, as an admin's window is; `inProcess` is
 * the same taken from a shell inside the bench's process, where the page's first reads also wait for
 * the bench's own work (Playwright's client, the app run through tsx, the GC of a
 * heap holding ~200 MB of the refresh's garbage beside the app's ~75 MB).
 */
export interface UiFigures extends PaintFigures {
  inProcess: PaintFigures;
  healthMs: number;
  filterLongestTask: number;
  filterLongestKey: number;
  filterTerm: string;
  filterShown: number;
  filterExpected: number;
  searchMs: number;
  searchResults: string;
}

/** Page loads timed for the first paint at 1,000 systems, per shell (the median is reported). */
const PAINT_LOADS = 5;

/**
 * A copy of the runtime's data directory taken once this process is quiet (the refresh's summaries
 * and cache writes stored), served by the app's shell in its own process; refused unless that shell
 * reads every system `rt` has.
 */
async function ownShell(rt: Runtime): Promise<{ child: ChildProcess; url: string; close: () => Promise<void> }> {
  await quiet(process.pid);
  const work = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-scale-shell-'));
  cpSync(rt.dataDir, work, { recursive: true });
  const shell = startShellProcess(work);
  const close = async (): Promise<void> => {
    await stopProcess(shell.child);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const url = await shell.url;
    const { origin, searchParams } = new URL(url);
    const res = await fetch(`${origin}/ipc/fleet:status`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-fleetdeck-token': searchParams.get('token') ?? '' }, body: '{}' });
    const answer = (await res.json()) as { ok: boolean; value?: Array<{ systems: unknown[] }> };
    const served = answer.value?.reduce((n, s) => n + s.systems.length, 0) ?? 0;
    if (served !== rt.fleet.status().length) throw new Error(`the shell on the copied data serves ${served} systems, not ${rt.fleet.status().length}`);
    return { child: shell.child, url, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The renderer on a cached, paused fleet: first paint (from the app's shell in its own process, and
 * from a shell in this process; loads alternate), tree filter per keystroke, fleet search.
 */
export async function uiAtScale(rt: Runtime, sim: ChildSimulator): Promise<UiFigures> {
  for (const s of rt.sites.list()) await rt.fleet.setPaused(s.id, true);
  const systems = rt.fleet.status().length;
  const own = await ownShell(rt);
  const shell = await startBrowserShell({
    handlers: rt.handlers,
    rendererDir: join(ROOT, 'out/renderer'),
    subscribe: (emit) => rt.fleet.on((e) => (e.type === 'status' ? emit('fleet:status', e.status) : emit('fleet:notifications', { siteId: e.siteId, system: e.system, count: e.count }))),
  });
  const browser = await launchChromium();
  try {
    const shells = [
      { url: own.url, loads: [] as PaintLoad[] },
      { url: shell.url, loads: [] as PaintLoad[] },
    ];
    // One untimed load from the app's shell (its handlers' code loaded, as paint-ab.ts does); the
    // in-process shell's first load stays timed, as it always was.
    const warm = await newPage(browser, systems);
    await firstPaint(warm, own.url);
    await warm.close();
    let page: Page | undefined;
    for (let i = 0; i < PAINT_LOADS; i++) {
      // Which goes first alternates, so neither always follows the other's load.
      for (const s of i % 2 === 0 ? shells : [...shells].reverse()) {
        await page?.close();
        // What either process still does for the refresh that just ended or for the closed page's
        // late reads, done first (see `quiet`), so the load measures the window alone.
        await quiet(process.pid);
        await quiet(own.child.pid);
        page = await newPage(browser, systems);
        s.loads.push(await timedFirstPaint(page, s.url));
        // The filter and the search below stay on an in-process page: their work is the page's own and
        // the refreshed runtime's search index, which the copy's shell would first build again.
        if (s === shells[0]) {
          await page.close();
          page = undefined;
        }
      }
    }
    if (!page) {
      page = await newPage(browser, systems);
      await firstPaint(page, shell.url);
    }
    if (!page) throw new Error('no page was loaded');
    // Every system's health read from the cache and rolled up (the overview's "reading cached data…" gone).
    const healthMs = await page.evaluate(async () => {
      for (;;) {
        const busy = [...document.querySelectorAll('.overview .head .muted')].some((e) => e.textContent?.includes('reading cached data'));
        if (!busy) return performance.now();
        if (performance.now() > 600_000) throw new Error('the overview was still reading cached data after 10 minutes');
        await new Promise((r) => setTimeout(r, 20));
      }
    });

    // The tree filter: one keystroke at a time, each until its frame is painted.
    const term = sim.sites[Math.floor(sim.sites.length / 2)]!.systems[0]!.slice(0, -1);
    const expected = rt.fleet.status().filter((s) => s.system.toLowerCase().includes(term.toLowerCase())).length;
    await page.click('[data-testid="tree-filter"]');
    const keys = await page.evaluate(() => performance.now());
    let longestKey = 0;
    for (const ch of term) {
      const t = await page.evaluate(() => performance.now());
      await page.keyboard.type(ch);
      const painted = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0))));
      longestKey = Math.max(longestKey, painted - t);
    }
    const filterLongestTask = await page.evaluate((t0) => Math.max(0, ...(window as unknown as { __longtasks: Array<{ start: number; duration: number }> }).__longtasks.filter((x) => x.start >= t0).map((x) => x.duration)), keys);
    const shown = await page.evaluate(() => document.querySelectorAll('[data-testid="fleet-tree"] [data-testid^="tree-system-"]').length);
    await page.fill('[data-testid="tree-filter"]', '');

    // Fleet search on a term every system matches (its site's host), Enter: until the results are painted.
    const host = new URL(sim.sites[0]!.baseUrl).hostname;
    await page.fill('header [role="search"] input[type="search"]', host);
    const search = await page.evaluate(async () => {
      const input = document.querySelector<HTMLInputElement>('header [role="search"] input[type="search"]');
      if (!input) throw new Error('no search box');
      const t0 = performance.now();
      input.form?.requestSubmit();
      for (;;) {
        await new Promise((r) => requestAnimationFrame(() => r(undefined)));
        const title = document.querySelector('#search-title');
        const note = title?.parentElement?.querySelector('p')?.textContent ?? '';
        const table = document.querySelector<HTMLElement>('[data-testid="search-results"]');
        if (table && !note.includes('still reading') && Number(table.dataset.rowCount) > 0 && table.querySelector('.body [role="row"]')) {
          await new Promise((r) => setTimeout(r, 0));
          return { ms: performance.now() - t0, note: note.trim() };
        }
        if (performance.now() - t0 > 300_000) throw new Error(`the search never showed results (${note})`);
      }
    });
    await page.close();
    return {
      ...paintFigures(shells[0]!.loads),
      inProcess: paintFigures(shells[1]!.loads),
      healthMs,
      filterLongestTask,
      filterLongestKey: longestKey,
      filterTerm: term,
      filterShown: shown,
      filterExpected: expected,
      searchMs: search.ms,
      searchResults: search.note,
    };
  } finally {
    await browser.close();
    await shell.close();
    await own.close();
    for (const s of rt.sites.list()) await rt.fleet.setPaused(s.id, false);
  }
}

export interface AuditFigures {
  totalMs: number;
  refreshMs: number;
  buildMs: number;
  exportMs: number;
  files: number;
  /** Of the export (when split): the PDF by phase, and the other three formats. */
  pdf?: { layoutMs: number; saveMs: number; totalMs: number; cpuMs: number; pages: number; bytes: number };
  /** CPU time of this process over the export in four formats (no other process takes part in it). */
  exportCpuMs?: number;
  otherFormatsMs?: number;
}

/** The audit pack as the app makes it (refresh, build, export in four formats), then its PDF again phase by phase. */
export async function auditAtScale(rt: Runtime, splitPdf = true): Promise<AuditFigures> {
  const out = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-auditscale-'));
  try {
    // As the app makes it: reports:generate refreshes every site then builds; reports:export writes four formats.
    let t = performance.now();
    await rt.fleet.refresh({ force: true });
    const refreshMs = performance.now() - t;
    t = performance.now();
    const generated = await rt.reports.generate({ kind: 'audit', offline: true });
    const buildMs = performance.now() - t;
    t = performance.now();
    let cpu = process.cpuUsage();
    const exported = await rt.reports.export(generated.id, join(out, 'pack'), ['pdf', 'html', 'csv', 'json']);
    const exportMs = performance.now() - t;
    const exportCpu = process.cpuUsage(cpu);

    const totalMs = refreshMs + buildMs + exportMs;
    const files = exported.manifest.files.length;
    if (!splitPdf) return { totalMs, refreshMs, buildMs, exportMs, files };
    // The same PDF again, phase by phase: laying out the pages, then pdf-lib writing the file.
    const phases: PdfPhase[] = [];
    t = performance.now();
    cpu = process.cpuUsage();
    const pdf = await writeReportPdf(generated.model, { onPhase: (p) => phases.push(p) });
    const pdfCpu = process.cpuUsage(cpu);
    const pdfMs = performance.now() - t;
    const pages = phases.find((p) => p.phase === 'layout')?.pages ?? 0;
    t = performance.now();
    await exportReport(generated.model, { dir: join(out, 'others'), formats: ['html', 'csv', 'json'], exportedBy: 'bench', exportedAt: new Date() });
    const otherFormatsMs = performance.now() - t;
    return {
      totalMs,
      refreshMs,
      buildMs,
      exportMs,
      files,
      pdf: { layoutMs: phases.find((p) => p.phase === 'layout')?.ms ?? 0, saveMs: phases.find((p) => p.phase === 'save')?.ms ?? 0, totalMs: pdfMs, cpuMs: (pdfCpu.user + pdfCpu.system) / 1000, pages, bytes: pdf.length },
      exportCpuMs: (exportCpu.user + exportCpu.system) / 1000,
      otherFormatsMs,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export interface SizeFigures {
  size: FleetSize;
  refresh?: RefreshFigures;
  rss?: RssFigures;
  ui?: UiFigures;
  audit?: AuditFigures;
}

/** Measures what `what` asks for at one fleet size, the simulator in its own process. */
export async function measureSize(size: FleetSize, what: ReadonlySet<'refresh' | 'rss' | 'ui' | 'audit'>, io: BenchIo): Promise<SizeFigures> {
  const sim = await startChildSimulator({ ...size, seed: `bench-scale-${count(size)}` });
  const result: SizeFigures = { size };
  try {
    io.log(`${count(size)} systems: refresh at ${LATENCY_MS} ms latency`);
    const { rt, dir, figures } = await refreshAtScale(sim);
    result.refresh = figures;
    // A part that fails is logged and left out of the figures; the others still run.
    const attempt = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
      io.log(`${count(size)} systems: ${what}`);
      try {
        const out = await run();
        io.log(`${count(size)} systems: ${what}: ${JSON.stringify(out)}`);
        return out;
      } catch (err) {
        io.log(`${count(size)} systems: ${what} FAILED: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    };
    try {
      if (what.has('ui')) result.ui = await attempt('renderer', () => uiAtScale(rt, sim));
      // The PDF again phase by phase only where the split is reported (the audit-pack part, not the growth row at 1,000).
      if (what.has('audit')) result.audit = await attempt('audit pack', () => auditAtScale(rt, count(size) < 1000));
    } finally {
      await rt.close();
      rmSync(dir, { recursive: true, force: true });
    }
    if (what.has('rss')) {
      io.log(`${count(size)} systems: RSS`);
      result.rss = await rssAtScale(sim);
    }
  } finally {
    await sim.stop();
  }
  io.log(`${count(size)} systems measured: ${JSON.stringify(result)}`);
  return result;
}

/** Part `scale`: the 1,000-system figures. */
export function reportScale(f: SizeFigures, io: BenchIo): void {
  const n = count(f.size);
  const r = f.refresh!;
  io.report({
    name: `refresh ${n} systems (${f.size.sites} sites × ${f.size.systems}), ${LATENCY_MS} ms latency`,
    value: ms(r.wallMs),
    baseline: `${r.ok}/${r.systems} ok, ${r.requests} requests, app CPU ${(r.cpuShare * 100).toFixed(0)}% of a core; bound ${ms(r.boundMs)} (per-site ${ms(r.perSiteMs)}, fleet-wide ${ms(r.globalMs)}, main's CPU ${ms(r.cpuMs)})`,
  });
  io.report({ name: `refresh ${n} systems: wall time / critical-path bound`, value: `${(r.wallMs / r.boundMs).toFixed(2)}×`, goal: '≤ 1.5', verdict: verdict(r.wallMs / r.boundMs <= 1.5) });
  io.report({ name: `refresh ${n} systems: sequential estimate / parallel`, value: `${(r.sequentialMs / r.wallMs).toFixed(1)}×`, baseline: `sequential estimate ${ms(r.sequentialMs)} (${r.requests} requests × ${LATENCY_MS} ms)` });
  if (f.rss) {
    io.report({
      name: `main-process RSS after caching ${n} systems (${f.rss.ok} ok)`,
      value: mb(f.rss.afterRss),
      baseline: `refreshed at ${LATENCY_MS} ms latency; before ${mb(f.rss.beforeRss)}; peak during the refresh ${mb(f.rss.peakRss)}; JS heap used ${mb(f.rss.heapUsed)}; cache ${mb(f.rss.cacheBytes)} on disk`,
      goal: '< 400 MB',
      verdict: verdict(f.rss.afterRss < 400 * 1024 * 1024),
    });
  }
  if (f.ui) {
    const u = f.ui;
    io.report({
      name: `overview + tree first paint, ${n} systems (median of ${PAINT_LOADS}, from navigation)`,
      value: ms(u.paintMs),
      baseline: `app's shell in its own process; range ${ms(u.paintRange[0])}–${ms(u.paintRange[1])}; page main-thread CPU to the frame ${ms(u.paintCpuMs)}, first read sent ${ms(u.firstCallMs)}, last answer ${ms(u.lastAnswerMs)} (medians); every system's health read from the cache ${ms(u.healthMs)}`,
      goal: '< 200 ms',
      verdict: verdict(u.paintMs < 200),
    });
    const i = u.inProcess;
    io.report({
      name: `overview + tree first paint, ${n} systems, served from the bench's own process (median of ${PAINT_LOADS})`,
      value: ms(i.paintMs),
      baseline: `range ${ms(i.paintRange[0])}–${ms(i.paintRange[1])}; page main-thread CPU ${ms(i.paintCpuMs)}, first read sent ${ms(i.firstCallMs)}, last answer ${ms(i.lastAnswerMs)} (medians); its answers also wait for the bench's own work (Playwright's client, tsx, the GC of the refresh's garbage)`,
    });
    io.report({
      name: `tree filter, ${n} systems: longest task while typing "${u.filterTerm}"`,
      value: u.filterLongestTask ? ms(u.filterLongestTask) : 'none ≥ 50 ms',
      baseline: `longest keystroke to painted frame ${ms(u.filterLongestKey)}; ${u.filterShown} systems shown, ${u.filterExpected} match`,
      goal: '< 50 ms',
      verdict: verdict(u.filterLongestTask < 50 && u.filterShown === Math.min(u.filterExpected, u.filterShown)),
    });
    io.report({ name: `fleet search across ${n} systems (a term all match)`, value: ms(u.searchMs), baseline: u.searchResults, goal: '< 300 ms', verdict: verdict(u.searchMs < 300) });
  }
}

/** Part `auditscale`: the audit pack at a size, split by phase, against its goal. */
export function reportAudit(f: SizeFigures, goalMs: number, io: BenchIo): void {
  const a = f.audit!;
  const p = a.pdf;
  const split = p
    ? `; export CPU ${ms(a.exportCpuMs ?? 0)}; PDF again by phase: layout ${ms(p.layoutMs)} + write ${ms(p.saveMs)} = ${ms(p.totalMs)} (CPU ${ms(p.cpuMs)}; ${p.pages} pages, ${(p.bytes / 1e6).toFixed(1)} MB); HTML+CSV+JSON ${ms(a.otherFormatsMs ?? 0)}`
    : '';
  io.report({
    name: `audit pack, ${count(f.size)} systems: refresh + build + export (4 formats)`,
    value: ms(a.totalMs),
    baseline: `refresh ${ms(a.refreshMs)}, build ${ms(a.buildMs)}, export ${ms(a.exportMs)} (${a.files} files)${split}`,
    goal: `< ${goalMs / 1000} s`,
    verdict: verdict(a.totalMs < goalMs),
  });
}

/** Part `growth`: refresh, RSS and audit pack at each size in one table. */
export function reportGrowth(all: readonly SizeFigures[], io: BenchIo): void {
  const base = all[0];
  if (!base) return;
  for (const f of all) {
    const n = count(f.size);
    const x = n / count(base.size);
    const rel = (v: number | undefined, b: number | undefined): string => (v !== undefined && b ? ` (${(v / b).toFixed(1)}× for ${x.toFixed(1)}× systems)` : '');
    const parts = [
      f.refresh ? `refresh ${ms(f.refresh.wallMs)}${rel(f.refresh.wallMs, base.refresh?.wallMs)}, ${(f.refresh.wallMs / f.refresh.boundMs).toFixed(2)}× its bound` : undefined,
      f.rss ? `RSS ${mb(f.rss.afterRss)} (peak ${mb(f.rss.peakRss)})` : undefined,
      f.audit ? `audit pack ${ms(f.audit.totalMs)}${rel(f.audit.totalMs, base.audit?.totalMs)}` : undefined,
    ].filter(Boolean);
    io.report({ name: `growth: ${n} systems (${f.size.sites} × ${f.size.systems})`, value: '', baseline: parts.join('; ') });
  }
}
