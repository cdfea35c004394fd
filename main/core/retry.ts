import { isThrottling, TransientHttpError, UnreachableError } from '../client/index.js';
import { formatMs, SYSTEM_TIMERS, type Timers } from './deadline.js';

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** First delay in ms; doubles each time, with full jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * Longest Retry-After honoured, in ms (default {@link MAX_RETRY_AFTER_MS}): a site that asks to
   * wait longer is reported at once rather than waited for.
   */
  maxRetryAfterMs?: number;
}

export const READ_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 200, maxDelayMs: 2000 };

/** Retry-After honoured up to this long by default: within a call's deadline of twice the request timeout. */
export const MAX_RETRY_AFTER_MS = 10_000;

/** Delay before retry number `attempt` (1-based): exponential with full jitter. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  policy?: RetryPolicy | undefined;
  sleep?: Sleep | undefined;
  /** Once aborted (the call's or the refresh's deadline passed, or a cancel), nothing is retried and a wait ends at once. */
  signal?: AbortSignal | undefined;
  /** The limit the retries must fit in: a Retry-After wait that would end past it is not started. */
  deadline?: { remaining(): number } | undefined;
  random?: () => number;
  /** A "slow down" answer (429, 503) is not retried but thrown at once, for the caller to back off (background polls). */
  failWhenThrottled?: boolean | undefined;
}

/**
 * Retries a READ when the site did not answer, or answered "not now" (a proxy's 502/503/504 page,
 * 429): after the answer's Retry-After when it gave one (seconds or a date, up to
 * `maxRetryAfterMs`), else with exponential backoff. Writes must never come here: a write that
 * timed out may have happened, so it is checked by listing, not repeated.
 */
export async function retryRead<T>(task: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const policy = options.policy ?? READ_RETRY;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await task();
    } catch (err) {
      if (!(err instanceof UnreachableError) || attempt >= policy.retries || options.signal?.aborted) throw err;
      if (options.failWhenThrottled && isThrottling(err)) throw err;
      let delay = backoffDelay(policy, attempt + 1, options.random);
      if (err instanceof TransientHttpError && err.retryAfterMs !== undefined) {
        const cap = policy.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
        if (err.retryAfterMs > cap) {
          err.message += ` (longer than the ${formatMs(cap)} Fleetdeck waits: not retried; try again later)`;
          throw err;
        }
        // The site said when: a wait that would outlast the call is not started, and the reason is its answer.
        if (options.deadline && err.retryAfterMs >= options.deadline.remaining()) {
          err.message += ` (no time left within the call's limit to wait that long)`;
          throw err;
        }
        delay = Math.max(delay, err.retryAfterMs);
      }
      // Otherwise the deadline ends the wait itself, with its own message.
      await sleep(delay, options.signal);
    }
  }
}

/**
 * A {@link Sleep} on these timers (a fake clock in tests). On the process's own timers the wait is
 * kept referenced, unlike a deadline's: a CLI whose only pending work is a wait before retrying must
 * not exit (Node's "unfinished top-level await", exit 13) in the middle of it.
 */
export function sleepOn(timers: Timers): Sleep {
  const t = timers === SYSTEM_TIMERS ? REFERENCED_TIMERS : timers;
  return (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const onAbort = (): void => {
        t.clearTimeout(handle);
        reject(signal?.reason as Error);
      };
      const handle = t.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}

/** The process's own timers, kept referenced. */
const REFERENCED_TIMERS: Timers = { ...SYSTEM_TIMERS, setTimeout: (fire, ms) => setTimeout(fire, ms) };

const defaultSleep: Sleep = sleepOn(SYSTEM_TIMERS);
