import { expect, test } from '@playwright/test';
import { startFleet, type E2EFleet } from './support/fleet.js';
import { confirmByName, openSystem } from './support/ui.js';

/**
 * The demo fleet (3 sites × 3 systems) through the whole stack: the tree, switching systems,
 * a drive's SMART, a ping, and a node taken over and given back.
 */
let fleet: E2EFleet;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  fleet = await startFleet({ simulator: { demo: true } });
});
test.afterAll(async () => {
  await fleet?.close();
});

const site = (i: number) => ({ id: fleet.siteIds[i] as string, systems: fleet.simulator.manifest.sites[i]?.systems ?? [] });

test('the tree lists every system of every site, each with its health', async ({ page }) => {
  await page.goto(fleet.url);
  await expect(page.getByTestId('simulated-banner')).toBeVisible();
  const tree = page.getByRole('tree', { name: 'Fleet' });
  let count = 0;
  for (const [i, s] of fleet.simulator.manifest.sites.entries()) {
    await expect(tree.getByTestId(`tree-site-${fleet.siteIds[i]}`)).toContainText(s.name);
    for (const system of s.systems) {
      // Health, not connection: every system is connected, so no connection word.
      await expect(tree.getByTestId(`tree-system-${fleet.siteIds[i]}-${system}`)).toHaveAccessibleName(new RegExp(`^${system}, (ok|warning|critical)$`));
      count++;
    }
  }
  expect(count).toBe(9);
  await expect(page.getByTestId('overview-table')).toHaveAttribute('data-row-count', '9');
});

test('switching systems shows the other system and its own data', async ({ page }) => {
  const a = site(0);
  const b = site(1);
  await page.goto(fleet.url);
  await openSystem(page, a.id, a.systems[0] as string, 'Hardware');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(a.systems[0] as string);
  await expect(page.getByTestId(`node-${a.systems[0]}-n1`)).toBeVisible();
  await openSystem(page, b.id, b.systems[2] as string);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(b.systems[2] as string);
  await expect(page.getByTestId('system-health')).toContainText('as of');
  // The tree marks where we are.
  await expect(page.getByTestId(`tree-system-${b.id}-${b.systems[2]}`)).toHaveAttribute('aria-selected', 'true');
});

test('drilling down to the degrading drive reads its SMART log', async ({ page }) => {
  // The demo puts exactly one degrading drive on the second system of the first site.
  const s = site(0);
  await page.goto(fleet.url);
  await openSystem(page, s.id, s.systems[1] as string, 'Hardware');
  const degrading = page.getByTestId('drives-table').getByRole('row').filter({ hasText: /Warning|Degraded/ }).first();
  await degrading.click();
  await expect(page.getByRole('heading', { name: /^Drive .* on / })).toBeVisible();
  const smart = page.getByTestId('smart-view');
  await expect(smart).toBeVisible();
  await expect(smart).not.toHaveAttribute('data-risk', 'ok');
  await expect(page.getByTestId('smart-table')).toBeVisible();
  await expect(page.getByTestId('smart-raw')).toContainText('smartctl');
  // A fresh read from the drive replaces the cached text.
  await page.getByRole('region', { name: 'SMART' }).getByRole('button', { name: 'Read now' }).click();
  await expect(page.getByRole('region', { name: 'SMART' }).getByTestId('as-of')).toContainText('live');
});

test('a ping from a NIC reports each path', async ({ page }) => {
  const s = site(0);
  const system = s.systems[0] as string;
  await page.goto(fleet.url);
  await openSystem(page, s.id, system, 'Hardware');
  await page.getByTestId('hw-kind-nics').click();
  await page.getByTestId('nics-table').getByRole('row').filter({ hasText: 'eth2' }).first().click();
  const own = (await page.getByTestId('nic-ips').locator('tbody tr td').first().innerText()).trim();
  expect(own).toMatch(/^\d+\.\d+\.\d+\.\d+$/);

  await page.getByTestId('ping-address').fill(own);
  await page.getByTestId('ping-run').click();
  const results = page.getByTestId('ping-results');
  await expect(results.locator('tbody tr').first()).toHaveAttribute('data-ok', 'true');
  await expect(results).toContainText('reachable');

  // An address in no simulated subnet fails, with the system's reason.
  await page.getByTestId('ping-address').fill('192.0.2.77');
  await page.getByTestId('ping-run').click();
  await expect(results.locator('tbody tr').first()).toHaveAttribute('data-ok', 'false');
  await expect(results).toContainText('Destination Host Unreachable');
});

test('a node is taken over and given back, each after typing its name', async ({ page }) => {
  const s = site(2);
  const system = s.systems[0] as string;
  const node = `${system}-n2`;
  await page.goto(fleet.url);
  await openSystem(page, s.id, system, 'Hardware');
  const card = page.getByTestId(`node-${node}`);
  await expect(card).toContainText('Normal');

  await page.getByTestId(`takeover-${node}`).click();
  await confirmByName(page, node);
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  await expect(card).toContainText(/took over|takeover/i);
  // The write refreshes the system; the card then shows the new HA state from the system.
  await expect(card).toContainText('TakenOver');

  await page.getByTestId(`giveback-${node}`).click();
  await confirmByName(page, node);
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  await expect(card).toContainText('Normal');
  await expect(card).not.toContainText('TakenOver');
});
