import type { Level } from '../../app/health/level.js';
import { readOnlyReason } from './states.js';

export { levelRank, worse, type Level } from '../../app/health/level.js';
export { highLevel, laggingReplication, rollupHealth, unhealthyDrives, type Dimension, type LaggingPair, type NodeDrive, type Rollup } from '../../app/health/rollup.js';

/** A connection problem counts at least as a warning: the data shown may be old. */
export function connectionLevel(state: string | undefined): Level {
  if (state === 'certificate-changed') return 'critical';
  return readOnlyReason(state) ? 'warning' : 'ok';
}
