/**
 * The browser's own work before the first frame at 1,000 systems: a Chromium trace
 * (devtools.timeline categories) of one page load each run, from navigation to the painted frame (as
 * `first-paint.ts` takes it), the page's main thread summed by event (self time: parsing HTML, style
 * sheets, scripts' compile and run, style recalculation, layout, paint, GC) and its longest events.
 * Writes the last run's trace to TRACE_OUT when set (open it in Chrome's DevTools, Performance).
 *
 *   BENCH_FLEET_DIR=... npx tsx test/bench/paint-trace.ts [--runs N]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBrowserShell } from '../../main/shells/browser-shell.js';
import { openCachedCopy } from './cached-fleet.js';
import { firstPaint, launchChromium, newPage, SIZES } from './scale.js';
import { ms, ROOT } from './support.js';

const { values: flags } = parseArgs({ options: { runs: { type: 'string' } } });
const RUNS = Number(flags.runs ?? 3);

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'v8.execute',
  'disabled-by-default-v8.gc',
  '__metadata',
  // TRACE_CATEGORIES=blink,... adds categories (Blink's own events: finer, and slower to record).
  ...(process.env.TRACE_CATEGORIES?.split(',') ?? []),
];

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event, µs. */
  tdur?: number;
  tts?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; beginData?: Record<string, unknown> };
}

interface Span {
  name: string;
  start: number;
  end: number;
  /** Thread (CPU) time, µs: what a loaded machine does not inflate. */
  cpu: number;
  detail: string;
}

/** The complete and begin/end events of one thread as spans, in start order (µs). */
function spansOf(events: readonly TraceEvent[]): Span[] {
  const spans: Span[] = [];
  const open = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const detail = String(e.args?.data?.url ?? e.args?.beginData?.url ?? e.args?.data?.functionName ?? '').replace(/^.*\//, '');
    if (e.ph === 'X') spans.push({ name: e.name, start: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur ?? e.dur ?? 0, detail });
    else if (e.ph === 'B') open.set(e.name, [...(open.get(e.name) ?? []), e]);
    else if (e.ph === 'E') {
      const b = open.get(e.name)?.pop();
      if (b) spans.push({ name: e.name, start: b.ts, end: e.ts, cpu: b.tts !== undefined && e.tts !== undefined ? e.tts - b.tts : e.ts - b.ts, detail: String(b.args?.beginData?.url ?? '').replace(/^.*\//, '') });
    }
  }
  return spans.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** Self time per event name (ms) over the spans in [from, to): each span's time less its children's. */
function selfTimes(spans: readonly Span[], from: number, to: number): { self: Map<string, number>; top: Span[] } {
  const self = new Map<string, number>();
  const within = spans.filter((s) => s.start >= from && s.start < to && s.end > s.start);
  const stack: Array<{ span: Span; children: number }> = [];
  const close = (until: number): void => {
    while (stack.length && stack.at(-1)!.span.end <= until) {
      const { span, children } = stack.pop()!;
      const own = Math.max(0, span.cpu - children);
      self.set(span.name, (self.get(span.name) ?? 0) + own / 1000);
      if (stack.length) stack.at(-1)!.children += span.cpu;
    }
  };
  for (const s of within) {
    close(s.start);
    stack.push({ span: s, children: 0 });
  }
  close(Infinity);
  const top = within.filter((s) => !['RunTask', 'ThreadControllerImpl::RunTask'].includes(s.name)).sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, 25);
  return { self, top };
}

/** The main thread's self CPU time grouped by kind of work: the first group whose pattern matches an event's name. */
const GROUPS: Array<[string, RegExp]> = [
  ['GC', /GC|Scavenge|MinorGC|MajorGC/],
  ['script compile', /compile|Compile|parseOnBackground|CacheScript|v8.produceCache|v8.deserialize|DeserializeContext/],
  ['script run', /FunctionCall|EvaluateScript|evaluateModule|RunMicrotasks|callFunction|V8\.|v8\.|TimerFire|FireAnimationFrame|EventDispatch|AsyncTask|ResizeObserver/],
  ['HTML parse', /ParseHTML|HTMLDocumentParser/],
  ['style', /Style|CSS|UpdateLayoutTree/],
  ['layout', /Layout|layout|InlineNode|Shape/],
  ['paint, commit', /Paint|Commit|Layerize|Composit|Raster|UpdateLifecycle|BeginMainFrame/],
  ['loading', /Resource|URLLoader|DocumentLoader|Navigation|Loader|Frame::|Document::|CreateContext|ResponseBody/],
  ['task overhead, other', /./],
];

async function main(): Promise<void> {
  const grouped = new Map<string, number[]>();
  const { rt, close } = await openCachedCopy(SIZES.s1000, 'trace');
  const shell = await startBrowserShell({ handlers: rt.handlers, rendererDir: process.env.BENCH_RENDERER_DIR ?? join(ROOT, 'out/renderer'), subscribe: () => () => undefined });
  const browser = await launchChromium();
  const systems = rt.fleet.status().length;
  try {
    for (let i = 0; i < RUNS; i++) {
      const page = await newPage(browser, systems);
      // A page of the shell's own origin first, so the traced navigation stays in this renderer process.
      await page.goto(new URL('/favicon.ico', shell.url).href, { waitUntil: 'commit' }).catch(() => undefined);
      const cdp = await browser.newBrowserCDPSession();
      const events: TraceEvent[] = [];
      cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as TraceEvent[])));
      const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReportEvents' });
      const paint = await firstPaint(page, shell.url);
      await cdp.send('Tracing.end');
      await done;
      await cdp.detach();
      const nav = events.find((e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').startsWith(new URL(shell.url).origin + '/?'));
      if (!nav) throw new Error('the trace has no navigationStart for the shell page');
      const main = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid);
      const to = nav.ts + paint * 1000;
      const { self, top } = selfTimes(spansOf(main), nav.ts, to);
      const tasks = spansOf(main).filter((s) => s.name === 'RunTask' && s.start >= nav.ts && s.start < to);
      const busy = tasks.reduce((a, s) => a + Math.min(s.end, to) - s.start, 0) / 1000;
      console.log(`\nrun ${i + 1}: paint ${ms(paint)}; main thread in tasks to the frame ${ms(busy)}`);
      for (const [name, t] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30)) if (t >= 0.5) console.log(`  ${t.toFixed(1).padStart(7)} ms  ${name}`);
      const byGroup = new Map<string, number>();
      for (const [name, t] of self) {
        const g = GROUPS.find(([, re]) => re.test(name))![0];
        byGroup.set(g, (byGroup.get(g) ?? 0) + t);
      }
      console.log(`  by kind: ${GROUPS.map(([g]) => `${g} ${(byGroup.get(g) ?? 0).toFixed(1)}`).join(', ')}`);
      for (const [g] of GROUPS) grouped.set(g, [...(grouped.get(g) ?? []), byGroup.get(g) ?? 0]);
      console.log('  longest events (start from navigation, duration):');
      for (const s of top) console.log(`    ${((s.start - nav.ts) / 1000).toFixed(1).padStart(6)} +${((s.end - s.start) / 1000).toFixed(1).padStart(6)} ms  ${s.name} ${s.detail}`);
      // Each rendering step of the page before the frame: forced ones inside script, and the frames'.
      const steps = spansOf(main).filter((x) => /^(UpdateLayoutTree|Layout|PrePaint|Paint|Layerize|Commit|ParseAuthorStyleSheet)$/.test(x.name) && x.start >= nav.ts && x.start < to && x.cpu >= 300);
      // With TRACE_CATEGORIES=blink: each frame's whole update (style, layout, resize observers' callbacks, paint), CPU.
      const frames = spansOf(main).filter((x) => x.name === 'WebFrameWidgetImpl::UpdateLifecycle' && x.start >= nav.ts && x.start < to && x.cpu >= 1000);
      const observers = spansOf(main).filter((x) => x.name === 'LocalFrameView::NotifyResizeObservers' && x.start >= nav.ts && x.start < to && x.cpu >= 300);
      if (frames.length) console.log(`  frames of 1 ms or more (start, CPU): ${frames.map((x) => `${((x.start - nav.ts) / 1000).toFixed(0)}+${(x.cpu / 1000).toFixed(1)}`).join(', ')}; resize observers in them ${observers.map((x) => (x.cpu / 1000).toFixed(1)).join(', ')}`);
      console.log(`  rendering steps of 0.3 ms or more (start from navigation, CPU): ${steps.map((x) => `${x.name} ${((x.start - nav.ts) / 1000).toFixed(0)}+${(x.cpu / 1000).toFixed(1)}`).join(', ')}`);
      if (i === RUNS - 1 && process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify({ traceEvents: events }));
      await page.close();
    }
    const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const total = [...grouped.values()].reduce((a, xs) => a + med(xs), 0);
    console.log(`\nmain-thread CPU to the frame by kind, median of ${RUNS} (sum ${total.toFixed(1)} ms):`);
    for (const [g, xs] of grouped) console.log(`  ${med(xs).toFixed(1).padStart(7)} ms  ${g}`);
  } finally {
    await browser.close();
    await shell.close();
    await close();
  }
}

await main();
