import { expect, test } from '@playwright/test';
import { fleetSuite } from './support/admin.js';
import { openSystem } from './support/ui.js';

/**
 * A system its site stops listing (dialect `unlisted-system`) stays in the tree and opens, read-only,
 * saying since when it is not listed and the list's message.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 3, seed: 'e2e-unlisted' } });

test('a system the site no longer lists stays in the tree and its page says since when and why', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems.at(-1) as string;
  await page.goto(fleet().url);
  const item = page.getByTestId(`tree-system-${siteId}-${system}`);
  await expect(item).toBeVisible();
  fleet().simulator.control.setDialects(['unlisted-system']);
  await page.getByTestId('refresh-fleet').click();
  // The system stays in the tree, marked as no longer listed.
  await expect(item).toHaveAccessibleName(/not listed by the site/, { timeout: 30_000 });
  await expect(item.locator('[data-state="unlisted"]')).toBeVisible();
  await openSystem(page, siteId, system);
  const banner = page.getByTestId('read-only-banner');
  await expect(banner).toContainText('the site no longer lists this system');
  await expect(banner).toContainText(/not listed by the site since \S+; the list says: System '.+' is not listed: its relay connection is down\./);
  fleet().simulator.control.setDialects([]);
});
