import { describe, expect, it } from 'vitest';
import { TransientHttpError, UnreachableError } from '../../../../main/client/errors.js';
import { Deadline } from '../../../../main/core/deadline.js';
import { retryRead, sleepOn } from '../../../../main/core/retry.js';
import { FakeTimers } from './fake-timers.js';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const proxyPage = (retryAfterMs?: number): TransientHttpError => new TransientHttpError('HTTP 503 with "503 Service Unavailable"', 503, retryAfterMs);
const POLICY = { retries: 2, baseDelayMs: 200, maxDelayMs: 2000 };

/** A task failing `failures` times with `error()`, then answering. */
function flaky(failures: number, error: () => Error): { task: () => Promise<string>; attempts: () => number } {
  let n = 0;
  return {
    task: async () => {
      n++;
      if (n <= failures) throw error();
      return 'answer';
    },
    attempts: () => n,
  };
}

describe('retryRead and "not now" answers', () => {
  it('retries a proxy page after its Retry-After, not before', async () => {
    const timers = new FakeTimers();
    const { task, attempts } = flaky(1, () => proxyPage(5000));
    const result = retryRead(task, { policy: POLICY, sleep: sleepOn(timers), random: () => 0 });
    await settle();
    expect(attempts()).toBe(1);
    timers.advance(4999);
    await settle();
    expect(attempts()).toBe(1);
    timers.advance(1);
    expect(await result).toBe('answer');
    expect(attempts()).toBe(2);
  });

  it('uses its own backoff when the page gives no Retry-After, and stops after the policy\'s retries', async () => {
    const timers = new FakeTimers();
    const { task, attempts } = flaky(5, () => proxyPage());
    const result = retryRead(task, { policy: POLICY, sleep: sleepOn(timers), random: () => 1 }).catch((e: unknown) => e);
    for (let i = 0; i < 5; i++) {
      await settle();
      timers.advance(2000);
    }
    const err = await result;
    expect(err).toBeInstanceOf(TransientHttpError);
    expect(attempts()).toBe(3);
  });

  it('reports at once a Retry-After longer than it waits, saying so', async () => {
    const timers = new FakeTimers();
    const { task, attempts } = flaky(1, () => proxyPage(120_000));
    const err = await retryRead(task, { policy: POLICY, sleep: sleepOn(timers) }).catch((e: unknown) => e);
    expect(attempts()).toBe(1);
    expect((err as Error).message).toContain('longer than the 10 s Fleetdeck waits');
    expect(timers.pending).toBe(0);
  });

  it('does not start a Retry-After wait that would end past the call\'s deadline', async () => {
    const timers = new FakeTimers();
    const deadline = new Deadline(3000, 'a read', timers);
    const { task, attempts } = flaky(1, () => proxyPage(4000));
    const err = await retryRead(task, { policy: POLICY, sleep: sleepOn(timers), deadline, signal: deadline.signal }).catch((e: unknown) => e);
    expect(attempts()).toBe(1);
    expect((err as Error).message).toContain("no time left within the call's limit to wait that long");
    deadline.dispose();
  });

  it('does not retry what is not a failure to answer', async () => {
    const { task, attempts } = flaky(1, () => new Error('a bug'));
    await expect(retryRead(task, { policy: POLICY, sleep: async () => undefined })).rejects.toThrow('a bug');
    expect(attempts()).toBe(1);
    const reset = flaky(1, () => new UnreachableError('reset', 'ECONNRESET'));
    expect(await retryRead(reset.task, { policy: POLICY, sleep: async () => undefined })).toBe('answer');
  });
});
