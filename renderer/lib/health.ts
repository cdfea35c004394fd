import type { Level } from '../../app/health/level.js';
import { readOnlyReason } from './states.js';

export { levelRank, worse, type Level } from '../../app/health/level.js';
export { highLevel, laggingReplication, rollupHealth, unhealthyDrives, type Dimension, type LaggingPair, type NodeDrive, type Rollup } from '../../app/health/rollup.js';

/**
 * A connection problem counts at least as a warning: the data shown may be old. Answers the app
 * cannot read count as unknown: part of the system's data is missing, which is worse than a warning.
 */
export function connectionLevel(state: string | undefined): Level {
  if (state === 'certificate-changed') return 'critical';
  if (state === 'protocol-error') return 'unknown';
  return readOnlyReason(state) ? 'warning' : 'ok';
}
