import { expect, test, type Page } from '@playwright/test';
import { fleetSuite, systemState } from './support/admin.js';
import { openSystem } from './support/ui.js';

/**
 * An admin reads names, not numbers or HTTP paths: enumerations by their members' names, a level
 * as a choice, writes by their titles, and a size typed as "2.6 TiB" taken (rounded, and said so)
 * with one message at most per problem.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 2, seed: 'e2e-admin-language' } });

const HTTP = /\b(GET|POST|PUT|DELETE) \//;

async function openConsole(page: Page, search: string, op: string): Promise<void> {
  await page.goto(fleet().url);
  await openSystem(page, fleet().siteIds[0] as string, fleet().simulator.manifest.sites[0]?.systems[0] as string, 'Operation console');
  await page.getByTestId('console-search').fill(search);
  await page.getByTestId(`console-op-${op}`).click();
}

test('bulk changes and workflows name writes by their titles, not their HTTP paths', async ({ page }) => {
  await page.goto(fleet().url);
  await page.getByTestId('open-bulk').click();
  // The bulk view is a lazy chunk: its options exist only once it has loaded.
  await expect(page.getByTestId('bulk-op').locator('option').first()).toBeAttached();
  const options = await page.getByTestId('bulk-op').locator('option').allInnerTexts();
  expect(options.length).toBeGreaterThan(20);
  expect(options.filter((o) => HTTP.test(o))).toEqual([]);
  expect(options).toContain('Create a user');

  await openSystem(page, fleet().siteIds[0] as string, fleet().simulator.manifest.sites[0]?.systems[0] as string, 'Workflows');
  const steps = page.locator('[data-testid^="step-"]:not([data-testid^="step-open"])');
  await expect(steps.first()).toBeVisible();
  expect((await steps.allInnerTexts()).filter((t) => HTTP.test(t))).toEqual([]);
  // The list of every workflow names them and what follows by title too, not by their paths.
  const flows = page.getByRole('region', { name: 'Volume provisioning' });
  await expect(flows.locator('[data-testid^="workflow-"]').first()).toBeVisible();
  const text = await flows.innerText();
  expect(text).not.toMatch(/(^|\s)\/[a-z_]+\//m);
  expect(text).toContain('Then: List applications');
});

test('a level and a secure socket option are choices in the console, and read by name in Compare', async ({ page }) => {
  const [a, b] = fleet().simulator.manifest.sites[0]?.systems as [string, string];
  systemState(fleet(), 0, a).email.secureSocketOption = 3;
  systemState(fleet(), 0, b).email.secureSocketOption = 1;
  await fleet().runtime.fleet.refresh({ force: true });

  await openConsole(page, 'test notification', 'POST /notifications/test');
  const level = page.getByTestId('console-form').getByTestId('field-body.Level');
  await expect(level).toHaveJSProperty('tagName', 'SELECT');
  await level.selectOption('Warning');
  await openConsole(page, 'e-mail delivery', 'PUT /notifications/settings/email/edit');
  await expect(page.getByTestId('console-form').getByTestId('field-body.SecureSocketOption')).toHaveJSProperty('tagName', 'SELECT');

  await page.getByTestId('open-compare').click();
  await page.getByTestId(`compare-pick-${a}`).check();
  await page.getByTestId(`compare-pick-${b}`).check();
  const socket = page.locator('[data-testid="compare-line"][data-field="Secure socket option"]');
  await expect(socket).toHaveAttribute('data-differs', 'true', { timeout: 30_000 });
  await expect(socket).toContainText('StartTls');
  await expect(socket).toContainText('Auto');
});

test('"2.6 TiB" in a size field is taken, rounded to a whole MiB, with no error', async ({ page }) => {
  await openConsole(page, 'template volume', 'POST /templates/volumes/create');
  const form = page.getByTestId('console-form');
  const size = form.getByTestId('field-body.CapacityInBytes');
  await size.fill('2.6 TiB');
  await size.blur();
  await expect(form.getByTestId('echo-body.CapacityInBytes')).toContainText('rounded to a whole MiB');
  await expect(size).toHaveAttribute('aria-invalid', 'false');
  await expect(form.locator('.problem')).toHaveCount(0);
  await expect(page.getByTestId('op-preview')).toContainText(`"CapacityInBytes": ${Math.round((2.6 * 1024 ** 4) / 1024 ** 2) * 1024 ** 2}`);
});

test('creating a user asks for the e-mail before sending, and a refusal is the one message shown', async ({ page }) => {
  await page.goto(fleet().url);
  await openSystem(page, fleet().siteIds[0] as string, fleet().simulator.manifest.sites[0]?.systems[1] as string, 'Users');
  await page.getByTestId('user-create').click();
  const form = page.getByRole('dialog').getByTestId('op-form');
  await form.getByTestId('field-body.Name').fill('walk user');
  await form.getByTestId('field-body.Password').fill('Walk-Password-2026');
  await form.getByTestId('field-body.Role').fill('Viewer');
  // The document creates users with an e-mail: left empty, the form says so and sends nothing.
  await form.getByTestId('op-submit').click();
  await expect(form.getByTestId('op-problems')).toContainText('E-mail: required');
  await expect(form.getByTestId('op-error')).toHaveCount(0);

  // A name the system refuses: its message is the one error; the password it forgot is asked for
  // again only when the admin next sends.
  await form.getByTestId('field-body.Email').fill('walk@example.com');
  await form.getByTestId('op-submit').click();
  await expect(form.getByTestId('op-error')).toContainText('Invalid Name');
  await expect(form.getByTestId('op-problems')).toHaveCount(0);
  await expect(form.locator('.problem')).toHaveCount(0);
});
