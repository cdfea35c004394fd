/**
 * Where the first paint at 1,000 systems goes: the `scale` part's first paint (from
 * navigation to the frame showing the tree's system rows and the overview's rows, as `uiAtScale`
 * takes it), broken down on the last fresh page: document, script and stylesheet loads, DOMContentLoaded,
 * the IPC calls the page made before that frame (start, end, size, main's time in the handler) and
 * the page's own marks; per page, when its first IPC call left, and main's CPU and event-loop delay
 * over the load (main serves the page from this process). Uses the same cached
 * 100 × 10 fleet as `search-filter.ts` (kept in BENCH_FLEET_DIR when set). BENCH_RENDERER_DIR serves
 * another renderer build (an earlier commit's `out/renderer`, to compare before and after).
 *
 *   npx tsx test/bench/first-paint.ts [--runs N]
 */
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Handlers } from '../../main/ipc/handlers.js';
import { startBrowserShell } from '../../main/shells/browser-shell.js';
import { openCachedCopy } from './cached-fleet.js';
import { firstPaint, launchChromium, newPage, quiet, SIZES } from './scale.js';
import { median, ms, ROOT } from './support.js';

const { values: flags } = parseArgs({ options: { runs: { type: 'string' } } });
const RUNS = Number(flags.runs ?? 3);

async function main(): Promise<void> {
  const { rt, close } = await openCachedCopy(SIZES.s1000, 'paint');
  // Main's time per call, so the page's wait can be split into main's work and the rest.
  let calls: Array<{ channel: string; startMs: number; handlerMs: number }> = [];
  const timed = Object.fromEntries(
    Object.entries(rt.handlers).map(([channel, h]) => [
      channel,
      async (req: unknown) => {
        const t = performance.now();
        try {
          return await (h as (r: unknown) => Promise<unknown>)(req);
        } finally {
          calls.push({ channel, startMs: t, handlerMs: performance.now() - t });
        }
      },
    ]),
  ) as unknown as Handlers;
  const shell = await startBrowserShell({ handlers: timed, rendererDir: process.env.BENCH_RENDERER_DIR ?? join(ROOT, 'out/renderer'), subscribe: () => () => undefined });
  const browser = await launchChromium();
  const systems = rt.fleet.status().length;
  // CPU time of Chromium's renderer processes (every thread: parsing, script, layout, paint), from
  // the browser: one page at a time is open, so their growth is that page's.
  const browserCdp = await browser.newBrowserCDPSession();
  const rendererCpu = async (): Promise<number> => {
    const { processInfo } = (await browserCdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; cpuTime: number }> };
    return processInfo.filter((p) => p.type === 'renderer').reduce((a, p) => a + p.cpuTime, 0) * 1000;
  };
  try {
    const paints: number[] = [];
    const cpus: Array<{ thread: number; script: number; task: number }> = [];
    const healths: Array<{ shown: number; cpu: number; details: number; detailsCpu: number; processCpu: number }> = [];
    const firstCalls: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await quiet(process.pid);
      const page = await newPage(browser, systems);
      await page.addInitScript(markHealth);
      calls = [];
      const cpu0 = await rendererCpu();
      const traced = i === RUNS - 1; // the last page: its requests and marks are printed
      // The page's main-thread CPU time (thread ticks, so other processes on a loaded machine do not
      // count), read as soon as the painted frame is seen: comparable where wall time is not.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
      // Main's side of the same interval (this process serves the page): its CPU, and how long its event
      // loop was held (a request waits that long before main reads it, whatever its handler costs).
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const mainCpu0 = process.cpuUsage();
      const paint = await firstPaint(page, shell.url);
      const mainCpu = process.cpuUsage(mainCpu0);
      loop.disable();
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (name: string): number => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
      const cpu = { thread: metric('ThreadTime'), script: metric('ScriptDuration'), compile: metric('V8CompileDuration'), layout: metric('LayoutDuration'), style: metric('RecalcStyleDuration'), task: metric('TaskDuration') };
      cpus.push(cpu);
      // Every system's health shown (the tree's health pills there and the overview's "reading cached
      // data…" gone, as `uiAtScale` takes it), then the details (the attention lists no longer
      // "reading…"), each at the frame that showed it (`markHealth`), with the page's long tasks
      // (≥ 50 ms) up to each: the CDP metrics were seen not to move after the frame.
      const health = await page.evaluate(waitFor, '__healthShown');
      const pageCpu = (until: number): Promise<number> =>
        page.evaluate((u) => (window as unknown as { __longtasks: Array<{ start: number; duration: number }> }).__longtasks.filter((t) => t.start < u).reduce((a, t) => a + t.duration, 0), until);
      const details = await page.evaluate(waitFor, '__detailsShown');
      const healthCpu = await pageCpu(health);
      const detailsCpu = await pageCpu(details);
      // Read once the details are shown (so it includes a moment after them): the page's whole start.
      const processCpu = (await rendererCpu()) - cpu0;
      healths.push({ shown: health, cpu: healthCpu, details, detailsCpu, processCpu });
      const sizes = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e as PerformanceResourceTiming)
          .filter((r) => r.name.includes('/ipc/health:'))
          .map((r) => `${new URL(r.name).pathname.slice(5)} ${(r.encodedBodySize / 1024).toFixed(0)} KiB at ${r.responseEnd.toFixed(0)} ms`),
      );
      console.log(
        `run ${i + 1}: health shown ${ms(health)} (long tasks ${ms(healthCpu)}), details ${ms(details)} (long tasks ${ms(detailsCpu)}); renderer process CPU from navigation to the details ${ms(processCpu)}; health reads: ${sizes.join('; ')}`,
      );
      const longest = await page.evaluate((p) => (window as unknown as { __longtasks: Array<{ start: number; duration: number }> }).__longtasks.filter((t) => t.start < p).reduce((a, t) => a + t.duration, 0), paint);
      const firstCall = await page.evaluate(() => Math.min(...performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/ipc/')).map((e) => e.startTime)));
      console.log(`run ${i + 1}: paint ${ms(paint)}; page main thread CPU ${ms(cpu.thread)} (script ${ms(cpu.script)}, compile ${ms(cpu.compile)}, style ${ms(cpu.style)}, layout ${ms(cpu.layout)}; tasks ${ms(cpu.task)}); long tasks before the frame ${ms(longest)}; first IPC call sent ${ms(firstCall)}; main CPU ${ms((mainCpu.user + mainCpu.system) / 1000)}, its event loop held up to ${ms(loop.max / 1e6)} (p99 ${ms(loop.percentile(99) / 1e6)})`);
      firstCalls.push(firstCall);
      paints.push(paint);
      if (!traced) {
        await page.close();
        continue;
      }
      const resources = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => {
          const r = e as PerformanceResourceTiming;
          return { name: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd, bytes: r.encodedBodySize };
        }),
      );
      const nav = await page.evaluate(() => {
        const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return { responseEnd: n.responseEnd, domInteractive: n.domInteractive, domContentLoaded: n.domContentLoadedEventEnd };
      });
      const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })));
      console.log(`\nfirst paint ${ms(paint)} (run ${i + 1}); document ${ms(nav.responseEnd)}, DOM interactive ${ms(nav.domInteractive)}, DOMContentLoaded ${ms(nav.domContentLoaded)}`);
      for (const m of marks) console.log(`  mark ${m.name.padEnd(40)} ${ms(m.at)}`);
      console.log('  requests before the painted frame (page time):');
      const t0 = Math.min(...calls.map((c) => c.startMs));
      const seen = new Map<string, number>();
      for (const r of resources.filter((x) => x.start <= paint).sort((a, b) => a.start - b.start)) {
        const channel = r.name.startsWith('/ipc/') ? r.name.slice(5) : undefined;
        // The n-th request of a channel is main's n-th call of it.
        const nth = channel ? (seen.get(channel) ?? 0) : 0;
        if (channel) seen.set(channel, nth + 1);
        const main = channel ? calls.filter((c) => c.channel === channel)[nth] : undefined;
        console.log(`    ${r.name.padEnd(34)} ${ms(r.start).padStart(8)} → ${ms(r.end).padStart(8)}  ${(r.bytes / 1024).toFixed(0).padStart(6)} KiB${main ? `  main ${ms(main.handlerMs)} (at +${ms(main.startMs - t0)})` : ''}`);
      }
      await page.close();
    }
    console.log(`\nfirst paint, ${systems} systems: median ${ms(median(paints))} of ${paints.map((p) => ms(p)).join(', ')}`);
    console.log(`page main thread CPU to the frame: median ${ms(median(cpus.map((c) => c.thread)))} of ${cpus.map((c) => ms(c.thread)).join(', ')}; script ${ms(median(cpus.map((c) => c.script)))}`);
    console.log(`every system's health shown: median ${ms(median(healths.map((h) => h.shown)))} of ${healths.map((h) => ms(h.shown)).join(', ')}; long tasks by then ${ms(median(healths.map((h) => h.cpu)))}`);
    console.log(`renderer process CPU from navigation to the details shown: median ${ms(median(healths.map((h) => h.processCpu)))} of ${healths.map((h) => ms(h.processCpu)).join(', ')}`);
    console.log(`details (attention lists) read: median ${ms(median(healths.map((h) => h.details)))} of ${healths.map((h) => ms(h.details)).join(', ')}; long tasks by then ${ms(median(healths.map((h) => h.detailsCpu)))}`);
    console.log(`first IPC call sent: median ${ms(median(firstCalls))} from navigation`);
  } finally {
    await browser.close();
    await shell.close();
    await close();
  }
}

/**
 * In the page, from its start: at each frame, notes when the tree shows health levels and the
 * overview no longer says "reading cached data…" (`__healthShown`), and when, besides, no attention
 * list says "reading…" any more (`__detailsShown`); each after that frame is painted.
 */
function markHealth(): void {
  const w = window as unknown as { __healthShown?: number; __detailsShown?: number };
  const check = (): void => {
    const levels = document.querySelector('[data-testid="tree-health"]') !== null && document.querySelector('[data-testid="fleet-totals"]') !== null;
    const reading = [...document.querySelectorAll('.overview .head .muted')].some((e) => e.textContent?.includes('reading cached data'));
    if (levels && !reading && w.__healthShown === undefined) setTimeout(() => (w.__healthShown ??= performance.now()), 0);
    if (levels && !reading && !document.querySelector('[data-testid="details-reading"]')) {
      setTimeout(() => (w.__detailsShown ??= performance.now()), 0);
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** In the page: resolves with the time `markHealth` noted under `name`, once it has. */
async function waitFor(name: string): Promise<number> {
  for (;;) {
    const at = (window as unknown as Record<string, number | undefined>)[name];
    if (at !== undefined) return at;
    if (performance.now() > 600_000) throw new Error(`${name} not reached after 10 minutes`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

await main();
