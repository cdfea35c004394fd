import { expect, test, type Page } from '@playwright/test';
import { startFleet, type E2EFleet } from './support/fleet.js';

/**
 * A window launched with `--site NAME` while two sites are saved (here the second): it shows and
 * refreshes its own site alone, on start, from the Refresh button and from the palette, and never
 * shows another site's data or errors.
 */
let fleet: E2EFleet;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  fleet = await startFleet({ simulator: { sites: 2, systems: 2 }, scopeToSite: 1 });
});
test.afterAll(async () => {
  await fleet?.close();
});

const requests = (): number[] => fleet.simulator.control.status().map((s) => s.requests);

async function expectOnlyOwnSite(page: Page): Promise<void> {
  const [other, own] = fleet.siteIds as [string, string];
  const tree = page.getByRole('tree', { name: 'Fleet' });
  for (const system of fleet.simulator.manifest.sites[1]!.systems) {
    await expect(tree.getByTestId(`tree-system-${own}-${system}`)).toHaveAccessibleName(new RegExp(`^${system}, (ok|warning|critical)$`)); // health, and no connection word: connected
  }
  await expect(tree.getByTestId(`tree-site-${other}`)).toHaveCount(0);
  await expect(page.getByTestId('overview-table')).toHaveAttribute('data-row-count', String(fleet.simulator.manifest.sites[1]!.systems.length));
  await expect(page.getByRole('alert')).toHaveCount(0);
}

test('on start it shows only its own site, refreshed, and the other site was never contacted', async ({ page }) => {
  await page.goto(fleet.url);
  await expectOnlyOwnSite(page);
  expect(requests()[0]).toBe(0);
});

test('the Refresh button reads its own site again, with no error', async ({ page }) => {
  await page.goto(fleet.url);
  await expectOnlyOwnSite(page);
  const before = requests();
  await page.getByTestId('refresh-fleet').click();
  await expect.poll(() => requests()[1]).toBeGreaterThan(before[1]!);
  await expect(page.getByTestId('refresh-fleet')).toBeEnabled();
  await expectOnlyOwnSite(page);
  expect(requests()[0]).toBe(0);
});

test("the palette's refresh does the same", async ({ page }) => {
  await page.goto(fleet.url);
  await expectOnlyOwnSite(page);
  const before = requests();
  await page.getByTestId('open-palette').click();
  await page.getByTestId('palette-input').fill('Refresh the fleet');
  await page.keyboard.press('Enter');
  await expect.poll(() => requests()[1]).toBeGreaterThan(before[1]!);
  await expect(page.getByTestId('refresh-fleet')).toBeEnabled();
  await expectOnlyOwnSite(page);
  expect(requests()[0]).toBe(0);
});
