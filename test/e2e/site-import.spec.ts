import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { launchWindow, type LaunchedWindow } from './support/fleet.js';

/**
 * An admin upgrading from a Fleetdeck that kept its sites in sites.json: the first window says how
 * many sites were imported from where, and what the file was renamed to, until dismissed; the
 * dismissal is main's, so a reload does not bring it back.
 */
let dataDir: string;
let app: LaunchedWindow;
let url: string;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'fleetdeck-e2e-import-'));
  // Nothing listens at the site's URL: it is polled on demand only, and its state is not what this tests.
  const site = { id: 'paris', name: 'Paris', baseUrl: 'http://127.0.0.1:9', username: 'admin', tags: [], tls: {}, allowHttp: false, polling: { intervalSeconds: 0, paused: false, maxInFlight: 4 }, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
  writeFileSync(join(dataDir, 'sites.json'), JSON.stringify({ version: 1, sites: [site] }), { mode: 0o600 });
  app = await launchWindow(['--data-dir', dataDir]);
  url = app.url;
});
test.afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('tells once what was imported from sites.json; dismissed from the keyboard, it stays away after a reload', async ({ page }) => {
  const renamed = readdirSync(dataDir).find((f) => f.startsWith('sites.json.imported-'));
  expect(renamed).toBeDefined();
  await page.goto(url);
  const notice = page.getByRole('status').filter({ hasText: 'imported from' });
  await expect(notice).toHaveText(new RegExp(`1 site was imported from ${join(dataDir, 'sites.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(renamed to ${renamed}\\)`));
  await expect(page.getByTestId('site-import-notice')).toBeVisible();
  // The imported site is the window's fleet (not the demo).
  await expect(page.locator('aside.sidebar').getByText('Paris').first()).toBeVisible();
  await expect(page.getByTestId('simulated-banner')).toHaveCount(0);

  const dismiss = notice.getByRole('button', { name: /Dismiss/ });
  await dismiss.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('site-import-notice')).toHaveCount(0);

  // The page loaded again (the browser shell's token lives in the opened page only, so its address is opened again, as Electron's reload does).
  await page.goto(url);
  // The window has loaded its fleet (the imported site) and the notice does not come back.
  await expect(page.locator('aside.sidebar').getByText('Paris').first()).toBeVisible();
  await expect(page.getByTestId('site-import-notice')).toHaveCount(0);
});
