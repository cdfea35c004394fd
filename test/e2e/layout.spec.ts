import { expect, test, type Page } from '@playwright/test';
import { fleetSuite, systemState } from './support/admin.js';
import { layoutFaults } from './support/layout.js';
import { settled, walkMainViews } from './support/ui.js';

/**
 * The main views at the three common screen sizes: no two controls drawn over one another (a node's
 * Take over under its neighbour's card is a misclick waiting), no control pushed out of the header,
 * and no text cut off without its whole text as a tooltip.
 */
const fleet = fleetSuite({ simulator: { demo: true } });

/** Every main view's faults, by view: empty when the layout holds. */
async function faultsOfMainViews(page: Page): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const look = async (view: string): Promise<void> => {
    await settled(page);
    const f = await layoutFaults(page);
    const all = [...f.overlaps.map((o) => `overlap: ${o}`), ...f.clipped.map((c) => `clipped: ${c}`)];
    if (all.length) out[view] = all;
  };
  const { system } = await walkMainViews(page, fleet(), look);
  await page.getByRole('navigation', { name: `Areas of ${system}` }).getByRole('button', { name: 'Hardware', exact: true }).click();
  await expect(page.getByTestId(`node-${system}-n2`)).toBeVisible();
  await look('hardware');
  await page.getByRole('navigation', { name: `Areas of ${system}` }).getByRole('button', { name: 'Hosts & mappings', exact: true }).click();
  await look('hosts');
  // Matches as you type: as wide as a host, its IQN and its system need, whatever the box's width.
  await page.getByTestId('fleet-search').pressSequentially('iqn');
  const suggestions = page.getByTestId('search-suggestions');
  await expect(suggestions.getByRole('option')).toHaveCount(8);
  expect((await suggestions.boundingBox())?.width).toBeGreaterThanOrEqual(Math.min(600, page.viewportSize()!.width - 300));
  await look('search suggestions');
  const host = systemState(fleet(), 0, system).hosts[0]?.name as string;
  await page.getByTestId('fleet-search').fill(host);
  await page.getByTestId('fleet-search').press('Enter');
  await expect(page.getByTestId('search-results')).toBeVisible();
  await look('search results');
  return out;
}

for (const [width, height] of [
  [1024, 768],
  [1440, 900],
  [1920, 1080],
] as const) {
  test.describe(`at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });

    test('no control overlaps another and no text is cut off in the main views', async ({ page }) => {
      expect(await faultsOfMainViews(page)).toEqual({});
    });
  });
}
