import { expect, test } from '@playwright/test';
import { fleetSuite, systemState } from './support/admin.js';
import { frameShown, openSystem } from './support/ui.js';

/**
 * Finding things. Ctrl+K finds the fleet's cached hosts, IQNs, serials… as you
 * type, offers every system's views, and ranks the ping operation first for "ping"; the header's
 * search box shows matches as you type.
 */
const fleet = fleetSuite({ simulator: { demo: true } });

function iscsiHost(): { siteId: string; system: string; host: string; iqn: string } {
  for (const [i, s] of fleet().simulator.manifest.sites.entries()) {
    for (const system of [...s.systems].reverse()) {
      const h = systemState(fleet(), i, system).hosts.find((x) => x.iqn);
      if (h) return { siteId: fleet().siteIds[i] as string, system, host: h.name, iqn: h.iqn };
    }
  }
  throw new Error('the demo has no host with an IQN');
}

test('the palette finds a host by its IQN as you type, and opens it', async ({ page }) => {
  const { siteId, system, host, iqn } = iscsiHost();
  await page.goto(fleet().url);
  await frameShown(page);
  await page.keyboard.press('Control+k');
  const input = page.getByTestId('palette-input');
  await input.pressSequentially(iqn.slice(-14));
  const first = page.getByTestId('command-palette').getByRole('option').first();
  await expect(first).toContainText(iqn);
  await expect(first).toContainText(`host ${host}`);
  await input.press('Enter');
  await expect(page.getByTestId('system-page')).toHaveAttribute('data-system', system);
  await expect(page.getByTestId('host-detail')).toContainText(`Host ${host}`);
  await expect(page.getByTestId(`tree-system-${siteId}-${system}`)).toBeVisible();
});

test('Ctrl+K pressed while the window opens, before its frame is there, opens the palette once it is', async ({ page }) => {
  // The frame's script is held: the window is the entry script alone, as on a slow start.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/frame-*.js', async (route) => {
    await held;
    await route.continue();
  });
  // The entry sends the first reads in the task that sets its key keeper: once they leave, it listens.
  const firstReads = page.waitForRequest((r) => new URL(r.url()).pathname.startsWith('/ipc/'));
  await page.goto(fleet().url, { waitUntil: 'commit' });
  await firstReads;
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('open-overview')).toHaveCount(0);
  release();
  await frameShown(page);
  await expect(page.getByTestId('command-palette')).toBeVisible();
  await expect(page.getByTestId('palette-input')).toBeFocused();
  // The frame's own handler is the one that answers from now on: the same keys close it.
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('command-palette')).toHaveCount(0);
});

test('the palette finds a drive by serial and offers every system’s views', async ({ page }) => {
  const drive = systemState(fleet(), 1, fleet().simulator.manifest.sites[1]?.systems[2] as string).nodes[1]?.drives[3];
  if (!drive) throw new Error('no drive');
  await page.goto(fleet().url);
  await frameShown(page);
  await page.keyboard.press('Control+k');
  const input = page.getByTestId('palette-input');
  await input.fill(drive.serial);
  await expect(page.getByTestId('command-palette').getByRole('option').first()).toContainText(drive.serial);

  // No system is open, yet every system's Hardware view is offered.
  await input.fill('hardware');
  const options = page.getByTestId('command-palette').getByRole('option');
  for (const s of fleet().simulator.manifest.sites.flatMap((x) => x.systems)) await expect(options.filter({ hasText: `Hardware — ${s}` })).toHaveCount(1);
});

test('"ping" ranks the ping operation first', async ({ page }) => {
  const siteId = fleet().siteIds[0] as string;
  const system = fleet().simulator.manifest.sites[0]?.systems[0] as string;
  await page.goto(fleet().url);
  await openSystem(page, siteId, system);
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('ping');
  await expect(page.getByTestId('command-palette').getByRole('option').first()).toContainText('GET /resources/network/ping');
});

test('the header search shows matches as you type', async ({ page }) => {
  const { host, iqn, system } = iscsiHost();
  await page.goto(fleet().url);
  await page.getByTestId('fleet-search').pressSequentially(iqn.slice(-12));
  const suggestions = page.getByTestId('search-suggestions');
  await expect(suggestions.getByRole('option').first()).toContainText(iqn);
  await suggestions.getByRole('option').first().click();
  await expect(page.getByTestId('system-page')).toHaveAttribute('data-system', system);
  await expect(page.getByTestId('host-detail')).toContainText(`Host ${host}`);
});
