import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startDemoFleet, type DemoFleet } from '../../main/demo.js';
import { subscribeEvents } from '../../main/shells/launch.js';
import { startBrowserShell, type BrowserShell } from '../../main/shells/browser-shell.js';
import { ROOT } from './support/fleet.js';

/**
 * The demo fleet as `--demo` starts it, driven from its "what if" panel: a failed drive turns a
 * system's tree entry from ok and raises an alert; a stopped site is found unreachable.
 */
let demo: DemoFleet;
let shell: BrowserShell;

test.beforeAll(async () => {
  demo = await startDemoFleet();
  await demo.runtime.fleet.refresh({ force: true });
  shell = await startBrowserShell({ handlers: demo.runtime.handlers, rendererDir: join(ROOT, 'out', 'renderer'), subscribe: (emit) => subscribeEvents(demo.runtime, undefined, emit) });
});
test.afterAll(async () => {
  await shell?.close();
  await demo?.close();
});

test('failing a drive and stopping a site from the what-if panel change the tree and the alerts', async ({ page }) => {
  // A system the demo starts healthy: its drive failing must turn it critical.
  const briefs = (await demo.runtime.handlers['health:briefs']({})) as { systems: { text: string } };
  const calm = (JSON.parse(briefs.systems.text) as Array<{ siteId: string; system: string; rollup: { level: string } }>).find((b) => b.rollup.level === 'ok')!;
  const site = demo.runtime.sites.list().find((s) => s.id === calm.siteId)!;
  const system = calm.system;
  await page.goto(shell.url);
  const entry = page.getByRole('tree', { name: 'Fleet' }).getByTestId(`tree-system-${site.id}-${system}`);
  await expect(entry).toHaveAccessibleName(new RegExp(`^${system}, (ok|warning)$`), { timeout: 30_000 });
  const badge = page.getByTestId('alerts-badge');
  const alertsBefore = Number((await badge.count()) ? await badge.innerText() : 0);

  await page.getByTestId('simulated-banner').getByTestId('whatif-open').click();
  const panel = page.getByTestId('whatif-panel');
  await expect(panel).toContainText('SIMULATED');
  await panel.getByTestId('whatif-site').selectOption(site.id);
  await panel.getByTestId('whatif-system').selectOption(system);
  await panel.getByTestId('whatif-fail-drive').click();
  await expect(panel.getByTestId('whatif-outcome')).toContainText(`of ${system}`);
  await expect(panel.getByTestId('whatif-outcome')).toContainText('(simulated)');
  // The failed drive's notification is new too.
  await expect(entry).toHaveAccessibleName(new RegExp(`^${system}, critical, 1 new$`), { timeout: 30_000 });
  await expect.poll(async () => Number(await badge.innerText()), { timeout: 30_000 }).toBeGreaterThan(alertsBefore);
  expect(demo.runtime.alerts.list({ state: 'open' }).some((a) => a.siteId === site.id && a.system === system && a.rule === 'drive')).toBe(true);

  await panel.getByTestId('whatif-stop-site').click();
  await expect(panel.getByTestId('whatif-outcome')).toContainText('stopped answering');
  await expect.poll(() => demo.runtime.fleet.status().filter((s) => s.siteId === site.id).every((s) => s.state !== 'ok'), { timeout: 30_000 }).toBe(true);
  await panel.getByTestId('whatif-start-site').click();
  await expect(panel.getByTestId('whatif-outcome')).toContainText('answers again');
});
