import { join } from 'node:path';
import { startBrowserShell } from '../../main/shells/browser-shell.js';
import { openCachedCopy } from './cached-fleet.js';
import { firstPaint, launchChromium, newPage, SIZES } from './scale.js';
import { ROOT } from './support.js';

const { rt, close } = await openCachedCopy(SIZES.s1000, 'fx');
const shell = await startBrowserShell({ handlers: rt.handlers, rendererDir: process.env.BENCH_RENDERER_DIR ?? join(ROOT, 'out/renderer'), subscribe: () => () => undefined });
const browser = await launchChromium();
try {
  for (let i = 0; i < 2; i++) {
    const page = await newPage(browser, rt.fleet.status().length);
    const paint = await firstPaint(page, shell.url);
    const r = await page.evaluate((p) => {
      const fx = (globalThis as unknown as { __fx: number[] }).__fx;
      const q = (s: string) => document.querySelectorAll(s).length;
      let nodes = 0;
      const w = document.createTreeWalker(document.body);
      while (w.nextNode()) nodes++;
      const by = new Map<string, number>();
      for (const [t, s] of (globalThis as unknown as { __fxs?: Array<[number, string]> }).__fxs ?? []) if (t <= p) by.set(s, (by.get(s) ?? 0) + 1);
      const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([s, n]) => `${n}  ${s}`).join('\n');
      return { top, effects: fx.filter((t) => t <= p).length, rows: q('[data-testid="overview-table"] [role="row"]'), cells: q('[data-testid="overview-table"] [role="gridcell"]'), tree: q('[role="treeitem"]'), nodes };
    }, paint);
    console.log(`paint ${paint.toFixed(0)} ms: effects created to the frame ${r.effects}; overview rows ${r.rows} cells ${r.cells}; tree items ${r.tree}; DOM nodes in body now ${r.nodes}`);
    if (i === 1) console.log(r.top);
    await page.close();
  }
} finally {
  await browser.close();
  await shell.close();
  await close();
}
