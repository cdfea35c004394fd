/** A task waiting for a slot. */
interface Waiter {
  grant: () => void;
  reject: (reason: Error) => void;
  signal: AbortSignal | undefined;
}

/**
 * Counting semaphore: at most `max` tasks run at once; the rest wait in FIFO order.
 *
 * A signal's waiters share one abort listener: a system's refresh queues its ~60 reads at once under
 * one deadline's signal, and a listener each made every add and remove walk the signal's whole list.
 */
export class Limiter {
  private active = 0;
  /** FIFO from `head`: the granted part is dropped in bulk, not shifted one by one. */
  private waiting: Array<Waiter | undefined> = [];
  private head = 0;
  private left = 0;
  /** Per signal with waiters here: how many, and the one listener that takes them out when it aborts. */
  private readonly watched = new Map<AbortSignal, { count: number; onAbort: () => void }>();

  constructor(private max: number) {
    if (!(max >= 1)) throw new Error('a limiter needs at least one slot');
  }

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.left;
  }

  setMax(max: number): void {
    this.max = Math.max(1, max);
    this.drain();
  }

  /**
   * Runs `task` once a slot is free; the slot is released however the task ends. When `signal`
   * aborts while the task is still waiting, it leaves the queue and rejects with the signal's reason.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return runLimited([this], task, signal);
  }

  /**
   * Takes a slot: at once (undefined) when one is free and nobody waits, else a promise that
   * settles when granted, or rejects with the signal's reason if it aborts first (no slot taken).
   * Whoever got a slot gives it back with {@link release}.
   * @throws the signal's reason when it has already aborted
   */
  acquire(signal?: AbortSignal): Promise<void> | undefined {
    if (signal?.aborted) throw signal.reason as Error;
    if (this.active < this.max && this.left === 0) {
      this.active++;
      return undefined;
    }
    return this.enqueue(signal);
  }

  /** Gives back a slot taken by {@link acquire}. */
  release(): void {
    this.active--;
    this.drain();
  }

  private enqueue(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((grant, reject) => {
      this.waiting.push({ grant, reject, signal });
      this.left++;
      if (!signal) return;
      const watch = this.watched.get(signal);
      if (watch) {
        watch.count++;
        return;
      }
      const onAbort = (): void => this.abortWaiters(signal);
      this.watched.set(signal, { count: 1, onAbort });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Takes every waiter of `signal` out of the queue, rejecting each with its reason. */
  private abortWaiters(signal: AbortSignal): void {
    this.watched.delete(signal);
    for (let i = this.head; i < this.waiting.length; i++) {
      const w = this.waiting[i];
      if (w?.signal !== signal) continue;
      this.waiting[i] = undefined;
      this.left--;
      w.reject(signal.reason as Error);
    }
    this.compact();
  }

  private drain(): void {
    while (this.active < this.max && this.left > 0) {
      const w = this.waiting[this.head];
      this.waiting[this.head++] = undefined;
      if (!w) continue;
      this.left--;
      this.active++;
      if (w.signal) this.unwatch(w.signal);
      w.grant();
    }
    this.compact();
  }

  /** One waiter of `signal` left the queue: its listener goes with the last one. */
  private unwatch(signal: AbortSignal): void {
    const watch = this.watched.get(signal);
    if (!watch || --watch.count > 0) return;
    this.watched.delete(signal);
    signal.removeEventListener('abort', watch.onAbort);
  }

  private compact(): void {
    if (this.left === 0) {
      this.waiting = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
  }
}

/**
 * Runs a task under several limiters (per-endpoint, then global), releasing all however it ends, the
 * last taken first; `signal` as in {@link Limiter.run}. One async frame for all of them, not one each.
 */
export async function runLimited<T>(limiters: readonly Limiter[], task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  let held = 0;
  try {
    for (const limiter of limiters) {
      const wait = limiter.acquire(signal);
      if (wait) await wait;
      held++;
    }
    return await task();
  } finally {
    while (held > 0) (limiters[--held] as Limiter).release();
  }
}
