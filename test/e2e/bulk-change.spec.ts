import { expect, test } from '@playwright/test';
import { fleetSuite, systemState } from './support/admin.js';

/**
 * One write on three systems, one refusing (a fault injected on its site through
 * the simulator's control API). Each system's outcome is shown, every write is in the action log,
 * and the retry sends again only to the system that refused.
 */
const fleet = fleetSuite({ simulator: { sites: 3, systems: 1, seed: 'e2e-bulk' } });

const systemOf = (i: number): string => fleet().simulator.manifest.sites[i]?.systems[0] as string;
const siteOf = (i: number): string => fleet().siteIds[i] as string;
const OP = 'POST /notifications/targets/email/add';

test('a bulk change on three systems shows each outcome and the retry resends only the refused one', async ({ page }) => {
  await page.goto(fleet().url);
  await page.getByTestId('open-bulk').click();
  const view = page.getByTestId('bulk-view');
  await view.getByTestId('bulk-op').selectOption(OP);
  for (const i of [0, 1, 2]) await view.getByTestId(`bulk-system-${siteOf(i)}-${systemOf(i)}`).check();
  await expect(view.getByTestId('bulk-count')).toHaveText('3 chosen');
  await view.getByTestId('bulk-cap').fill('2');

  const form = view.getByTestId('bulk-form');
  await form.getByTestId('field-body.Name').fill('bulk-ops');
  await form.getByTestId('field-body.Email').fill('ops@example.com');
  await form.getByTestId('op-submit').click();

  // The preview: one request per system, as it will be sent.
  const preview = view.getByTestId('bulk-preview');
  for (const i of [0, 1, 2]) {
    const req = preview.getByTestId(`bulk-preview-${siteOf(i)}-${systemOf(i)}`);
    await expect(req).toContainText(OP);
    await expect(req).toContainText('"Name": "bulk-ops"');
  }

  // The second site turns every request away from now on.
  fleet().simulator.control.setFaults(1, { errorRate: 1, errorMode: 'status' });
  await preview.getByTestId('bulk-start').click();

  const job = view.getByTestId('bulk-job').first();
  await expect(job).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  const outcome = (i: number) => job.getByTestId(`bulk-outcome-${siteOf(i)}-${systemOf(i)}`);
  await expect(outcome(0)).toHaveAttribute('data-outcome', 'ok');
  await expect(outcome(1)).toHaveAttribute('data-outcome', 'refused');
  await expect(outcome(1)).toContainText('Simulated fault');
  await expect(outcome(2)).toHaveAttribute('data-outcome', 'ok');
  await expect(job.getByTestId('bulk-job-summary')).toContainText('2 applied, 1 refused, 0 unknown');

  // Every write is in the action log, each with its outcome.
  const log = () => fleet().runtime.actionLog.list({}).filter((e) => e.operation === OP);
  expect(log().map((e) => `${e.siteId}:${e.result}`).sort()).toEqual([`${siteOf(0)}:ok`, `${siteOf(1)}:refused`, `${siteOf(2)}:ok`].sort());

  // The site answers again; the retry goes to the refused system alone.
  fleet().simulator.control.setFaults(1, { errorRate: 0 });
  await job.getByTestId('bulk-retry').click();
  await expect(outcome(1)).toHaveAttribute('data-outcome', 'ok', { timeout: 30_000 });
  await expect(job).toHaveAttribute('data-state', 'done');
  await expect(job.getByTestId('bulk-retry')).toBeDisabled();
  expect(log().filter((e) => e.siteId === siteOf(0))).toHaveLength(1);
  expect(log().filter((e) => e.siteId === siteOf(2))).toHaveLength(1);
  expect(log().filter((e) => e.siteId === siteOf(1)).map((e) => e.result).sort()).toEqual(['ok', 'refused']);
  // What the systems received: the target exists once on each.
  for (const i of [0, 1, 2]) expect(systemState(fleet(), i, systemOf(i)).targets.filter((t) => t.name === 'bulk-ops')).toHaveLength(1);

  // The outcomes live in main: leaving the view and coming back shows them again.
  await page.getByTestId('open-overview').click();
  await page.getByTestId('open-bulk').click();
  await expect(view.getByTestId('bulk-job').first().getByTestId(`bulk-outcome-${siteOf(1)}-${systemOf(1)}`)).toHaveAttribute('data-outcome', 'ok');
});

test('the preview masks a secret, and a destructive bulk change asks for typed confirmation', async ({ page }) => {
  await page.goto(fleet().url);
  await page.getByTestId('open-bulk').click();
  const view = page.getByTestId('bulk-view');
  await view.getByTestId('bulk-op').selectOption('PUT /nodes/chap');
  await view.getByTestId('bulk-all').click();
  await expect(view.getByTestId('bulk-count')).toHaveText('3 chosen');
  const form = view.getByTestId('bulk-form');
  await form.getByTestId('field-body.ChapName').fill('fleet-chap');
  await form.getByTestId('field-body.ChapSecret').fill('Chap-Secret-42x');
  await form.getByTestId('op-submit').click();
  const preview = view.getByTestId('bulk-preview');
  await expect(preview.getByTestId(`bulk-preview-${siteOf(0)}-${systemOf(0)}`)).toContainText('"ChapSecret": "[redacted]"');
  await expect(preview).not.toContainText('Chap-Secret-42x');
  await expect(view.getByTestId('bulk-confirm-input')).toHaveCount(0);
  await view.getByTestId('bulk-back').click();

  // Resetting e-mail settings destroys: the start waits for the count typed.
  await view.getByTestId('bulk-op').selectOption('PUT /notifications/settings/email/reset');
  await view.getByTestId('bulk-form').getByTestId('op-submit').click();
  const start = view.getByTestId('bulk-start');
  await expect(start).toBeDisabled();
  await view.getByTestId('bulk-confirm-input').fill('2 systems');
  await expect(start).toBeDisabled();
  await view.getByTestId('bulk-confirm-input').fill('3 systems');
  await expect(start).toBeEnabled();
});

test('creating a user on several systems asks for what every system needs before any preview', async ({ page }) => {
  await page.goto(fleet().url);
  await page.getByTestId('open-bulk').click();
  const view = page.getByTestId('bulk-view');
  await view.getByTestId('bulk-op').selectOption('POST /users/create');
  await view.getByTestId('bulk-all').click();
  const form = view.getByTestId('bulk-form');
  await form.getByTestId('field-body.Name').fill('bulk-user');
  await form.getByTestId('field-body.Password').fill('Bulk-Password-2026');
  await form.getByTestId('field-body.Role').fill('Viewer');
  // Without an e-mail every system would refuse it: the form says so once, and nothing is previewed.
  await form.getByTestId('op-submit').click();
  await expect(form.getByTestId('op-problems')).toContainText('E-mail: required');
  await expect(view.getByTestId('bulk-preview')).toHaveCount(0);
  await form.getByTestId('field-body.Email').fill('bulk@example.com');
  await form.getByTestId('op-submit').click();
  await expect(view.getByTestId('bulk-preview')).toBeVisible();
});
