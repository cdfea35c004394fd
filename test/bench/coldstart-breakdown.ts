/**
 * Diagnostic (not part of `npm run bench`): one cold start of the browser shell on a cached
 * 200-system data dir, broken down by phase: main's CPU over time, the page's navigation and
 * resource timings (each IPC call with its server time), long tasks, and the painted frame.
 *   npx tsx test/bench/coldstart-breakdown.ts DIR [--cpu-prof PROFDIR] [--tries N] [--root CHECKOUT] [--summary]
 * (`--root`: another built checkout to start, for before/after; `--summary`: one line per try)
 * Starts the bundled entry (out/bundle/shells/web.js), or out/main's where a checkout has no bundle.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support.js';

const args = process.argv.slice(2);
const dir = args[0] as string;
const profIdx = args.indexOf('--cpu-prof');
const profDir = profIdx >= 0 ? args[profIdx + 1] : undefined;
const triesIdx = args.indexOf('--tries');
const tries = triesIdx >= 0 ? Number(args[triesIdx + 1]) : 1;
const expect = Number(process.env.EXPECT ?? 200);
const rootIdx = args.indexOf('--root');
const root = rootIdx >= 0 ? (args[rootIdx + 1] as string) : ROOT;
const summary = args.includes('--summary');
const entry = ['out/bundle/shells/web.js', 'out/main/shells/web.js'].find((e) => existsSync(join(root, e))) as string;

function cpu(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'], headless: true });
for (let t = 0; t < tries; t++) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.addInitScript((exp: number) => {
    const w = window as unknown as { __lt: Array<[number, number]>; __painted?: number; __marks: Record<string, number> };
    w.__lt = [];
    w.__marks = {};
    new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
    const check = (): void => {
      if (!w.__marks.tree && document.querySelector('[data-testid="fleet-tree"]')) w.__marks.tree = performance.now();
      if (!w.__marks.totals && document.querySelector('[data-testid="fleet-totals"]')) w.__marks.totals = performance.now();
      const rows = document.querySelectorAll('[data-testid="overview-table"] .body [role="row"]').length;
      const systems = document.querySelectorAll('[data-testid="fleet-tree"] [data-testid^="tree-system-"]').length;
      if (rows && !w.__marks.rows) w.__marks.rows = performance.now();
      if (systems && !w.__marks.systems) w.__marks.systems = performance.now();
      if (w.__marks.tree && w.__marks.totals && (exp === 0 || (rows > 0 && systems > 0))) { setTimeout(() => (w.__painted = performance.now()), 0); return; }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, expect);
  const copy = mkdtempSync(join(tmpdir(), 'i17d-bd-'));
  if (expect) cpSync(dir, copy, { recursive: true });
  const t0 = performance.now();
  const nodeArgs = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
  const child = spawn(process.execPath, [...nodeArgs, entry, '--data-dir', expect ? copy : join(copy, 'x')], { cwd: root, env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const samples: Array<[number, number]> = [];
  const timer = setInterval(() => samples.push([Math.round(performance.now() - t0), cpu(child.pid!)]), 25);
  const url = await new Promise<string>((res) => { let out = ''; child.stdout!.setEncoding('utf8').on('data', (d: string) => { out += d; const m = /^(http:\/\/127\.0\.0\.1:\d+\/\S*)$/m.exec(out); if (m) res(m[1]!); }); });
  const serving = performance.now() - t0;
  const servingCpu = cpu(child.pid!);
  const navT = performance.now() - t0;
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => (window as unknown as { __painted?: number }).__painted !== undefined, undefined, { timeout: 120000, polling: 50 });
  const painted = performance.now() - t0;
  const paintedCpu = cpu(child.pid!);
  await page.keyboard.press('Control+k');
  await page.waitForSelector('[data-testid="command-palette"]', { timeout: 120000 });
  const answered = performance.now() - t0;
  const info = await page.evaluate(() => {
    const w = window as unknown as { __lt: Array<[number, number]>; __painted: number; __marks: Record<string, number> };
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const res = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({ name: r.name.replace(/^http:\/\/[^/]+/, '').replace(/token=[^&]+/, 'token=…'), start: Math.round(r.startTime), reqStart: Math.round(r.requestStart), respStart: Math.round(r.responseStart), end: Math.round(r.responseEnd), size: r.encodedBodySize }));
    const paints = performance.getEntriesByType('paint').map((p) => [p.name, Math.round(p.startTime)]);
    return { nav: { responseEnd: Math.round(nav.responseEnd), domInteractive: Math.round(nav.domInteractive), dcl: Math.round(nav.domContentLoadedEventEnd), load: Math.round(nav.loadEventEnd) }, res, paints, lt: w.__lt, pagePainted: Math.round(w.__painted), marks: Object.fromEntries(Object.entries(w.__marks).map(([k, v]) => [k, Math.round(v)])) };
  });
  await new Promise((r) => setTimeout(r, 1500));
  const after = cpu(child.pid!);
  clearInterval(timer);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  await page.close();
  rmSync(copy, { recursive: true, force: true });
  if (summary) {
    const calls = info.res.filter((r) => r.name.startsWith('/ipc/'));
    console.log(`${root === ROOT ? 'after ' : 'before'} serving ${Math.round(serving)} ms (main CPU ${servingCpu} ms) painted ${Math.round(painted)} ms (main CPU ${paintedCpu} ms) keypress ${Math.round(answered)} ms; main CPU serving→painted ${paintedCpu - servingCpu} ms, to painted+1.5 s ${after} ms; html ${info.nav.responseEnd} ms after navigation; first-frame calls answered by ${Math.max(...calls.slice(0, 7).map((c) => c.end))} ms`);
    continue;
  }
  console.log(JSON.stringify({ serving: Math.round(serving), servingCpu, navAt: Math.round(navT), painted: Math.round(painted), paintedCpu, answered: Math.round(answered), cpu1500after: after, ...info }, null, 1));
  // main CPU used between serving and painted, by 100 ms bucket
  const buckets: string[] = [];
  for (let i = 1; i < samples.length; i++) if (samples[i]![0] % 100 < 25) buckets.push(`${samples[i]![0]}:${samples[i]![1]}`);
  console.log('main cpu (wall ms:cpu ms):', buckets.join(' '));
}
await browser.close();
