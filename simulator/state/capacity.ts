import type { PoolState, SystemState, VolumeState } from './model.js';

/**
 * Capacity accounting. A volume's footprint in its pool is CapacityInBytes + SnapshotCapacityInBytes;
 * a pool's allocated size is the sum of its volumes' footprints; its usable size is the raw size of its
 * approved, present member drives times N/(N+K). Health and monitoring read these same functions.
 */

export function footprint(vol: VolumeState): number {
  return vol.capacityBytes + vol.snapshotCapacityBytes;
}

export function poolRawBytes(system: SystemState, pool: PoolState): number {
  let raw = 0;
  for (const node of system.nodes)
    for (const d of node.drives) if (d.pool === pool.name && d.approved === 'Approved' && d.status !== 'Missing') raw += d.capacityBytes;
  return raw;
}

export function poolUsableBytes(system: SystemState, pool: PoolState): number {
  return Math.floor((poolRawBytes(system, pool) * pool.n) / (pool.n + pool.k));
}

export function poolVolumes(system: SystemState, pool: PoolState): VolumeState[] {
  return system.apps.flatMap((a) => a.volumes.filter((v) => v.pool === pool.name));
}

export function poolAllocatedBytes(system: SystemState, pool: PoolState): number {
  return poolVolumes(system, pool).reduce((sum, v) => sum + footprint(v), 0);
}

export function poolConsumedBytes(system: SystemState, pool: PoolState): number {
  return poolVolumes(system, pool).reduce((sum, v) => sum + Math.floor(v.capacityBytes * v.consumed), 0);
}

export function poolFreeBytes(system: SystemState, pool: PoolState): number {
  return Math.max(0, poolUsableBytes(system, pool) - poolAllocatedBytes(system, pool));
}

export function findPool(system: SystemState, name: string): PoolState | undefined {
  return system.pools.find((p) => p.name.toLowerCase() === name.toLowerCase());
}

/** True when a member drive of the pool has failed or was pulled: its volumes run degraded. */
export function poolDegraded(system: SystemState, pool: PoolState): boolean {
  return system.nodes.some((n) => n.drives.some((d) => d.pool === pool.name && d.approved === 'Approved' && (d.status === 'Failed' || d.status === 'Missing')));
}
