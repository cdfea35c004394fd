import { expect, test } from '@playwright/test';
import { fleetSuite } from './support/admin.js';
import { axeFindings } from './support/axe.js';

/**
 * Compliance as a new admin meets it: a system misconfigured through the simulator's control route
 * shows FAIL with its evidence, a waiver recorded with a reason turns a failing check into
 * "waived", the Fix… preview shows the exact write and, once confirmed, the check passes, and the
 * score kept per evaluation grows a history.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 2, seed: 'e2e-compliance', controlServer: true } });
// axe-core is injected as a script, which the shell's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

/** POSTs to the simulator's control route of site 0. */
async function control(path: string, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${fleet().simulator.manifest.control}/sites/0/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
}

test('a misconfigured system fails its check; a waiver and a fix each end the failure', async ({ page }) => {
  const [good, bad] = fleet().simulator.manifest.sites[0]?.systems as [string, string];
  await control('secure', { system: good });
  await control('secure', { system: bad });
  await control('misconfigure', { system: bad, check: 'support-tunnel-off' });
  await control('misconfigure', { system: bad, check: 'email-validates-certificate' });
  await fleet().runtime.fleet.refresh({ force: true });
  // The alert engine saw the new failure after the refresh, at the check's level.
  // (Two-step authentication is site-wide in the simulator: `secure` leaves it as it is.)
  const active = (): string[] => fleet().runtime.alerts.list({ rule: 'compliance', state: 'active' }).map((a) => `${a.system}/${a.subject}`);
  expect(active()).toEqual(expect.arrayContaining([`${bad}/email-validates-certificate`, `${bad}/support-tunnel-off`]));
  expect(active()).not.toContain(`${good}/support-tunnel-off`);

  await page.goto(fleet().url);
  await page.getByTestId('open-compliance').click();
  const matrix = page.getByTestId('compliance-matrix');
  const row = (system: string) => matrix.locator(`[data-testid="compliance-row"][data-system="${system}"]`);
  const cell = (system: string, check: string) => row(system).locator(`[data-testid="compliance-cell"][data-check="${check}"]`);
  await expect(cell(bad, 'support-tunnel-off')).toHaveAttribute('data-result', 'fail', { timeout: 30_000 });
  await expect(cell(bad, 'support-tunnel-off')).toHaveText('FAIL');
  await expect(cell(good, 'support-tunnel-off')).toHaveAttribute('data-result', 'pass');
  // Worst first: the misconfigured system heads the matrix.
  await expect(matrix.getByTestId('compliance-row').first()).toHaveAttribute('data-system', bad);

  // Drilled into the system: the value, the operation it came from and its age.
  await row(bad).getByTestId('compliance-system').click();
  const detail = page.getByTestId('compliance-system-detail');
  const tunnel = detail.locator('[data-testid="compliance-detail-row"][data-check="support-tunnel-off"]');
  await expect(tunnel).toHaveAttribute('data-result', 'fail');
  await expect(tunnel).toContainText('SupportTunnelStatus');
  await expect(tunnel).toContainText('GET /nodes/support/tunnel/status');
  expect(await axeFindings(page)).toEqual([]);

  // A waiver with a reason: shown as waived, by whom and until when, and recorded in the action log.
  const email = detail.locator('[data-testid="compliance-detail-row"][data-check="email-validates-certificate"]');
  await email.getByTestId('compliance-waive').click();
  const waive = page.getByTestId('compliance-waive-dialog');
  await waive.getByTestId('compliance-waive-reason').fill('mail relay on the management VLAN only');
  await waive.getByTestId('compliance-waive-submit').click();
  await expect(waive).toHaveCount(0);
  await expect(email).toHaveAttribute('data-result', 'waived');
  await expect(email.getByTestId('compliance-waiver')).toContainText('waived (mail relay on the management VLAN only, by ');
  await expect(page.getByTestId('compliance-waiver-row')).toHaveCount(1);
  const records = fleet().runtime.actionLog.list({ operation: 'compliance waive' });
  expect(records.map((r) => [r.operation, r.system])).toEqual([['compliance waive', bad]]);
  expect(fleet().runtime.actionLog.verify().ok).toBe(true);
  // Waived, its alert is cleared.
  expect(active()).not.toContain(`${bad}/email-validates-certificate`);
  expect(active()).toContain(`${bad}/support-tunnel-off`);

  // Fix…: the exact write previewed, nothing sent before the confirmation, then the check passes.
  await matrix.locator('[data-testid="compliance-check-head"][data-check="support-tunnel-off"]').click();
  await page.getByTestId('compliance-fix').click();
  const fix = page.getByTestId('compliance-fix-dialog');
  await expect(fix.getByTestId('compliance-fix-write')).toHaveCount(1);
  await expect(fix.getByTestId('compliance-fix-write')).toContainText('PUT /nodes/support/tunnel/disable');
  await expect(fix.getByTestId('compliance-fix-body')).toContainText('"Node":');
  await expect(fix.getByTestId('compliance-fix-write')).toContainText(bad);
  expect(fleet().runtime.actionLog.list({ operation: 'tunnel/disable' })).toHaveLength(0);
  await fix.getByTestId('compliance-fix-send').click();
  await expect(fix.getByTestId('compliance-fix-done')).toBeVisible({ timeout: 30_000 });
  await expect(fix.getByTestId('compliance-fix-outcome')).toContainText('1 applied');
  await expect(cell(bad, 'support-tunnel-off')).toHaveAttribute('data-result', 'pass', { timeout: 30_000 });
  await fix.getByRole('button', { name: 'Close' }).click();
  expect(fleet().runtime.actionLog.list({ operation: 'tunnel/disable' }).map((r) => [r.system, r.result])).toEqual([[bad, 'ok']]);
  // Passing again, its alert is cleared.
  expect(active()).not.toContain(`${bad}/support-tunnel-off`);

  // Each evaluation's score is kept: the history has the points before and after.
  await expect(page.getByTestId('compliance-history')).toContainText(/\d+ evaluations kept/);
  expect(fleet().runtime.compliance.historyOf(fleet().siteIds[0] as string, bad).length).toBeGreaterThanOrEqual(2);
});
