import { expect, test } from '@playwright/test';
import { fleetSuite } from './support/admin.js';

/**
 * An alert appears in the alert centre after a refresh (a drive failed through
 * the simulator's control API), the header badge counts it, the list filters it, and the system
 * opens from it; acknowledging takes it out of the open count.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 2, seed: 'alerts-e2e' } });

test('a failed drive is raised after a refresh, found by filter, opened, and acknowledged', async ({ page }) => {
  const failed = fleet().simulator.control.failDrive({ site: 0 });
  const siteId = fleet().siteIds[0] as string;
  await page.goto(fleet().url);
  const badge = page.getByTestId('open-alerts');
  // The count is read after the first frame: until then the badge says it is not known (never 0).
  await expect(badge).toHaveAccessibleName(/^Alerts: \d+ open$/);
  const before = Number((await badge.getAttribute('aria-label'))?.match(/Alerts: (\d+) open/)?.[1]);
  expect(Number.isInteger(before)).toBe(true);

  await page.getByTestId('refresh-fleet').click();
  await expect(page.getByTestId('refresh-fleet')).toHaveText('Refresh', { timeout: 60_000 });
  // The drive's alert and the Critical notification the system wrote about it.
  await expect(badge).toHaveAccessibleName(`Alerts: ${before + 2} open`);
  await expect(page.getByTestId('alerts-badge')).toHaveText(String(before + 2));

  await badge.click();
  await expect(page.getByTestId('alerts-view')).toBeVisible();
  await page.getByTestId('alert-filter-rule').selectOption('drive');
  const row = page.getByTestId('alert-row').filter({ hasText: `${failed.node}/${failed.name}` });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-state', 'open');
  await expect(row.locator('[data-level]')).toHaveAttribute('data-level', 'critical');
  await expect(page.getByTestId('alerts-view').getByTestId('as-of')).toBeVisible();

  await row.getByTestId('alert-ack').click();
  await expect(row).toHaveAttribute('data-state', 'acknowledged');
  await expect(badge).toHaveAccessibleName(`Alerts: ${before + 1} open`);
  // The list's heading counts what the list shows, each under its state, not the open count alone.
  const states = await page.getByTestId('alert-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state')));
  const n = (state: string): number => states.filter((x) => x === state).length;
  expect(n('acknowledged')).toBeGreaterThan(0);
  await expect(page.getByTestId('alerts-shown')).toHaveText(`${states.length} alerts: ${n('open')} open, ${n('acknowledged')} acknowledged`);

  await row.getByTestId('alert-open-system').click();
  await expect(page.getByTestId('system-page')).toHaveAttribute('data-system', failed.system);
  await expect(page.getByTestId(`tree-system-${siteId}-${failed.system}`)).toBeVisible();
});

test('a rule edited for one system applies at once and is kept', async ({ page }) => {
  await page.goto(fleet().url);
  await page.getByTestId('open-alerts').click();
  const editor = page.getByTestId('rule-editor');
  const system = fleet().simulator.manifest.sites[0]?.systems[0] as string;
  await editor.getByTestId('rule-scope').selectOption('system');
  await editor.getByTestId('rule-site').selectOption(fleet().siteIds[0] as string);
  await editor.getByTestId('rule-system').selectOption(system);
  await editor.getByTestId('rule-enabled-drive').uncheck();
  await editor.getByTestId('rule-save').click();
  await expect(editor.getByRole('status')).toContainText('recorded in the action log');
  await page.getByTestId('alert-filter-rule').selectOption('drive');
  await page.getByTestId('alert-filter-state').selectOption('active');
  await expect(page.getByTestId('alert-row').filter({ hasText: `${system}` })).toHaveCount(0);
  // A new page load: the rules come from main, not from the page that set them.
  await page.goto(fleet().url);
  await page.getByTestId('open-alerts').click();
  await editor.getByTestId('rule-scope').selectOption('system');
  await editor.getByTestId('rule-site').selectOption(fleet().siteIds[0] as string);
  await editor.getByTestId('rule-system').selectOption(system);
  await expect(editor.getByTestId('rule-enabled-drive')).not.toBeChecked();
  await expect(editor.getByTestId('rule-reset')).toBeVisible();
});

test('the alert centre says which sites are not polled, and so raise no alert by themselves', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const name = fleet().simulator.manifest.sites[0]?.name as string;
  // Added without an interval: polled at the default, so nothing to say.
  expect(fleet().runtime.sites.get(siteId)?.polling.intervalSeconds).toBeGreaterThan(0);
  await page.goto(fleet().url);
  await page.getByTestId('open-alerts').click();
  await expect(page.getByTestId('alerts-view')).toBeVisible();
  await expect(page.getByTestId('alerts-not-polled')).toHaveCount(0);

  // On demand is a choice; the alert centre then names the site.
  await fleet().runtime.fleet.editSite(siteId, { polling: { intervalSeconds: 0 } });
  await page.goto(fleet().url);
  await page.getByTestId('open-alerts').click();
  await expect(page.getByTestId('alerts-not-polled')).toContainText(`${name} (on demand)`);
  await fleet().runtime.fleet.editSite(siteId, { polling: { intervalSeconds: 300 } });
});
