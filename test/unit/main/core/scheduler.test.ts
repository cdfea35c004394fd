import { describe, expect, it } from 'vitest';
import type { Site } from '../../../../app/domain/site.js';
import { coalescedDue, MAX_COALESCE_STEP_MS, PollScheduler } from '../../../../main/core/scheduler.js';
import { FakeTimers } from './fake-timers.js';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function site(id: string, intervalSeconds: number, paused = false): Site {
  return {
    id,
    name: id,
    baseUrl: `https://${id}.example`,
    username: 'admin',
    tags: [],
    tls: {},
    allowHttp: false,
    polling: { intervalSeconds, paused, maxInFlight: 4 },
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
}

/** A scheduler on a fake clock whose polls are recorded and settled by the test. */
function harness(sites: Site[], options: { random?: () => number; backoff?: Map<string, number>; coalesce?: boolean } = {}) {
  const timers = new FakeTimers();
  const polls: Array<{ siteId: string; at: number; done: () => void; fail: (e: Error) => void }> = [];
  const list = { sites };
  const scheduler = new PollScheduler({
    sites: () => list.sites,
    poll: (siteId) =>
      new Promise<void>((resolve, reject) => {
        polls.push({ siteId, at: timers.now(), done: resolve, fail: reject });
      }),
    backoffUntil: (siteId) => options.backoff?.get(siteId),
    timers,
    random: options.random ?? (() => 0.5),
    // Exact times unless a test is about the grid.
    coalesce: options.coalesce ?? false,
  });
  const t0 = timers.now();
  /** Advances the clock and lets the scheduler's promise callbacks run. */
  const advance = async (ms: number): Promise<void> => {
    timers.advance(ms);
    await settle();
  };
  /** Ends every poll still running, then lets the scheduler schedule the next. */
  const finishAll = async (): Promise<void> => {
    for (const p of polls) p.done();
    await settle();
  };
  return { timers, polls, list, scheduler, t0, advance, finishAll };
}

describe('coalescedDue', () => {
  it('moves a time to the nearest step of a sixth of the interval, at most 10 s, by at most half a step', () => {
    const t = Date.UTC(2026, 0, 15, 10, 0, 0);
    expect(coalescedDue(t + 4_900, 60)).toBe(t);
    expect(coalescedDue(t + 5_100, 60)).toBe(t + 10_000);
    expect(coalescedDue(t + 2_400, 30)).toBe(t);
    expect(coalescedDue(t + 2_600, 30)).toBe(t + 5_000);
    expect(coalescedDue(t + 12_345, 3_600)).toBe(t + 10_000);
    for (const interval of [1, 10, 30, 60, 300, 3_600]) {
      const step = Math.min(MAX_COALESCE_STEP_MS, Math.round((interval * 1000) / 6));
      for (let ms = 0; ms < 2 * step; ms += 37) {
        const moved = coalescedDue(t + ms, interval);
        expect(moved % step).toBe(0);
        expect(Math.abs(moved - (t + ms))).toBeLessThanOrEqual(step / 2);
      }
    }
  });
});

describe('PollScheduler', () => {
  it('starts the polls of sites due within one step together, each within ±19 % of its interval', async () => {
    // Ten sites whose first polls are jittered apart: they start on a few grid points, not ten.
    let draw = 0;
    const sites = Array.from({ length: 10 }, (_, i) => site(`s${i}`, 60));
    const h = harness(sites, { random: () => (draw++ * 0.097) % 1, coalesce: true });
    h.scheduler.start();
    await h.advance(80_000);
    const starts = h.polls.map((p) => p.at);
    expect(starts).toHaveLength(10);
    expect(new Set(starts).size).toBeLessThanOrEqual(3);
    for (const at of starts) {
      expect(at % 10_000).toBe(0);
      expect(Math.abs(at - h.t0 - 60_000)).toBeLessThanOrEqual(11_000);
    }
    // The next ones, an interval after each poll's end, are on the grid too.
    await h.advance(3_210);
    await h.finishAll();
    await h.advance(80_000);
    expect(h.polls.slice(10).every((p) => p.at % 10_000 === 0)).toBe(true);
  });

  it('does not move a poll asked for now', async () => {
    const h = harness([site('a', 60)], { coalesce: true });
    h.scheduler.start();
    await h.advance(1_234);
    h.scheduler.pollNow('a');
    await h.advance(0);
    expect(h.polls.map((p) => p.at - h.t0)).toEqual([1_234]);
  });

  it('pollNow polls at once, then counts the interval from its end; during a poll it queues one more', async () => {
    const h = harness([site('a', 60), site('b', 60)]);
    h.scheduler.pollNow('a');
    await h.advance(0);
    expect(h.polls).toHaveLength(0);
    h.scheduler.start();
    await h.advance(10_000);
    h.scheduler.pollNow('a');
    await h.advance(0);
    expect(h.polls.map((p) => [p.siteId, p.at - h.t0])).toEqual([['a', 10_000]]);
    h.scheduler.pollNow('a');
    await h.advance(0);
    expect(h.polls).toHaveLength(1);
    await h.finishAll();
    await h.advance(0);
    expect(h.polls.map((p) => [p.siteId, p.at - h.t0])).toEqual([['a', 10_000], ['a', 10_000]]);
    await h.finishAll();
    expect(h.scheduler.nextPollAt('a')).toBe(h.timers.now() + 60_000);
    expect(h.scheduler.nextPollAt('b')).toBe(h.t0 + 60_000);
  });

  it('polls each site at its interval, the next interval counted from the end of the last poll', async () => {
    const h = harness([site('a', 60), site('b', 300)]);
    h.scheduler.start();
    await h.advance(59_999);
    expect(h.polls).toHaveLength(0);
    await h.advance(1);
    expect(h.polls.map((p) => [p.siteId, p.at - h.t0])).toEqual([['a', 60_000]]);
    // The poll takes 5 s: the next one is 60 s after its end.
    await h.advance(5_000);
    await h.finishAll();
    await h.advance(59_999);
    expect(h.polls).toHaveLength(1);
    await h.advance(1);
    expect(h.polls.map((p) => [p.siteId, p.at - h.t0])).toEqual([
      ['a', 60_000],
      ['a', 125_000],
    ]);
    await h.finishAll();
    await h.advance(300_000 - 125_000);
    expect(h.polls.filter((p) => p.siteId === 'b').map((p) => p.at - h.t0)).toEqual([300_000]);
  });

  it('jitters each interval within ±10 %, not beyond', async () => {
    let draw = 0;
    const draws = [0, 0.999_999, 0.25, 0.75, 0, 0.999_999];
    const h = harness([site('a', 100)], { random: () => draws[draw++ % draws.length]! });
    h.scheduler.start();
    const gaps: number[] = [];
    let last = h.t0;
    for (let i = 0; i < draws.length; i++) {
      // Step one second at a time: a poll may only fire between 90 s and 110 s after the last.
      while (h.polls.length === i) await h.advance(1_000);
      gaps.push(h.polls[i]!.at - last);
      last = h.polls[i]!.at;
      await h.finishAll();
    }
    expect(gaps).toEqual([90_000, 110_000, 95_000, 105_000, 90_000, 110_000]);
    for (const g of gaps) expect(g >= 90_000 && g <= 110_000).toBe(true);
  });

  it('never starts a second poll of a site while one runs, however long it takes', async () => {
    const h = harness([site('a', 10)]);
    h.scheduler.start();
    await h.advance(10_000);
    expect(h.polls).toHaveLength(1);
    await h.advance(600_000);
    expect(h.polls).toHaveLength(1);
    expect(h.timers.pending).toBe(0);
    await h.finishAll();
    await h.advance(10_000);
    expect(h.polls).toHaveLength(2);
  });

  it('keeps polling after a failed poll', async () => {
    const h = harness([site('a', 10)]);
    h.scheduler.start();
    await h.advance(10_000);
    h.polls[0]!.fail(new Error('unreachable'));
    await settle();
    await h.advance(10_000);
    expect(h.polls).toHaveLength(2);
  });

  it('waits for the site’s backoff after failures instead of polling at the interval', async () => {
    const backoff = new Map<string, number>();
    const h = harness([site('a', 10)], { backoff });
    h.scheduler.start();
    await h.advance(10_000);
    // The refresh failed and set a 60 s backoff.
    backoff.set('a', h.timers.now() + 60_000);
    await h.finishAll();
    expect(h.scheduler.nextPollAt('a')).toBe(h.t0 + 70_000);
    await h.advance(59_999);
    expect(h.polls).toHaveLength(1);
    await h.advance(1);
    expect(h.polls).toHaveLength(2);
  });

  it('re-checks the backoff when the timer fires (a manual refresh may have failed meanwhile)', async () => {
    const backoff = new Map<string, number>();
    const h = harness([site('a', 10)], { backoff });
    h.scheduler.start();
    backoff.set('a', h.timers.now() + 30_000);
    await h.advance(10_000);
    expect(h.polls).toHaveLength(0);
    await h.advance(20_000);
    expect(h.polls).toHaveLength(1);
  });

  it('does not poll paused sites nor sites on demand (interval 0)', async () => {
    const h = harness([site('paused', 10, true), site('manual', 0)]);
    h.scheduler.start();
    await h.advance(3_600_000);
    expect(h.polls).toHaveLength(0);
    expect(h.timers.pending).toBe(0);
  });

  it('follows site changes at once: new interval from now, pause, resume, add and remove', async () => {
    const h = harness([site('a', 300)]);
    h.scheduler.start();
    await h.advance(100_000);
    h.list.sites = [site('a', 30)];
    h.scheduler.resync();
    await h.advance(30_000);
    expect(h.polls.map((p) => p.at - h.t0)).toEqual([130_000]);
    await h.finishAll();

    h.list.sites = [site('a', 30, true)];
    h.scheduler.resync();
    expect(h.scheduler.nextPollAt('a')).toBeUndefined();
    await h.advance(600_000);
    expect(h.polls).toHaveLength(1);

    h.list.sites = [site('a', 30), site('b', 20)];
    h.scheduler.resync();
    await h.advance(20_000);
    expect(h.polls.map((p) => p.siteId)).toEqual(['a', 'b']);
    await h.finishAll();

    h.list.sites = [site('a', 30)];
    h.scheduler.resync();
    await h.advance(600_000);
    expect(h.polls.filter((p) => p.siteId === 'b')).toHaveLength(1);
  });

  it('picks up sites changed by another process at its next poll: a new site scheduled, a paused one dropped', async () => {
    const h = harness([site('a', 10), site('b', 15)]);
    h.scheduler.start();
    // The CLI paused b and added c; this process was not told.
    h.list.sites = [site('a', 10), site('b', 15, true), site('c', 20)];
    await h.advance(10_000);
    expect(h.polls.map((p) => p.siteId)).toEqual(['a']);
    expect(h.scheduler.nextPollAt('b')).toBeUndefined();
    expect(h.scheduler.nextPollAt('c')).toBe(h.t0 + 30_000);
    await h.finishAll();
    await h.advance(20_000);
    expect(h.polls.map((p) => p.siteId)).toEqual(['a', 'a', 'c']);
  });

  it('an interval changed while a poll runs applies from the end of that poll', async () => {
    const h = harness([site('a', 60)]);
    h.scheduler.start();
    await h.advance(60_000);
    h.list.sites = [site('a', 10)];
    h.scheduler.resync();
    expect(h.timers.pending).toBe(0);
    await h.finishAll();
    await h.advance(10_000);
    expect(h.polls.map((p) => p.at - h.t0)).toEqual([60_000, 70_000]);
  });

  it('polls only the sites of its scope (a window scoped to one site)', async () => {
    const h = harness([site('a', 10), site('b', 10)]);
    h.scheduler.start(['b']);
    await h.advance(10_000);
    expect(h.polls.map((p) => p.siteId)).toEqual(['b']);
  });

  it('stops: no timer left, and a poll ending after the stop schedules nothing', async () => {
    const h = harness([site('a', 10), site('b', 20)]);
    h.scheduler.start();
    await h.advance(10_000);
    expect(h.polls).toHaveLength(1);
    h.scheduler.stop();
    expect(h.timers.pending).toBe(0);
    await h.finishAll();
    expect(h.timers.pending).toBe(0);
    await h.advance(3_600_000);
    expect(h.polls).toHaveLength(1);
    // resync after stop (a site edited while closing) schedules nothing either.
    h.scheduler.resync();
    expect(h.timers.pending).toBe(0);
  });
});
