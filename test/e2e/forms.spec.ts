import { expect, test, type Page } from '@playwright/test';
import { NOTIFICATION_MODULES } from '../../app/catalog/values.js';
import { dialog, fleetSuite, submitDialog, systemState } from './support/admin.js';
import { openSystem } from './support/ui.js';

/**
 * Forms in an admin's language. Sizes with units, pools and enumerations as
 * choices, labels in words, no type words, a refusal that goes once its field changes, and a
 * prompt before a filled form is thrown away.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 1, seed: 'e2e-forms' } });

const siteId = (): string => fleet().siteIds[0] as string;
const system = (): string => fleet().simulator.manifest.sites[0]?.systems[0] as string;

async function openTemplate(page: Page, name: string): Promise<void> {
  await openSystem(page, siteId(), system(), 'Templates');
  await page.getByTestId('templates-table').getByRole('row').filter({ hasText: name }).click();
}

test('a volume size typed as "2 TiB" is accepted and sent as 2 TiB; pools, layouts and sector sizes are choices', async ({ page }) => {
  await page.goto(fleet().url);
  await openSystem(page, siteId(), system(), 'Templates');
  await page.getByTestId('template-create').click();
  await dialog(page).getByTestId('field-body.Application').fill('e2e-sizes');
  await submitDialog(page);
  await openTemplate(page, 'e2e-sizes');
  await page.getByTestId('template-volumes').getByRole('button', { name: 'Add volume template…' }).click();
  const d = dialog(page);
  await d.getByTestId('field-body.Volume').fill('data');
  const size = d.getByTestId('field-body.CapacityInBytes');
  await expect(d.getByRole('textbox', { name: 'Size', exact: true })).toHaveAttribute('data-testid', 'field-body.CapacityInBytes');
  // Decimal units are read exactly and shown in the units the app shows sizes in.
  await size.fill('2TB');
  await expect(d.getByTestId('echo-body.CapacityInBytes')).toContainText('= 1.82 TiB');
  // An ambiguous unit is refused with what to write instead, before anything is sent.
  await size.fill('2T');
  await size.blur();
  await expect(d).toContainText('“2T” is ambiguous: write 2 TiB (1024-based) or TB (1000-based)');
  await size.fill('2 TiB');
  await expect(d.getByTestId('echo-body.CapacityInBytes')).toHaveText('= 2.00 TiB');

  const state = systemState(fleet(), 0, system());
  const pool = state.pools[0];
  if (!pool) throw new Error('no pool');
  // The pool is a choice showing its free space; N and K then offer the system's layouts for it.
  await expect(d.getByTestId('field-body.Pool').locator('option', { hasText: pool.name })).toContainText(/free/);
  await d.getByTestId('field-body.Pool').selectOption(pool.name);
  await expect(d.getByTestId('field-body.N').locator('option', { hasText: `${pool.n} data` })).toHaveCount(1);
  await d.getByTestId('field-body.N').selectOption(String(pool.n));
  await d.getByTestId('field-body.K').selectOption(String(pool.k));
  await d.getByTestId('field-body.SectorSize').selectOption({ label: '4 KiB' });
  // Words, not types; a choice left empty says what it means.
  const text = await d.innerText();
  expect(text).not.toMatch(/\b(string|integer|boolean)\b/);
  expect(text).not.toContain('(not sent)');
  await submitDialog(page);

  const sent = state.templates.find((t) => t.name === 'e2e-sizes')?.volumes.find((v) => v.name === 'data');
  expect(sent?.capacityBytes).toBe(2 * 1024 ** 4);
  expect(sent?.sectorSize).toBe('4K');
  // Shown as typed.
  await expect(page.getByTestId('template-volumes')).toContainText('2.00 TiB');
});

test('a refusal from the system goes away once the field it is about changes', async ({ page }) => {
  await page.goto(fleet().url);
  await openSystem(page, siteId(), system(), 'Templates');
  await page.getByTestId('template-create').click();
  await dialog(page).getByTestId('field-body.Application').fill('e2e-taken');
  await submitDialog(page);
  await page.getByTestId('template-create').click();
  const name = dialog(page).getByTestId('field-body.Application');
  await name.fill('e2e-taken');
  await dialog(page).getByTestId('op-submit').click();
  await expect(dialog(page).getByTestId('op-error')).toContainText('already exists');
  await name.fill('e2e-taken-2');
  await expect(dialog(page).getByTestId('op-error')).toHaveCount(0);
  await submitDialog(page);
});

test('Escape, the backdrop and Cancel ask before discarding a filled form', async ({ page }) => {
  await page.goto(fleet().url);
  await openSystem(page, siteId(), system(), 'Hosts & mappings');
  await page.getByTestId('host-create').click();
  const name = dialog(page).getByTestId('field-body.Name');
  await name.fill('half-typed');

  await page.keyboard.press('Escape');
  await expect(page.getByTestId('discard-prompt')).toBeVisible();
  await page.getByTestId('discard-keep').click();
  await expect(name).toHaveValue('half-typed');

  await page.mouse.click(5, 300);
  await expect(page.getByTestId('discard-prompt')).toBeVisible();
  await page.getByTestId('discard-keep').click();
  await expect(dialog(page)).toBeVisible();

  await dialog(page).getByTestId('op-cancel').click();
  await expect(page.getByTestId('discard-prompt')).toBeVisible();
  await page.getByTestId('discard-confirm').click();
  await expect(dialog(page)).toHaveCount(0);

  // An untouched form closes at once.
  await page.getByTestId('host-create').click();
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
});

test('labels speak the admin’s words, and Modules offers every module the system accepts', async ({ page }) => {
  await page.goto(fleet().url);
  await openSystem(page, siteId(), system(), 'Notification targets');
  await page.getByTestId('target-kind').selectOption('syslog');
  await page.getByTestId('target-add').click();
  const d = dialog(page);
  await expect(d.getByLabel('Server port')).toBeVisible();
  await expect(d.getByLabel('TLS version')).toBeVisible();
  await expect(d.getByLabel('TLS version').locator('option', { hasText: 'TLS 1.3' })).toHaveCount(1);
  await expect(d.getByText('Skip the system’s approval prompt')).toBeVisible();
  const text = await d.innerText();
  for (const raw of ['ServerPort', 'SslProtocol', 'ConnectionType', 'Force (do not ask', '(not sent)']) expect(text).not.toContain(raw);
  const modules = d.getByTestId('field-body.Modules').getByRole('checkbox');
  await expect(modules).toHaveCount(NOTIFICATION_MODULES.length);
  for (const m of NOTIFICATION_MODULES) await expect(d.getByTestId('field-body.Modules').getByLabel(m, { exact: true })).toBeVisible();
});
