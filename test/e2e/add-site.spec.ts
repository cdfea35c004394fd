import { expect, test } from '@playwright/test';
import { startFleet, type E2EFleet } from './support/fleet.js';

/**
 * Adding a TLS site through the UI, starting from an empty data dir: the certificate's fingerprint
 * (from sites:probe) is shown and must be confirmed before anything is added; mistakes are named.
 */
let fleet: E2EFleet;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  fleet = await startFleet({ simulator: { sites: 1, systems: 2, tls: true, seed: 'e2e-tls' }, addSites: false });
});
test.afterAll(async () => {
  await fleet?.close();
});

test('says what is wrong before and after contacting the endpoint', async ({ page }) => {
  await page.goto(fleet.url);
  await expect(page.getByText('No sites yet.')).toBeVisible();
  await page.getByTestId('open-add-site').click();
  const dialog = page.getByTestId('add-site-dialog');
  await expect(dialog.getByTestId('site-name')).toBeFocused();

  await dialog.getByTestId('site-url').fill('http://storage.example.com');
  await dialog.getByTestId('site-next').click();
  await expect(dialog).toContainText('Give the site a name.');
  await expect(dialog).toContainText('Plain http to another host sends the password unencrypted');

  // Nothing listens on port 1: the probe fails and says so, with the URL.
  await dialog.getByTestId('site-name').fill('nowhere');
  await dialog.getByTestId('site-url').fill('https://127.0.0.1:1');
  await dialog.getByTestId('site-next').click();
  await expect(dialog.getByTestId('add-site-error')).toContainText('Could not read the certificate of https://127.0.0.1:1:');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('add-site-dialog')).toHaveCount(0);
});

test('adds a TLS site only after its fingerprint is confirmed, then lists its systems', async ({ page }) => {
  const s = fleet.simulator.manifest.sites[0];
  if (!s?.certSha256) throw new Error('the simulator was started without TLS');
  await page.goto(fleet.url);
  await page.getByTestId('open-add-site').click();
  const dialog = page.getByTestId('add-site-dialog');
  await dialog.getByTestId('site-name').fill('dc-e2e');
  await dialog.getByTestId('site-url').fill(s.baseUrl);
  await dialog.getByTestId('site-user').fill(s.username);
  await dialog.getByTestId('site-password').fill(s.password);
  await dialog.getByTestId('site-next').click();

  // The fingerprint shown is the one the site presents, as admins compare it (AB:CD:…).
  const shown = s.certSha256.toUpperCase().match(/../g)?.join(':') ?? '';
  await expect(dialog.getByTestId('site-fingerprint')).toHaveText(shown);
  const add = dialog.getByTestId('site-add');
  await expect(add).toBeDisabled();
  await dialog.getByTestId('site-trust-confirm').check();
  await expect(add).toBeEnabled();
  await add.click();
  await expect(page.getByTestId('add-site-dialog')).toHaveCount(0);

  const siteId = fleet.runtime.sites.get('dc-e2e')?.id;
  expect(siteId).toBeDefined();
  expect(fleet.runtime.sites.get('dc-e2e')?.tls.pinSha256).toBe(s.certSha256);
  for (const system of s.systems) {
    // Connected, so the tree names its health alone.
    await expect(page.getByTestId(`tree-system-${siteId}-${system}`)).toHaveAccessibleName(new RegExp(`^${system}, (ok|warning|critical|unknown)$`));
  }
  // The password went to main's secret store, not into the page.
  expect(await page.content()).not.toContain(s.password);
});
