/**
 * Where the wall time of the first paint at 1,000 systems goes, on one timeline: the browser shell
 * in its own process (as paint-ab.ts runs it) with a hook stamping each request it receives and
 * each answer it has written, and a Chromium trace of the page load. Both clocks are
 * CLOCK_MONOTONIC, so every milestone is in ms from navigation: the HTML served and parsed, the
 * entry script asked for, served and run, the first reads sent, received and answered by the shell
 * and read by the page, the frame chunk served, compiled and run, the layout and the painted frame.
 * Prints each run's milestones, their medians, and the page main thread's CPU and time in tasks.
 *
 * `--cpu` instead takes no trace and counts, from /proc's schedstat, each process's and thread's
 * CPU from navigation to the painted frame and how long each was runnable but waiting for a CPU,
 * beside what the whole machine used (/proc/stat): whether the load is bound by CPU, and whose.
 * That window closes when the bench hears of the frame, a few ms after it, when the page's reads
 * that follow the frame have begun: read its figures as an upper bound.
 *
 *   BENCH_FLEET_DIR=... npx tsx test/bench/paint-timeline.ts [--root CHECKOUT] [--runs N] [--cpu] [--list]
 *
 * `--list` also prints every run's events in order (the page's tasks, its requests, the shell's).
 * TRACE_OUT=FILE writes the last run's trace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { cachedFleet } from './cached-fleet.js';
import { firstPaint, launchChromium, newPage, quiet, SIZES } from './scale.js';
import { median, ROOT } from './support.js';

const { values: flags } = parseArgs({ options: { root: { type: 'string' }, runs: { type: 'string' }, cpu: { type: 'boolean' }, list: { type: 'boolean' } } });
const RUNS = Number(flags.runs ?? 5);
const root = flags.root ?? ROOT;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading', 'v8.execute', 'v8', 'blink.user_timing', '__metadata'];

/** One request the shell received or answered: CLOCK_MONOTONIC µs. */
interface ShellEvent {
  ts: number;
  kind: 'request' | 'answered';
  what: string;
}

/** The shell of `root` on `dataDir`, in its own process, with the HTTP timing hook; `events` fills as it serves. */
async function startShell(dataDir: string): Promise<{ child: ChildProcess; url: string; events: ShellEvent[] }> {
  const child = spawn(process.execPath, ['--import', join(ROOT, 'test/bench/http-timing-hook.mjs'), join(root, 'out/bundle/shells/web.js'), '--data-dir', dataDir], {
    cwd: root,
    env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: ShellEvent[] = [];
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    for (let nl = err.indexOf('\n'); nl >= 0; nl = err.indexOf('\n')) {
      const m = /^http-timing (\d+) (request|answered) (.*)$/.exec(err.slice(0, nl));
      err = err.slice(nl + 1);
      if (m) events.push({ ts: Number(m[1]), kind: m[2] as ShellEvent['kind'], what: m[3]! });
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`the shell exited ${code} before serving`)));
  });
  return { child, url, events };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  await exited;
}

/** `/assets/index-….js` → `index`, for matching requests by chunk. */
const chunkOf = (url: unknown): string => /\/assets\/([a-z-]+?)-[\w-]{8}\.js/.exec(String(url ?? ''))?.[1] ?? String(url ?? '').replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');

/** The milestones, in print order. */
const MILESTONES = [
  'html answered by the shell',
  'page committed',
  'html parsed (domInteractive)',
  'entry asked for',
  'entry received by the shell',
  'entry in the page',
  'entry run',
  'first reads sent',
  'first reads received by the shell',
  'first reads answered by the shell',
  'first reads answer in the page',
  'first reads answer read',
  'frame chunk answered by the shell',
  'frame chunk compiled (background thread)',
  'frame chunk in the page',
  'frame chunk run',
  'style, layout and paint of the frame',
  'painted (bench)',
] as const;
type Milestone = (typeof MILESTONES)[number];

interface Run {
  at: Map<Milestone, number>;
  /** The page main thread's CPU (thread time) and time in tasks from navigation to the frame. */
  cpu: number;
  busy: number;
  list: Array<[number, string]>;
}

/** One traced load: its milestones and, for --list, every event in order. */
async function tracedLoad(browser: Browser, url: string, shell: ShellEvent[]): Promise<Run> {
  const page = await newPage(browser, 1000);
  // A page of the shell's own origin first, so the traced navigation stays in this renderer process.
  await page.goto(new URL('/favicon.ico', url).href, { waitUntil: 'commit' }).catch(() => undefined);
  const cdp = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReportEvents' });
  const paint = await firstPaint(page, url);
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  await page.close();
  if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify({ traceEvents: events }));

  const nav = events.find((e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').startsWith(`${new URL(url).origin}/?`));
  if (!nav) throw new Error('the trace has no navigationStart for the shell page');
  const ms = (ts: number): number => (ts - nav.ts) / 1000;
  const end = nav.ts + paint * 1000;
  const inWindow = (e: { ts: number }): boolean => e.ts >= nav.ts - 50_000 && e.ts <= end;
  const at = new Map<Milestone, number>();
  const first = (m: Milestone, ts: number | undefined): void => {
    if (ts !== undefined && !at.has(m)) at.set(m, ms(ts));
  };
  const list: Array<[number, string]> = [];

  const page0 = events.filter((e) => e.pid === nav.pid && inWindow(e));
  const mainThread = page0.filter((e) => e.tid === nav.tid);
  const requests = new Map<string, string>();
  for (const e of mainThread) {
    const d = e.args?.data ?? {};
    if (e.name === 'ResourceSendRequest') requests.set(String(d.requestId), chunkOf(d.url));
  }
  const chunk = (e: TraceEvent): string => requests.get(String(e.args?.data?.requestId)) ?? '';
  const sorted = [...mainThread].sort((a, b) => a.ts - b.ts);
  for (const e of sorted) {
    const c = chunk(e);
    if (e.name === 'ResourceSendRequest' && c === 'index') first('entry asked for', e.ts);
    if (e.name === 'ResourceReceiveResponse' && c === 'index') first('entry in the page', e.ts);
    if (e.name === 'ResourceSendRequest' && c === '/ipc/batch') first('first reads sent', e.ts);
    if (e.name === 'ResourceReceiveResponse' && c === '/ipc/batch') first('first reads answer in the page', e.ts);
    if (e.name === 'ResourceFinish' && c === '/ipc/batch') first('first reads answer read', e.ts);
    if (e.name === 'ResourceReceiveResponse' && c === 'frame') first('frame chunk in the page', e.ts);
    if (e.name.startsWith('Resource')) list.push([ms(e.ts), `page  ${e.name.replace('Resource', '').toLowerCase()} ${c}`]);
  }
  // Module evaluations on the main thread: the entry's first, the frame's after its chunk is in.
  const evaluations = sorted.filter((e) => e.name === 'v8.evaluateModule' && e.ph === 'X');
  first('entry run', evaluations[0]?.ts);
  // The page's document marks: the last before its entry runs (the window's initial empty document
  // and the page navigated from have theirs too). The deferred entry runs once the HTML is parsed.
  const entryRun = evaluations[0]?.ts ?? end;
  const lastMark = (name: string): number | undefined => sorted.filter((e) => e.name === name && e.ts <= entryRun).at(-1)?.ts;
  first('page committed', lastMark('domLoading'));
  first('html parsed (domInteractive)', lastMark('domInteractive'));
  const frameIn = at.get('frame chunk in the page');
  if (frameIn !== undefined) first('frame chunk run', evaluations.find((e) => ms(e.ts) >= frameIn)?.ts);
  const streaming = page0.filter((e) => e.tid !== nav.tid && e.name === 'BackgroundJSStreamManager::RunScriptStreamingTask' && e.ph === 'X');
  const longest = streaming.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
  if (longest) first('frame chunk compiled (background thread)', longest.ts + (longest.dur ?? 0));

  // The page main thread's top-level tasks to the frame: its CPU, its time in tasks, the frame's rendering task.
  const tasks = sorted.filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.ph === 'X' && e.ts >= nav.ts);
  let cpu = 0;
  let busy = 0;
  let openUntil = 0;
  let heaviestLayout: { ts: number; dur: number } | undefined;
  for (const t of tasks) {
    if (t.ts < openUntil) continue;
    openUntil = t.ts + (t.dur ?? 0);
    cpu += (t.tdur ?? 0) / 1000;
    busy += Math.min(openUntil, end) - t.ts;
    const inner = sorted.filter((e) => e.ts >= t.ts && e.ts + (e.dur ?? 0) <= openUntil && e !== t && e.ph === 'X' && !/RunTask/.test(e.name));
    const layout = inner.find((e) => e.name === 'Layout');
    if (layout && (layout.dur ?? 0) > (heaviestLayout?.dur ?? 0)) heaviestLayout = { ts: t.ts, dur: layout.dur ?? 0 };
    if ((t.dur ?? 0) >= 1000) {
      const what = inner
        .filter((e) => (e.dur ?? 0) >= 500)
        .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
        .slice(0, 4)
        .map((e) => `${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)}`)
        .join(', ');
      list.push([ms(t.ts), `page  task ${((t.dur ?? 0) / 1000).toFixed(1)} ms, CPU ${((t.tdur ?? 0) / 1000).toFixed(1)}: ${what}`]);
    }
  }
  if (heaviestLayout) first('style, layout and paint of the frame', heaviestLayout.ts);
  for (const s of streaming.filter((e) => (e.dur ?? 0) >= 1000)) list.push([ms(s.ts), `page  background script streaming and compile, ${((s.dur ?? 0) / 1000).toFixed(1)} ms`]);

  for (const s of shell.filter(inWindow)) {
    const c = chunkOf(s.what.replace(/^\w+ /, ''));
    list.push([ms(s.ts), `shell ${s.kind} ${s.what}`]);
    if (s.kind === 'answered' && s.what === 'GET /') first('html answered by the shell', s.ts);
    if (s.kind === 'request' && c === 'index') first('entry received by the shell', s.ts);
    if (s.kind === 'request' && c === '/ipc/batch') first('first reads received by the shell', s.ts);
    if (s.kind === 'answered' && c === '/ipc/batch') first('first reads answered by the shell', s.ts);
    if (s.kind === 'answered' && c === 'frame') first('frame chunk answered by the shell', s.ts);
  }
  at.set('painted (bench)', paint);
  return { at, cpu, busy: busy / 1000, list: list.sort((a, b) => a[0] - b[0]) };
}

/**
 * CPU time of every thread of `pids`, ms, keyed `process kind/thread`, and how long each was
 * runnable but waiting for a CPU (`… waiting for a CPU`): /proc's schedstat (ns, not 10 ms ticks).
 */
function threadCpu(pids: readonly number[]): Map<string, number> {
  const out = new Map<string, number>();
  const add = (k: string, ns: number): void => void out.set(k, (out.get(k) ?? 0) + ns / 1e6);
  for (const pid of pids) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
      const type = cmd.find((a) => a.startsWith('--type='))?.slice('--type='.length);
      const sub = cmd.find((a) => a.startsWith('--utility-sub-type='))?.replace(/^.*\./, '');
      const kind = type ? `chromium ${type}${sub ? ` ${sub}` : ''}` : /chrom/.test(cmd[0] ?? '') ? 'chromium browser' : cmd.some((a) => a.endsWith('web.js')) ? 'shell' : `node ${pid === process.pid ? '(this bench)' : pid}`;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const thread = Number(tid) === pid ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/\d+$/, '');
        const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
        add(`${kind}/${thread}`, run ?? 0);
        add(`${kind}/${thread} waiting for a CPU`, wait ?? 0);
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** `rootPid` and every process below it. */
function descendants(rootPid: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      parent.set(Number(d), Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const out = [rootPid];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  return out;
}

/** CPU time the whole machine has used, ms (/proc/stat, every CPU, 10 ms ticks). */
function machineBusyMs(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  return ((f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[5] ?? 0) + (f[6] ?? 0) + (f[7] ?? 0)) * 10;
}

/** One untraced load with every thread's CPU and wait from before navigation to the frame heard of. */
async function countedLoad(browser: Browser, url: string, shellPid: number): Promise<Map<string, number>> {
  const page = await newPage(browser, 1000);
  const pids = (): number[] => [...descendants(process.pid), shellPid];
  const machine = machineBusyMs();
  const before = threadCpu(pids());
  const t0 = performance.now();
  const paint = await firstPaint(page, url);
  const after = threadCpu(pids());
  const wall = performance.now() - t0;
  const used = machineBusyMs() - machine;
  await page.close();
  const d = new Map<string, number>();
  for (const [k, v] of after) d.set(k, Math.max(0, v - (before.get(k) ?? 0)));
  const ours = [...d].filter(([k]) => !k.endsWith('waiting for a CPU')).reduce((a, [, v]) => a + v, 0);
  d.set('= painted (ms from navigation)', paint);
  d.set('= the window counted (wall ms)', wall);
  d.set('= CPU the machine used in it (10 ms ticks)', used);
  d.set('= of which these processes', ours);
  d.set('= of which other processes', Math.max(0, used - ours));
  return d;
}

async function main(): Promise<void> {
  const fleetDir = process.env.BENCH_FLEET_DIR ?? mkdtempSync(join(tmpdir(), 'fleetdeck-timeline-fleet-'));
  await cachedFleet(fleetDir, SIZES.s1000);
  const work = mkdtempSync(join(tmpdir(), 'fleetdeck-timeline-'));
  cpSync(join(fleetDir, 'data'), work, { recursive: true });
  const shell = await startShell(work);
  const browser = await launchChromium();
  try {
    // One untimed load: the shell's handlers loaded, its search index built (after the first frame).
    const warm = await newPage(browser, 1000);
    await firstPaint(warm, shell.url);
    await warm.close();
    if (flags.cpu) {
      const runs: Array<Map<string, number>> = [];
      for (let i = 0; i < RUNS; i++) {
        await quiet(shell.child.pid);
        runs.push(await countedLoad(browser, shell.url, shell.child.pid!));
      }
      const keys = new Set(runs.flatMap((r) => [...r.keys()]));
      const rows = [...keys].map((k) => [k, median(runs.map((r) => r.get(k) ?? 0))] as const).filter(([k, v]) => v >= 1 || k.startsWith('='));
      console.log(`CPU from before navigation to the frame, median of ${RUNS} loads (ms):`);
      for (const [k, v] of rows.sort((a, b) => Number(b[0].startsWith('=')) - Number(a[0].startsWith('=')) || b[1] - a[1])) console.log(`  ${v.toFixed(1).padStart(7)}  ${k}`);
      return;
    }
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      await quiet(shell.child.pid);
      const run = await tracedLoad(browser, shell.url, shell.events);
      runs.push(run);
      console.log(`run ${i + 1}: painted ${run.at.get('painted (bench)')?.toFixed(0)} ms; page main thread CPU ${run.cpu.toFixed(0)} ms, in tasks ${run.busy.toFixed(0)} ms`);
      if (flags.list) for (const [t, what] of run.list) console.log(`  ${t.toFixed(1).padStart(7)}  ${what}`);
    }
    console.log(`\nmilestones, ms from navigation (median of ${RUNS}; each run's in brackets):`);
    for (const m of MILESTONES) {
      const xs = runs.map((r) => r.at.get(m)).filter((x): x is number => x !== undefined);
      if (xs.length) console.log(`  ${median(xs).toFixed(0).padStart(5)}  ${m}  [${xs.map((x) => x.toFixed(0)).join(' ')}]`);
    }
    console.log(`  page main thread to the frame: CPU ${median(runs.map((r) => r.cpu)).toFixed(0)} ms, in tasks ${median(runs.map((r) => r.busy)).toFixed(0)} ms`);
  } finally {
    await browser.close();
    await stop(shell.child);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
