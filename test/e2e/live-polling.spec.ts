import { expect, test } from '@playwright/test';
import { fleetSuite } from './support/admin.js';

/**
 * The overview and the tree follow the background poll. A drive fails on the
 * system (through the simulator's control API) and shows up without anyone clicking Refresh.
 */
const POLL_SECONDS = 2;
const fleet = fleetSuite({ simulator: { sites: 1, systems: 2, seed: 'live-polling' }, pollEverySeconds: POLL_SECONDS });

test('a drive failing on a system shows in the overview and the tree with no click', async ({ page }) => {
  const f = fleet();
  const siteId = f.siteIds[0] as string;
  await page.goto(f.url);
  const drives = page.getByTestId('overview-drives');
  await expect(page.getByTestId('fleet-totals')).toBeVisible();
  const failed = f.simulator.control.failDrive({ site: 0 });
  await expect(drives.getByRole('row').filter({ hasText: failed.name }).filter({ hasText: 'Failed' })).toBeVisible({ timeout: 60_000 });
  // The system's health in the tree went critical too (a failed drive degrades its pool).
  await expect(page.getByTestId(`tree-system-${siteId}-${failed.system}`).getByTestId('tree-health').first()).toHaveAttribute('data-level', 'critical', { timeout: 60_000 });
  // Nothing was clicked: no refresh ran from this window.
  await expect(page.getByTestId('refresh-fleet')).toBeEnabled();
});
