import { expect, test } from '@playwright/test';
import { RecordingServer } from '../support/recording-server.js';
import { startFleet, type E2EFleet } from './support/fleet.js';

/**
 * The attack this guards against: once the browser shell was open, any other web server on
 * 127.0.0.1 visited in the same browser would receive its token (a cookie ignores ports), and
 * the token would stay in the address bar and the history. Here the token must stay in the page that was opened.
 */
let fleet: E2EFleet;
let other: RecordingServer;
let otherUrl: string;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  fleet = await startFleet({ simulator: { sites: 1, systems: 2 } });
  other = new RecordingServer();
  other.responder = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>another local server</title><p>hello</p>');
  };
  otherUrl = await other.start();
});
test.afterAll(async () => {
  await other?.close();
  await fleet?.close();
});

test('the token leaves the address bar, works from memory for calls and events, and never reaches another local server', async ({ page }) => {
  const token = new URL(fleet.url).searchParams.get('token') as string;
  const siteId = fleet.siteIds[0] as string;
  const [systemA] = fleet.simulator.manifest.sites[0]?.systems ?? [];
  await page.goto(fleet.url);
  const tree = page.getByRole('tree', { name: 'Fleet' });
  // Connected: the tree names the system's health alone.
  await expect(tree.getByTestId(`tree-system-${siteId}-${systemA}`)).toHaveAccessibleName(new RegExp(`^${systemA}, (ok|warning|critical|unknown)$`));
  // Out of the address bar, hence out of the history entry and of anything copied from it.
  expect(page.url()).toBe(`http://127.0.0.1:${fleet.shell.port}/`);

  // Events still arrive over the stream, which carries the token in a header.
  await fleet.runtime.fleet.setPaused(siteId, true);
  await expect(tree.getByTestId(`tree-system-${siteId}-${systemA}`)).toHaveAccessibleName(new RegExp(`^${systemA}, (ok|warning|critical|unknown), paused$`));
  await fleet.runtime.fleet.setPaused(siteId, false);

  // Nothing of the token is stored in the browser for other pages to send.
  expect(await page.context().cookies()).toEqual([]);
  await page.goto(`${otherUrl}/`);
  await expect(page.getByText('hello')).toBeVisible();
  expect(other.requests.length).toBeGreaterThan(0);
  for (const r of other.requests) {
    expect(r.headers.cookie, 'cookie sent to another loopback port').toBeUndefined();
    expect(JSON.stringify(r)).not.toContain(token);
  }
});

test('a reload or a visit without the token says how to reopen Fleetdeck', async ({ page }) => {
  await page.goto(fleet.url);
  await expect(page.getByRole('tree', { name: 'Fleet' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Open Fleetdeck from its address' })).toBeVisible();
  await expect(page.getByText('Open the address Fleetdeck printed when it started')).toBeVisible();
  // The printed address still opens it.
  await page.goto(fleet.url);
  await expect(page.getByRole('tree', { name: 'Fleet' })).toBeVisible();
});
