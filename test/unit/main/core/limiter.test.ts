import { describe, expect, it } from 'vitest';
import { Limiter, runLimited } from '../../../../main/core/limiter.js';

/** A task that runs until released, and says when it started. */
function held(): { task: () => Promise<string>; started: () => boolean; release: (v: string) => void } {
  let started = false;
  let release: (v: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => (release = resolve));
  return {
    task: () => {
      started = true;
      return done;
    },
    started: () => started,
    release: (v) => release(v),
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How many abort listeners a signal has (Node's EventTarget keeps the count for its leak warning). */
function listenerCount(signal: AbortSignal): number {
  const symbol = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kEvents');
  const events = symbol ? (signal as unknown as Record<symbol, Map<string, { size: number }>>)[symbol] : undefined;
  return events?.get('abort')?.size ?? 0;
}

describe('Limiter', () => {
  it('runs at most max tasks at once, the rest in the order they came', async () => {
    const limiter = new Limiter(2);
    const tasks = [held(), held(), held(), held()];
    const order: number[] = [];
    const runs = tasks.map((t, i) =>
      limiter.run(async () => {
        order.push(i);
        return t.task();
      }),
    );
    await settle();
    expect(order).toEqual([0, 1]);
    expect(limiter.inFlight).toBe(2);
    expect(limiter.queued).toBe(2);
    tasks[1]?.release('b');
    await settle();
    expect(order).toEqual([0, 1, 2]);
    tasks[0]?.release('a');
    tasks[2]?.release('c');
    tasks[3]?.release('d');
    await expect(Promise.all(runs)).resolves.toEqual(['a', 'b', 'c', 'd']);
    expect(limiter.inFlight).toBe(0);
    expect(limiter.queued).toBe(0);
  });

  it('releases the slot of a task that fails', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(async () => 'after')).resolves.toBe('after');
    expect(limiter.inFlight).toBe(0);
  });

  it('refuses a task whose signal already aborted, without taking a slot', async () => {
    const limiter = new Limiter(1);
    const c = new AbortController();
    c.abort(new Error('gone'));
    let ran = false;
    await expect(
      limiter.run(async () => {
        ran = true;
      }, c.signal),
    ).rejects.toThrow('gone');
    expect(ran).toBe(false);
    expect(limiter.inFlight).toBe(0);
  });

  it('listens once per signal however many of its tasks wait, and not at all once none does', async () => {
    const limiter = new Limiter(1);
    const first = held();
    const holder = limiter.run(first.task);
    const c = new AbortController();
    const waiting = Array.from({ length: 50 }, (_, i) => limiter.run(async () => i, c.signal));
    expect(limiter.queued).toBe(50);
    expect(listenerCount(c.signal)).toBe(1);
    first.release('done');
    await holder;
    await expect(Promise.all(waiting)).resolves.toHaveLength(50);
    expect(listenerCount(c.signal)).toBe(0);
  });

  it('when a signal aborts, takes out only its own waiters, each rejected with its reason, and the others still run in order', async () => {
    const limiter = new Limiter(1);
    const first = held();
    const holder = limiter.run(first.task);
    const a = new AbortController();
    const b = new AbortController();
    const ran: string[] = [];
    const mine = [limiter.run(async () => ran.push('a1'), a.signal), limiter.run(async () => ran.push('a2'), a.signal)].map((p) => p.catch((e: unknown) => e));
    const others = [limiter.run(async () => ran.push('b1'), b.signal), limiter.run(async () => ran.push('plain'))];
    const reason = new Error('deadline passed');
    a.abort(reason);
    expect(await Promise.all(mine)).toEqual([reason, reason]);
    expect(limiter.queued).toBe(2);
    first.release('done');
    await holder;
    await Promise.all(others);
    expect(ran).toEqual(['b1', 'plain']);
    expect(listenerCount(b.signal)).toBe(0);
    expect(limiter.inFlight).toBe(0);
  });

  it('lets more tasks run at once when its cap is raised', async () => {
    const limiter = new Limiter(1);
    const tasks = [held(), held(), held()];
    const runs = tasks.map((t) => limiter.run(t.task));
    await settle();
    expect(tasks.map((t) => t.started())).toEqual([true, false, false]);
    limiter.setMax(3);
    await settle();
    expect(tasks.map((t) => t.started())).toEqual([true, true, true]);
    tasks.forEach((t, i) => t.release(String(i)));
    await expect(Promise.all(runs)).resolves.toEqual(['0', '1', '2']);
  });

  it('keeps its order through many more waiters than it holds at once', async () => {
    const limiter = new Limiter(3);
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 5000 }, (_, i) =>
        limiter.run(async () => {
          order.push(i);
          await Promise.resolve();
        }),
      ),
    );
    expect(order).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(limiter.queued).toBe(0);
  });
});

describe('runLimited', () => {
  it('holds a slot of every limiter while the task runs, and releases them all', async () => {
    const site = new Limiter(2);
    const fleet = new Limiter(1);
    const t = held();
    const run = runLimited([site, fleet], t.task);
    await settle();
    expect([site.inFlight, fleet.inFlight]).toEqual([1, 1]);
    const second = runLimited([site, fleet], async () => 'second');
    await settle();
    // The site has room; the fleet-wide cap holds it.
    expect([site.inFlight, fleet.inFlight, fleet.queued]).toEqual([2, 1, 1]);
    t.release('first');
    await expect(Promise.all([run, second])).resolves.toEqual(['first', 'second']);
    expect([site.inFlight, fleet.inFlight]).toEqual([0, 0]);
  });

  it('gives back the first slot when its signal aborts while it waits for the second', async () => {
    const site = new Limiter(1);
    const fleet = new Limiter(1);
    const t = held();
    const holder = fleet.run(t.task);
    const c = new AbortController();
    let ran = false;
    const waiting = runLimited(
      [site, fleet],
      async () => {
        ran = true;
      },
      c.signal,
    ).catch((e: unknown) => e);
    await settle();
    expect([site.inFlight, fleet.queued]).toEqual([1, 1]);
    const reason = new Error('deadline passed');
    c.abort(reason);
    expect(await waiting).toBe(reason);
    expect([site.inFlight, fleet.queued, fleet.inFlight]).toEqual([0, 0, 1]);
    t.release('done');
    await holder;
    expect(ran).toBe(false);
    await expect(runLimited([site, fleet], async () => 'next')).resolves.toBe('next');
  });
});
