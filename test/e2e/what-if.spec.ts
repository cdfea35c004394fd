import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startDemoFleet, type DemoFleet } from '../../main/demo.js';
import { subscribeEvents } from '../../main/shells/launch.js';
import { startBrowserShell, type BrowserShell } from '../../main/shells/browser-shell.js';
import { axeFindings } from './support/axe.js';
import { ROOT } from './support/fleet.js';

/**
 * The demo fleet as `--demo` starts it, driven from its "what if" panel: a failed drive turns a
 * system's tree entry from ok and raises an alert; a stopped site is found unreachable.
 */
// axe-core is injected as a script, which the shell's CSP refuses otherwise.
test.use({ bypassCSP: true });

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

test('the what-if button can be read on the banner, and Escape closes the panel after an action', async ({ page }) => {
  await page.goto(shell.url);
  const banner = page.getByTestId('simulated-banner');
  const open = banner.getByTestId('whatif-open');
  await expect(open).toBeVisible();
  // The button's text must stand out from its own face (WCAG AA: 4.5:1), not take the banner's light text.
  const ratio = await open.evaluate((el) => {
    const rgb = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: string): number => {
      const [r = 0, g = 0, b = 0] = rgb(c).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const s = getComputedStyle(el);
    const [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x) as [number, number];
    return (a + 0.05) / (b + 0.05);
  });
  expect(ratio).toBeGreaterThanOrEqual(4.5);
  // And axe-core finds nothing serious on the banner.
  const findings = (await axeFindings(page)).filter((f) => f.targets.some((t) => /whatif|simulated/.test(t)));
  expect(findings).toEqual([]);

  await open.click();
  const panel = page.getByTestId('whatif-panel');
  // Lag a replication: the demo has a pair, so it succeeds and changes nothing the other test reads.
  await panel.getByTestId('whatif-lag-replication').click();
  await expect(panel.getByTestId('whatif-outcome')).toBeVisible();
  // Focus stays in the panel while the action runs, so the keyboard still reaches it.
  await expect(panel.getByTestId('whatif-lag-replication')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(open).toBeFocused();
});

test('the command palette opens the what-if panel, with focus in it', async ({ page }) => {
  await page.goto(shell.url);
  await expect(page.getByTestId('simulated-banner')).toBeVisible();
  await page.keyboard.press('Control+k');
  await page.getByTestId('palette-input').fill('fail drive');
  await expect(page.getByTestId('command-palette').getByRole('option').first()).toContainText('What if');
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('whatif-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('whatif-site')).toBeFocused();
});
