import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { fleetSuite } from './support/admin.js';

/**
 * In the browser shell every export is a download (main has no dialog there and takes no path
 * from the window): the fleet views' tables, a report as one ZIP, and the action log.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 2, seed: 'e2e-exports' } });

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string; path: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await d.path();
  return { name: d.suggestedFilename(), text: readFileSync(path, 'latin1'), path };
}

test('versions, capacity and compare tables download as CSV or JSON', async ({ page }) => {
  const f = fleet();
  const [a, b] = f.simulator.manifest.sites[0]?.systems as [string, string];
  await page.goto(f.url);

  await page.getByTestId('open-capacity').click();
  await expect(page.getByTestId('plan-table')).toBeVisible({ timeout: 30_000 });
  const plan = await download(page, () => page.getByTestId('plan-export-submit').click());
  expect(plan.name).toMatch(/^fleetdeck-capacity-planning-.*\.csv$/);
  expect(plan.text).toMatch(/^Site,System,Pool,/);

  await page.getByTestId('open-drift').click();
  await expect(page.getByTestId('drift-row').first()).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('drift-export-format-json').check();
  const drift = await download(page, () => page.getByTestId('drift-export-submit').click());
  expect(drift.name).toMatch(/\.json$/);
  expect(JSON.parse(drift.text)).toMatchObject({ rows: expect.arrayContaining([expect.any(Object)]) });
  await expect(page.getByTestId('drift-export-done')).toContainText(`Downloaded ${drift.name}`);

  await page.getByTestId('open-compare').click();
  await page.getByTestId(`compare-pick-${a}`).check();
  await page.getByTestId(`compare-pick-${b}`).check();
  await expect(page.getByTestId('compare-line').first()).toBeVisible({ timeout: 30_000 });
  const compare = await download(page, () => page.getByTestId('compare-export-submit').click());
  expect(compare.name).toMatch(/\.csv$/);
  expect(compare.text).toContain(`${a}`);
});

test('a report downloads as one ZIP of its folder with the manifest; the action log as JSON', async ({ page }) => {
  await page.goto(fleet().url);
  await page.getByTestId('open-reports').click();
  await page.getByTestId('report-generate').click();
  await expect(page.getByTestId('report-export')).toBeVisible({ timeout: 60_000 });
  const zip = await download(page, () => page.getByTestId('export-submit').click());
  expect(zip.name).toMatch(/^fleetdeck-report-\d+-.*\.zip$/);
  const listing = execFileSync('unzip', ['-Z1', zip.path], { encoding: 'utf8' }).trim().split('\n');
  const folder = zip.name.replace(/\.zip$/, '');
  expect(listing).toEqual(expect.arrayContaining([`${folder}/manifest.json`, `${folder}/report.pdf`, `${folder}/report.html`, `${folder}/report.json`]));
  await expect(page.getByTestId('export-result')).toContainText(`Downloaded ${zip.name}`);

  await page.getByTestId('open-actions').click();
  const log = await download(page, () => page.getByTestId('action-export-json').click());
  expect(log.name).toMatch(/^fleetdeck-actions-.*\.json$/);
});
