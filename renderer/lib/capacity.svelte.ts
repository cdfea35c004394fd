import type { SystemCapacity } from '../../app/capacity/pools.js';
import { capacityFromAnswers } from '../../app/health/system-health.js';
import type { DataList, Health, PoolCapacityHistory, PoolCapacityUsage, PoolProvisioning } from '../../app/catalog/index.js';
import { clock } from './clock.svelte.js';
import { formatBytes } from './format.js';
import { cachedRead, type Loader } from './loader.svelte.js';
import { READS } from './reads.js';
import type { SystemContext } from './system.svelte.js';

/**
 * The cached reads a system's capacity is assessed from, and the assessment (app/capacity/pools.ts,
 * the one every view and report uses). Create during component initialisation.
 */
export class CapacityReads {
  readonly health: Loader<Health>;
  readonly pools: Loader<PoolCapacityUsage>;
  readonly provisioning: Loader<DataList<PoolProvisioning>>;
  readonly history: Loader<PoolCapacityHistory>;
  readonly capacity: SystemCapacity;
  /** Pools as form choices: the name, with its free space and state, so the admin picks one that fits. */
  readonly poolChoices: Array<{ value: string; label: string }>;

  constructor(sys: () => SystemContext) {
    this.health = cachedRead(sys, () => READS.health);
    this.pools = cachedRead(sys, () => READS.poolsCurrent);
    this.provisioning = cachedRead(sys, () => READS.provisioning);
    this.history = cachedRead(sys, () => READS.capacityHistory);
    this.capacity = $derived(
      capacityFromAnswers({ health: this.health.data?.value, pools: this.pools.data?.value, provisioning: this.provisioning.data?.value, history: this.history.data?.value }, clock.now),
    );
    this.poolChoices = $derived(poolChoices(this.capacity));
  }
}

/** Pools as form choices, by name, each with its free space and any verdict other than ok. */
export function poolChoices(capacity: SystemCapacity): Array<{ value: string; label: string }> {
  return capacity.pools
    .slice()
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p) => ({ value: p.name, label: `${p.name} — ${p.free === undefined ? 'free space unknown' : `${formatBytes(p.free)} free`}${p.verdict !== 'ok' ? `, ${p.verdict}` : ''}` }));
}
