import { expect, test } from '@playwright/test';
import { startFleet, type E2EFleet } from './support/fleet.js';
import { openSystem } from './support/ui.js';

/** A site that stops answering: its systems open read-only from the cache, each panel saying when its data was read. */
let fleet: E2EFleet;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  fleet = await startFleet({ simulator: { sites: 2, systems: 2, seed: 'e2e-offline' } });
});
test.afterAll(async () => {
  await fleet?.close();
});

test('an unreachable system opens from the cache, read-only, with "as of" on every panel', async ({ page }) => {
  const down = fleet.siteIds[0] as string;
  const system = fleet.simulator.manifest.sites[0]?.systems[1] as string;
  await fleet.simulator.sites[0]?.stop();
  await page.goto(fleet.url);
  await page.getByTestId('refresh-fleet').click();
  const entry = page.getByTestId(`tree-system-${down}-${system}`);
  // The tree shows the health read before, and the connection because it is not connected.
  await expect(entry).toHaveAccessibleName(new RegExp(`^${system}, (ok|warning|critical|unknown), unreachable$`), { timeout: 30_000 });
  // The other site is untouched: its health alone, no connection word.
  const other = fleet.simulator.manifest.sites[1]?.systems[0] as string;
  await expect(page.getByTestId(`tree-system-${fleet.siteIds[1]}-${other}`)).toHaveAccessibleName(new RegExp(`^${other}, (ok|warning|critical|unknown)$`));

  await openSystem(page, down, system, 'Hardware');
  await expect(page.getByTestId('read-only-banner')).toContainText('the system is unreachable');
  const area = page.getByTestId('area-hardware');
  await expect(area.getByTestId(`node-${system}-n1`)).toBeVisible();
  const stamps = area.getByTestId('as-of');
  await expect(stamps.first()).toContainText('cached');
  for (const stamp of await stamps.all()) await expect(stamp).toContainText(/^as of .*cached\)$/s);
  const takeover = page.getByTestId(`takeover-${system}-n1`);
  await expect(takeover).toHaveAttribute('aria-disabled', 'true');
  // Focusable so the reason can be read, but a click does nothing.
  await takeover.click({ force: true });
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);

  // Areas built on cached reads work the same way: hosts and their mappings, writes refused.
  await page.getByRole('navigation', { name: `Areas of ${system}` }).getByRole('button', { name: 'Hosts & mappings', exact: true }).click();
  await expect(page.getByTestId('hosts-table')).not.toHaveAttribute('data-row-count', '0');
  await expect(page.getByRole('region', { name: 'Hosts' }).getByTestId('as-of')).toContainText('cached');
  await expect(page.getByTestId('host-create')).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('read-now').first()).toHaveAttribute('aria-disabled', 'true');

  // Back up: the next refresh makes it writable again. (Forced from main: the window's Refresh button
  // leaves a site that just failed alone during its back-off.)
  await fleet.simulator.sites[0]?.start();
  await fleet.runtime.fleet.refresh({ force: true });
  await expect(entry).toHaveAccessibleName(new RegExp(`^${system}, (ok|warning|critical|unknown)$`), { timeout: 30_000 });
  await expect(page.getByTestId('read-only-banner')).toHaveCount(0);
  await expect(page.getByTestId('host-create')).not.toHaveAttribute('aria-disabled', 'true');
});
