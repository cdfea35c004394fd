import { expect, test } from '@playwright/test';
import { startFleet, type E2EFleet } from './support/fleet.js';
import { openSystem } from './support/ui.js';

/**
 * A system that stamps local time without a zone (UTC−5), names its notification levels and pages
 * its lists (dialects local-time, level-names, paged-lists): the system page says its clock differs
 * and which lists were read only in part, and its notifications show their levels by name.
 */
let fleet: E2EFleet;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  fleet = await startFleet({ simulator: { sites: 1, systems: 1, dialects: ['local-time', 'level-names', 'paged-lists'] } });
});
test.afterAll(async () => {
  await fleet?.close();
});

test('the system page says its clock differs and which lists are incomplete; levels sent as names are shown', async ({ page }) => {
  const siteId = fleet.siteIds[0] as string;
  const system = fleet.simulator.manifest.sites[0]!.systems[0]!;
  await page.goto(fleet.url);
  await openSystem(page, siteId, system, 'Notifications');
  await expect(page.getByTestId('clock-notice')).toContainText('clock differs by \u22125 h');
  await expect(page.getByTestId('truncated-notice')).toContainText(/GET \/hosts\/list incomplete: 3 of \d+/);
  const table = page.getByTestId('notifications-table');
  await expect(table.getByText('Information').first()).toBeVisible();
  await expect(table.getByText('not understood')).toHaveCount(0);
});
