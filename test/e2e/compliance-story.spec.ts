import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { fleetSuite } from './support/admin.js';

/**
 * The whole compliance story of an admin, on the demo fleet in the browser shell: the Compliance
 * view before and after two systems drift, what changed (and that the alert centre agrees), which
 * system fails which check and why, a waiver with its reason and end, a fix through the preview
 * whose outcome passes, and the audit pack that carries all of it.
 */
const fleet = fleetSuite({ simulator: { demo: true, controlServer: true } });

/** POSTs to the simulator's control route of site 0. */
async function control(path: string, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${fleet().simulator.manifest.control}/sites/0/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
}

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; path: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: d.suggestedFilename(), path: await d.path() };
}

interface Table {
  id: string;
  columns: Array<{ id: string }>;
  rows: unknown[][];
}

test('open Compliance, see what fails and why, waive one, fix another, and find it all in the audit pack', async ({ page }) => {
  test.setTimeout(180_000);
  const f = fleet();
  const [toFix, toWaive] = f.simulator.manifest.sites[0]?.systems as [string, string];
  await control('secure', { system: toFix });
  await control('secure', { system: toWaive });
  await f.runtime.fleet.refresh({ force: true });

  await page.goto(f.url);
  await page.getByTestId('open-compliance').click();
  const matrix = page.getByTestId('compliance-matrix');
  const row = (system: string) => matrix.locator(`[data-testid="compliance-row"][data-system="${system}"]`);
  const cell = (system: string, check: string) => row(system).locator(`[data-testid="compliance-cell"][data-check="${check}"]`);
  await expect(cell(toFix, 'support-tunnel-off')).toHaveAttribute('data-result', 'pass', { timeout: 30_000 });
  await expect(page.getByTestId('compliance-baseline')).toContainText('baseline fleetdeck-secure 1.0.0');

  // Two systems drift; the next evaluation says what changed, and the alert centre agrees.
  await control('misconfigure', { system: toFix, check: 'support-tunnel-off' });
  await control('misconfigure', { system: toWaive, check: 'email-validates-certificate' });
  await f.runtime.fleet.refresh({ force: true });
  await page.getByTestId('compliance-evaluate').click();
  await expect(cell(toFix, 'support-tunnel-off')).toHaveAttribute('data-result', 'fail', { timeout: 30_000 });
  const changes = page.getByTestId('compliance-changes');
  const change = (system: string, check: string) => changes.locator(`[data-testid="compliance-change"][data-system="${system}"][data-check="${check}"]`);
  await expect(change(toFix, 'support-tunnel-off')).toHaveAttribute('data-kind', 'fails');
  await expect(change(toFix, 'support-tunnel-off')).toContainText('pass → FAIL');
  await expect(change(toWaive, 'email-validates-certificate')).toHaveAttribute('data-kind', 'fails');
  const active = () => f.runtime.alerts.list({ rule: 'compliance', state: 'active' });
  for (const [system, check] of [
    [toFix, 'support-tunnel-off'],
    [toWaive, 'email-validates-certificate'],
  ] as const) {
    const alert = active().find((a) => a.system === system && a.subject === check);
    expect(alert, `${system}/${check}`).toBeDefined();
    await expect(change(system, check).getByTestId('compliance-change-alert')).toHaveText(`${alert?.level} alert ${alert?.state}`);
  }
  // Every check the view says newly fails with an alert has one in the alert centre, and no more.
  const newlyFailing = await changes.locator('[data-testid="compliance-change"][data-kind="fails"]').evaluateAll((rows) =>
    rows.filter((r) => /alert (open|acknowledged|snoozed)$/.test(r.textContent ?? '')).map((r) => `${(r as HTMLElement).dataset.system}/${(r as HTMLElement).dataset.check}`),
  );
  const alerted = new Set(active().map((a) => `${a.system}/${a.subject}`));
  for (const key of newlyFailing) expect(alerted).toContain(key);

  // Why: the value, the operation it was read from and its age.
  await row(toFix).getByTestId('compliance-system').click();
  const detail = page.getByTestId('compliance-system-detail');
  const tunnel = detail.locator('[data-testid="compliance-detail-row"][data-check="support-tunnel-off"]');
  await expect(tunnel).toHaveAttribute('data-result', 'fail');
  await expect(tunnel).toContainText('SupportTunnelStatus = "Enabled');
  await expect(tunnel).toContainText('GET /nodes/support/tunnel/status');
  await expect(tunnel.getByTestId('compliance-detail-change')).toHaveText('newly fails');

  // Waive the other with a reason and an end.
  await row(toWaive).getByTestId('compliance-system').click();
  const email = detail.locator('[data-testid="compliance-detail-row"][data-check="email-validates-certificate"]');
  await expect(email).toHaveAttribute('data-result', 'fail');
  await email.getByTestId('compliance-waive').click();
  const waive = page.getByTestId('compliance-waive-dialog');
  await waive.getByTestId('compliance-waive-reason').fill('relay accepts mail from the management VLAN only; change 7731');
  await waive.getByTestId('compliance-waive-until').fill('2099-06-30');
  await waive.getByTestId('compliance-waive-submit').click();
  await expect(waive).toHaveCount(0);
  await expect(email).toHaveAttribute('data-result', 'waived');
  const [record] = f.runtime.actionLog.list({ operation: 'compliance waive' });
  const granter = record?.user as string;
  const until = (record?.params as { until: string }).until;
  expect(until).toMatch(/^2099-0[67]-/);
  await expect(email.getByTestId('compliance-waiver')).toHaveText(`waived (relay accepts mail from the management VLAN only; change 7731, by ${granter}, until ${until})`);
  await expect(change(toWaive, 'email-validates-certificate')).toHaveAttribute('data-kind', 'waived');
  await expect(change(toWaive, 'email-validates-certificate').getByTestId('compliance-change-alert')).toHaveText('no alert open');
  expect(active().some((a) => a.system === toWaive && a.subject === 'email-validates-certificate')).toBe(false);

  // Fix the tunnel through the preview; nothing is sent before the confirmation.
  await matrix.locator('[data-testid="compliance-check-head"][data-check="support-tunnel-off"]').click();
  await page.getByTestId('compliance-fix').click();
  const fix = page.getByTestId('compliance-fix-dialog');
  await expect(fix.getByTestId('compliance-fix-write').first()).toContainText('PUT /nodes/support/tunnel/disable');
  await expect(fix.getByTestId('compliance-fix-write').filter({ hasText: toFix })).toHaveCount(1);
  expect(f.runtime.actionLog.list({ operation: 'tunnel/disable' })).toHaveLength(0);
  await fix.getByTestId('compliance-fix-send').click();
  await expect(fix.getByTestId('compliance-fix-done')).toBeVisible({ timeout: 60_000 });
  await expect(cell(toFix, 'support-tunnel-off')).toHaveAttribute('data-result', 'pass', { timeout: 30_000 });
  // The preview says the outcome: the check evaluated again on each system the fix went to.
  const fixed = fix.locator(`[data-testid="compliance-fix-result"][data-system="${toFix}"]`);
  await expect(fixed).toHaveAttribute('data-result', 'pass');
  await expect(fixed).toContainText(`${toFix} (${f.simulator.manifest.sites[0]?.name}): pass`);
  await fix.getByRole('button', { name: 'Close' }).click();
  await expect(change(toFix, 'support-tunnel-off')).toHaveAttribute('data-kind', 'passes');
  await expect(change(toFix, 'support-tunnel-off').getByTestId('compliance-change-alert')).toHaveText('no alert open');
  expect(active().some((a) => a.system === toFix && a.subject === 'support-tunnel-off')).toBe(false);
  const sha256 = await page.getByTestId('compliance-baseline').locator('[title]').getAttribute('title');
  expect(sha256).toMatch(/^[0-9a-f]{64}$/);

  // The audit pack, downloaded, holds the baseline, the fixed check passing, the waiver and the changes.
  await page.getByTestId('open-reports').click();
  await page.getByTestId('report-kind-audit').check();
  await page.getByTestId('report-source-cache').check();
  await page.getByTestId('report-generate').click();
  await expect(page.getByTestId('report-export')).toBeVisible({ timeout: 90_000 });
  const zip = await download(page, () => page.getByTestId('export-submit').click());
  const folder = zip.name.replace(/\.zip$/, '');
  const file = (path: string): string => execFileSync('unzip', ['-p', zip.path, `${folder}/${path}`], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const model = JSON.parse(file('report.json')) as { sections: Array<{ id: string; tables: Table[] }> };
  const tables = model.sections.find((s) => s.id === 'compliance')?.tables ?? [];
  const rows = (id: string): Array<Record<string, unknown>> => {
    const t = tables.find((x) => x.id === id);
    return (t?.rows ?? []).map((r) => Object.fromEntries(t!.columns.map((c, i) => [c.id, r[i]])));
  };
  expect(rows('compliance.baseline')[0]).toMatchObject({ name: 'fleetdeck-secure', version: '1.0.0', sha256 });
  expect(rows('compliance.results').find((r) => r.system === toFix && r.check === 'support-tunnel-off')).toMatchObject({ result: 'pass', operation: 'GET /nodes/support/tunnel/status' });
  expect(rows('compliance.results').find((r) => r.system === toWaive && r.check === 'email-validates-certificate')).toMatchObject({ result: 'waived' });
  expect(rows('compliance.waivers')).toEqual([
    expect.objectContaining({ check: 'email-validates-certificate', reason: 'relay accepts mail from the management VLAN only; change 7731', by: granter, until, state: 'in force' }),
  ]);
  expect(rows('compliance.changes')).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ system: toFix, check: 'support-tunnel-off', change: 'newly passes', from: 'FAIL', to: 'pass' }),
      expect.objectContaining({ system: toWaive, check: 'email-validates-certificate', change: 'newly waived', from: 'FAIL', to: 'waived' }),
    ]),
  );
  // The same in the formats an auditor opens without tools.
  const waiversCsv = file('csv/compliance.waivers.csv');
  for (const text of ['relay accepts mail from the management VLAN only; change 7731', granter, until]) expect(waiversCsv).toContain(text);
  expect(file('csv/compliance.baseline.csv')).toContain(sha256 as string);
  const html = file('report.html');
  for (const text of ['relay accepts mail from the management VLAN only; change 7731', sha256 as string, 'newly passes']) expect(html).toContain(text);
});
