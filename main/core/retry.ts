import { UnreachableError } from '../client/index.js';

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  /** First delay in ms; doubles each time, with full jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const READ_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 200, maxDelayMs: 2000 };

/** Delay before retry number `attempt` (1-based): exponential with full jitter. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Retries a READ when the site did not answer. Writes must never come here: a write that timed out
 * may have happened, so it is checked by listing, not repeated. Once `signal` aborted (the call's
 * or the refresh's deadline passed), nothing is retried and the wait between attempts ends at once.
 */
export async function retryRead<T>(task: () => Promise<T>, policy: RetryPolicy = READ_RETRY, sleep: Sleep = defaultSleep, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await task();
    } catch (err) {
      if (!(err instanceof UnreachableError) || attempt >= policy.retries || signal?.aborted) throw err;
      await sleep(backoffDelay(policy, attempt + 1), signal);
    }
  }
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
