import { describe, expect, it } from 'vitest';
import { UnreachableError } from '../../../../main/client/index.js';
import { Deadline, raceSignal } from '../../../../main/core/deadline.js';
import { Limiter } from '../../../../main/core/limiter.js';
import { retryRead } from '../../../../main/core/retry.js';
import { FakeTimers } from './fake-timers.js';

const never = <T>(): Promise<T> => new Promise<T>(() => {});
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Deadline', () => {
  it('aborts its signal once, when the clock reaches it, with an error naming the work and the limit', () => {
    const timers = new FakeTimers();
    const d = new Deadline(60_000, 'refresh of paris/prod-a', timers);
    timers.advance(59_999);
    expect(d.expired).toBe(false);
    expect(d.remaining()).toBe(1);
    timers.advance(1);
    expect(d.expired).toBe(true);
    expect(d.remaining()).toBe(0);
    const reason = d.signal.reason as UnreachableError;
    expect(reason).toBeInstanceOf(UnreachableError);
    expect(reason.reason).toBe('timeout');
    expect(reason.message).toBe('refresh of paris/prod-a: no answer within 60 s, the limit for the whole of it (retries included)');
  });

  it('leaves no timer behind once disposed', () => {
    const timers = new FakeTimers();
    new Deadline(1000, 'a call', timers).dispose();
    expect(timers.pending).toBe(0);
  });

  it('abandoned before its limit, stops what waits on it without saying the limit passed', async () => {
    const timers = new FakeTimers();
    const d = new Deadline(60_000, 'refresh of paris/prod-a', timers);
    const waiting = raceSignal(never<string>(), d.signal).catch((e: unknown) => e);
    timers.advance(1000);
    d.abandon();
    expect(d.signal.aborted).toBe(true);
    expect((await waiting) as DOMException).toMatchObject({ name: 'AbortError' });
    // A refresh that gave up on a system must not report it as timed out.
    expect(d.expired).toBe(false);
    expect(d.remaining()).toBe(0);
    expect(timers.pending).toBe(0);
  });

  it('stops a wait that would never end', async () => {
    const timers = new FakeTimers();
    const d = new Deadline(5000, 'GET /Version on paris', timers);
    const waiting = raceSignal(never<string>(), d.signal).catch((e: unknown) => e);
    timers.advance(5000);
    expect(await waiting).toBe(d.signal.reason);
  });
});

describe('Limiter with a deadline', () => {
  it('lets a waiting task leave the queue when its deadline passes, without taking a slot from the others', async () => {
    const timers = new FakeTimers();
    const limiter = new Limiter(1);
    let release = (): void => undefined;
    const holder = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const d = new Deadline(1000, 'a read', timers);
    const late = limiter.run(async () => 'ran', d.signal).catch((e: unknown) => e);
    const next = limiter.run(async () => 'next ran');
    expect(limiter.queued).toBe(2);
    timers.advance(1000);
    expect(await late).toBe(d.signal.reason);
    expect(limiter.queued).toBe(1);
    release();
    await holder;
    await expect(next).resolves.toBe('next ran');
    expect(limiter.inFlight).toBe(0);
  });
});

describe('retryRead with a deadline', () => {
  it('does not retry, nor wait to, once the deadline passed', async () => {
    const timers = new FakeTimers();
    const d = new Deadline(2000, 'a read', timers);
    let attempts = 0;
    const sleeps: number[] = [];
    const result = retryRead(
      async () => {
        attempts++;
        throw new UnreachableError('no answer', 'ECONNRESET');
      },
      {
        policy: { retries: 5, baseDelayMs: 200, maxDelayMs: 2000 },
        sleep: (ms, signal) => {
          sleeps.push(ms);
          return raceSignal(never<void>(), signal);
        },
        signal: d.signal,
      },
    ).catch((e: unknown) => e);
    await settle();
    expect(attempts).toBe(1);
    expect(sleeps).toHaveLength(1);
    timers.advance(2000);
    expect(await result).toBe(d.signal.reason);
    expect(attempts).toBe(1);
  });
});
