import { setMaxListeners } from 'node:events';
import { UnreachableError } from '../client/index.js';

/** A time source with timers; injected so tests run deadlines on a fake clock. */
export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process's own clock and timers. A deadline's timer never keeps the process alive by itself. */
export const SYSTEM_TIMERS: Timers = {
  now: () => Date.now(),
  setTimeout: (fire, ms) => setTimeout(fire, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * One wall-clock limit for a whole piece of work (a call, a system's refresh) whatever it does
 * inside: queueing for a connection slot, logging in, every request and every retry. When it
 * passes, `signal` aborts with an {@link UnreachableError} (reason `timeout`) that names the work
 * and the limit; requests in flight are cancelled and nothing new starts.
 */
export class Deadline {
  /** When it passes, ms since the epoch. */
  readonly at: number;
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #handle: unknown;
  #passed = false;

  /**
   * @param ms length from now, in milliseconds
   * @param what the work it bounds, for the message ("refresh of paris/prod-a")
   */
  constructor(
    readonly ms: number,
    readonly what: string,
    private readonly timers: Timers = SYSTEM_TIMERS,
  ) {
    this.at = timers.now() + ms;
    this.signal = this.#controller.signal;
    // Every request of the work, and every one queued for a slot, listens to this one signal (a
    // system's refresh queues its ~60 reads at once): not the leak Node's default limit of 10 warns of.
    setMaxListeners(0, this.signal);
    this.#handle = timers.setTimeout(() => {
      this.#passed = true;
      this.#controller.abort(this.error());
    }, ms);
  }

  /** The limit passed (not merely {@link abandon}ed). */
  get expired(): boolean {
    return this.#passed;
  }

  /** Milliseconds left, never negative; none once the work was abandoned. */
  remaining(): number {
    return this.signal.aborted ? 0 : Math.max(0, this.at - this.timers.now());
  }

  /**
   * Ends the work before its limit (one part failed, the rest is no longer wanted): `signal` aborts
   * as `AbortController.abort()` does, `expired` stays false. One signal for both reasons, so each
   * request under it needs no `AbortSignal.any` of its own (a refresh makes thousands).
   */
  abandon(): void {
    this.dispose();
    this.#controller.abort();
  }

  /** The error the work fails with once the deadline passed. */
  error(): UnreachableError {
    return new UnreachableError(`${this.what}: no answer within ${formatMs(this.ms)}, the limit for the whole of it (retries included)`, 'timeout');
  }

  /** Stops the timer (the work ended). */
  dispose(): void {
    this.timers.clearTimeout(this.#handle);
  }
}

/** `1500 ms`, `15 s`, `2 min`. */
export function formatMs(ms: number): string {
  if (ms < 10_000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}
