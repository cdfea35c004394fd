import { OPERATIONS, type Operation } from '../../app/catalog/index.js';
import { RETRYABLE_OUTCOMES, type BulkJobView } from '../../app/domain/bulk.js';

// Apart from BulkState (lib/bulk.svelte.ts), which the frame holds from the first frame: these need
// the whole catalog and the bulk schemas, which only the bulk view's own script chunk loads.

/** Every write of the catalog can be a bulk change; reads cannot. */
export const BULK_OPERATIONS: readonly Operation[] = OPERATIONS.filter((o) => o.writes);

/** How many systems of a job a retry would send to again (refused or not sent; never unknown). */
export function retryable(job: BulkJobView): number {
  return job.targets.filter((t) => RETRYABLE_OUTCOMES.includes(t.outcome)).length;
}
