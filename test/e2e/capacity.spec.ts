import { expect, test } from '@playwright/test';
import { poolFreeBytes, poolUsableBytes } from '../../simulator/state/capacity.js';
import { dialog, fleetSuite, sizeToFill, submitDialog, systemState } from './support/admin.js';
import { openSystem } from './support/ui.js';

/**
 * Capacity agrees with the system. A pool provisioned through the UI until the
 * system reports it Full is shown full — in the summary, the overview's attention list, the totals
 * and the tree — however slowly its data grows, and each figure has one word with a definition.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 1, seed: 'e2e-capacity' } });

test('a pool provisioned until the system reports it Full is shown full everywhere', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[0] as string;
  const state = systemState(fleet(), 0, system);
  const { pool, gib } = sizeToFill(state);
  await page.goto(fleet().url);

  // At first the pool is fine, and the overview has nothing critical.
  await expect(page.getByTestId('total-critical')).toContainText('0');
  await openSystem(page, siteId, system, 'Summary');
  const row = page.getByTestId('pool-capacity').locator(`tr[data-pool="${pool.name}"]`);
  await expect(row).toHaveAttribute('data-level', 'ok');

  // A template with one volume that takes nearly all the pool's free space…
  await openSystem(page, siteId, system, 'Templates');
  await page.getByTestId('template-create').click();
  await dialog(page).getByTestId('field-body.Application').fill('e2e-fill');
  await submitDialog(page);
  await page.getByTestId('templates-table').getByRole('row').filter({ hasText: 'e2e-fill' }).click();
  await page.getByTestId('template-volumes').getByRole('button', { name: 'Add volume template…' }).click();
  await dialog(page).getByTestId('field-body.Volume').fill('big');
  await dialog(page).getByTestId('field-body.CapacityInBytes').fill(`${gib} GiB`);
  // Pools are choices that show their free space.
  await expect(dialog(page).getByTestId('field-body.Pool').locator('option', { hasText: `${pool.name} — ` })).toContainText('free');
  await dialog(page).getByTestId('field-body.Pool').selectOption(pool.name);
  await submitDialog(page);

  // …and an application created from it allocates that space.
  await openSystem(page, siteId, system, 'Applications & volumes');
  await page.getByTestId('app-create').click();
  await dialog(page).getByTestId('field-body.Application').fill('e2e-fill-app');
  await dialog(page).getByTestId('field-body.Template').selectOption('e2e-fill');
  await submitDialog(page);
  await expect(page.getByTestId('applications-table').getByTestId('app-row-e2e-fill-app')).toBeVisible();
  // The simulator itself reports the pool Full (under 5 % free).
  expect(poolFreeBytes(state, pool) / poolUsableBytes(state, pool)).toBeLessThan(0.05);

  // The system now reports the pool Full: the summary says full, in critical colours.
  await openSystem(page, siteId, system, 'Summary');
  await expect(row).toHaveAttribute('data-level', 'critical');
  await expect(row).toContainText('full');
  await expect(row).toContainText('Full');
  await expect(page.getByTestId('dim-capacity')).toHaveAttribute('data-level', 'critical');
  // One word per figure, each with its definition as the tooltip.
  for (const term of ['usable', 'allocated', 'consumed', 'free']) {
    await expect(page.getByTestId('pool-capacity').locator(`[data-term="${term}"]`)).toHaveAttribute('title', new RegExp(`^${term}:`, 'i'));
  }
  // The header and the tree agree.
  await expect(page.getByTestId('system-level')).toHaveText('critical');
  await expect(page.getByTestId(`tree-system-${siteId}-${system}`)).toHaveAccessibleName(new RegExp(`^${system}, critical`));

  // The overview counts it critical and lists the pool among those needing a look.
  await page.getByTestId('open-overview').click();
  await expect(page.getByTestId('total-critical')).toContainText('1');
  const listed = page.getByTestId('overview-pools').getByTestId(`overview-pool-${system}-${pool.name}`);
  await expect(listed).toContainText('full');
  await expect(listed).toContainText('Full');
});
