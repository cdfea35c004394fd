import { expect, type Page } from '@playwright/test';

/**
 * Waits for the window's frame to be shown: the page's `load` can come before the frame's script has
 * mounted it (its chunk is imported by the async entry, and it is shown with the first answers); a
 * shortcut pressed before then is kept for the frame (renderer/lib/early-keys.ts), but one pressed
 * before the entry has run reaches no handler.
 */
export async function frameShown(page: Page): Promise<void> {
  await expect(page.getByTestId('open-overview')).toBeVisible();
}

/** Opens a system from the fleet tree and, optionally, one of its areas from the area bar. */
export async function openSystem(page: Page, siteId: string, system: string, area?: string): Promise<void> {
  await page.getByTestId(`tree-system-${siteId}-${system}`).click();
  await expect(page.getByTestId('system-page')).toHaveAttribute('data-system', system);
  if (area) {
    await page.getByRole('navigation', { name: `Areas of ${system}` }).getByRole('button', { name: area, exact: true }).click();
  }
}

/** Types a name into a typed-name confirmation (dialog or inline) and confirms. */
export async function confirmByName(page: Page, name: string): Promise<void> {
  const dialog = page.getByTestId('confirm-dialog');
  const submit = dialog.getByTestId('confirm-submit');
  await dialog.getByTestId('confirm-input').fill(`${name}x`);
  await expect(submit).toBeDisabled();
  await dialog.getByTestId('confirm-input').fill(name);
  await expect(submit).toBeEnabled();
  await submit.click();
}

/** Waits until the view's reads are shown and the page has drawn them. */
export async function settled(page: Page): Promise<void> {
  await expect(page.getByText(/reading cached data…|Loading…/)).toHaveCount(0);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Walks the demo fleet's main views, settled, calling `look` on each: the overview, every fleet
 * view of the header, then a system's summary (the site's second system, left open for the caller).
 */
export async function walkMainViews(page: Page, fleet: { url: string; siteIds: string[]; simulator: { manifest: { sites: Array<{ systems: string[] }> } } }, look: (view: string) => Promise<void>): Promise<{ siteId: string; system: string }> {
  await page.goto(fleet.url);
  await expect(page.getByTestId('overview-table')).toHaveAttribute('data-row-count', '9');
  await settled(page);
  await look('overview');
  for (const view of ['sites', 'reports', 'bulk', 'alerts', 'actions', 'capacity', 'drift', 'compare']) {
    await page.getByTestId(`open-${view}`).click();
    await settled(page);
    await look(view);
  }
  const siteId = fleet.siteIds[0] as string;
  const system = fleet.simulator.manifest.sites[0]?.systems[1] as string;
  await openSystem(page, siteId, system);
  await settled(page);
  await look('system summary');
  return { siteId, system };
}
