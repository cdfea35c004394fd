import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { verifySyslogFile } from '../../main/audit/syslog-verify.js';
import { rsyslogCollector, type Collector } from '../support/rsyslog.js';
import { dialog, fleetSuite, submitDialog } from './support/admin.js';
import { openSystem } from './support/ui.js';

/**
 * An admin turns on the audit trail in the action log view: the writes made in the UI reach a
 * real rsyslog, redacted as stored, the panel shows them acknowledged, and the collector's file
 * verifies.
 */
const fleet = fleetSuite({ simulator: { sites: 1, systems: 1, seed: 'e2e-syslog' } });
const PASSWORD = 'E2E-syslog-pw-5521';
let collector: Collector | undefined;
let dir: string | undefined;

test.afterAll(async () => {
  await collector?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('the audit trail is forwarded to rsyslog from the action log view, acknowledged and verifiable', async ({ page }) => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-e2e-syslog-'));
  collector = await rsyslogCollector(dir);
  await collector.start();
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[0] as string;

  await page.goto(fleet().url);
  await openSystem(page, siteId, system, 'Users');
  await page.getByTestId('user-create').click();
  const d = dialog(page);
  await d.getByTestId('field-body.Name').fill('e2e-syslog');
  await d.getByTestId('field-body.Password').fill(PASSWORD);
  await d.getByTestId('field-body.Role').fill('Viewer');
  await d.getByTestId('field-body.Email').fill('e2e-syslog@example.com');
  await submitDialog(page);
  await expect(page.getByTestId('users-table')).toContainText('e2e-syslog');

  await page.getByTestId('open-actions').click();
  const panel = page.getByTestId('syslog-forward');
  await expect(panel.getByTestId('syslog-forward-state')).toHaveText('Off');
  await panel.getByTestId('syslog-forward-input').fill(`tcp://127.0.0.1:${collector.port}`);
  await panel.getByTestId('syslog-forward-save').click();
  await expect(panel.getByTestId('syslog-forward-target')).toHaveText(`tcp://127.0.0.1:${collector.port}`);
  await expect(panel.getByTestId('syslog-forward-queued')).toHaveText('0 records', { timeout: 20_000 });
  await expect(panel.getByTestId('syslog-forward-acked')).toContainText('up to record #');
  await expect(panel.getByTestId('syslog-forward-state')).toHaveText('Up to date');

  const text = fs.readFileSync(collector.file, 'utf8');
  expect(text).toContain('POST /users/create');
  expect(text).toContain('syslog forwarding on');
  expect(text).not.toContain(PASSWORD);
  expect((await verifySyslogFile(collector.file)).ok).toBe(true);
});
