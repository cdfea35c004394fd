import { describe, expect, it } from 'vitest';
import { answersOrDeadline } from '../../../renderer/lib/first-answers.js';

/** Whether `p` has settled after the queued microtasks ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('answersOrDeadline (the frame is shown with the first answers, or without them when they are late)', () => {
  const never = new Promise<void>(() => undefined);

  it('resolves once the answers are in, or have failed', async () => {
    const noTimer = (): void => undefined;
    expect(await settled(answersOrDeadline(Promise.resolve(), 500, noTimer))).toBe(true);
    expect(await settled(answersOrDeadline(Promise.reject(new Error('refused')), 500, noTimer))).toBe(true);
    expect(await settled(answersOrDeadline(never, 500, noTimer))).toBe(false);
  });

  it('cancels its deadline once the answers are in', async () => {
    let cancelled = 0;
    await answersOrDeadline(Promise.resolve(), 500, () => () => void cancelled++);
    expect(cancelled).toBe(1);
  });

  it('resolves at the deadline when they are not in by then', async () => {
    const timers: Array<[() => void, number]> = [];
    const waiting = answersOrDeadline(never, 500, (run, ms) => void timers.push([run, ms]));
    expect(timers.map(([, ms]) => ms)).toEqual([500]);
    expect(await settled(waiting)).toBe(false);
    timers[0]![0]();
    expect(await settled(waiting)).toBe(true);
  });
});
