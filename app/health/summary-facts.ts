import type { NotificationRecord } from '../catalog/resources.js';
import type { LaggingPair, NodeDrive, Rollup } from './rollup.js';
import type { SystemSummaryWire } from './system-summary.js';

// The window's side of a health summary (app/health/system-summary.ts): types only from there, so the
// window's first script does not carry zod (issue 17).

/** A system's facts (what the window keeps per system). */
export interface HealthFacts {
  rollup: Rollup;
  /** When the health record was read from the system. */
  at: string | undefined;
  drives: NodeDrive[];
  lagging: LaggingPair[];
  errors: NotificationRecord[];
}

type WirePool = SystemSummaryWire['rollup']['capacity']['pools'][number];

/** What the window keeps of a summary: the facts with the one infinite figure restored. */
export function factsFromWire(w: SystemSummaryWire): HealthFacts {
  const pool = <P extends WirePool>(p: P) =>
    p.forecast.range ? { ...p, forecast: { ...p.forecast, range: { low: p.forecast.range.low, high: p.forecast.range.high ?? Number.POSITIVE_INFINITY } } } : p;
  const capacity = w.rollup.capacity;
  // The wire schema is the shape of HealthFacts as JSON; the records are the system's own, already normalised.
  return {
    rollup: { ...w.rollup, capacity: { ...capacity, pools: capacity.pools.map(pool), total: capacity.total ? pool(capacity.total) : undefined } },
    at: w.at,
    drives: w.drives,
    lagging: w.lagging,
    errors: w.errors,
  } as HealthFacts;
}
