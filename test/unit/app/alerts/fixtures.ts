import type { AlertInput } from '../../../../app/alerts/evaluate.js';
import { DEFAULT_RULES, type RuleSettings } from '../../../../app/alerts/rules.js';
import { healthy } from '../health/fixtures.js';

/** The evaluation clock of every alert test. */
export const NOW = Date.UTC(2026, 0, 31, 12);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const TIB = 1024 ** 4;

/**
 * A system that is fine everywhere: refreshed, one pool half allocated, two drives OK, one replication
 * pair in sync, HA normal. `over` replaces top-level fields, `rollup` replaces parts of the roll-up.
 */
export function alertInput(over: Partial<AlertInput> = {}, rollup: Partial<AlertInput['rollup']> = {}): AlertInput {
  return {
    state: 'ok',
    rollup: {
      // Pool figures from the pool capacity read alone: usable is allocated plus free.
      health: { ...healthy, CapacityUtilization: undefined },
      pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: 50 * TIB, TotalConsumedSizeInBytes: 10 * TIB, FreeCapacityInBytes: 50 * TIB }] },
      nodes: { Data: [{ Name: 'n1', State: 'Running', HAState: 'Normal' }, { Name: 'n2', State: 'Running', HAState: 'Normal' }] },
      resources: { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'OK' }, { Id: 2, Name: 'd2', ResourceStatus: 'OK' }] }] },
      replication: { Data: [{ Application: 'app', Volumes: [{ Volume: 'v', Replication: { ReplicationPairs: [{ RemoteSystemName: 'far', SyncInPercentage: 100, ConnectionStatus: 'InSync' }] } }] }] },
      ...rollup,
    },
    notifications: { Data: [] },
    compliance: [],
    now: NOW,
    ...over,
  };
}

/** A copy of the default rules with `change` applied; the defaults themselves stay as they are. */
export function rules(change: (r: RuleSettings) => void = () => {}): RuleSettings {
  const r = structuredClone(DEFAULT_RULES) as RuleSettings;
  change(r);
  return r;
}
