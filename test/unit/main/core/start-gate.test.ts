import { describe, expect, it } from 'vitest';
import { StartGate, type SetTimer } from '../../../../main/core/start-gate.js';

/** Timers the test fires by hand: each started timer with its delay. */
function manualTimers() {
  const started: Array<{ ms: number; run: () => void; cancelled: boolean }> = [];
  const setTimer: SetTimer = (run, ms) => {
    const t = { ms, run, cancelled: false };
    started.push(t);
    return () => (t.cancelled = true);
  };
  const live = () => started.filter((t) => !t.cancelled);
  return { setTimer, live, fire: (ms: number) => live().filter((t) => t.ms === ms).forEach((t) => t.run()) };
}

describe('the start gate (background start-up work waits for the window’s first frame)', () => {
  it('runs what waits settleMs after the first frame was served, not before, and once', () => {
    const timers = manualTimers();
    const gate = new StartGate({ settleMs: 1500, fallbackMs: 10_000, setTimer: timers.setTimer });
    const ran: string[] = [];
    gate.after(() => ran.push('search index'));
    expect(ran).toEqual([]);
    gate.firstFrameServed();
    // The fallback gave way to the settle time; a second window's read changes nothing.
    expect(timers.live().map((t) => t.ms)).toEqual([1500]);
    gate.firstFrameServed();
    expect(timers.live().map((t) => t.ms)).toEqual([1500]);
    expect(ran).toEqual([]);
    timers.fire(1500);
    expect(ran).toEqual(['search index']);
    expect(gate.isOpen).toBe(true);
    // Open: what asks now runs at once.
    gate.after(() => ran.push('late'));
    expect(ran).toEqual(['search index', 'late']);
  });

  it('opens after fallbackMs when no window asks, and a cancelled wait does not run', () => {
    const timers = manualTimers();
    const gate = new StartGate({ settleMs: 1500, fallbackMs: 10_000, setTimer: timers.setTimer });
    const ran: string[] = [];
    const cancel = gate.after(() => ran.push('cancelled'));
    gate.after(() => ran.push('kept'));
    cancel();
    timers.fire(10_000);
    expect(ran).toEqual(['kept']);
  });

  it('runs nothing once closed', () => {
    const timers = manualTimers();
    const gate = new StartGate({ setTimer: timers.setTimer });
    const ran: string[] = [];
    gate.after(() => ran.push('x'));
    gate.close();
    expect(timers.live()).toEqual([]);
    expect(ran).toEqual([]);
  });
});
