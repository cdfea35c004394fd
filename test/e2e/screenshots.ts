/**
 * Takes the README's screenshots from the real app on the demo fleet, as `npm start -- --demo` opens
 * it (3 sites × 3 systems, one degrading drive, the "What if…" panel): the browser shell in the
 * system's Chromium. Builds nothing (build the renderer first). The PNGs are quantised with
 * pngquant where it is installed (a third of the size, no visible change). Run on demand:
 *
 *   npx tsx test/e2e/screenshots.ts [outDir]     (default docs/screenshots)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, expect, type Page } from '@playwright/test';
import { startDemoFleet } from '../../main/demo.js';
import { subscribeEvents } from '../../main/shells/launch.js';
import { startBrowserShell } from '../../main/shells/browser-shell.js';
import { ROOT } from './support/fleet.js';
import { openSystem } from './support/ui.js';

const outDir = resolve(process.argv[2] ?? join(ROOT, 'docs', 'screenshots'));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The demo fleet served by the browser shell, with the sites' ids in the simulator manifest's order. */
async function startDemo() {
  const demo = await startDemoFleet();
  await demo.runtime.fleet.refresh({ force: true });
  const shell = await startBrowserShell({ handlers: demo.runtime.handlers, rendererDir: join(ROOT, 'out', 'renderer'), subscribe: (emit) => subscribeEvents(demo.runtime, undefined, emit) });
  const byName = new Map(demo.runtime.sites.list().map((s) => [s.name, s.id]));
  return {
    url: shell.url,
    simulator: demo.simulator,
    siteIds: demo.simulator.manifest.sites.map((s) => byName.get(s.name) ?? ''),
    close: async () => {
      await shell.close();
      await demo.close();
    },
  };
}

/** Quantises every PNG in `dir` in place with pngquant, when it is installed; says so when not. */
function shrink(dir: string): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.png')).map((f) => join(dir, f));
  const run = spawnSync('pngquant', ['--quality', '80-95', '--speed', '1', '--force', '--ext', '.png', '--', ...files], { stdio: 'inherit' });
  if (run.error) process.stdout.write('pngquant is not installed: the screenshots are kept as captured (apt-get install pngquant makes them a third of the size)\n');
  for (const f of files) process.stdout.write(`${f} ${Math.round(statSync(f).size / 1024)} KiB\n`);
}

async function settle(page: Page): Promise<void> {
  // The event stream is one long-lived fetch, so the network is never idle: wait for no panel to be
  // loading, the fonts, the charts' short animation, and a frame.
  await expect(page.getByText(/reading cached data…|Loading…/)).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(800);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const fleet = await startDemo();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', deviceScaleFactor: 1 });
    await page.goto(fleet.url);
    await expect(page.getByTestId('overview-table')).toHaveAttribute('data-row-count', '9');
    await settle(page);
    await page.screenshot({ path: join(outDir, 'fleet-overview.png') });

    // The demo's "What if…" panel, a drive failed on the first site's first system.
    await page.getByTestId('whatif-open').click();
    const whatIf = page.getByTestId('whatif-panel');
    await whatIf.getByTestId('whatif-site').selectOption(fleet.siteIds[0] as string);
    await whatIf.getByTestId('whatif-fail-drive').click();
    await expect(whatIf.getByTestId('whatif-outcome')).toContainText('(simulated)');
    await settle(page);
    await page.screenshot({ path: join(outDir, 'what-if.png') });
    await page.keyboard.press('Escape');
    await expect(whatIf).toHaveCount(0);

    // The demo's degrading drive is on the second system of the first site.
    const siteId = fleet.siteIds[0] as string;
    const system = fleet.simulator.manifest.sites[0]?.systems[1] as string;
    await openSystem(page, siteId, system, 'Hardware');
    await page.getByTestId('drives-table').getByRole('row').filter({ hasText: /Warning|Degraded/ }).first().click();
    const smart = page.getByRole('region', { name: 'SMART' });
    await expect(smart.getByTestId('smart-view')).toBeVisible();
    await smart.scrollIntoViewIfNeeded();
    await settle(page);
    await page.screenshot({ path: join(outDir, 'drive-smart.png') });

    await page.getByRole('navigation', { name: `Areas of ${system}` }).getByRole('button', { name: 'Monitoring', exact: true }).click();
    await expect(page.getByTestId('chart-iops')).toBeVisible();
    await settle(page);
    await page.screenshot({ path: join(outDir, 'monitoring-chart.png') });

    // A bulk change: a user created on the first system of each site, the second site refusing.
    await page.getByTestId('open-bulk').click();
    const bulk = page.getByTestId('bulk-view');
    await bulk.getByTestId('bulk-op').selectOption('POST /users/create');
    for (const [i, id] of fleet.siteIds.entries()) await bulk.getByTestId(`bulk-system-${id}-${fleet.simulator.manifest.sites[i]?.systems[0] ?? ''}`).check();
    const form = bulk.getByTestId('bulk-form');
    await form.getByTestId('field-body.Name').fill('ops-oncall');
    await form.getByTestId('field-body.Password').fill('Demo-Password-2026');
    await form.getByTestId('field-body.Role').fill('Viewer');
    await form.getByTestId('field-body.Email').fill('oncall@example.com');
    await form.getByTestId('op-submit').click();
    await expect(bulk.getByTestId('bulk-preview')).toBeVisible();
    await bulk.getByTestId('bulk-preview').scrollIntoViewIfNeeded();
    await settle(page);
    await page.screenshot({ path: join(outDir, 'bulk-preview.png') });
    fleet.simulator.control.setFaults(1, { errorRate: 1, errorMode: 'status' });
    await bulk.getByTestId('bulk-start').click();
    const job = bulk.getByTestId('bulk-job').first();
    await expect(job).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
    fleet.simulator.control.setFaults(1, { errorRate: 0 });
    await job.scrollIntoViewIfNeeded();
    await settle(page);
    await page.screenshot({ path: join(outDir, 'bulk-outcome.png') });
    // The fleet views: capacity planning, versions and firmware, two systems compared.
    await page.getByTestId('open-capacity').click();
    await expect(page.getByTestId('plan-table')).not.toHaveAttribute('data-row-count', '0');
    await settle(page);
    await page.screenshot({ path: join(outDir, 'capacity-planning.png') });

    await page.getByTestId('open-drift').click();
    await expect(page.getByTestId('drift-row').first()).toBeVisible();
    await page.getByTestId('drift-row').filter({ has: page.locator('[data-outlier="true"]') }).first().locator('[data-outlier="true"]').first().click();
    await settle(page);
    await page.screenshot({ path: join(outDir, 'version-drift.png') });

    await page.getByTestId('open-compare').click();
    const [first, second] = fleet.simulator.manifest.sites[0]?.systems ?? [];
    await page.getByTestId(`compare-pick-${first}`).check();
    await page.getByTestId(`compare-pick-${second}`).check();
    await expect(page.getByTestId('compare-line').first()).toBeVisible();
    await page.getByTestId('compare-only').check();
    await settle(page);
    await page.screenshot({ path: join(outDir, 'compare-configuration.png') });
    shrink(outDir);
    process.stdout.write(`screenshots written to ${outDir}\n`);
  } finally {
    await browser.close();
    await fleet.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`screenshots: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
