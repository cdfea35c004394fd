import { Rng } from './random.js';

/** Fault settings of one site's endpoint. */
export interface FaultSettings {
  /** Added to every response, in milliseconds. */
  latencyMs: number;
  /** Up to this many extra milliseconds, uniformly drawn per request. */
  jitterMs: number;
  /** Share of requests (0–1) that fail. */
  errorRate: number;
  /** How a failing request fails: `status` answers 400 with a string, `reset` drops the connection. */
  errorMode: 'status' | 'reset';
}

export interface FaultDecision {
  action: 'pass' | 'error' | 'reset';
  delayMs: number;
}

export const INJECTED_ERROR = 'Simulated fault: the service is temporarily unavailable.';

/**
 * Fault state of one site. Draws come from a seeded PRNG so a fault run is repeatable
 * for a given sequence of requests.
 */
export class SiteFaults {
  #settings: FaultSettings;
  #resetNext = 0;
  readonly #rng: Rng;

  constructor(seed: number, latencyMs = 0) {
    this.#rng = new Rng(seed);
    this.#settings = { latencyMs, jitterMs: 0, errorRate: 0, errorMode: 'status' };
  }

  get settings(): Readonly<FaultSettings> {
    return { ...this.#settings };
  }

  get pendingResets(): number {
    return this.#resetNext;
  }

  /** Changes some settings. @throws RangeError on out-of-range values. */
  configure(change: Partial<FaultSettings>): FaultSettings {
    const next = { ...this.#settings, ...change };
    if (!Number.isFinite(next.latencyMs) || next.latencyMs < 0 || next.latencyMs > 600_000) throw new RangeError('latencyMs must be 0 to 600000');
    if (!Number.isFinite(next.jitterMs) || next.jitterMs < 0 || next.jitterMs > 600_000) throw new RangeError('jitterMs must be 0 to 600000');
    if (!Number.isFinite(next.errorRate) || next.errorRate < 0 || next.errorRate > 1) throw new RangeError('errorRate must be 0 to 1');
    if (next.errorMode !== 'status' && next.errorMode !== 'reset') throw new RangeError('errorMode must be "status" or "reset"');
    this.#settings = next;
    return { ...next };
  }

  /** The next `count` requests have their connection reset. */
  resetNext(count: number): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
    this.#resetNext = count;
  }

  /** Decides the fate of one request. */
  next(): FaultDecision {
    const s = this.#settings;
    const delayMs = s.latencyMs + (s.jitterMs > 0 ? this.#rng.next() * s.jitterMs : 0);
    if (this.#resetNext > 0) {
      this.#resetNext--;
      return { action: 'reset', delayMs: 0 };
    }
    if (s.errorRate > 0 && this.#rng.next() < s.errorRate) return { action: s.errorMode === 'reset' ? 'reset' : 'error', delayMs };
    return { action: 'pass', delayMs };
  }
}
