/** Counting semaphore: at most `max` tasks run at once; the rest wait in FIFO order. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private max: number) {
    if (!(max >= 1)) throw new Error('a limiter needs at least one slot');
  }

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  setMax(max: number): void {
    this.max = Math.max(1, max);
    this.drain();
  }

  /**
   * Runs `task` once a slot is free; the slot is released however the task ends. When `signal`
   * aborts while the task is still waiting, it leaves the queue and rejects with the signal's reason.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.active--;
      this.drain();
    }
  }

  private acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.waiting.indexOf(granted);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason as Error);
      };
      const granted = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waiting.push(granted);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private drain(): void {
    while (this.active < this.max && this.waiting.length) {
      this.active++;
      this.waiting.shift()?.();
    }
  }
}

/** Runs a task under several limiters (per-endpoint, then global), releasing all however it ends; `signal` as in {@link Limiter.run}. */
export function runLimited<T>(limiters: readonly Limiter[], task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const [first, ...rest] = limiters;
  if (!first) return task();
  return first.run(() => runLimited(rest, task, signal), signal);
}
