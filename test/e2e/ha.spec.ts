import { expect, test } from '@playwright/test';
import { fleetSuite, systemState } from './support/admin.js';
import { confirmByName, openSystem } from './support/ui.js';

/**
 * HA state is visible in the tree, the overview and the summary; takeover and
 * give-back are offered only when they make sense, and the takeover warning names what the app
 * knows (a failing drive on the partner, the services that move).
 */
const fleet = fleetSuite({ simulator: { demo: true } });

test('a taken-over node shows everywhere, and only the actions that make sense are offered', async ({ page }) => {
  // A system whose first node carries a drive not OK: taking over the second puts everything on it.
  const found = fleet().simulator.manifest.sites
    .flatMap((s, i) => s.systems.map((system) => ({ i, system })))
    .find(({ i, system }) => systemState(fleet(), i, system).nodes[0]?.drives.some((d) => d.status !== 'OK'));
  if (!found) throw new Error('the demo has no system with a drive not OK on its first node');
  const { i, system } = found;
  const siteId = fleet().siteIds[i] as string;
  const n1 = `${system}-n1`;
  const n2 = `${system}-n2`;
  const bad = systemState(fleet(), i, system).nodes[0]?.drives.find((d) => d.status !== 'OK');

  await page.goto(fleet().url);
  await openSystem(page, siteId, system, 'Hardware');
  // Normal: either node may be taken over, nothing to give back.
  await expect(page.getByTestId(`takeover-${n2}`)).not.toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId(`giveback-${n2}`)).toHaveAttribute('aria-disabled', 'true');

  await page.getByTestId(`takeover-${n2}`).click();
  const details = page.getByTestId('confirm-details');
  await expect(details).toContainText(`${n1} carries drive ${bad?.name} in state ${bad?.status}`);
  await expect(details).toContainText('Services that move');
  await expect(page.getByTestId('confirm-dialog')).toContainText(`${n1} takes over the services of ${n2}`);
  await confirmByName(page, n2);
  await expect(page.getByTestId(`node-${n2}`)).toContainText('TakenOver');

  // The surviving node cannot be taken over, nor the taken-over one again; give-back only on the taken-over node.
  await expect(page.getByTestId(`takeover-${n1}`)).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId(`takeover-${n1}`)).toHaveAttribute('title', /running its partner's services/);
  await expect(page.getByTestId(`takeover-${n2}`)).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId(`giveback-${n1}`)).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId(`giveback-${n2}`)).not.toHaveAttribute('aria-disabled', 'true');
  await page.getByTestId(`takeover-${n1}`).click({ force: true });
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);

  // The header, the tree, the summary and the overview all say so.
  await expect(page.getByTestId('system-ha')).toHaveText('HA taken over');
  const item = page.getByTestId(`tree-system-${siteId}-${system}`);
  await expect(item.getByTestId('tree-ha')).toHaveText('HA taken over');
  await expect(item).toHaveAccessibleName(`${system}, critical, HA taken over`);
  await openSystem(page, siteId, system, 'Summary');
  await expect(page.getByTestId('dim-ha')).toHaveAttribute('data-level', 'critical');
  await expect(page.getByTestId('dim-ha')).toContainText(`${n2} taken over by ${n1}`);
  await page.getByTestId('open-overview').click();
  const row = page.getByTestId(`overview-row-${siteId}-${system}`);
  await expect(row).toContainText('taken over');
  await expect(row.locator('[data-level]').first()).toHaveAttribute('data-level', 'critical');

  // Give-back names the node it returns services to, and from which node.
  await openSystem(page, siteId, system, 'Hardware');
  await page.getByTestId(`giveback-${n2}`).click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm.getByRole('heading')).toHaveText(`Give back services to ${n2}`);
  await expect(confirm).toContainText(`from ${n1}`);
  await expect(confirm).not.toContainText('names no node');
  await confirmByName(page, n2);
  await expect(page.getByTestId(`node-${n2}`)).not.toContainText('TakenOver');
  await expect(page.getByTestId('system-ha')).toHaveCount(0);
  await expect(page.getByTestId(`takeover-${n1}`)).not.toHaveAttribute('aria-disabled', 'true');
});
