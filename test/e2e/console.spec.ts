import { expect, test, type Page } from '@playwright/test';
import { startFleet, type E2EFleet } from './support/fleet.js';
import { openSystem } from './support/ui.js';

/**
 * The operation console on a real system: a read with its request preview, a destructive operation
 * behind its typed name, and a create that times out, which is not sent again until checked.
 */
let fleet: E2EFleet;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  // A short timeout so a slowed site makes a write time out within the test.
  fleet = await startFleet({ simulator: { sites: 1, systems: 2, seed: 'e2e-console' }, timeoutMs: 2000 });
});
test.afterAll(async () => {
  await fleet?.close();
});

async function openConsole(page: Page, search: string, op: string): Promise<void> {
  await page.goto(fleet.url);
  await openSystem(page, fleet.siteIds[0] as string, fleet.simulator.manifest.sites[0]?.systems[0] as string, 'Operation console');
  await page.getByTestId('console-search').fill(search);
  await page.getByTestId(`console-op-${op}`).click();
  await expect(page.getByTestId('console-detail').getByRole('heading', { level: 3 })).toHaveText(op);
}

test('a read from the console previews the request and shows the answer', async ({ page }) => {
  await page.goto(fleet.url);
  await openSystem(page, fleet.siteIds[0] as string, fleet.simulator.manifest.sites[0]?.systems[0] as string, 'Operation console');
  // Found by words of its summary, chosen with the keyboard.
  const search = page.getByTestId('console-search');
  await search.fill('list hosts');
  await search.press('Enter');
  const form = page.getByTestId('console-form');
  await expect(form).toHaveAttribute('data-op', 'GET /hosts/list');
  await form.getByTestId('field-query.wwn').selectOption('false');
  await expect(page.getByTestId('op-preview')).toContainText('GET /hosts/list?wwn=false');
  await form.getByTestId('op-submit').click();
  const result = page.getByTestId('op-result');
  await expect(result).toContainText('"Data"');
  await expect(result).toContainText('"Iqn"');
  await expect(result).not.toContainText('"Wwns"');
  await expect(page.getByRole('region', { name: 'Answer' }).getByTestId('as-of')).toContainText('live');
});

test("a destructive operation waits for its name, then shows the server's error as it came", async ({ page }) => {
  await openConsole(page, 'hosts delete', 'DELETE /hosts/delete');
  const form = page.getByTestId('console-form');
  const submit = form.getByTestId('op-submit');
  await expect(submit).toBeDisabled();
  await form.getByTestId('field-query.name').fill('no-such-host');
  await expect(form).toContainText('Type no-such-host to confirm');
  await expect(submit).toBeDisabled();
  await form.getByTestId('op-confirm-input').fill('no-such-host');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByTestId('op-error')).toHaveText("Host 'no-such-host' does not exist.");
});

test('a create that times out is not sent again until the list has been checked', async ({ page }) => {
  await openConsole(page, 'hosts/create', 'POST /hosts/create');
  const form = page.getByTestId('console-form');
  await form.getByTestId('field-body.Name').fill('slow-host');
  await form.getByTestId('field-body.ChapSecret').fill('chap-secret-12');
  await expect(page.getByTestId('op-preview')).toContainText('"ChapSecret": "[redacted]"');
  await expect(page.getByTestId('op-preview')).not.toContainText('chap-secret-12');

  // The site answers after 3 s; main gives up after 2 s and, for a write, must not resend.
  fleet.simulator.control.setFaults(0, { latencyMs: 3000 });
  await form.getByTestId('op-submit').click();
  const outcome = page.getByTestId('outcome-unknown');
  await expect(outcome).toContainText('POST /hosts/create timed out', { timeout: 30_000 });
  await expect(form.getByTestId('field-body.ChapSecret')).toHaveValue('');
  const submit = form.getByTestId('op-submit');
  await expect(submit).toBeDisabled();

  fleet.simulator.control.setFaults(0, { latencyMs: 0 });
  await outcome.getByTestId('outcome-check').click();
  // The slow create did happen on the system: sending it again would have been a second attempt.
  await expect(page.getByTestId('outcome-verdict')).toContainText('“slow-host” is listed: the operation was applied.');
  await expect(submit).toBeEnabled();
  await expect(submit).toContainText('Send again');
});
