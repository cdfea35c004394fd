import { expect, test } from '@playwright/test';
import { startFleet, type E2EFleet } from './support/fleet.js';
import { openSystem } from './support/ui.js';

/**
 * Lists a system sends in another envelope are shown as
 * lists; lists in an envelope nobody knows mark the system "answers not understood", naming the
 * read, and are never presented as empty tables.
 */
test.describe.configure({ mode: 'serial' });

test.describe('a system answering {"Result":{"data":[…]}} with camelCase names', () => {
  let fleet: E2EFleet;
  test.beforeAll(async () => {
    fleet = await startFleet({ simulator: { sites: 1, systems: 1, seed: 'e2e-envelopes', dialects: ['envelope-result', 'envelope-lower'] } });
  });
  test.afterAll(async () => {
    await fleet?.close();
  });

  test('shows its hosts and drives as lists; when its answers change to an unknown envelope it says so and keeps what it read, with its time', async ({ page }) => {
    const siteId = fleet.siteIds[0] as string;
    const system = fleet.simulator.fleet.sites[0]!.systems[0]!;
    const tree = page.getByTestId(`tree-system-${siteId}-${system.name}`);
    await page.goto(fleet.url);
    // Connected and read: the tree shows the system's health, and no connection badge.
    await expect(tree.getByTestId('tree-health').first()).toBeVisible();
    await expect(tree.locator('[data-state]')).toHaveCount(0);
    await expect(tree).not.toHaveAccessibleName(/not understood/);
    await openSystem(page, siteId, system.name, 'Hosts & mappings');
    const hosts = page.getByTestId('hosts-table');
    const firstHost = system.hosts[0]!.name;
    await expect(hosts).toHaveAttribute('data-row-count', String(system.hosts.length));
    await expect(hosts.getByTestId(`host-row-${firstHost}`)).toBeVisible();
    await openSystem(page, siteId, system.name, 'Hardware');
    await expect(page.getByTestId('drives-table').first()).toBeVisible();

    fleet.simulator.control.setDialects(['unknown-envelope']);
    await page.getByRole('button', { name: 'Refresh system' }).click();
    const banner = page.getByTestId('protocol-error-banner');
    await expect(banner).toContainText(/Answers not understood: protocol error: GET \/\S+ answered \{"items": \[\d+ objects?\], "total": \d+\}/);
    await expect(banner).toContainText('SMART not read: the drive list (GET /resources/list) could not be read');
    await expect(tree.locator('[data-state]')).toHaveAttribute('data-state', 'protocol-error');
    // The lists read before are still shown, marked with the time they were read, not emptied.
    await openSystem(page, siteId, system.name, 'Hosts & mappings');
    await expect(hosts).toHaveAttribute('data-row-count', String(system.hosts.length));
    await expect(page.getByRole('region', { name: 'Hosts' }).getByTestId('as-of').first()).toContainText('cached');
    fleet.simulator.control.setDialects(['envelope-result', 'envelope-lower']);
  });
});

test.describe('a system answering every list in an envelope nobody knows', () => {
  let fleet: E2EFleet;
  test.beforeAll(async () => {
    fleet = await startFleet({ simulator: { sites: 1, systems: 1, seed: 'e2e-unknown', dialects: ['unknown-envelope'] } });
  });
  test.afterAll(async () => {
    await fleet?.close();
  });

  test('is marked with the protocol error, and shows no empty table as data', async ({ page }) => {
    const siteId = fleet.siteIds[0] as string;
    const system = fleet.simulator.fleet.sites[0]!.systems[0]!;
    await page.goto(fleet.url);
    const tree = page.getByTestId(`tree-system-${siteId}-${system.name}`);
    await expect(tree.locator('[data-state]')).toHaveAttribute('data-state', 'protocol-error');
    await expect(tree).toHaveAccessibleName(new RegExp(`^${system.name}, .*answers not understood$`));
    await openSystem(page, siteId, system.name, 'Hosts & mappings');
    await expect(page.getByTestId('protocol-error-banner')).toContainText(/protocol error: GET \/\S+ answered \{"items": \[/);
    const hostsPanel = page.getByRole('region', { name: 'Hosts' });
    await expect(hostsPanel).toContainText('No cached hosts yet');
    await expect(hostsPanel).not.toContainText('No hosts on this system');
    await expect(page.getByTestId('hosts-table')).toBeHidden();
    await openSystem(page, siteId, system.name, 'Users');
    await expect(page.getByText('No cached users yet')).toBeVisible();
    await expect(page.getByTestId('users-table')).toBeHidden();
    await expect(page.getByText('No users listed.')).toHaveCount(0);
  });
});
