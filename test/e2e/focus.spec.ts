import { expect, test, type Page } from '@playwright/test';
import { fleetSuite, systemState } from './support/admin.js';
import { frameShown, openSystem } from './support/ui.js';

/**
 * The palette finds every fleet view by its name and common synonyms; focus lands in what was
 * opened, from the palette and from Enter on a table row; every control shows where focus is.
 */
const fleet = fleetSuite({ simulator: { demo: true } });

async function paletteFirst(page: Page, query: string): Promise<string> {
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill(query);
  const first = page.getByTestId('command-palette').getByRole('option').first();
  await expect(first).not.toHaveText(/Nothing matches/);
  const text = (await first.innerText()).replace(/\s+/g, ' ');
  await page.keyboard.press('Escape');
  return text;
}

test('the palette finds each fleet view by its name and synonyms, before areas and operations', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[0] as string;
  await page.goto(fleet().url);
  // With a system open, its operations are offered too: a view still comes first.
  await openSystem(page, siteId, system);
  const expected: Array<[string, string]> = [
    ['capacity planning', 'Capacity planning'],
    ['forecast', 'Capacity planning'],
    ['alerts', 'Alerts'],
    ['alarms', 'Alerts'],
    ['versions', 'Versions and firmware'],
    ['firmware', 'Versions and firmware'],
    ['compare', 'Compare configuration'],
    ['bulk', 'Bulk changes'],
    ['audit', 'Reports'],
    ['action log', 'Action log'],
    ['sites', 'Sites'],
    ['dashboard', 'Fleet overview'],
    ['add site', 'Add a site…'],
  ];
  for (const [query, label] of expected) expect(await paletteFirst(page, query), query).toMatch(new RegExp(`^(VIEW|View|ACTION|Action) ${label.replace('…', '.')}`));
});

test('after a palette jump focus is in the opened view, not back in the tree', async ({ page }) => {
  const siteId = fleet().siteIds[1] as string;
  const system = fleet().simulator.manifest.sites[1]?.systems[0] as string;
  await page.goto(fleet().url);
  await frameShown(page);
  await page.getByTestId(`tree-system-${siteId}-${system}`).focus();
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('capacity planning');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Capacity planning', level: 1 })).toBeFocused();

  // A host found by the palette: its detail takes focus.
  const host = systemState(fleet(), 1, system).hosts[0]?.name as string;
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').pressSequentially(host);
  const option = page.getByTestId('command-palette').getByRole('option').filter({ hasText: new RegExp(`^Found\\s*${host}\\s*host · .*${system}$`) });
  await expect(option).toBeVisible();
  await option.click();
  await expect(page.getByTestId('host-detail')).toBeFocused();
});

test('Enter on a table row moves focus into what it opened', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[1] as string;
  await page.goto(fleet().url);
  const table = page.getByTestId('overview-table');
  await expect(table).toHaveAttribute('data-row-count', '9');
  await table.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('system-page')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

  await openSystem(page, siteId, system, 'Hosts & mappings');
  const hosts = page.getByTestId('hosts-table');
  await expect(hosts.getByRole('row').nth(1)).toBeVisible();
  await hosts.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('host-detail')).toBeFocused();
});

/** Whether the focused element draws a focus indicator: an outline, a ring (box-shadow) or a row's outline. */
async function showsFocus(page: Page): Promise<{ what: string; shown: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { what: 'body', shown: false };
    const drawn = (x: Element): boolean => {
      const cs = getComputedStyle(x);
      return (cs.outlineStyle !== 'none' && Number.parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== 'none';
    };
    const what = `${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}`;
    return { what, shown: drawn(el) || [...el.children].some((c) => drawn(c)) };
  });
}

test('every control reached with Tab shows focus, sort buttons included', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[1] as string;
  await page.goto(fleet().url);
  await expect(page.getByTestId('overview-table')).toHaveAttribute('data-row-count', '9');
  const unseen: string[] = [];
  const walk = async (tabs: number): Promise<void> => {
    for (let i = 0; i < tabs; i++) {
      await page.keyboard.press('Tab');
      const f = await showsFocus(page);
      if (!f.shown) unseen.push(f.what);
    }
  };
  await page.getByTestId('open-overview').focus();
  await walk(40);
  await page.getByRole('button', { name: 'Health', exact: true }).first().focus();
  expect((await showsFocus(page)).shown).toBe(true);
  await openSystem(page, siteId, system, 'Hosts & mappings');
  await page.getByRole('navigation', { name: `Areas of ${system}` }).getByRole('button').first().focus();
  await walk(40);
  expect(unseen).toEqual([]);
});
