import { expect, test } from '@playwright/test';
import { fleetSuite, systemState } from './support/admin.js';
import { confirmByName, openSystem } from './support/ui.js';

/**
 * Switching iSCSI (or NVMe-oF) off on a data address cuts I/O, so it asks the way
 * unmapping does — the address typed — and names the hosts the cache knows log in that way.
 */
const fleet = fleetSuite({ simulator: { demo: true } });

test('disabling iSCSI on a live data IP asks for the address and names the iSCSI hosts', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[0] as string;
  const state = systemState(fleet(), 0, system);
  const node = state.nodes[0];
  const nic = node?.nics.find((n) => n.ips.some((ip) => ip.iscsi));
  const ip = nic?.ips.find((x) => x.iscsi);
  if (!node || !nic || !ip) throw new Error('no iSCSI address on the first node');
  const mapped = new Set(state.mappings.map((m) => m.host));
  const iscsiHost = state.hosts.find((h) => h.iqn && mapped.has(h.name));
  if (!iscsiHost) throw new Error('the demo has no mapped iSCSI host on this system');

  await page.goto(fleet().url);
  await openSystem(page, siteId, system, 'Hardware');
  await page.getByTestId('hw-kind-nics').click();
  await page.getByTestId('nics-table').getByRole('row').filter({ hasText: nic.name }).filter({ hasText: ip.ip }).first().click();
  await page.getByTestId(`iscsi-${ip.ip}`).click();

  // Nothing is sent yet: a typed confirmation like an unmap, naming who loses sessions.
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText(`Every iSCSI session through ${ip.ip}`);
  await expect(page.getByTestId('confirm-details')).toContainText(`${iscsiHost.name} (${iscsiHost.iqn})`);
  expect(ip.iscsi).toBe(true);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect(ip.iscsi).toBe(true);

  await page.getByTestId(`iscsi-${ip.ip}`).click();
  await confirmByName(page, ip.ip);
  await expect(confirm).toHaveCount(0);
  await expect.poll(() => ip.iscsi).toBe(false);
  // Switching it back on cuts nothing: no question asked.
  await expect(page.getByTestId(`iscsi-${ip.ip}`)).toHaveAccessibleName(new RegExp(`^Enable iSCSI on ${ip.ip.replace(/\./g, '\\.')}`));
  await page.getByTestId(`iscsi-${ip.ip}`).click();
  await expect(confirm).toHaveCount(0);
  await expect.poll(() => ip.iscsi).toBe(true);
});
