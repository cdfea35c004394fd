/**
 * Where the first paint at 1,000 systems goes (issue 17): the `scale` part's first paint (from
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
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Handlers } from '../../main/ipc/handlers.js';
import { openRuntime } from '../../main/runtime.js';
import { startBrowserShell } from '../../main/shells/browser-shell.js';
import { cachedFleet } from './cached-fleet.js';
import { firstPaint, launchChromium, newPage, SIZES } from './scale.js';
import { median, ms, ROOT } from './support.js';

const { values: flags } = parseArgs({ options: { runs: { type: 'string' } } });
const RUNS = Number(flags.runs ?? 3);

async function main(): Promise<void> {
  const keep = process.env.BENCH_FLEET_DIR;
  const fleetDir = keep ?? mkdtempSync(join(tmpdir(), 'fleetdeck-bench-paint-'));
  await cachedFleet(fleetDir, SIZES.s1000);
  const work = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-paint-run-'));
  cpSync(join(fleetDir, 'data'), work, { recursive: true });
  const rt = await openRuntime({ dataDir: work, memorySecrets: true });
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
  try {
    const paints: number[] = [];
    const cpus: Array<{ thread: number; script: number; task: number }> = [];
    const firstCalls: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await newPage(browser, systems);
      calls = [];
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
    console.log(`first IPC call sent: median ${ms(median(firstCalls))} from navigation`);
  } finally {
    await browser.close();
    await shell.close();
    await rt.close();
    rmSync(work, { recursive: true, force: true });
    if (!keep) rmSync(fleetDir, { recursive: true, force: true });
  }
}

await main();
