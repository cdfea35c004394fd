import { expect, test } from '@playwright/test';
import { fleetSuite } from './support/admin.js';
import { openSystem } from './support/ui.js';

/**
 * The tree and the system header show health, word and colour, and show the
 * connection only when the system is not connected.
 */
const fleet = fleetSuite({ simulator: { demo: true } });

test('a system in warning reads warning in the tree and the header, not a green ok', async ({ page }) => {
  await page.goto(fleet().url);
  // The overview's worst-first list names the systems in warning (the demo has a missing drive on several).
  const warningRow = page.getByTestId('overview-table').getByRole('row').filter({ has: page.locator('[data-level="warning"]') }).first();
  await expect(warningRow).toBeVisible();
  const system = (await warningRow.getByRole('gridcell').first().innerText()).trim();
  const i = fleet().simulator.manifest.sites.findIndex((s) => s.systems.includes(system));
  const siteId = fleet().siteIds[i] as string;

  const item = page.getByTestId(`tree-system-${siteId}-${system}`);
  await expect(item).toHaveAccessibleName(`${system}, warning`);
  await expect(item.getByTestId('tree-health').first()).toHaveText('warning');
  await expect(item.getByTestId('tree-health').first()).toHaveAttribute('data-level', 'warning');
  // Connected: no connection badge beside it.
  await expect(item.locator('[data-state]')).toHaveCount(0);

  await openSystem(page, siteId, system);
  await expect(page.getByTestId('system-level')).toHaveText('warning');
  await expect(page.getByTestId('system-level')).toHaveAttribute('title', /hardware/);
  await expect(page.getByTestId('system-page').locator('.title [data-state]')).toHaveCount(0);

  // The Sites view lists it with the same level, not a green connection "ok" that reads as health.
  await page.getByRole('button', { name: 'Sites', exact: true }).click();
  const entry = page.getByRole('list', { name: /^Systems of / }).getByRole('listitem').filter({ hasText: system });
  await expect(entry.getByTestId('site-system-level')).toHaveText('warning');
  await expect(entry.locator('[data-state]')).toHaveCount(0);
});

test('the connection shows when a system is not connected', async ({ page }) => {
  const site = fleet().simulator.sites[1];
  const siteId = fleet().siteIds[1] as string;
  const system = fleet().simulator.manifest.sites[1]?.systems[0] as string;
  await page.goto(fleet().url);
  const item = page.getByTestId(`tree-system-${siteId}-${system}`);
  await expect(item).not.toHaveAccessibleName(/unreachable/);
  await site?.stop();
  await page.getByTestId('refresh-fleet').click();
  await expect(item).toHaveAccessibleName(/unreachable/, { timeout: 30_000 });
  await expect(item.locator('[data-state="unreachable"]')).toBeVisible();
  // The health read before is still shown beside it.
  await expect(item.getByTestId('tree-health').first()).toBeVisible();
  await site?.start();
});
