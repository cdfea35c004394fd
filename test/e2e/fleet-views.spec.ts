import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { planRows } from '../../app/capacity/plan.js';
import { rollupAnswers, systemRollup } from '../../app/health/system-health.js';
import { createApplication } from '../../simulator/state/provision.js';
import { fleetSuite, sizeToFill, systemState } from './support/admin.js';

/**
 * The fleet as one. Capacity planning lists every pool fullest first, version
 * drift highlights a version set through the simulator's control API, and the configuration
 * comparison marks a difference made in the simulator.
 */
const fleet = fleetSuite({ simulator: { sites: 2, systems: 3, seed: 'e2e-fleet-views', controlServer: true } });

test('capacity planning lists every pool, the fullest first, and sorts by used share', async ({ page }) => {
  const f = fleet();
  // The same cached answers and the same shared assessment the view uses, computed here.
  const expectedRows = () =>
    planRows(
      f.siteIds.flatMap((siteId, i) =>
        (f.simulator.manifest.sites[i]?.systems ?? []).map((system) => ({
          siteId,
          siteName: f.simulator.manifest.sites[i]?.name ?? '',
          system,
          capacity: systemRollup(rollupAnswers((r) => f.runtime.fleet.cached(siteId, system, r.op, r.query)?.value), Date.now()).capacity,
        })),
      ),
    );
  const before = expectedRows();
  expect(before.length).toBeGreaterThan(6);
  await page.goto(f.url);
  await page.getByTestId('open-capacity').click();
  const table = page.getByTestId('plan-table');
  const first = table.locator('[role="row"][aria-rowindex="2"]');
  await expect(table).toHaveAttribute('data-row-count', String(before.length), { timeout: 30_000 });
  await expect(first).toHaveAttribute('data-testid', `plan-row-${before[0]?.system}-${before[0]?.pool}`);
  await expect(page.getByTestId('plan-total')).toContainText(`${before.length} pools on 6 systems`);
  await expect(page.getByTestId('plan-full-now')).toHaveText('0');

  // A pool of the system that is last in the list is provisioned until the system reports it Full.
  const last = before[before.length - 1] as (typeof before)[number];
  const siteIndex = f.siteIds.indexOf(last.siteId);
  const state = systemState(f, siteIndex, last.system);
  const { pool, gib } = sizeToFill(state);
  const layout = state.templates.flatMap((t) => t.volumes)[0];
  if (!layout) throw new Error('the simulated system has no template volume to copy');
  createApplication(state, 'e2e-fill', { name: 'e2e-fill', description: '', cgs: [], volumes: [{ ...layout, id: 9_999, name: 'big', pool: pool.name, capacityBytes: gib * 1024 ** 3, snapshotCapacityBytes: 0, cgid: undefined }] }, '', Date.now());
  await f.runtime.fleet.refresh({ force: true });
  const after = expectedRows();
  expect(after[0]).toMatchObject({ system: last.system, pool: pool.name, fullNow: true });
  await expect(first).toHaveAttribute('data-testid', `plan-row-${last.system}-${pool.name}`, { timeout: 30_000 });
  await expect(first).toContainText('full');
  await expect(page.getByTestId('plan-full-now')).toHaveText('1');

  // Sorted by used share, highest first.
  await table.getByRole('columnheader', { name: 'Used' }).getByRole('button').click();
  await table.getByRole('columnheader', { name: 'Used' }).getByRole('button').click();
  const byUsed = [...after].sort((a, b) => (b.usedPercent ?? -1) - (a.usedPercent ?? -1));
  await expect(first).toHaveAttribute('data-testid', `plan-row-${byUsed[0]?.system}-${byUsed[0]?.pool}`);

  // Exported through main as CSV and downloaded: the fullest pool first, the fleet total last.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('plan-export-submit').click()]);
  expect(download.suggestedFilename()).toMatch(/^fleetdeck-capacity-planning-.*\.csv$/);
  const lines = readFileSync(await download.path(), 'utf8').trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^Site,System,Pool,Days until full,/);
  expect(lines[1]).toContain(`,${last.system},${pool.name},`);
  expect(lines).toHaveLength(after.length + 2);
  expect(lines[lines.length - 1]).toMatch(/^Fleet total,6 systems,/);
  await expect(page.getByTestId('plan-export-done')).toContainText(download.suggestedFilename());
});

test('an outlier version set through the simulator is highlighted, and filters to its system', async ({ page, request }) => {
  const f = fleet();
  const system = f.simulator.manifest.sites[1]?.systems[2] as string;
  const control = f.simulator.manifest.control as string;
  const set = await request.post(`${control}/sites/1/versions`, { data: { system, component: 'Management', version: '4.9.9' } });
  expect(set.ok()).toBe(true);
  await f.runtime.fleet.refresh({ force: true });

  await page.goto(f.url);
  await page.getByTestId('open-drift').click();
  const row = page.getByTestId('drift-row').filter({ has: page.locator('th', { hasText: /^Management$/ }) });
  const outlier = row.locator('[data-testid="drift-version"][data-version="4.9.9"]');
  await expect(outlier).toHaveAttribute('data-outlier', 'true', { timeout: 30_000 });
  await expect(outlier).toContainText('outlier');
  await expect(row).toHaveAttribute('data-drifting', 'true');
  // The most common version is not an outlier.
  await expect(row.locator('[data-testid="drift-version"]').first()).toHaveAttribute('data-outlier', 'false');
  await outlier.click();
  const systems = page.getByTestId('drift-systems');
  await expect(systems.getByRole('listitem')).toHaveCount(1);
  await expect(systems).toContainText(system);
});

test('comparing systems marks a difference made in the simulator', async ({ page }) => {
  const f = fleet();
  const [a, b] = f.simulator.manifest.sites[0]?.systems as [string, string];
  systemState(f, 0, b).isns = { address: '10.77.0.9', accessControl: true };
  await f.runtime.fleet.refresh({ force: true });

  await page.goto(f.url);
  await page.getByTestId('open-compare').click();
  await expect(page.getByTestId('compare-hint')).toBeVisible();
  // Keyboard: focus a system's checkbox and press Space.
  await page.getByTestId(`compare-pick-${a}`).focus();
  await page.keyboard.press('Space');
  await page.getByTestId(`compare-pick-${b}`).focus();
  await page.keyboard.press('Space');
  const isns = page.locator('[data-testid="compare-line"][data-field="iSNS server"]');
  await expect(isns).toHaveAttribute('data-differs', 'true', { timeout: 30_000 });
  await expect(isns).toContainText('10.77.0.9');
  await expect(page.locator('[data-testid="compare-line"][data-field="iSNS access control"]')).toHaveAttribute('data-differs', 'true');
  // Users of the same generated set are alike on both systems; no secret value is shown.
  await expect(page.getByTestId('compare-table')).not.toContainText('[redacted]');
  await page.getByTestId('compare-only').check();
  await expect(page.locator('[data-testid="compare-line"][data-differs="false"]')).toHaveCount(0);
});
