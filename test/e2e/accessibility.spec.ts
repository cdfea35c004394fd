import { expect, test } from '@playwright/test';
import { fleetSuite } from './support/admin.js';
import { axeFindings, type AxeFinding } from './support/axe.js';
import { settled, walkMainViews } from './support/ui.js';

/**
 * axe-core on every main view of the demo fleet: no serious or critical finding, and no control whose
 * accessible name differs from its visible text (the Alerts button, the tree's entries).
 */
const fleet = fleetSuite({ simulator: { demo: true } });
// axe-core is injected as a script, which the shell's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

test('every main view has no serious axe-core finding and no name that differs from its text', async ({ page }) => {
  test.setTimeout(180_000);
  const found: Record<string, AxeFinding[]> = {};
  const look = async (view: string): Promise<void> => {
    await settled(page);
    const f = await axeFindings(page);
    if (f.length) found[view] = f;
  };
  // The tree, with the system's areas expanded, is looked at on every view.
  const { system } = await walkMainViews(page, fleet(), look);
  const areas = page.getByRole('navigation', { name: `Areas of ${system}` });
  for (const area of ['Monitoring', 'Notifications', 'Hardware', 'Applications & volumes', 'Hosts & mappings', 'Replication', 'Users', 'Notification targets', 'Settings', 'Workflows', 'Operation console']) {
    await areas.getByRole('button', { name: area, exact: true }).click();
    await look(`area ${area}`);
  }
  expect(found).toEqual({});
});
