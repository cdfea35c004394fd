import { expect, test, type Locator, type Page } from '@playwright/test';
import { fleetSuite, systemState } from './support/admin.js';
import { openSystem } from './support/ui.js';

/**
 * At 1024 px tables keep identifiers and actions in view, every cut-off cell has
 * its full text as a tooltip, the area tabs do not pile up, times keep their AM/PM, an approved
 * drive offers no "Approve", and the overview is one visible click away.
 */
test.use({ viewport: { width: 1024, height: 700 } });
const fleet = fleetSuite({ simulator: { demo: true } });

/** Cells of a grid whose text is cut off but carry no tooltip with the whole text. */
async function untitledCutCells(grid: Locator): Promise<string[]> {
  return grid.locator('[role="gridcell"], [role="columnheader"]').evaluateAll((cells) =>
    cells.filter((c) => c.scrollWidth > c.clientWidth + 1 && c.getAttribute('title') !== c.textContent?.trim() && !c.querySelector('[title]')).map((c) => c.textContent ?? ''),
  );
}

async function tabRows(page: Page, system: string): Promise<number> {
  const tops = await page.getByRole('navigation', { name: `Areas of ${system}` }).getByRole('button').evaluateAll((bs) => bs.map((b) => Math.round(b.getBoundingClientRect().top)));
  return new Set(tops).size;
}

test('the hosts table keeps names and actions in view at 1024 px, and the area tabs fit two rows', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[0] as string;
  const host = systemState(fleet(), 0, system).hosts[0]?.name as string;
  await page.goto(fleet().url);
  await openSystem(page, siteId, system, 'Hosts & mappings');
  expect(await tabRows(page, system)).toBeLessThanOrEqual(2);
  const row = page.getByTestId('hosts-table').getByTestId(`host-row-${host}`);
  await expect(row.getByRole('button', { name: `Edit ${host}` })).toBeInViewport({ ratio: 1 });
  await expect(row.getByRole('button', { name: `Delete ${host}` })).toBeInViewport({ ratio: 1 });
  await expect(row.getByRole('gridcell').first()).toHaveText(host);
  expect(await untitledCutCells(page.getByTestId('hosts-table'))).toEqual([]);
});

test('drives on two nodes stay apart, cut-off cells carry their text, an approved drive has no Approve', async ({ page }) => {
  const siteId = fleet().siteIds[2] as string;
  const system = fleet().simulator.manifest.sites[2]?.systems[0] as string;
  await page.goto(fleet().url);
  await openSystem(page, siteId, system, 'Hardware');
  const drives = page.getByTestId('drives-table');
  const nodeCells = drives.getByRole('row').locator('[role="gridcell"]:first-child');
  await expect(nodeCells.first()).toBeVisible();
  // Node names are whole (n1, n2), with the full name as the tooltip.
  const texts = await nodeCells.evaluateAll((cells) => cells.map((c) => ({ text: c.textContent?.trim(), title: c.getAttribute('title'), cut: c.scrollWidth > c.clientWidth + 1 })));
  expect(new Set(texts.map((t) => t.text))).toEqual(new Set(['n1', 'n2']));
  for (const t of texts) expect(t).toMatchObject({ title: `${system}-${t.text}`, cut: false });
  expect(await untitledCutCells(drives)).toEqual([]);

  const approved = systemState(fleet(), 2, system).nodes[0]?.drives.find((d) => d.approved === 'Approved' && d.status === 'OK');
  if (!approved) throw new Error('no approved drive');
  await drives.getByRole('row').filter({ hasText: approved.serial }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`^Drive ${approved.name} on `) })).toBeVisible();
  await expect(page.locator('dt', { hasText: /^Approved$/ }).locator('xpath=following-sibling::dd[1]')).toHaveText('Approved');
  await expect(page.getByTestId('drive-approve')).toHaveCount(0);
});

test('recent errors keep their full time, and the overview is one visible click away', async ({ page }) => {
  await page.goto(fleet().url);
  const errors = page.getByTestId('overview-errors');
  const time = errors.getByRole('row').nth(1).getByRole('gridcell').first();
  await expect(time).toHaveText(/\d{4}, \d{1,2}:\d{2}\s?(AM|PM)$/);
  expect(await time.evaluate((c) => c.scrollWidth <= c.clientWidth + 1)).toBe(true);
  for (const id of ['overview-table', 'overview-drives', 'overview-errors']) expect(await untitledCutCells(page.getByTestId(id))).toEqual([]);

  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[1] as string;
  await openSystem(page, siteId, system, 'Monitoring');
  await expect(page.getByRole('navigation', { name: 'Fleet views' }).getByRole('button', { name: 'Overview' })).toBeInViewport();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'Fleet overview' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Fleet views' }).getByRole('button', { name: 'Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Fleet overview', level: 1 })).toBeVisible();
});
