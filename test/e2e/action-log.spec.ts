import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { dialog, fleetSuite, submitDialog } from './support/admin.js';
import { frameShown, openSystem } from './support/ui.js';

/**
 * A write made in the UI is found in the action log view by filter, the
 * chain verifies, and the export the admin downloads holds the write without its password.
 */
const fleet = fleetSuite({ simulator: { sites: 2, systems: 2, seed: 'e2e-action-log' } });

const siteId = (): string => fleet().siteIds[0] as string;
const system = (): string => fleet().simulator.manifest.sites[0]?.systems[1] as string;
const PASSWORD = 'E2E-new-user-pw-7731';

test('a user created in the UI is found in the action log by filter, the chain verifies, and the CSV export holds it without the password', async ({ page }) => {
  await page.goto(fleet().url);
  await openSystem(page, siteId(), system(), 'Users');
  await page.getByTestId('user-create').click();
  const d = dialog(page);
  await d.getByTestId('field-body.Name').fill('e2e-auditor');
  await d.getByTestId('field-body.Password').fill(PASSWORD);
  await d.getByTestId('field-body.Role').fill('Viewer');
  await d.getByTestId('field-body.Email').fill('e2e-auditor@example.com');
  await submitDialog(page);
  await expect(page.getByTestId('users-table')).toContainText('e2e-auditor');

  // From the header, then filtered by site, system, operation and outcome.
  await page.getByTestId('open-actions').click();
  const view = page.getByTestId('action-log-view');
  await expect(view.getByTestId('action-count')).toContainText(/\d+ writes?/);
  await view.getByTestId('action-filter-site').selectOption(siteId());
  await view.getByTestId('action-filter-system').selectOption(system());
  await view.getByTestId('action-filter-operation').fill('users/create');
  await view.getByTestId('action-filter-result-ok').check();
  await view.getByTestId('action-filter-apply').click();
  await expect(view.getByTestId('action-count')).toHaveText('1 write matching the filter');
  const table = view.getByTestId('action-table');
  await expect(table.getByRole('row')).toHaveCount(2);
  const row = table.getByRole('row').nth(1);
  await expect(row).toContainText('POST /users/create');
  await expect(row).toContainText(system());

  // Opened with the keyboard: the redacted parameters and the system's answer.
  await table.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const record = view.getByTestId('action-record');
  await expect(record.getByTestId('action-params')).toContainText('"Name": "e2e-auditor"');
  await expect(record.getByTestId('action-params')).toContainText('"Password": "[redacted]"');
  await expect(record.getByTestId('action-answer')).toContainText("User 'e2e-auditor' created");
  await expect(view).not.toContainText(PASSWORD);

  // A filter nothing matches says so.
  await view.getByTestId('action-filter-result-ok').uncheck();
  await view.getByTestId('action-filter-result-refused').check();
  await view.getByTestId('action-filter-apply').click();
  await expect(view.getByTestId('action-count')).toHaveText('0 writes matching the filter');
  await expect(view).toContainText('No write matches this filter.');
  await view.getByTestId('action-filter-result-refused').uncheck();
  await view.getByTestId('action-filter-result-ok').check();
  await view.getByTestId('action-filter-apply').click();
  await expect(view.getByTestId('action-count')).toHaveText('1 write matching the filter');

  await view.getByTestId('action-verify-run').click();
  await expect(view.getByTestId('action-verify-result')).toContainText(/Chain intact: \d+ records verified, the intents and outcomes of \d+ writes?\./);

  const [download] = await Promise.all([page.waitForEvent('download'), view.getByTestId('action-export-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^fleetdeck-actions-.*\.csv$/);
  const path = await download.path();
  const csv = readFileSync(path, 'utf8');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('POST /users/create');
  expect(lines[1]).toContain('e2e-auditor');
  expect(csv).not.toContain(PASSWORD);
  await expect(view.getByTestId('action-export-note')).toHaveText(/1 write exported to fleetdeck-actions-.*\.csv\./);
});

test('the palette opens the action log, and a tampered record is shown as the first broken one', async ({ page }) => {
  await page.goto(fleet().url);
  await frameShown(page);
  await page.keyboard.press('Control+k');
  // Into the palette's input once it is there (keys typed before it opens go elsewhere), and Enter
  // only once the action log is the first choice.
  await page.getByTestId('palette-input').fill('action log');
  await expect(page.getByTestId('command-palette').getByRole('option').first()).toContainText('Action log');
  await page.keyboard.press('Enter');
  const view = page.getByTestId('action-log-view');
  await expect(view.getByTestId('action-count')).toContainText(/\d+ writes?/);

  const log = fleet().runtime.actionLog;
  const [created] = log.list({ operation: 'users/create' });
  if (!created) throw new Error('the first test made no write');
  const { openLogDatabase } = await import('../../main/store/index.js');
  const { dirname } = await import('node:path');
  const db = openLogDatabase(dirname(log.file));
  try {
    db.exec('DROP TRIGGER IF EXISTS action_log_no_update');
    db.prepare("UPDATE action_log SET params = replace(params, 'e2e-auditor', 'e2e-nobody') WHERE seq = ?").run(created.seq);
  } finally {
    db.close();
  }
  await view.getByTestId('action-verify-run').click();
  const result = view.getByTestId('action-verify-result');
  await expect(result).toContainText('Chain broken');
  await expect(result.getByTestId('action-verify-seq')).toHaveText(`#${created.seq}`);
  await expect(result).toContainText('it was edited');
});
