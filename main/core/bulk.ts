import { getOperation, type Operation } from '../../app/catalog/index.js';
import { RETRYABLE_OUTCOMES, type BulkJobView, type BulkTarget } from '../../app/domain/bulk.js';
import { InputError } from '../../app/errors.js';
import { maskSecrets, redact, secretValues } from '../../app/redact.js';
import type { WriteResult } from '../store/action-log.js';
import type { FleetCallParams } from './fleet.js';
import { Limiter } from './limiter.js';

/** The parameters every system of a bulk change receives (secrets included: they stay in main). */
export interface BulkParams {
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  headers?: Record<string, unknown> | undefined;
}

/** One system of a bulk change. */
export interface BulkSystem {
  siteId: string;
  system: string;
}

/**
 * Sends one write to one system through the fleet's write path (which records intent, then
 * outcome, in the action log) and says how it ended, as the log records it. It does not throw.
 */
export type BulkSender = (target: BulkSystem, op: Operation, params: BulkParams) => Promise<{ result: WriteResult; message: string }>;

export interface BulkSpec {
  /** `METHOD /path` of a catalog write. */
  operation: string;
  targets: readonly BulkSystem[];
  params: BulkParams;
  /** Systems sent to at once (1–16, default 4). */
  maxInFlight?: number | undefined;
  /** After the first refused or unknown outcome, start no other system. */
  stopOnFailure?: boolean | undefined;
}

export interface BulkJobsOptions {
  send: BulkSender;
  clock?: () => Date;
  /** Jobs kept for the views (oldest finished ones forgotten first; default 20). */
  keep?: number;
  newId?: () => string;
}

export const BULK_LIMITS = { maxInFlight: 16, defaultInFlight: 4, targets: 500 } as const;

interface Job {
  view: BulkJobView;
  /** The parameters with their secrets, kept only while a retry could need them. */
  params: BulkParams | undefined;
  secrets: string[];
  op: Operation;
  halt: 'cancelled' | 'stopped' | undefined;
  done: Promise<void>;
}

/**
 * Bulk changes: one write, the same parameters, several systems, run in main so that closing a
 * view (or the window reloading) loses no outcome. Each system's write goes through the fleet's
 * write path, so each is validated, logged as intended before it is sent and its outcome after.
 * At most `maxInFlight` systems are sent to at once, in the order given. A retry sends again only
 * to the systems whose write certainly did not apply (refused, or never sent); a write whose
 * outcome is unknown is never resent: the admin checks that system.
 */
export class BulkJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly listeners = new Set<(job: BulkJobView) => void>();
  private readonly clock: () => Date;
  private seq = 0;

  constructor(private readonly o: BulkJobsOptions) {
    this.clock = o.clock ?? (() => new Date());
  }

  /** Bulk changes still running (some systems not yet sent to); the updater installs only at zero. */
  get running(): number {
    let n = 0;
    for (const job of this.jobs.values()) if (job.view.state === 'running') n += 1;
    return n;
  }

  /** Subscribes to every change of every job; returns the unsubscribe function. */
  on(listener: (job: BulkJobView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts a bulk change and returns at once with its first view; progress follows as events.
   * @throws InputError for a read, no systems, a system named twice or a cap out of range.
   */
  start(spec: BulkSpec): BulkJobView {
    const op = getOperation(spec.operation);
    if (!op.writes) throw new InputError(`${op.key} only reads: a bulk change sends a write`);
    if (spec.targets.length === 0) throw new InputError('choose at least one system');
    if (spec.targets.length > BULK_LIMITS.targets) throw new InputError(`at most ${BULK_LIMITS.targets} systems in one bulk change`);
    const seen = new Set<string>();
    for (const t of spec.targets) {
      const key = `${t.siteId}\u0000${t.system}`;
      if (seen.has(key)) throw new InputError(`${t.system} is chosen twice`);
      seen.add(key);
    }
    const maxInFlight = spec.maxInFlight ?? BULK_LIMITS.defaultInFlight;
    if (!Number.isInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > BULK_LIMITS.maxInFlight) {
      throw new InputError(`systems at once: a whole number from 1 to ${BULK_LIMITS.maxInFlight}`);
    }
    const secrets = [...secretValues(spec.params.body), ...secretValues(spec.params.query), ...secretValues(spec.params.headers)];
    const id = this.o.newId?.() ?? `bulk-${this.clock().getTime().toString(36)}-${++this.seq}`;
    const view: BulkJobView = {
      id,
      operation: op.key,
      destructive: op.destructive,
      request: redact({ query: spec.params.query ?? {}, headers: spec.params.headers ?? {}, ...(spec.params.body !== undefined ? { body: spec.params.body } : {}) }, secrets),
      maxInFlight,
      stopOnFailure: spec.stopOnFailure ?? false,
      state: 'running',
      run: 1,
      startedAt: this.clock().toISOString(),
      targets: spec.targets.map((t) => ({ siteId: t.siteId, system: t.system, outcome: 'pending', attempts: 0 })),
    };
    const job: Job = { view, params: spec.params, secrets, op, halt: undefined, done: Promise.resolve() };
    this.jobs.set(id, job);
    this.forgetOld();
    job.done = this.run(job, view.targets);
    return this.snapshot(job);
  }

  /**
   * Sends the write again to the systems it certainly did not reach (refused, or not sent); never
   * to one whose outcome is unknown or that applied it.
   * @throws InputError (`conflict`) while the job still runs or when nothing can be retried.
   */
  retry(id: string): BulkJobView {
    const job = this.job(id);
    if (job.view.state === 'running') throw new InputError('this bulk change is still running: retry when it has ended', 'conflict');
    const again = job.view.targets.filter((t) => RETRYABLE_OUTCOMES.includes(t.outcome));
    if (again.length === 0 || job.params === undefined) {
      throw new InputError('nothing to retry: every system applied the change or its outcome is unknown (check those on the system)', 'conflict');
    }
    for (const t of again) {
      t.outcome = 'pending';
      delete t.message;
    }
    job.halt = undefined;
    job.view.state = 'running';
    job.view.run += 1;
    delete job.view.finishedAt;
    job.done = this.run(job, again);
    return this.snapshot(job);
  }

  /**
   * Starts no further system. Writes already sent are left to finish: aborting them would only
   * turn their outcome into unknown.
   */
  cancel(id: string): BulkJobView {
    const job = this.job(id);
    if (job.view.state === 'running') job.halt = 'cancelled';
    return this.snapshot(job);
  }

  get(id: string): BulkJobView {
    return this.snapshot(this.job(id));
  }

  /** Every kept job, newest first. */
  list(): BulkJobView[] {
    return [...this.jobs.values()].reverse().map((j) => this.snapshot(j));
  }

  /** Resolves once the job's current run has ended (the CLI and tests wait on it). */
  async settled(id: string): Promise<BulkJobView> {
    const job = this.job(id);
    await job.done;
    return this.snapshot(job);
  }

  private async run(job: Job, targets: BulkTarget[]): Promise<void> {
    const limiter = new Limiter(job.view.maxInFlight);
    this.emit(job);
    await Promise.all(targets.map((t) => limiter.run(() => this.sendOne(job, t))));
    job.view.state = job.halt ?? 'done';
    job.view.finishedAt = this.clock().toISOString();
    // The secrets go as soon as no retry could send them again.
    if (!job.view.targets.some((t) => RETRYABLE_OUTCOMES.includes(t.outcome))) job.params = undefined;
    this.emit(job);
  }

  private async sendOne(job: Job, t: BulkTarget): Promise<void> {
    if (job.halt !== undefined || job.params === undefined) {
      t.outcome = 'skipped';
      t.message = job.halt === 'cancelled' ? 'not sent: the bulk change was cancelled' : 'not sent: the bulk change stopped at the first failure';
      this.emit(job);
      return;
    }
    t.outcome = 'running';
    t.attempts += 1;
    this.emit(job);
    let ended: { result: WriteResult; message: string };
    try {
      ended = await this.o.send({ siteId: t.siteId, system: t.system }, job.op, job.params);
    } catch (err) {
      // A sender that throws broke its promise to classify: whether the write left is not known,
      // so it must never be resent.
      ended = { result: 'unknown', message: err instanceof Error ? err.message : String(err) };
    }
    t.outcome = ended.result;
    t.message = maskSecrets(ended.message, job.secrets);
    t.at = this.clock().toISOString();
    if (ended.result !== 'ok' && job.view.stopOnFailure && job.halt === undefined) job.halt = 'stopped';
    this.emit(job);
  }

  private job(id: string): Job {
    const job = this.jobs.get(id);
    if (!job) throw new InputError(`no bulk change "${id}" (it ended long ago, or Fleetdeck was restarted)`, 'not-found');
    return job;
  }

  private forgetOld(): void {
    const keep = this.o.keep ?? 20;
    for (const [id, job] of this.jobs) {
      if (this.jobs.size <= keep) break;
      if (job.view.state !== 'running') this.jobs.delete(id);
    }
  }

  private snapshot(job: Job): BulkJobView {
    return structuredClone(job.view);
  }

  private emit(job: Job): void {
    if (this.listeners.size === 0) return;
    const view = this.snapshot(job);
    for (const l of this.listeners) l(view);
  }
}

/** `Fleet.call` for an operation found at run time (a bulk job's), whose answer is read as unknown. */
export interface FleetCaller {
  call(siteId: string, system: string | undefined, op: Operation, params?: FleetCallParams): Promise<unknown>;
}

/**
 * The sender of the app: each system's write through `Fleet.call`, classified by the outcome the
 * fleet recorded in the action log. A write that throws before any outcome was recorded was
 * refused before its intent was logged (invalid parameters, an unusable log, an unknown site),
 * so it was never sent.
 */
export function fleetSender(fleet: FleetCaller): BulkSender {
  return async (t, op, params) => {
    let recorded: { result: WriteResult; message: string } | undefined;
    try {
      const value = await fleet.call(t.siteId, t.system, op, {
        ...(params.query ? { query: params.query } : {}),
        ...(params.headers ? { headers: params.headers } : {}),
        ...(params.body !== undefined ? { body: params.body } : {}),
        onOutcome: (result, message) => (recorded = { result, message }),
      });
      return recorded ?? { result: 'ok', message: typeof value === 'string' ? value : '' };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (recorded) return { result: recorded.result, message: recorded.message || message };
      return { result: 'refused', message: `not sent: ${message}` };
    }
  };
}
