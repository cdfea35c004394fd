import { api } from './api.js';
import { getOperation, type Operation, type OperationKey, type ResultOf } from '../../app/catalog/index.js';
import type { CallParams, SystemContext, TypedCallParams } from './system.svelte.js';

/** Clock and ticker of a {@link LongRun}; tests pass fake ones. */
export interface RunClock {
  now(): number;
  every(ms: number, tick: () => void): () => void;
}

const WALL_CLOCK: RunClock = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  },
};

/** A name for one call, unique enough within a window (crypto.randomUUID where the page has it). */
function newCallId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `call-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * One long operation run from a view (a node utility, the performance analyzer): whether it runs,
 * how long it has been running (ticking every second), and a way to cancel it. Main gives such a
 * call a timeout derived from its parameters; cancelling a write already sent leaves its outcome
 * unknown, which main records and says.
 */
export class LongRun {
  running = $state(false);
  elapsedMs = $state(0);
  /** True once Cancel was pressed for the current run. */
  cancelling = $state(false);
  #callId: string | undefined;

  constructor(private readonly clock: RunClock = WALL_CLOCK) {}

  /** Runs a write on the system under a call id `cancel` can name. */
  async write<K extends OperationKey>(sys: SystemContext, op: K, params: TypedCallParams<K> & { refresh?: boolean }): Promise<ResultOf<K>>;
  async write(sys: SystemContext, op: Operation, params: CallParams & { refresh?: boolean }): Promise<unknown>;
  async write(sys: SystemContext, op: Operation | OperationKey, params: CallParams & { refresh?: boolean }): Promise<unknown> {
    const callId = newCallId();
    this.#callId = callId;
    this.running = true;
    this.cancelling = false;
    this.elapsedMs = 0;
    const started = this.clock.now();
    const stop = this.clock.every(1000, () => (this.elapsedMs = this.clock.now() - started));
    try {
      return await sys.write(typeof op === 'string' ? getOperation(op) : op, { ...params, callId });
    } finally {
      stop();
      this.elapsedMs = this.clock.now() - started;
      this.running = false;
      this.#callId = undefined;
    }
  }

  /** Asks main to stop the current run; the run's own promise then settles with what happened. */
  async cancel(): Promise<void> {
    const callId = this.#callId;
    if (!callId || this.cancelling) return;
    this.cancelling = true;
    await api().invoke('op:cancel', { callId });
  }
}

/** `42 s`, `3 min 05 s`, `1 h 02 min`: an elapsed or expected time in words. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}
