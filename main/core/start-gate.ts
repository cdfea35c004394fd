/** Starts a timer; returns its cancel. */
export type SetTimer = (run: () => void, ms: number) => () => void;

export interface StartGateOptions {
  /** After the first frame's data is served, how long the window is left to render it (default {@link SETTLE_MS}). */
  settleMs?: number | undefined;
  /** Opens the gate this long after it was made even when no window asked (default {@link FALLBACK_MS}). */
  fallbackMs?: number | undefined;
  /** Timers (tests: fake ones). */
  setTimer?: SetTimer | undefined;
}

/** Time the page takes from its first frame's data to painting it and reading the details after it, with margin (1,000 systems: ~0.5 s quiet). */
export const SETTLE_MS = 1500;
/** A start whose window never asks (a process without one, a window that failed to load) still does its background work. */
export const FALLBACK_MS = 10_000;

const defaultTimer: SetTimer = (run, ms) => {
  const t = setTimeout(run, ms);
  t.unref?.();
  return () => clearTimeout(t);
};

/**
 * Holds main's background start-up work (the search index reading every system's cached answers)
 * until the window has painted its first frame: on 2 cores, that work and the page's loading would
 * otherwise share the CPU, and the window would show later. Opens `settleMs` after the window's
 * first frame data was served ({@link firstFrameServed}: its `health:briefs` read of every
 * system; the details, `health:summaries`, are read right after that frame and parsed within the
 * settle time), or `fallbackMs` after the start when no window asks.
 */
export class StartGate {
  readonly #settleMs: number;
  readonly #setTimer: SetTimer;
  readonly #waiting = new Set<() => void>();
  #open = false;
  #cancelFallback: (() => void) | undefined;
  #settling = false;

  constructor(o: StartGateOptions = {}) {
    this.#settleMs = o.settleMs ?? SETTLE_MS;
    this.#setTimer = o.setTimer ?? defaultTimer;
    this.#cancelFallback = this.#setTimer(() => this.#openNow(), o.fallbackMs ?? FALLBACK_MS);
  }

  /** Whether deferred work runs now. */
  get isOpen(): boolean {
    return this.#open;
  }

  /** A window was served its first frame's data: the gate opens once it has had time to paint it. */
  firstFrameServed(): void {
    if (this.#open || this.#settling) return;
    this.#settling = true;
    this.#cancelFallback?.();
    this.#cancelFallback = this.#setTimer(() => this.#openNow(), this.#settleMs);
  }

  /** Runs `run` once the gate opens (at once when open); returns a cancel that keeps it from running. */
  after(run: () => void): () => void {
    if (this.#open) {
      run();
      return () => undefined;
    }
    const once = (): void => run();
    this.#waiting.add(once);
    return () => this.#waiting.delete(once);
  }

  /** Cancels its timer and drops what waits (the runtime closes). */
  close(): void {
    this.#cancelFallback?.();
    this.#waiting.clear();
  }

  #openNow(): void {
    if (this.#open) return;
    this.#open = true;
    this.#cancelFallback = undefined;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const run of waiting) run();
  }
}
