import { expect, test } from '@playwright/test';
import { fleetSuite } from './support/admin.js';

/**
 * An alert appears without clicking Refresh. The site is polled on a short
 * interval (set as an admin does, through `sites:edit`); a drive fails through the simulator's
 * control API; the scheduler's next poll refreshes the system, the alert engine raises the alert,
 * and the alert centre, already open, shows it. It needs the background polling scheduler.
 */
// The fleet polls as the shells do, at first hourly; the test then shortens the interval as an admin would.
const fleet = fleetSuite({ simulator: { sites: 1, systems: 1, seed: 'alerts-live' }, pollEverySeconds: 3600 });

test('an alert appears without clicking Refresh and opens its system', async ({ page }) => {
  test.setTimeout(180_000);
  const siteId = fleet().siteIds[0] as string;
  await fleet().runtime.handlers['sites:edit']({ site: siteId, patch: { intervalSeconds: 5 } });
  await page.goto(fleet().url);
  await page.getByTestId('open-alerts').click();
  await page.getByTestId('alert-filter-rule').selectOption('drive');

  const failed = fleet().simulator.control.failDrive({ site: 0 });
  const row = page.getByTestId('alert-row').filter({ hasText: `${failed.node}/${failed.name}` });
  // Nothing here clicks Refresh: only a poll can bring the alert.
  await expect(row).toHaveCount(1, { timeout: 120_000 });
  await expect(row).toHaveAttribute('data-state', 'open');
  await expect(page.getByTestId('open-alerts')).toHaveAccessibleName(/^Alerts: [1-9]\d* open$/);

  await row.getByTestId('alert-open-system').click();
  await expect(page.getByTestId('system-page')).toHaveAttribute('data-system', failed.system);
});
