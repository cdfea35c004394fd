/** Source of the simulated time in milliseconds since the epoch, and how the simulator waits. */
export interface Clock {
  now(): number;
  /**
   * Resolves after `ms` milliseconds of waiting: injected latency, a node utility that runs, a
   * slow analyzer. Real timers by default (unreferenced: a wait its client gave up on must not keep
   * a closed simulator's process alive); tests pass their own, to see what was waited without a watch.
   */
  wait(ms: number): Promise<void>;
}

/** Waits on the process's timers without holding the process open. */
export const realWait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * The simulator's clock: a time source plus an offset that tests and the control API advance,
 * so token expiry, replication progress and drive wear can be exercised without waiting.
 */
export class SimClock implements Clock {
  #offsetMs = 0;

  constructor(
    private readonly source: () => number = Date.now,
    private readonly waiter: (ms: number) => Promise<void> = realWait,
  ) {}

  /** A clock that runs in real time from `atMs` (so runs started with one start time generate equal timestamps). */
  static startingAt(atMs: number, now: () => number = Date.now): SimClock {
    const startedAt = now();
    return new SimClock(() => atMs + (now() - startedAt));
  }

  /** A clock that stands still at `atMs` unless advanced: fully reproducible timestamps. */
  static frozen(atMs: number, wait: (ms: number) => Promise<void> = realWait): SimClock {
    return new SimClock(() => atMs, wait);
  }

  wait(ms: number): Promise<void> {
    return this.waiter(ms);
  }

  now(): number {
    return this.source() + this.#offsetMs;
  }

  /** Moves simulated time forward by `seconds` (fractions allowed; negative values are refused). */
  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('advance: seconds must be a finite number >= 0');
    this.#offsetMs += seconds * 1000;
  }
}
