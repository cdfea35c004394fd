/**
 * What the page does before its first frame at 1,000 systems: a CDP CPU profile of one
 * page load each run, from navigation to the painted frame (as `first-paint.ts` takes it), summed by
 * function (self time) and printed per 25 ms of the load, with the page's long tasks. Serve an
 * unminified renderer (`npx vite build --minify false --outDir DIR`, then BENCH_RENDERER_DIR=DIR) to
 * read the names. Writes the last run's profile to PROFILE_OUT when set (open it in Chrome's DevTools).
 * With `--focus NAMES` (comma-separated function names) it also prints each one's inclusive time to
 * the frame (its own and its callees'), per run and the median over the runs: how much of the frame
 * one part of the code costs, whatever it calls.
 *
 * A sample's time is the wall time to the next one, and a page thread the machine takes off its CPU
 * is sampled late: the gap would be charged to whatever ran when it was taken off (on a loaded
 * 2-core machine, 10 ms on one function that costs 0.1). So a sample counts for at most
 * {@link SAMPLE_CAP_US}, and what the gaps held beyond that is printed apart ("off the CPU"): the
 * figures per function are then near the thread's CPU time, not its wall time.
 *
 *   BENCH_FLEET_DIR=... npx tsx test/bench/paint-profile.ts [--runs N] [--focus joinSystems,buildTree]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBrowserShell } from '../../main/shells/browser-shell.js';
import { openCachedCopy } from './cached-fleet.js';
import { firstPaint, launchChromium, newPage, SIZES } from './scale.js';
import { median, ms, ROOT, type CpuProfile, type ProfileNode } from './support.js';

const { values: flags } = parseArgs({ options: { runs: { type: 'string' }, focus: { type: 'string' } } });
const RUNS = Number(flags.runs ?? 2);
const FOCUS = (flags.focus ?? '').split(',').filter(Boolean);

/** The sampling interval, µs. */
const SAMPLE_US = 200;
/** The most one sample counts for, µs: a longer gap to the next sample is the thread off the CPU. */
const SAMPLE_CAP_US = 3 * SAMPLE_US;
/** What sample `i` counts for, ms. */
const sampleMs = (p: CpuProfile, i: number): number => Math.min(p.timeDeltas[i + 1] ?? 0, SAMPLE_CAP_US) / 1000;

const nameOf = (n: ProfileNode): string => {
  const f = n.callFrame;
  const file = f.url ? f.url.slice(f.url.lastIndexOf('/') + 1).replace(/-[\w-]{8}\.js$/, '.js') : '';
  return `${f.functionName || '(anonymous)'}${file ? ` ${file}:${f.lineNumber + 1}` : ''}`;
};

/** Self time per function, in ms, over the samples taken before `untilUs` (µs from the profile's start). */
function summarise(p: CpuProfile, untilUs: number): { self: Map<string, number>; slots: Map<number, Map<string, number>>; total: number; off: number } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const slots = new Map<number, Map<string, number>>();
  let t = 0;
  let total = 0;
  let off = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (t > untilUs) break;
    const dt = sampleMs(p, i);
    const n = byId.get(p.samples[i]!)!;
    const name = nameOf(n);
    if (name.startsWith('(idle)')) continue;
    total += dt;
    off += (p.timeDeltas[i + 1] ?? 0) / 1000 - dt;
    self.set(name, (self.get(name) ?? 0) + dt);
    const slot = Math.floor(t / 25_000);
    const m = slots.get(slot) ?? new Map<string, number>();
    m.set(name, (m.get(name) ?? 0) + dt);
    slots.set(slot, m);
  }
  return { self, slots, total, off };
}

/** Inclusive time (ms) of each function named in `names` over the samples before `untilUs`: a sample counts once per name on its stack. */
function inclusive(p: CpuProfile, untilUs: number, names: readonly string[]): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = new Map(names.map((n) => [n, 0]));
  let t = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (t > untilUs) break;
    const dt = sampleMs(p, i);
    const seen = new Set<string>();
    for (let id: number | undefined = p.samples[i]; id !== undefined; id = parent.get(id)) {
      const name = byId.get(id)!.callFrame.functionName;
      if (out.has(name) && !seen.has(name)) {
        seen.add(name);
        out.set(name, out.get(name)! + dt);
      }
    }
  }
  return out;
}

const top = (m: Map<string, number>, n: number): Array<[string, number]> => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);

async function main(): Promise<void> {
  const { rt, close } = await openCachedCopy(SIZES.s1000, 'profile');
  const shell = await startBrowserShell({ handlers: rt.handlers, rendererDir: process.env.BENCH_RENDERER_DIR ?? join(ROOT, 'out/renderer'), subscribe: () => () => undefined });
  const browser = await launchChromium();
  const systems = rt.fleet.status().length;
  const focused = new Map(FOCUS.map((n) => [n, [] as number[]]));
  try {
    for (let i = 0; i < RUNS; i++) {
      const page = await newPage(browser, systems);
      // A page of the shell's own origin first, so the profiled navigation stays in this renderer process.
      await page.goto(new URL('/favicon.ico', shell.url).href, { waitUntil: 'commit' }).catch(() => undefined);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLE_US });
      await cdp.send('Profiler.start');
      const started = Date.now();
      const paint = await firstPaint(page, shell.url);
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
      const wallToStop = Date.now() - started;
      // The profile started before navigation: count only up to the frame (from the profile's own start, roughly navigation).
      const longtasks = await page.evaluate((p) => (window as unknown as { __longtasks: Array<{ start: number; duration: number }> }).__longtasks.filter((t) => t.start < p), paint);
      const s = summarise(profile, (paint + 20) * 1000);
      console.log(`\nrun ${i + 1}: paint ${ms(paint)} (profile to stop ${wallToStop} ms); sampled CPU to the frame ${ms(s.total)} (off the CPU between samples ${ms(s.off)}); long tasks ${longtasks.map((t) => `${ms(t.start)}+${ms(t.duration)}`).join(', ')}`);
      for (const [name, t] of top(s.self, 30)) console.log(`  ${t.toFixed(1).padStart(7)} ms  ${name}`);
      console.log('  per 25 ms from the profile start (top 4 self):');
      for (const [slot, m] of [...s.slots.entries()].sort((a, b) => a[0] - b[0])) {
        const sum = [...m.values()].reduce((a, b) => a + b, 0);
        if (sum < 2) continue;
        console.log(`   ${String(slot * 25).padStart(5)} ms ${sum.toFixed(1).padStart(5)}: ${top(m, 4).map(([n, t]) => `${n} ${t.toFixed(1)}`).join(' | ')}`);
      }
      if (FOCUS.length) {
        const incl = inclusive(profile, (paint + 20) * 1000, FOCUS);
        console.log(`  inclusive: ${FOCUS.map((n) => `${n} ${incl.get(n)!.toFixed(1)}`).join(' | ')}`);
        for (const [n, t] of incl) focused.get(n)!.push(t);
      }
      if (i === RUNS - 1 && process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
      await page.close();
    }
    if (FOCUS.length) console.log(`\ninclusive ms to the frame, median of ${RUNS} runs: ${[...focused].map(([n, l]) => `${n} ${median(l).toFixed(1)}`).join(' | ')}`);
  } finally {
    await browser.close();
    await shell.close();
    await close();
  }
}

await main();
