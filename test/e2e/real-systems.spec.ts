import { expect, test } from '@playwright/test';
import { startFleet, type E2EFleet } from './support/fleet.js';
import { openSystem } from './support/ui.js';

/**
 * A site as real systems present themselves where the simulator's default reading is kinder: its
 * self-signed management certificate expired a year ago (dialect expired-cert). Pinned, it is
 * trusted and the system is usable; the tree and the site manager say it expired. A long node
 * utility shows its elapsed time and can be cancelled, which leaves its outcome unknown.
 */
let fleet: E2EFleet;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  fleet = await startFleet({ simulator: { sites: 1, systems: 1, tls: true, dialects: ['expired-cert'] } });
});
test.afterAll(async () => {
  await fleet?.close();
});

const siteId = (): string => fleet.siteIds[0] as string;
const system = (): string => fleet.simulator.manifest.sites[0]!.systems[0]!;

test('an expired pinned certificate is trusted, the system is usable, and the tree and site manager say it expired', async ({ page }) => {
  await page.goto(fleet.url);
  const pill = page.getByTestId(`tree-cert-expired-${siteId()}`);
  await expect(pill).toHaveText('cert expired');
  await expect(pill).toHaveAttribute('title', /^Certificate expired since \d{4}-\d\d-\d\d \d\d:\d\d UTC: still trusted by its pinned fingerprint$/);
  await openSystem(page, siteId(), system(), 'Hardware');
  await expect(page.getByTestId('drives-table')).toBeVisible();
  await expect(page.getByTestId('read-only-banner')).toHaveCount(0);
  await page.getByTestId('open-sites').click();
  await expect(page.getByTestId(`site-notice-certificate-expired-${siteId()}`)).toContainText('certificate expired since');
  await expect(page.getByTestId(`site-notice-certificate-expired-${siteId()}`)).toContainText('still trusted by its pinned fingerprint');
});

test('a long node utility shows how long it has run and can be cancelled, its outcome then unknown', async ({ page }) => {
  await page.goto(fleet.url);
  await openSystem(page, siteId(), system(), 'Hardware');
  const runner = page.getByRole('region', { name: 'Node utilities' });
  await runner.getByLabel('Utility').fill('sleep');
  await runner.getByLabel('Arguments').fill('40');
  await runner.getByLabel('Timeout (s)').fill('60');
  await runner.getByTestId('utility-run').click();
  await expect(runner.getByTestId('utility-status')).toContainText('(up to 1 min 00 s)');
  // Past the ordinary request timeout of 15 s would take too long here; two ticks show it counts.
  await expect(runner.getByTestId('utility-status-elapsed')).toHaveText(/^Running for [2-9] s$/);
  await runner.getByTestId('utility-status-cancel').click();
  await expect(runner.getByTestId('utility-output')).toContainText('was cancelled after it was sent; it may or may not have happened');
  await expect(runner.getByTestId('utility-status')).toHaveCount(0);
  const last = fleet.runtime.actionLog.list({ siteId: siteId() }).at(-1);
  expect(last).toMatchObject({ operation: 'GET /nodes/utils/run', result: 'unknown' });
});
