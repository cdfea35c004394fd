import type { OperationKey } from '../../app/catalog/index.js';
import type { BulkJobView, BulkOutcome } from '../../app/domain/bulk.js';
import type { Request } from '../../app/ipc/contract.js';
import { api } from './api.js';

/** The writes admins most often make on many systems at once, offered first. */
export const BULK_PRESETS: ReadonlyArray<{ op: OperationKey; label: string }> = [
  { op: 'POST /notifications/targets/email/add', label: 'Add an e-mail notification target' },
  { op: 'POST /users/create', label: 'Create a user' },
  { op: 'PUT /notifications/settings/email/edit', label: 'Edit e-mail delivery settings' },
  { op: 'PUT /nodes/chap', label: 'Apply target CHAP credentials' },
];

/** What each outcome is called where the admin reads it. */
export const OUTCOME_LABEL: Readonly<Record<BulkOutcome, string>> = {
  pending: 'waiting',
  running: 'sending…',
  ok: 'applied',
  refused: 'refused',
  unknown: 'outcome unknown: check on the system',
  skipped: 'not sent',
};

/** Counts of a job's outcomes, for its summary line. */
export function tally(job: BulkJobView): Record<BulkOutcome, number> {
  const out: Record<BulkOutcome, number> = { pending: 0, running: 0, ok: 0, refused: 0, unknown: 0, skipped: 0 };
  for (const t of job.targets) out[t.outcome]++;
  return out;
}

const STAGE: Readonly<Record<BulkOutcome, number>> = { pending: 0, running: 1, ok: 2, refused: 2, unknown: 2, skipped: 2 };

/** Only grows while a job runs: its run, each system's stage within the run, and whether the run ended. */
function progressOf(job: BulkJobView): number {
  return job.run * 1e7 + job.targets.reduce((n, t) => n + STAGE[t.outcome], 0) * 2 + (job.state === 'running' ? 0 : 1);
}

/**
 * The bulk changes main runs, as this window sees them: listed once, then kept current by
 * `bulk:progress` events. They live in main, so leaving the view (or reloading) loses nothing.
 */
export class BulkState {
  jobs = $state.raw<readonly BulkJobView[]>([]);
  error = $state<string | undefined>();

  async load(): Promise<void> {
    try {
      this.jobs = await api().invoke('bulk:list', {});
      this.error = undefined;
    } catch (err) {
      this.error = err instanceof Error ? err.message : String(err);
    }
  }

  listen(): () => void {
    return api().on('bulk:progress', (job) => this.apply(job));
  }

  /** Takes a job's view unless the one shown already ran further (an answer can arrive after its events). */
  apply(job: BulkJobView): void {
    const i = this.jobs.findIndex((j) => j.id === job.id);
    if (i >= 0 && progressOf(this.jobs[i] as BulkJobView) > progressOf(job)) return;
    this.jobs = i < 0 ? [job, ...this.jobs] : this.jobs.map((j, k) => (k === i ? job : j));
  }

  async start(request: Request<'bulk:start'>): Promise<BulkJobView> {
    const job = await api().invoke('bulk:start', request);
    this.apply(job);
    return job;
  }

  async retry(id: string): Promise<void> {
    this.apply(await api().invoke('bulk:retry', { id }));
  }

  async cancel(id: string): Promise<void> {
    this.apply(await api().invoke('bulk:cancel', { id }));
  }
}
