import { expect, test, type Page } from '@playwright/test';
import { sasRole } from '../../simulator/state/sas-smart.js';
import { startFleet, type E2EFleet } from './support/fleet.js';
import { openSystem } from './support/ui.js';

/**
 * A SAS drive's SMART view in the browser shell, with the simulator answering SCSI SMART text (the
 * sas-smart dialect): the drive its system calls OK but whose grown defect list holds 2,500 entries
 * and whose error counter log shows 57 uncorrected reads is critical, and a text that could not be
 * read says Unknown, not OK.
 */
let fleet: E2EFleet;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  fleet = await startFleet({ simulator: { sites: 1, systems: 1, dialects: ['sas-smart'] } });
});
test.afterAll(async () => {
  await fleet?.close();
});

function driveWith(role: 'grown-defects' | 'unreadable'): { system: string; serial: string } {
  const system = fleet.simulator.fleet.sites[0]!.systems[0]!;
  const drive = system.nodes[0]!.drives.find((d) => sasRole(system, d) === role)!;
  return { system: system.name, serial: drive.serial };
}

async function openDrive(page: Page, serial: string): Promise<void> {
  const { system } = driveWith('grown-defects');
  await page.goto(fleet.url);
  await openSystem(page, fleet.siteIds[0] as string, system, 'Hardware');
  await page.getByTestId('drives-table').getByRole('row').filter({ hasText: serial }).click();
  await expect(page.getByRole('heading', { name: /^Drive .* on / })).toBeVisible();
}

test('a SAS drive with 2,500 grown defects and 57 uncorrected reads is critical in its SMART view', async ({ page }) => {
  const bad = driveWith('grown-defects');
  await openDrive(page, bad.serial);
  const smart = page.getByTestId('smart-view');
  await expect(smart).toHaveAttribute('data-risk', 'critical');
  await expect(page.getByTestId('smart-risk')).toHaveText('Critical');
  await expect(page.getByTestId('smart-table')).toHaveAttribute('data-kind', 'scsi');
  const defects = page.getByTestId('smart-table').locator('tr[data-field="Elements in grown defect list"]');
  await expect(defects).toHaveAttribute('data-risk', 'critical');
  await expect(defects).toContainText('2500');
  const reads = page.getByTestId('smart-error-counters').locator('tr[data-operation="read"]');
  await expect(reads).toHaveAttribute('data-risk', 'critical');
  await expect(reads).toContainText('57');
  await expect(page.getByRole('list', { name: 'SMART findings' })).toContainText('57 uncorrected read errors');
  await expect(smart).toContainText('Self-assessment: OK');
  // A fresh read from the drive is rated the same way.
  await page.getByRole('region', { name: 'SMART' }).getByRole('button', { name: 'Read now' }).click();
  await expect(page.getByRole('region', { name: 'SMART' }).getByTestId('as-of')).toContainText('live');
  await expect(smart).toHaveAttribute('data-risk', 'critical');
});

test('a drive whose SMART text cannot be read says Unknown and shows the text, never OK', async ({ page }) => {
  await openDrive(page, driveWith('unreadable').serial);
  await expect(page.getByTestId('smart-view')).toHaveAttribute('data-risk', 'unknown');
  await expect(page.getByTestId('smart-risk')).toHaveText('Unknown');
  await expect(page.getByTestId('smart-unknown')).toBeVisible();
  await expect(page.getByTestId('smart-raw')).toBeVisible();
  await expect(page.getByTestId('smart-raw')).toContainText('MegaRaid controller');
});
