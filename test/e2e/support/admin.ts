import { expect, test, type Locator, type Page } from '@playwright/test';
import { poolFreeBytes, poolUsableBytes } from '../../../simulator/state/capacity.js';
import type { PoolState, SystemState } from '../../../simulator/state/model.js';
import { startFleet, type E2EFleet, type FleetOptions } from './fleet.js';

/**
 * One simulated fleet for every test of a spec file, run in order: started before the first test,
 * closed after the last. Returns its getter (the fleet exists only once the suite has started).
 */
export function fleetSuite(options: FleetOptions): () => E2EFleet {
  let fleet: E2EFleet | undefined;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    fleet = await startFleet(options);
  });
  test.afterAll(async () => {
    await fleet?.close();
  });
  return () => {
    if (!fleet) throw new Error('the fleet has not started');
    return fleet;
  };
}

/** The simulator's own state of one system, to pick what a test acts on and to check the outcome. */
export function systemState(fleet: E2EFleet, site: number, system: string): SystemState {
  const s = fleet.simulator.fleet.sites[site]?.systems.find((x) => x.name === system);
  if (!s) throw new Error(`no system ${system} on site ${site}`);
  return s;
}

const GIB = 1024 ** 3;

/**
 * A size, in whole GiB, that leaves a pool under 1 % free: provisioned, the system calls the pool Full.
 * Chooses the pool with the most free space so the size is large enough to type.
 */
export function sizeToFill(system: SystemState): { pool: PoolState; gib: number } {
  const pool = [...system.pools].sort((a, b) => poolFreeBytes(system, b) - poolFreeBytes(system, a))[0] as PoolState;
  const keep = poolUsableBytes(system, pool) * 0.005;
  const gib = Math.floor((poolFreeBytes(system, pool) - keep) / GIB);
  if (gib < 1) throw new Error(`pool ${pool.name} has too little free space to fill`);
  return { pool, gib };
}

/** The open generated dialog. */
export function dialog(page: Page): Locator {
  return page.getByTestId('op-dialog');
}

/** Submits the open dialog and waits for it to close. */
export async function submitDialog(page: Page): Promise<void> {
  await dialog(page).getByTestId('op-submit').click();
  await expect(dialog(page)).toHaveCount(0);
}
