import { expect, test } from '@playwright/test';
import { startFleet, type E2EFleet } from './support/fleet.js';
import { openSystem } from './support/ui.js';

/** Provisioning through the generated forms: a host with a checked IQN, then a volume mapped to it. */
let fleet: E2EFleet;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  fleet = await startFleet({ simulator: { sites: 1, systems: 2, seed: 'e2e-hosts' } });
});
test.afterAll(async () => {
  await fleet?.close();
});

test('a host is created, a volume mapped to it with a LUN id, and the mapping listed', async ({ page }) => {
  const siteId = fleet.siteIds[0] as string;
  const system = fleet.simulator.manifest.sites[0]?.systems[0] as string;
  await page.goto(fleet.url);
  await openSystem(page, siteId, system, 'Hosts & mappings');

  await page.getByTestId('host-create').click();
  const dialog = page.getByTestId('op-dialog');
  await expect(dialog.getByRole('heading', { name: 'Create host' })).toBeVisible();
  await dialog.getByTestId('field-body.Name').fill('e2e-host01');
  // A mistyped identity is caught before anything is sent, with what a valid one looks like.
  await dialog.getByTestId('field-body.Iqn').fill('iqn.2025-13.com.example:e2e');
  await dialog.getByTestId('field-body.Wwns').fill('10:00:00:90:fa:12:34');
  await dialog.getByTestId('op-submit').click();
  const problems = dialog.getByTestId('op-problems');
  await expect(problems).toContainText('iSCSI IQN: “iqn.2025-13.com.example:e2e” has no valid month');
  await expect(problems).toContainText('FC WWNs: “10:00:00:90:fa:12:34” has 14 hex digits; a WWN has 16');
  await dialog.getByTestId('field-body.Wwns').fill('');
  await dialog.getByTestId('field-body.Iqn').fill('iqn.2025-01.com.example:e2e-host01');
  await dialog.getByTestId('op-submit').click();
  await expect(page.getByTestId('op-dialog')).toHaveCount(0);
  await expect(page.getByTestId('area-notice')).toContainText("Host 'e2e-host01' created.");
  const hosts = page.getByTestId('hosts-table');
  await expect(hosts.getByTestId('host-row-e2e-host01')).toContainText('iqn.2025-01.com.example:e2e-host01');

  await page.getByTestId('host-map').click();
  const map = page.getByTestId('op-dialog');
  const app = map.getByTestId('field-body.Application');
  const firstApp = (await app.locator('option').nth(1).getAttribute('value')) as string;
  await app.selectOption(firstApp);
  await map.getByTestId('field-body.Hosts').getByLabel('e2e-host01').check();
  const volumes = map.getByTestId('field-body.Volumes').getByRole('checkbox');
  await expect(volumes.first()).toBeVisible();
  const volume = ((await map.getByTestId('field-body.Volumes').locator('label').first().innerText()) as string).trim();
  await volumes.first().check();
  await map.getByTestId('field-body.LunIds').fill('16384');
  await map.getByTestId('op-submit').click();
  await expect(map.getByTestId('op-problems')).toContainText('LUN id 16384 is above 16383');
  await map.getByTestId('field-body.LunIds').fill('42');
  await map.getByTestId('op-submit').click();
  await expect(page.getByTestId('op-dialog')).toHaveCount(0);
  await expect(page.getByTestId('area-notice')).toContainText('Mapped 1 volume(s)');

  // The refresh after the write brings the mapping into the cached list; filter it by host.
  const row = page.getByTestId(`mapping-e2e-host01-${firstApp}-${volume}`);
  await expect(row).toContainText('42');
  await page.getByTestId('mappings-host').selectOption('e2e-host01');
  await expect(page.getByTestId('mappings-table')).toHaveAttribute('data-row-count', '1');
  await expect(hosts.getByTestId('host-row-e2e-host01')).toContainText('1');
});

test('an edit form sends an emptied value as empty, which clears it on the system', async ({ page }) => {
  const siteId = fleet.siteIds[0] as string;
  const system = fleet.simulator.manifest.sites[0]?.systems[0] as string;
  await page.goto(fleet.url);
  await openSystem(page, siteId, system, 'Hosts & mappings');
  const row = page.getByTestId('hosts-table').getByTestId('host-row-e2e-host01');
  await expect(row).toContainText('iqn.2025-01.com.example:e2e-host01');

  await row.getByRole('button', { name: 'Edit e2e-host01' }).click();
  const dialog = page.getByTestId('op-dialog');
  await expect(dialog.getByTestId('field-body.Iqn')).toHaveValue('iqn.2025-01.com.example:e2e-host01');
  await dialog.getByTestId('field-body.Iqn').fill('');
  await dialog.getByTestId('field-body.Ip').fill('192.0.2.10');
  await dialog.getByTestId('op-submit').click();
  await expect(page.getByTestId('op-dialog')).toHaveCount(0);
  await expect(row).toContainText('192.0.2.10');
  await expect(row).not.toContainText('iqn.2025-01.com.example:e2e-host01');
  // The system itself says the IQN is gone, not just the form.
  const state = fleet.simulator.fleet.sites[0]?.systems.find((s) => s.name === system);
  expect(state?.hosts.find((h) => h.name === 'e2e-host01')?.iqn).toBe('');
});
