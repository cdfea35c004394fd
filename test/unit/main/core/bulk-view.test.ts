import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../../app/catalog/index.js';
import type { BulkJobView } from '../../../../app/domain/bulk.js';
import { InputError } from '../../../../app/errors.js';
import { BulkJobs, fleetSender, type BulkParams, type BulkSender, type BulkSystem } from '../../../../main/core/bulk.js';
import type { FleetCallParams } from '../../../../main/core/fleet.js';
import { thrown } from '../../../support/thrown.js';

/** A clock that advances one second per reading. */
function steppingClock(start = '2026-11-26T12:00:00.000Z'): () => Date {
  let t = Date.parse(start);
  return () => {
    const d = new Date(t);
    t += 1000;
    return d;
  };
}

const systems = (...names: string[]): BulkSystem[] => names.map((system) => ({ siteId: 'site-a', system }));
const CREATE_USER = 'POST /users/create';
const userParams = { body: { Name: 'ops', Password: 'S3cret-Bulk-Pass', Role: 'Monitor' } };
const ok: BulkSender = async () => ({ result: 'ok', message: '' });

describe('BulkJobs: the view of a job', () => {
  it('starts with every system pending, the request masked, and the defaults of a job', () => {
    const jobs = new BulkJobs({ send: ok, clock: steppingClock() });
    const events: BulkJobView[] = [];
    jobs.on((v) => events.push(v));
    const view = jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2'), params: userParams });
    // The first systems are sent to at once; the first event shows the job before any was.
    expect(view.targets.map((t) => [t.outcome, t.attempts])).toEqual([['running', 1], ['running', 1]]);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^bulk-[0-9a-z]+-1$/),
      operation: CREATE_USER,
      destructive: false,
      request: { query: {}, headers: {}, body: { Name: 'ops', Password: '[redacted]', Role: 'Monitor' } },
      maxInFlight: 4,
      stopOnFailure: false,
      state: 'running',
      run: 1,
      startedAt: '2026-11-26T12:00:01.000Z',
      targets: [
        { siteId: 'site-a', system: 's1', outcome: 'pending', attempts: 0 },
        { siteId: 'site-a', system: 's2', outcome: 'pending', attempts: 0 },
      ],
    });
    expect(view.id).toBe(`bulk-${Date.parse('2026-11-26T12:00:00.000Z').toString(36)}-1`);
    expect(jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams }).id).toMatch(/-2$/);
  });

  it('shows a destructive write as destructive, its query and headers masked, and no body when none is sent', () => {
    const jobs = new BulkJobs({ send: ok, clock: steppingClock(), newId: () => 'j' });
    const view = jobs.start({ operation: 'PUT /nodes/takeover', targets: systems('s1'), params: { query: { node: 'n1' }, headers: { Authorization: 'Bearer tok-123456789' } } });
    expect(view.destructive).toBe(true);
    expect(view.request).toStrictEqual({ query: { node: 'n1' }, headers: { Authorization: '[redacted]' } });
    expect(view.id).toBe('j');
  });

  it('stamps when each system ended and when the job finished', async () => {
    const jobs = new BulkJobs({ send: ok, clock: steppingClock(), newId: () => 'j' });
    jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams, stopOnFailure: true });
    const done = await jobs.settled('j');
    expect(done).toMatchObject({ state: 'done', stopOnFailure: true, startedAt: '2026-11-26T12:00:00.000Z', finishedAt: '2026-11-26T12:00:02.000Z' });
    expect(done.targets).toEqual([{ siteId: 'site-a', system: 's1', outcome: 'ok', attempts: 1, message: '', at: '2026-11-26T12:00:01.000Z' }]);
  });

  it('gives copies: a caller changing a view changes nothing kept', () => {
    const jobs = new BulkJobs({ send: ok, newId: () => 'j' });
    const view = jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams });
    view.targets[0]!.outcome = 'refused';
    view.state = 'done';
    expect(jobs.get('j').state).toBe('running');
    expect(jobs.get('j').targets[0]?.outcome).not.toBe('refused');
  });

  it('masks the secrets of the query and headers in system messages too', async () => {
    const jobs = new BulkJobs({ send: async () => ({ result: 'refused', message: 'bad q-secret-98765 and h-secret-43210' }), newId: () => 'j' });
    jobs.start({ operation: 'PUT /nodes/chap', targets: systems('s1'), params: { query: { Password: 'q-secret-98765' }, headers: { Authorization: 'h-secret-43210' }, body: { ChapName: 'c', ChapSecret: 'b-secret-11111' } } });
    const done = await jobs.settled('j');
    expect(done.targets[0]?.message).toBe('bad [redacted] and [redacted]');
    expect(JSON.stringify(done)).not.toMatch(/secret-\d/);
  });
});

describe('BulkJobs: failures and events', () => {
  it('stops at an unknown outcome as at a refusal, saying why the rest was not sent', async () => {
    const jobs = new BulkJobs({ send: async () => ({ result: 'unknown', message: 'timed out' }), newId: () => 'j' });
    jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2'), params: userParams, maxInFlight: 1, stopOnFailure: true });
    const done = await jobs.settled('j');
    expect(done.state).toBe('stopped');
    expect(done.targets[1]).toMatchObject({ outcome: 'skipped', attempts: 0, message: 'not sent: the bulk change stopped at the first failure' });
  });

  it('keeps the message of a sender that throws something other than an Error', async () => {
    const jobs = new BulkJobs({ send: () => Promise.reject('socket hang up'), newId: () => 'j' });
    jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams });
    expect((await jobs.settled('j')).targets[0]).toMatchObject({ outcome: 'unknown', message: 'socket hang up' });
  });

  it('stops telling a listener once it unsubscribed', async () => {
    const jobs = new BulkJobs({ send: ok, newId: () => 'j' });
    const seen: BulkJobView[] = [];
    const off = jobs.on((v) => seen.push(v));
    off();
    jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams });
    await jobs.settled('j');
    expect(seen).toEqual([]);
  });

  it('tells listeners every step: started, sending, ended, finished', async () => {
    const jobs = new BulkJobs({ send: ok, newId: () => 'j' });
    const seen: string[] = [];
    jobs.on((v) => seen.push(`${v.state}:${v.targets.map((t) => t.outcome).join(',')}`));
    jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams });
    await jobs.settled('j');
    expect(seen).toEqual(['running:pending', 'running:running', 'running:ok', 'done:ok']);
  });

  it('answers an unknown job as not found and a refused retry as a conflict', async () => {
    const jobs = new BulkJobs({ send: ok, newId: () => 'j' });
    for (const ask of [() => jobs.get('nope'), () => jobs.cancel('nope'), () => jobs.retry('nope')]) {
      const err = thrown(ask);
      expect(err).toBeInstanceOf(InputError);
      expect(err).toMatchObject({ code: 'not-found', message: 'no bulk change "nope" (it ended long ago, or Fleetdeck was restarted)' });
    }
    await expect(jobs.settled('nope')).rejects.toMatchObject({ code: 'not-found' });
    jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams });
    expect(thrown(() => jobs.retry('j'))).toMatchObject({ code: 'conflict' });
    await jobs.settled('j');
    expect(thrown(() => jobs.retry('j'))).toMatchObject({ code: 'conflict', message: 'nothing to retry: every system applied the change or its outcome is unknown (check those on the system)' });
  });

  it('shows the systems of a retry as pending before they are sent again', async () => {
    let answer: 'refused' | 'ok' = 'refused';
    const jobs = new BulkJobs({ send: async () => ({ result: answer, message: '' }), newId: () => 'j' });
    jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2'), params: userParams, maxInFlight: 1 });
    await jobs.settled('j');
    answer = 'ok';
    const seen: string[][] = [];
    jobs.on((v) => seen.push(v.targets.map((t) => t.outcome)));
    jobs.retry('j');
    await jobs.settled('j');
    expect(seen[0]).toEqual(['pending', 'pending']);
    expect(seen.at(-1)).toEqual(['ok', 'ok']);
  });

  it('keeps twenty jobs unless told otherwise', async () => {
    let n = 0;
    const jobs = new BulkJobs({ send: ok, newId: () => `j${++n}` });
    for (let i = 0; i < 22; i++) {
      jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams });
      await jobs.settled(`j${n}`);
    }
    expect(jobs.list()).toHaveLength(20);
    expect(jobs.list().at(-1)?.id).toBe('j3');
  });

  it('refuses a cap that is not a whole number, and names the system chosen twice on the same site only', () => {
    const jobs = new BulkJobs({ send: ok });
    expect(() => jobs.start({ operation: CREATE_USER, targets: systems('s1'), params: userParams, maxInFlight: 2.5 })).toThrow('systems at once: a whole number from 1 to 16');
    expect(() => jobs.start({ operation: CREATE_USER, targets: systems('s1', 's2', 's1'), params: userParams })).toThrow('s1 is chosen twice');
    expect(() => jobs.start({ operation: 'GET /users/list', targets: systems('s1'), params: {} })).toThrow('GET /users/list only reads: a bulk change sends a write');
    const view = jobs.start({ operation: CREATE_USER, targets: [{ siteId: 'a', system: 's1' }, { siteId: 'b', system: 's1' }], params: userParams, maxInFlight: 1 });
    expect(view.targets).toHaveLength(2);
  });
});

describe('fleetSender: what reaches the fleet', () => {
  const op = { key: CREATE_USER } as Operation;
  const target = { siteId: 'a', system: 's1' };
  function recording(answer: (p: FleetCallParams | undefined) => Promise<unknown>) {
    const calls: Array<{ siteId: string; system: string | undefined; params: Omit<FleetCallParams, 'onOutcome'> }> = [];
    const send = fleetSender({
      call: (siteId, system, _o, p) => {
        const { onOutcome: _ignored, ...rest } = p ?? {};
        calls.push({ siteId, system, params: rest });
        return answer(p);
      },
    });
    return { send, calls };
  }

  it('passes the site, the system and only the parts of the request that were given', async () => {
    const r = recording(async () => '');
    await r.send(target, op, { body: { Name: 'x' } });
    await r.send(target, op, { query: { node: 'n' }, headers: { 'X-A': '1' } } satisfies BulkParams);
    await r.send(target, op, { body: null });
    expect(r.calls).toStrictEqual([
      { siteId: 'a', system: 's1', params: { body: { Name: 'x' } } },
      { siteId: 'a', system: 's1', params: { query: { node: 'n' }, headers: { 'X-A': '1' } } },
      { siteId: 'a', system: 's1', params: { body: null } },
    ]);
  });

  it('an answer without a recorded outcome is ok, its text the message when it is text', async () => {
    expect(await recording(async () => 'done').send(target, op, {})).toEqual({ result: 'ok', message: 'done' });
    expect(await recording(async () => ({ Status: 'ok' })).send(target, op, {})).toEqual({ result: 'ok', message: '' });
  });

  it('a recorded outcome without a message takes the error’s', async () => {
    const r = recording(async (p) => {
      p?.onOutcome?.('refused', '');
      throw new Error('HTTP 409');
    });
    expect(await r.send(target, op, {})).toEqual({ result: 'refused', message: 'HTTP 409' });
  });

  it('a failure that is not an Error still says what it was', async () => {
    const r = recording(() => Promise.reject('offline'));
    expect(await r.send(target, op, {})).toEqual({ result: 'refused', message: 'not sent: offline' });
  });
});
