/**
 * First paint at 1,000 systems, two builds side by side: each build's browser shell runs
 * as `npm start` runs it without Electron (`out/bundle/shells/web.js`, its own process, its own copy
 * of the cached 100 × 10 fleet kept in BENCH_FLEET_DIR), and page loads alternate between them, so a
 * change is measured against its base under the same load. Per build: the first paint (from
 * navigation to the frame showing the tree's system rows and the overview's rows, as `uiAtScale` takes
 * it), the page's main-thread CPU to that frame (thread ticks: comparable where wall time is not on a
 * loaded machine), when the first IPC call left and when the last answer the frame read arrived.
 * Each load is in a fresh profile; with --warm, each run also loads the page in a profile that loaded
 * it once before (its HTTP cache and V8 code cache hold the bundle, as a desk's window opened again),
 * and both figures are printed. Before each load both shells are let go quiet, so no load waits
 * behind the reads the previous page left in flight.
 *
 *   BENCH_FLEET_DIR=<dir> npx tsx test/bench/paint-ab.ts --a <base checkout> --b <changed checkout> [--runs 9] [--warm]
 *
 * Each checkout needs a build (`node bin/build.js` there); BENCH_FLEET_DIR keeps the cached fleet
 * between runs (made on first use). With only --a it measures one build.
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { cachedFleet } from './cached-fleet.js';
import { firstPaint, launchChromium, newPage, newProfile, quiet, SIZES, startShellProcess, timedFirstPaint, type PaintLoad } from './scale.js';
import { median, ms } from './support.js';

const { values: flags } = parseArgs({ options: { a: { type: 'string' }, b: { type: 'string' }, runs: { type: 'string' }, warm: { type: 'boolean' } } });
const RUNS = Number(flags.runs ?? 9);
const roots = [flags.a, flags.b].filter((r): r is string => !!r);
if (!roots.length) throw new Error('usage: paint-ab.ts --a ROOT [--b ROOT] [--runs N]');

interface Shell {
  root: string;
  child: ChildProcess;
  url: string;
  work: string;
}

/** `root`'s shell in a process of its own, on a working copy of the cached fleet `data`. */
async function startShell(root: string, data: string): Promise<Shell> {
  const work = mkdtempSync(join(tmpdir(), 'fleetdeck-paint-ab-'));
  cpSync(data, work, { recursive: true });
  const { child, url } = startShellProcess(work, root);
  return { root, child, url: await url, work };
}

async function main(): Promise<void> {
  const fleetDir = process.env.BENCH_FLEET_DIR ?? mkdtempSync(join(tmpdir(), 'fleetdeck-paint-ab-fleet-'));
  await cachedFleet(fleetDir, SIZES.s1000);
  const shells: Shell[] = [];
  for (const root of roots) shells.push(await startShell(root, join(fleetDir, 'data')));
  const browser = await launchChromium();
  const kinds = flags.warm ? (['fresh', 'warm'] as const) : (['fresh'] as const);
  type Kind = (typeof kinds)[number];
  const loads = shells.map(() => ({ fresh: [] as PaintLoad[], warm: [] as PaintLoad[] }));
  /** One timed load: in a fresh profile, or in one that loaded the page once before. */
  const timed = async (b: Browser, shell: Shell, kind: Kind): Promise<PaintLoad> => {
    const profile = kind === 'warm' ? await newProfile(b) : undefined;
    try {
      if (profile) {
        const first = await newPage(profile, 1000);
        await firstPaint(first, shell.url);
        await first.close();
      }
      await Promise.all(shells.map((s) => quiet(s.child.pid)));
      const page = await newPage(profile ?? b, 1000);
      const l = await timedFirstPaint(page, shell.url);
      await page.close();
      return l;
    } finally {
      await profile?.close();
    }
  };
  try {
    // One untimed load each: both shells' code and the OS file cache warm, as on a desk that ran it before.
    for (const s of shells) {
      const page = await newPage(browser, 1000);
      await firstPaint(page, s.url);
      await page.close();
    }
    for (let i = 0; i < RUNS; i++) {
      for (let j = 0; j < shells.length; j++) {
        // Alternate which build goes first, so neither always follows the other's load.
        const k = i % 2 === 0 ? j : shells.length - 1 - j;
        for (const kind of kinds) {
          const l = await timed(browser, shells[k]!, kind);
          loads[k]![kind].push(l);
          console.log(`${k === 0 ? 'A' : 'B'} run ${i + 1} ${kind}: paint ${ms(l.paint)}, page CPU ${ms(l.cpu)}, first call ${ms(l.firstCall)}, last answer ${ms(l.lastAnswer)}`);
        }
      }
    }
  } finally {
    await browser.close();
    for (const s of shells) {
      s.child.kill('SIGTERM');
      rmSync(s.work, { recursive: true, force: true });
    }
  }
  for (const kind of kinds) {
    shells.forEach((s, k) => {
      const l = loads[k]![kind];
      const pick = (f: (x: PaintLoad) => number): string => `${ms(median(l.map(f)))}`;
      console.log(
        `${k === 0 ? 'A' : 'B'} ${s.root} (${kind} profile): first paint median ${pick((x) => x.paint)} (range ${ms(Math.min(...l.map((x) => x.paint)))}–${ms(Math.max(...l.map((x) => x.paint)))}), page main-thread CPU ${pick((x) => x.cpu)}, first call ${pick((x) => x.firstCall)}, last answer ${pick((x) => x.lastAnswer)}`,
      );
    });
  }
}

await main();
