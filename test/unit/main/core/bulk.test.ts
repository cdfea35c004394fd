import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../../app/catalog/index.js';
import type { BulkJobView } from '../../../../app/domain/bulk.js';
import { BULK_LIMITS, BulkJobs, fleetSender, type BulkParams, type BulkSystem } from '../../../../main/core/bulk.js';
import type { WriteResult } from '../../../../main/store/action-log.js';

type Ending = { result: WriteResult; message: string };

/** A sender whose writes end when the test says, recording what was sent to whom and how many ran at once. */
function fakeSender() {
  const sent: Array<{ system: string; op: string; params: BulkParams }> = [];
  const waiting = new Map<string, (e: Ending) => void>();
  let inFlight = 0;
  let peak = 0;
  const send = (t: BulkSystem, op: Operation, params: BulkParams): Promise<Ending> => {
    sent.push({ system: t.system, op: op.key, params });
    inFlight++;
    peak = Math.max(peak, inFlight);
    return new Promise<Ending>((resolve) =>
      waiting.set(t.system, (e) => {
        inFlight--;
        waiting.delete(t.system);
        resolve(e);
      }),
    );
  };
  return {
    send,
    sent,
    get peak() {
      return peak;
    },
    running: () => [...waiting.keys()],
    end: (system: string, e: Ending) => {
      const f = waiting.get(system);
      if (!f) throw new Error(`${system} is not being sent`);
      f(e);
    },
  };
}

/** Lets queued promise callbacks run (no timers involved). */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

const clock = () => new Date('2026-11-26T12:00:00Z');
const systems = (...names: string[]): BulkSystem[] => names.map((system) => ({ siteId: 'site-a', system }));
const CREATE_USER = 'POST /users/create';
const userParams = { body: { Name: 'ops', Password: 'S3cret-Bulk-Pass', Role: 'Monitor' } };
const outcomes = (v: BulkJobView): Record<string, string> => Object.fromEntries(v.targets.map((t) => [t.system, t.outcome]));

describe('BulkJobs', () => {
  it('sends to at most maxInFlight systems at once, in the order chosen', async () => {
    const s = fakeSender();
    const jobs = new BulkJobs({ send: s.send, clock });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2', 's3', 's4', 's5'), params: userParams, maxInFlight: 2 });
    await flush();
    expect(s.running()).toEqual(['s1', 's2']);
    expect(outcomes(jobs.get(view.id))).toEqual({ s1: 'running', s2: 'running', s3: 'pending', s4: 'pending', s5: 'pending' });
    s.end('s1', { result: 'ok', message: 'created' });
    await flush();
    expect(s.running()).toEqual(['s2', 's3']);
    for (const sys of ['s2', 's3']) s.end(sys, { result: 'ok', message: '' });
    await flush();
    for (const sys of ['s4', 's5']) s.end(sys, { result: 'ok', message: '' });
    const done = await jobs.settled(view.id);
    expect(s.peak).toBe(2);
    expect(s.sent.map((x) => x.system)).toEqual(['s1', 's2', 's3', 's4', 's5']);
    expect(done.state).toBe('done');
    expect(done.targets.every((t) => t.outcome === 'ok' && t.attempts === 1)).toBe(true);
  });

  it('counts the jobs still running (the updater installs only when none is)', async () => {
    const s = fakeSender();
    const jobs = new BulkJobs({ send: s.send, clock });
    expect(jobs.running).toBe(0);
    jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2'), params: userParams, maxInFlight: 1 });
    await flush();
    expect(jobs.running).toBe(1);
    s.end('s1', { result: 'ok', message: '' });
    await flush();
    // Between two systems' writes the job still runs.
    expect(jobs.running).toBe(1);
    s.end('s2', { result: 'ok', message: '' });
    await flush();
    expect(jobs.running).toBe(0);
  });

  it('with stop-on-first-failure, starts no other system after a refusal', async () => {
    const s = fakeSender();
    const jobs = new BulkJobs({ send: s.send, clock });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2', 's3'), params: userParams, maxInFlight: 1, stopOnFailure: true });
    await flush();
    s.end('s1', { result: 'refused', message: 'User ops already exists.' });
    const done = await jobs.settled(view.id);
    expect(s.sent.map((x) => x.system)).toEqual(['s1']);
    expect(done.state).toBe('stopped');
    expect(outcomes(done)).toEqual({ s1: 'refused', s2: 'skipped', s3: 'skipped' });
    expect(done.targets[0]?.message).toBe('User ops already exists.');
    expect(done.targets[1]?.message).toMatch(/not sent/);
  });

  it('without it, goes on to every system after a failure', async () => {
    const s = fakeSender();
    const jobs = new BulkJobs({ send: s.send, clock });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2'), params: userParams, maxInFlight: 1 });
    await flush();
    s.end('s1', { result: 'unknown', message: 'timed out' });
    await flush();
    s.end('s2', { result: 'ok', message: '' });
    expect(outcomes(await jobs.settled(view.id))).toEqual({ s1: 'unknown', s2: 'ok' });
  });

  it('retries only the refused and the not sent, never a write whose outcome is unknown', async () => {
    const s = fakeSender();
    const jobs = new BulkJobs({ send: s.send, clock });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('ok1', 'no1', 'unk1', 'no2'), params: userParams, maxInFlight: 4 });
    await flush();
    s.end('ok1', { result: 'ok', message: '' });
    s.end('no1', { result: 'refused', message: 'no' });
    s.end('unk1', { result: 'unknown', message: 'timed out; not resent' });
    s.end('no2', { result: 'refused', message: 'not sent: connection refused' });
    await jobs.settled(view.id);
    expect(() => jobs.retry(view.id)).not.toThrow();
    await flush();
    expect(s.running().sort()).toEqual(['no1', 'no2']);
    s.end('no1', { result: 'ok', message: '' });
    s.end('no2', { result: 'ok', message: '' });
    const done = await jobs.settled(view.id);
    expect(s.sent.map((x) => x.system)).toEqual(['ok1', 'no1', 'unk1', 'no2', 'no1', 'no2']);
    expect(done.run).toBe(2);
    expect(outcomes(done)).toEqual({ ok1: 'ok', no1: 'ok', unk1: 'unknown', no2: 'ok' });
    expect(done.targets.find((t) => t.system === 'unk1')?.attempts).toBe(1);
    // Only the unknown one is left, and it is never resent.
    expect(() => jobs.retry(view.id)).toThrow(/nothing to retry/);
    expect(s.sent).toHaveLength(6);
  });

  it('a retry after a stop sends the refused and the skipped with the same parameters, once each, and nothing else', async () => {
    const s = fakeSender();
    const jobs = new BulkJobs({ send: s.send, clock });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('ok1', 'unk1', 'no1', 'skip1', 'skip2'), params: userParams, maxInFlight: 3, stopOnFailure: true });
    await flush();
    s.end('no1', { result: 'refused', message: 'no' });
    s.end('unk1', { result: 'unknown', message: 'timed out' });
    s.end('ok1', { result: 'ok', message: '' });
    const first = await jobs.settled(view.id);
    expect(outcomes(first)).toEqual({ ok1: 'ok', unk1: 'unknown', no1: 'refused', skip1: 'skipped', skip2: 'skipped' });
    const again = jobs.retry(view.id);
    // Sent again at once (three at a time): the earlier outcome and message are gone.
    expect(outcomes(again)).toEqual({ ok1: 'ok', unk1: 'unknown', no1: 'running', skip1: 'running', skip2: 'running' });
    expect(again.targets.filter((t) => t.outcome === 'running').every((t) => t.message === undefined)).toBe(true);
    expect(again).toMatchObject({ state: 'running', run: 2 });
    expect(again.finishedAt).toBeUndefined();
    for (const system of ['no1', 'skip1', 'skip2']) {
      await flush();
      s.end(system, { result: 'ok', message: '' });
    }
    const done = await jobs.settled(view.id);
    expect(s.sent.slice(3).map((x) => [x.system, x.op, x.params])).toEqual([
      ['no1', CREATE_USER, userParams],
      ['skip1', CREATE_USER, userParams],
      ['skip2', CREATE_USER, userParams],
    ]);
    expect(Object.fromEntries(done.targets.map((t) => [t.system, t.attempts]))).toEqual({ ok1: 1, unk1: 1, no1: 2, skip1: 1, skip2: 1 });
    expect(done.state).toBe('done');
    // Everything applied or unknown: the parameters are forgotten and nothing can be sent again.
    expect(() => jobs.retry(view.id)).toThrow(/nothing to retry/);
  });

  it('takes exactly up to its limits: 500 systems and 16 at once', async () => {
    const jobs = new BulkJobs({ send: async () => ({ result: 'ok', message: '' }), clock });
    const many = Array.from({ length: BULK_LIMITS.targets + 1 }, (_, i) => ({ siteId: 'site-a', system: `s${i}` }));
    expect(() => jobs.start({ operation: CREATE_USER, targets: many, params: userParams })).toThrow(/at most 500 systems/);
    const full = jobs.start({ operation: CREATE_USER, targets: many.slice(0, BULK_LIMITS.targets), params: userParams, maxInFlight: BULK_LIMITS.maxInFlight });
    expect(full.maxInFlight).toBe(16);
    expect(() => jobs.start({ operation: CREATE_USER, targets: systems('a'), params: userParams, maxInFlight: 17 })).toThrow(/1 to 16/);
    expect(() => jobs.start({ operation: CREATE_USER, targets: systems('a'), params: userParams, maxInFlight: 0 })).toThrow(/1 to 16/);
    await jobs.settled(full.id);
  });

  it('says why a system was not sent: cancelled or stopped; a failure after a cancel keeps it cancelled', async () => {
    const s = fakeSender();
    const jobs = new BulkJobs({ send: s.send, clock });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('a', 'b'), params: userParams, maxInFlight: 1, stopOnFailure: true });
    await flush();
    jobs.cancel(view.id);
    s.end('a', { result: 'refused', message: 'no' });
    const done = await jobs.settled(view.id);
    expect(done.state).toBe('cancelled');
    expect(done.targets[1]).toMatchObject({ outcome: 'skipped', message: 'not sent: the bulk change was cancelled' });
    // Cancelling an ended job changes nothing.
    expect(jobs.cancel(view.id).state).toBe('cancelled');
  });

  it('lists jobs newest first, and forgets the oldest ended ones past its limit, never a running one', async () => {
    const s = fakeSender();
    const ids = ['j1', 'j2', 'j3', 'j4'];
    const jobs = new BulkJobs({ send: s.send, clock, keep: 2, newId: () => ids.shift() as string });
    const first = jobs.start({ operation: CREATE_USER, targets: systems('run'), params: userParams });
    await flush();
    const ended = async (system: string) => {
      const v = jobs.start({ operation: CREATE_USER, targets: systems(system), params: userParams });
      await flush();
      s.end(system, { result: 'ok', message: '' });
      await jobs.settled(v.id);
      return v.id;
    };
    await ended('x');
    expect(jobs.list().map((j) => j.id)).toEqual(['j2', 'j1']);
    await ended('y');
    // j1 still runs: kept; j2 ended and was the oldest ended: forgotten.
    expect(jobs.list().map((j) => j.id)).toEqual(['j3', 'j1']);
    expect(() => jobs.get('j2')).toThrow(/no bulk change "j2"/);
    s.end('run', { result: 'ok', message: '' });
    await jobs.settled(first.id);
    await ended('z');
    expect(jobs.list().map((j) => j.id)).toEqual(['j4', 'j3']);
  });

  it('refuses a retry while the job runs', async () => {
    const s = fakeSender();
    const jobs = new BulkJobs({ send: s.send, clock });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams });
    await flush();
    expect(() => jobs.retry(view.id)).toThrow(/still running/);
    s.end('s1', { result: 'ok', message: '' });
    await jobs.settled(view.id);
  });

  it('cancel starts no further system and lets the one being sent finish', async () => {
    const s = fakeSender();
    const jobs = new BulkJobs({ send: s.send, clock });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2', 's3'), params: userParams, maxInFlight: 1 });
    await flush();
    jobs.cancel(view.id);
    s.end('s1', { result: 'ok', message: '' });
    const done = await jobs.settled(view.id);
    expect(done.state).toBe('cancelled');
    expect(outcomes(done)).toEqual({ s1: 'ok', s2: 'skipped', s3: 'skipped' });
    expect(s.sent).toHaveLength(1);
  });

  it('shows the request with secrets masked, masks them in messages too, and forgets them when no retry can need them', async () => {
    const s = fakeSender();
    const events: BulkJobView[] = [];
    const jobs = new BulkJobs({ send: s.send, clock });
    jobs.on((v) => events.push(v));
    const view = jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2'), params: userParams });
    await flush();
    // The systems receive the real password.
    expect(s.sent.every((x) => (x.params.body as { Password: string }).Password === 'S3cret-Bulk-Pass')).toBe(true);
    s.end('s1', { result: 'refused', message: 'password S3cret-Bulk-Pass is too weak' });
    s.end('s2', { result: 'ok', message: '' });
    await jobs.settled(view.id);
    expect(JSON.stringify([view, jobs.list(), events])).not.toContain('S3cret-Bulk-Pass');
    expect((view.request.body as { Password: string; Name: string }).Name).toBe('ops');
    expect(jobs.get(view.id).targets[0]?.message).toBe('password [redacted] is too weak');
    // A retry still sends the real password to the one that refused.
    jobs.retry(view.id);
    await flush();
    expect((s.sent.at(-1)?.params.body as { Password: string }).Password).toBe('S3cret-Bulk-Pass');
    s.end('s1', { result: 'ok', message: '' });
    await jobs.settled(view.id);
    expect(() => jobs.retry(view.id)).toThrow(/nothing to retry/);
    // Progress events carried each step: the last one is the finished job.
    expect(events.at(-1)?.state).toBe('done');
  });

  it('refuses reads, no systems, a system chosen twice and a cap out of range', () => {
    const jobs = new BulkJobs({ send: fakeSender().send, clock });
    expect(() => jobs.start({ operation: 'GET /users/list', targets: systems('s1'), params: {} })).toThrow(/only reads/);
    expect(() => jobs.start({ operation: CREATE_USER, targets: [], params: userParams })).toThrow(/at least one system/);
    expect(() => jobs.start({ operation: CREATE_USER, targets: systems('s1', 's1'), params: userParams })).toThrow(/twice/);
    expect(() => jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams, maxInFlight: 0 })).toThrow(/1 to 16/);
    expect(jobs.list()).toEqual([]);
  });

  it('a sender that throws leaves the system unknown, never resent', async () => {
    const jobs = new BulkJobs({ send: () => Promise.reject(new Error('boom')), clock });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams });
    const done = await jobs.settled(view.id);
    expect(done.targets[0]?.outcome).toBe('unknown');
    expect(() => jobs.retry(view.id)).toThrow(/nothing to retry/);
  });
});

describe('fleetSender', () => {
  const op = { key: CREATE_USER } as Operation;
  const target = { siteId: 'a', system: 's1' };
  it('reports the outcome the fleet recorded in the action log', async () => {
    const send = fleetSender({
      call: async (_s, _y, _o, p) => {
        p?.onOutcome?.('unknown', 'POST /users/create timed out; not resent');
        throw new Error('timed out');
      },
    });
    expect(await send(target, op, userParams)).toEqual({ result: 'unknown', message: 'POST /users/create timed out; not resent' });
  });
  it('a failure before any outcome was recorded was never sent: refused', async () => {
    const send = fleetSender({
      call: async () => {
        throw new Error('Name: required');
      },
    });
    expect(await send(target, op, userParams)).toEqual({ result: 'refused', message: 'not sent: Name: required' });
  });
  it('an answer is ok, with the system message', async () => {
    const send = fleetSender({
      call: async (_s, _y, _o, p) => {
        p?.onOutcome?.('ok', 'User created.');
        return 'User created.';
      },
    });
    expect(await send(target, op, userParams)).toEqual({ result: 'ok', message: 'User created.' });
  });
});
