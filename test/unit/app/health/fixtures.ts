/** A health record in which every dimension is ok: one pool, half allocated. */
export const healthy = {
  Volumes: { VolumesHealthInPercentage: 100, HealthyVolumes: 10, UnhealthyVolumes: 0 },
  HardwareResources: { HardwareResourcesHealthInPercentage: 100, UnhealthyResourceCount: {} },
  HardwareUtilization: { HardwareUtilizationInPercentage: 40, CPUInPercentage: 30, MemoryInPercentage: 40 },
  CapacityUtilization: { CapacityInBytes: 100, CapacityUsageInBytes: 50, PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 100, CapacityUsageInBytes: 50 }] },
};
