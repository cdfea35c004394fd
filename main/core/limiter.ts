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

  /** Runs `task` once a slot is free; the slot is released however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.active--;
      this.drain();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private drain(): void {
    while (this.active < this.max && this.waiting.length) {
      this.active++;
      this.waiting.shift()?.();
    }
  }
}

/** Runs a task under several limiters (per-endpoint, then global), releasing all however it ends. */
export function runLimited<T>(limiters: readonly Limiter[], task: () => Promise<T>): Promise<T> {
  const [first, ...rest] = limiters;
  if (!first) return task();
  return first.run(() => runLimited(rest, task));
}
