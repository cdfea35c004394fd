import type { Health, PoolCapacityUsage } from '../../app/catalog/index.js';

/**
 * Usable bytes per pool: the health record's pool capacity where it reports one, else allocated +
 * free from pools/current (free is what is left to allocate, so the two add up to usable).
 */
export function poolCapacities(health: Health | undefined, pools: PoolCapacityUsage | undefined): ReadonlyMap<string, number> {
  const fromPools: Array<[string, number]> = (pools?.CapacityUsage ?? []).flatMap((r) =>
    r.Name && r.Name !== 'Total' && r.TotalAllocatedSizeInBytes !== undefined && r.FreeCapacityInBytes !== undefined ? [[r.Name, r.TotalAllocatedSizeInBytes + r.FreeCapacityInBytes] as [string, number]] : [],
  );
  const fromHealth: Array<[string, number]> = (health?.CapacityUtilization?.PoolCapacity ?? []).flatMap((p) => (p.PoolName && p.CapacityInBytes ? [[p.PoolName, p.CapacityInBytes] as [string, number]] : []));
  return new Map([...fromPools, ...fromHealth]);
}
