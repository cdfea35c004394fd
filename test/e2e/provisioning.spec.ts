import { expect, test } from '@playwright/test';
import { dialog, fleetSuite, submitDialog, systemState } from './support/admin.js';
import { openSystem } from './support/ui.js';

/**
 * Provisioning in one place. The Workflows steps open the real dialogs in order —
 * template, volume, application, host, mapping — each prefilled with what the step before created;
 * the host's panel then lists its LUNs and filters the mappings to it.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 1, seed: 'e2e-provision' } });

test('the block workflow walks template → volume → application → host → mapping through the real dialogs', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[0] as string;
  await page.goto(fleet().url);
  await openSystem(page, siteId, system, 'Workflows');
  const flow = page.getByTestId('provision-flow');

  // 1. The template, in the Templates area's own dialog.
  await flow.getByTestId('step-open-1').click();
  await expect(dialog(page).getByRole('heading', { name: 'Create template' })).toBeVisible();
  await dialog(page).getByTestId('field-body.Application').fill('wf-db');
  await submitDialog(page);
  await expect(flow.getByTestId('step-1')).toHaveAttribute('data-done', 'true');

  // 2. A volume in it: the template is already chosen, the size takes units.
  await flow.getByTestId('step-open-2').click();
  await expect(dialog(page).getByRole('heading', { name: 'Add a volume to a template' })).toBeVisible();
  await expect(dialog(page).getByTestId('field-body.Application')).toHaveValue('wf-db');
  await expect(dialog(page)).not.toContainText('CapacityInBytes');
  await dialog(page).getByTestId('field-body.Volume').fill('data');
  await dialog(page).getByTestId('field-body.CapacityInBytes').fill('100 GiB');
  await submitDialog(page);
  await expect(flow.getByTestId('step-2')).toHaveAttribute('data-done', 'true');

  // 3. The application from that template.
  await flow.getByTestId('step-open-3').click();
  await expect(dialog(page).getByRole('heading', { name: 'Create application' })).toBeVisible();
  await expect(dialog(page).getByTestId('field-body.Template')).toHaveValue('wf-db');
  await dialog(page).getByTestId('field-body.Application').fill('wf-db-prod');
  await submitDialog(page);

  // 4. A host.
  await flow.getByTestId('step-open-4').click();
  await expect(dialog(page).getByRole('heading', { name: 'Create host' })).toBeVisible();
  await dialog(page).getByTestId('field-body.Name').fill('wf-host');
  await dialog(page).getByTestId('field-body.Iqn').fill('iqn.2025-01.com.example:wf-host');
  await submitDialog(page);

  // 5. The mapping, with the application and the host of the steps before chosen.
  await flow.getByTestId('step-open-5').click();
  await expect(dialog(page).getByRole('heading', { name: 'Map volumes to wf-host' })).toBeVisible();
  await expect(dialog(page).getByTestId('field-body.Application')).toHaveValue('wf-db-prod');
  await expect(dialog(page).getByTestId('field-body.Hosts').getByLabel('wf-host')).toBeChecked();
  await dialog(page).getByTestId('field-body.LunIds').fill('7');
  await dialog(page).getByTestId('field-body.Volumes').getByLabel('data').check();
  await submitDialog(page);
  for (const step of [1, 2, 3, 4, 5]) await expect(flow.getByTestId(`step-${step}`)).toHaveAttribute('data-done', 'true');
  const state = systemState(fleet(), 0, system);
  expect(state.mappings.some((m) => m.host === 'wf-host')).toBe(true);

  // The host's panel lists its own LUNs, and the mappings table is filtered to it.
  await openSystem(page, siteId, system, 'Hosts & mappings');
  await page.getByTestId('hosts-table').getByTestId('host-row-wf-host').click();
  const detail = page.getByTestId('host-detail');
  await expect(detail.getByTestId('host-luns').getByTestId('host-lun-7')).toContainText('wf-db-prod');
  await expect(detail.getByTestId('host-lun-7')).toContainText('data');
  await expect(page.getByTestId('mappings-host')).toHaveValue('wf-host');
  await expect(page.getByTestId('mappings-table')).toHaveAttribute('data-row-count', '1');

  // Undo, back in Workflows: the four deletions previewed in the order they run, confirmed once by name.
  await openSystem(page, siteId, system, 'Workflows');
  const panel = page.getByTestId('undo-panel');
  const expected = [/^Unmap volume data of wf-db-prod from wf-host/, /^Delete host wf-host/, /^Delete application wf-db-prod/, /^Delete template wf-db/];
  await expect(panel.getByTestId('undo-plan').locator('li')).toHaveText(expected);
  await panel.getByTestId('undo-open').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm.getByTestId('confirm-details').locator('li')).toHaveText(expected.map((e) => new RegExp(`^\\d\\. ${e.source.slice(1)}`)));
  await expect(confirm.getByTestId('confirm-submit')).toBeDisabled();
  await confirm.getByTestId('confirm-input').fill('wf-db-prod');
  await confirm.getByTestId('confirm-submit').click();
  await expect(confirm).toHaveCount(0);
  await expect(panel.getByTestId('undo-summary')).toHaveText('Everything these steps created was removed.');
  for (const step of [1, 2, 3, 4]) await expect(panel.getByTestId(`undo-step-${step}`)).toHaveAttribute('data-state', 'done');
  await expect(panel.getByTestId('undo-open')).toHaveCount(0);
  expect(state.mappings.some((m) => m.host === 'wf-host')).toBe(false);
  expect(state.hosts.some((h) => h.name === 'wf-host')).toBe(false);
  expect(state.apps.some((a) => a.name === 'wf-db-prod')).toBe(false);
  expect(state.templates.some((t) => t.name === 'wf-db')).toBe(false);
  for (const step of [1, 2, 3, 4, 5]) await expect(flow.getByTestId(`step-${step}`)).toHaveAttribute('data-done', 'false');

  // Each deletion is in the action log, its intent and its outcome.
  const log = fleet().runtime.actionLog.list({ newestFirst: true }).slice(0, 4);
  expect(log.map((r) => [r.operation, r.result])).toEqual([
    ['DELETE /templates/delete', 'ok'],
    ['DELETE /applications/delete', 'ok'],
    ['DELETE /hosts/delete', 'ok'],
    ['DELETE /hosts/mappings/delete', 'ok'],
  ]);
});
