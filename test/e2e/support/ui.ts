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
