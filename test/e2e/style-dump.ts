/**
 * Dumps what every view looks like as data: each element's computed style (the properties that make
 * a layout) and each view's accessibility tree, on the demo fleet. Two dumps taken before and after
 * a markup/CSS change are compared with `diff`: a refactor of styles must leave both unchanged.
 * Builds nothing (build the renderer first). Run on demand:
 *
 *   npx tsx test/e2e/style-dump.ts OUT.json
 */
import { writeFileSync } from 'node:fs';
import { chromium, expect, type Page } from '@playwright/test';
import { startFleet } from './support/fleet.js';
import { openSystem } from './support/ui.js';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const PROPS = ['display', 'position', 'grid-template-columns', 'flex-direction', 'flex-wrap', 'align-items', 'justify-content', 'gap', 'margin', 'padding', 'border', 'border-bottom', 'border-radius', 'background-color', 'color', 'font-size', 'font-weight', 'font-family', 'text-align', 'white-space', 'overflow-wrap', 'overflow', 'width', 'min-width', 'max-height', 'border-collapse', 'opacity', 'vertical-align', 'line-height'];

async function settle(page: Page): Promise<void> {
  await expect(page.getByText(/reading cached data…|Loading…/)).toHaveCount(0);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function dump(page: Page): Promise<{ styles: string[]; aria: string }> {
  await settle(page);
  // A string, not a function: tsx would wrap a function's inner helpers in a `__name` the page lacks.
  const styles = (await page.evaluate(`(() => {
    const props = ${JSON.stringify(PROPS)};
    const out = [];
    const walk = (el, depth) => {
      const cs = getComputedStyle(el);
      const id = el.getAttribute('data-testid');
      out.push('  '.repeat(depth) + el.tagName.toLowerCase() + (id ? '[' + id + ']' : '') + ' ' + props.map((p) => p + ':' + cs.getPropertyValue(p)).join(';'));
      for (const c of el.children) walk(c, depth + 1);
    };
    walk(document.body, 0);
    return out;
  })()`)) as string[];
  // Ages and times move between runs; the tree's roles and names otherwise must not.
  const aria = (await page.locator('body').ariaSnapshot()).replace(/\d+/g, '#');
  return { styles, aria };
}

async function main(): Promise<void> {
  const outFile = process.argv[2] ?? 'style-dump.json';
  const fleet = await startFleet({ simulator: { demo: true } });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const views: Record<string, { styles: string[]; aria: string }> = {};
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', deviceScaleFactor: 1 });
    await page.goto(fleet.url);
    await expect(page.getByTestId('overview-table')).toHaveAttribute('data-row-count', '9');
    views.overview = await dump(page);
    for (const view of ['sites', 'reports', 'bulk', 'alerts', 'actions', 'capacity', 'drift', 'compare']) {
      await page.getByTestId(`open-${view}`).click();
      views[view] = await dump(page);
    }
    const siteId = fleet.siteIds[0] as string;
    const system = fleet.simulator.manifest.sites[0]?.systems[1] as string;
    await openSystem(page, siteId, system);
    const bar = page.getByRole('navigation', { name: `Areas of ${system}` });
    const buttons = bar.getByRole('button');
    for (let i = 0; i < (await buttons.count()); i++) {
      await buttons.nth(i).click();
      views[`area ${(await buttons.nth(i).innerText()).trim()}`] = await dump(page);
    }
    await bar.getByRole('button', { name: 'Hardware', exact: true }).click();
    await page.getByTestId('drives-table').getByRole('row').filter({ hasText: /Warning|Degraded/ }).first().click();
    await expect(page.getByRole('region', { name: 'SMART' }).getByTestId('smart-view')).toBeVisible();
    views['drive detail'] = await dump(page);
    // A NIC's addresses and a ping from it (PingTool's results table).
    await bar.getByRole('button', { name: 'Hardware', exact: true }).click();
    await page.getByTestId('hw-kind-nics').click();
    await page.getByTestId('nics-table').getByRole('row').filter({ hasText: 'eth2' }).first().click();
    const own = (await page.getByTestId('nic-ips').locator('tbody tr td').first().innerText()).trim();
    await page.getByTestId('ping-address').fill(own);
    await page.getByTestId('ping-run').click();
    await expect(page.getByTestId('ping-results').locator('tbody tr').first()).toHaveAttribute('data-ok', 'true');
    views['nic detail and ping'] = await dump(page);
    // A report generated and exported (the export's file table).
    await page.getByTestId('open-reports').click();
    await page.getByTestId('report-generate').click();
    await expect(page.getByTestId('report-export')).toBeVisible({ timeout: 60_000 });
    await Promise.all([page.waitForEvent('download'), page.getByTestId('export-submit').click()]);
    await expect(page.getByTestId('export-result')).toBeVisible({ timeout: 60_000 });
    views['report exported'] = await dump(page);
    writeFileSync(outFile, JSON.stringify(views, null, 1));
    process.stdout.write(`${Object.keys(views).length} views dumped to ${outFile}\n`);
  } finally {
    await browser.close();
    await fleet.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`style-dump: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
