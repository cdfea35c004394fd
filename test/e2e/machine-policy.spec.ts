import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { POLICY_FILE_ENV } from '../../main/policy/machine-policy-file.js';
import { launchWindow, type LaunchedWindow } from './support/fleet.js';

/**
 * An auditor's workstation: IT's machine policy presets a site and makes the workstation read-only.
 * The window says so in a banner, names what the organisation manages, disables the write buttons
 * with the reason, and main refuses a write sent anyway.
 */
const REASON = 'Audit workstation: changes are made from the storage team\'s own workstations';
let dir: string;
let app: LaunchedWindow;
let url: string;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fleetdeck-e2e-policy-'));
  const policy = join(dir, 'policy.json');
  // Nothing listens at the site's URL: polled on demand only; its state is not what this tests.
  const site = { id: 'vault', name: 'Vault', baseUrl: 'http://127.0.0.1:9', username: 'auditor', group: 'Core', polling: { intervalSeconds: 0 } };
  writeFileSync(policy, JSON.stringify({ version: 1, readOnly: true, readOnlyReason: REASON, minPollIntervalSeconds: 300, sites: [site] }), { mode: 0o644 });
  app = await launchWindow(['--data-dir', join(dir, 'data')], { [POLICY_FILE_ENV]: policy });
  url = app.url;
});
test.afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('shows the managed banner, disables writes with the reason, and main refuses a write sent anyway', async ({ page }) => {
  await page.goto(url);
  const token = new URL(url).searchParams.get('token') ?? '';
  const banner = page.getByTestId('policy-banner');
  await expect(banner).toContainText('Read-only workstation — managed by your organisation.');
  await expect(page.getByTestId('policy-read-only')).toHaveText(REASON);
  await expect(page.getByTestId('policy-managed')).toContainText('minimum poll interval: 300 s');
  await expect(page.getByTestId('policy-managed')).toContainText('preset sites: Vault');

  // The organisation's fleet (its preset site), not the demo an empty data directory would show.
  await expect(page.getByTestId('simulated-banner')).toHaveCount(0);
  await expect(page.locator('aside.sidebar').getByText('Vault').first()).toBeVisible();
  // Adding a site is disabled, and says why.
  const add = page.getByTestId('open-add-site');
  await expect(add).toBeDisabled();
  await expect(add).toHaveAttribute('title', `Read-only: ${REASON}`);

  // The preset site is there, managed: it cannot be edited or removed from here.
  await page.getByTestId('open-sites').click();
  await expect(page.getByTestId('site-managed-vault')).toHaveText('managed by your organisation');
  await expect(page.getByTestId('site-edit-vault')).toBeDisabled();
  await expect(page.getByTestId('site-remove-vault')).toBeDisabled();
  await expect(page.getByTestId('site-pause-vault')).toBeDisabled();
  // Logging in (a read: the auditor's own password) stays possible.
  await expect(page.getByTestId('site-login-vault')).toBeEnabled();

  // A site list can be read and planned here, but not imported: the plan is shown, its button says why.
  const list = { format: 'fleetdeck-site-list', version: 1, sites: [{ id: 'lyon', name: 'Lyon', baseUrl: 'http://127.0.0.1:10', username: 'u', tags: [], allowHttp: false, tls: {}, polling: { intervalSeconds: 0, paused: false, maxInFlight: 4 } }] };
  await page.getByTestId('sites-import-file').setInputFiles({ name: 'team.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(list)) });
  await expect(page.getByTestId('sites-import-plan')).toContainText('Lyon');
  await expect(page.getByTestId('sites-import-plan')).toContainText('add');
  const apply = page.getByTestId('sites-import-apply');
  await expect(apply).toBeDisabled();
  await expect(apply).toHaveAttribute('title', `Read-only: ${REASON}`);

  // A write sent anyway, past the window, is refused by main with the reason.
  const answer = await page.evaluate(
    async ({ token }) => {
      const res = await fetch('/ipc/sites:remove', { method: 'POST', headers: { 'content-type': 'application/json', 'x-fleetdeck-token': token }, body: JSON.stringify({ site: 'vault' }) });
      return (await res.json()) as unknown;
    },
    { token },
  );
  expect(answer).toEqual({ ok: false, error: { code: 'managed', message: expect.stringContaining(REASON) } });
  await page.goto(url);
  await page.getByTestId('open-sites').click();
  await expect(page.getByTestId('site-vault')).toBeVisible();
});
