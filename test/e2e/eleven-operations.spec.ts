import { expect, test, type Page } from '@playwright/test';
import { dialog, fleetSuite, submitDialog, systemState } from './support/admin.js';
import { confirmByName, openSystem } from './support/ui.js';

/**
 * The eleven operations an admin looks for where the thing lives — the node
 * card, the drive detail, the hardware area, the application, the templates, the capacity views —
 * each reachable there, each sending the request its form shows (checked in the simulator's state
 * and in the action log), secrets never written.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 1, seed: 'e2e-eleven' } });
const system = (): string => fleet().simulator.manifest.sites[0]?.systems[0] as string;
const siteId = (): string => fleet().siteIds[0] as string;
const state = () => systemState(fleet(), 0, system());
const logged = (op: string) => fleet().runtime.actionLog.list({}).filter((e) => e.operation === op);

async function open(page: Page, area: string): Promise<void> {
  await page.goto(fleet().url);
  await openSystem(page, siteId(), system(), area);
}

test('node card: CHAP, iSNS, management connection and rename', async ({ page }) => {
  await open(page, 'Hardware');
  const [first, second] = state().nodes;
  if (!first || !second) throw new Error('two nodes expected');
  const card = page.getByTestId(`node-${first.name}`);

  await card.getByTestId(`chap-${first.name}`).click();
  await dialog(page).getByTestId('field-body.ChapName').fill('e2e-chap');
  await dialog(page).getByTestId('field-body.ChapSecret').fill('Eleven-Chap-77');
  await submitDialog(page);
  await expect.poll(() => state().chap).toEqual({ name: 'e2e-chap', secret: 'Eleven-Chap-77' });
  expect(logged('PUT /nodes/chap').map((e) => e.result)).toEqual(['ok']);
  expect(JSON.stringify(logged('PUT /nodes/chap'))).not.toContain('Eleven-Chap-77');

  await card.getByTestId(`isns-${first.name}`).click();
  await dialog(page).getByTestId('field-body.Address').fill('10.20.30.40');
  await submitDialog(page);
  await expect.poll(() => state().isns.address).toBe('10.20.30.40');

  // The management connection moves to the node that does not have it.
  const other = state().managementNodeId === first.id ? second : first;
  await page.getByTestId(`node-${other.name}`).getByTestId(`connect-${other.name}`).click();
  await submitDialog(page);
  await expect.poll(() => state().managementNodeId).toBe(other.id);

  const renamed = `${second.name}-r`;
  await page.getByTestId(`node-${second.name}`).getByTestId(`rename-${second.name}`).click();
  await dialog(page).getByTestId('field-body.Newname').fill(renamed);
  await submitDialog(page);
  await expect.poll(() => state().nodes.map((n) => n.name)).toContain(renamed);
  await expect(page.getByTestId(`node-${renamed}`)).toBeVisible({ timeout: 30_000 });
  for (const op of ['PUT /nodes/isns', 'PUT /nodes/connect', 'PUT /nodes/edit']) expect(logged(op).map((e) => e.result), op).toEqual(['ok']);
});

test('drive detail: the SED password is sent once and written nowhere', async ({ page }) => {
  const locked = state()
    .nodes.flatMap((n) => n.drives.map((d) => ({ node: n.name, d })))
    .find((x) => x.d.sed === 'Locked');
  if (!locked) throw new Error('a locked self-encrypting drive expected');
  await open(page, 'Hardware');
  // The drive, found by its serial from the fleet search, opens its detail.
  await page.getByTestId('fleet-search').fill(locked.d.serial);
  await page.getByTestId('search-suggestions').getByRole('option').filter({ hasText: locked.d.name }).first().click();
  await page.getByTestId('drive-sed-password').click();
  await dialog(page).getByTestId('field-body.Password').fill('Sed-Password-e2e');
  await submitDialog(page);
  await expect.poll(() => state().sedPassword).toBe('Sed-Password-e2e');
  expect(logged('PUT /resources/drives/sed/supply_password').map((e) => e.result)).toEqual(['ok']);
  expect(JSON.stringify(fleet().runtime.actionLog.list({}))).not.toContain('Sed-Password-e2e');
  await expect(page.locator('body')).not.toContainText('Sed-Password-e2e');
});

test('hardware area: a missing resource is removed after typing the system name', async ({ page }) => {
  fleet().simulator.control.failDrive({ site: 0, system: system(), missing: true });
  const missing = state()
    .nodes.flatMap((n) => n.drives)
    .find((d) => d.status === 'Missing');
  if (!missing) throw new Error('a missing drive expected');
  await fleet().runtime.fleet.refresh({ force: true });
  await open(page, 'Hardware');
  await expect(page.getByTestId('missing-resources')).toContainText(missing.name);
  await page.getByTestId('remove-missing').click();
  await confirmByName(page, system());
  await expect.poll(() => state().nodes.flatMap((n) => n.drives).some((d) => d.id === missing.id)).toBe(false);
  const entry = logged('DELETE /resources/delete');
  expect(entry.map((e) => e.result)).toEqual(['ok']);
  expect(JSON.stringify(entry[0]?.params)).toContain(String(missing.id));
});

test("an application's volumes are mapped and unmapped from the application's side", async ({ page }) => {
  const app = state().apps.find((a) => a.volumes.length > 0);
  const host = state().hosts[0];
  if (!app || !host) throw new Error('an application and a host expected');
  const volume = app.volumes[0];
  if (!volume) throw new Error('a volume expected');
  const mapped = () => state().mappings.filter((m) => m.volumeId === volume.id && m.host === host.name).length;
  const before = mapped();
  await open(page, 'Applications & volumes');
  await page.getByTestId(`app-row-${app.name}`).click();
  await page.getByTestId('app-map').click();
  await dialog(page).getByTestId('field-body.Hosts').getByLabel(host.name, { exact: true }).check();
  await dialog(page).getByTestId('field-body.Volumes').getByLabel(volume.name, { exact: true }).check();
  await dialog(page).getByTestId('field-body.LunIds').fill('201');
  await submitDialog(page);
  await expect.poll(mapped).toBe(before + 1);
  expect(logged('POST /applications/mappings/add').map((e) => e.result)).toEqual(['ok']);

  // The volumes' mappings come back with the next refresh of the application list. The Unmap
  // button may already be enabled by an earlier mapping of another volume: the dialog offers the
  // hosts of the mappings shown, so wait for this one to be shown.
  await expect(page.getByTestId('volumes-table')).toContainText(`${host.name}:201`);
  await expect(page.getByTestId('app-unmap')).not.toHaveAttribute('aria-disabled', 'true');
  await page.getByTestId('app-unmap').click();
  await dialog(page).getByTestId('field-query.hosts').getByLabel(host.name, { exact: true }).check();
  await dialog(page).getByTestId('field-query.volumes').getByLabel(volume.name, { exact: true }).check();
  // Unmapping destroys access: the form waits for the application's name typed.
  await expect(dialog(page).getByTestId('op-submit')).toBeDisabled();
  await dialog(page).getByTestId('op-confirm-input').fill(app.name);
  await submitDialog(page);
  await expect.poll(mapped).toBe(0);
  expect(logged('DELETE /applications/mappings/delete').map((e) => e.result)).toEqual(['ok']);
});

test('templates and capacity: volume templates, volume capacity and pool provisioning are shown', async ({ page }) => {
  await open(page, 'Templates');
  const volumes = state().templates.reduce((n, t) => n + t.volumes.length, 0);
  await expect(page.getByTestId('all-volume-templates-table')).toHaveAttribute('data-row-count', String(volumes));
  const firstTemplate = state().templates[0];
  if (firstTemplate) await expect(page.getByTestId('all-volume-templates')).toContainText(firstTemplate.name);

  await page.getByRole('navigation', { name: `Areas of ${system()}` }).getByRole('button', { name: 'Monitoring', exact: true }).click();
  const apps = state().apps;
  const vol = apps.find((a) => a.volumes.length > 0);
  await expect(page.getByTestId('volume-capacity')).toContainText(vol?.volumes[0]?.name ?? '');
  await expect(page.getByTestId('volume-capacity')).toContainText(vol?.name ?? '');
  for (const pool of state().pools) await expect(page.getByTestId('pool-provisioning')).toContainText(pool.name);
});
