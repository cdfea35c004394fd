import { expect, test, type Page } from '@playwright/test';
import { fleetSuite } from './support/admin.js';
import { axeFindings, type AxeFinding } from './support/axe.js';
import { openSystem } from './support/ui.js';

/**
 * axe-core on every main view of the demo fleet: no serious or critical finding, and no control whose
 * accessible name differs from its visible text (the Alerts button, the tree's entries).
 */
const fleet = fleetSuite({ simulator: { demo: true } });
// axe-core is injected as a script, which the shell's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

async function settle(page: Page): Promise<void> {
  await expect(page.getByText(/reading cached data…|Loading…/)).toHaveCount(0);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('every main view has no serious axe-core finding and no name that differs from its text', async ({ page }) => {
  test.setTimeout(180_000);
  const found: Record<string, AxeFinding[]> = {};
  const look = async (view: string): Promise<void> => {
    await settle(page);
    const f = await axeFindings(page);
    if (f.length) found[view] = f;
  };
  await page.goto(fleet().url);
  await expect(page.getByTestId('overview-table')).toHaveAttribute('data-row-count', '9');
  await look('overview');
  for (const view of ['sites', 'reports', 'bulk', 'alerts', 'actions', 'capacity', 'drift', 'compare']) {
    await page.getByTestId(`open-${view}`).click();
    await look(view);
  }
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[1] as string;
  await openSystem(page, siteId, system);
  // The tree with a system's areas expanded.
  await look('system summary');
  const areas = page.getByRole('navigation', { name: `Areas of ${system}` }).getByRole('button');
  for (const area of ['Monitoring', 'Notifications', 'Hardware', 'Applications & volumes', 'Hosts & mappings', 'Replication', 'Users', 'Notification targets', 'Settings', 'Workflows', 'Operation console']) {
    await areas.filter({ hasText: new RegExp(`^${area.replace(/[&]/g, '.')}$`) }).or(page.getByRole('navigation', { name: `Areas of ${system}` }).getByRole('button', { name: area, exact: true })).first().click();
    await look(`area ${area}`);
  }
  expect(found).toEqual({});
});
