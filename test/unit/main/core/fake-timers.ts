import type { Timers } from '../../../../main/core/deadline.js';

/** Timers on a clock that moves only when told to: deadlines fire at `advance`, never on their own. */
export class FakeTimers implements Timers {
  #now: number;
  #next = 1;
  readonly #pending = new Map<number, { at: number; fire: () => void }>();

  constructor(start = Date.UTC(2026, 0, 15, 10, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fire: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#pending.set(id, { at: this.#now + ms, fire });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  /** Timers not yet fired nor cleared. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Moves the clock forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = [...this.#pending].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#pending.delete(due[0]);
      this.#now = due[1].at;
      due[1].fire();
    }
    this.#now = until;
  }
}
