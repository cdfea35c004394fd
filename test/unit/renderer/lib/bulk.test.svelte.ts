import { describe, expect, it } from 'vitest';
import type { BulkJobView, BulkOutcome } from '../../../../app/domain/bulk.js';
import { retryable } from '../../../../renderer/lib/bulk-ops.js';
import { BulkState, tally } from '../../../../renderer/lib/bulk.svelte.js';

function job(run: number, outcomes: BulkOutcome[], state: BulkJobView['state'] = 'running'): BulkJobView {
  return {
    id: 'bulk-1',
    operation: 'POST /users/create',
    destructive: false,
    request: { query: {}, headers: {}, body: { Name: 'ops', Password: '[redacted]' } },
    maxInFlight: 2,
    stopOnFailure: false,
    state,
    run,
    startedAt: '2026-11-26T12:00:00.000Z',
    targets: outcomes.map((outcome, i) => ({ siteId: 'a', system: `s${i}`, outcome, attempts: outcome === 'pending' ? 0 : 1 })),
  };
}

describe('BulkState', () => {
  it('keeps the view that ran further when an answer arrives after its progress events', () => {
    const bulk = new BulkState();
    bulk.apply(job(1, ['ok', 'running']));
    // The start's own answer (everything pending) comes last: it must not undo the progress shown.
    bulk.apply(job(1, ['pending', 'pending']));
    expect(bulk.jobs[0]?.targets.map((t) => t.outcome)).toEqual(['ok', 'running']);
    bulk.apply(job(1, ['ok', 'refused'], 'done'));
    expect(bulk.jobs[0]?.state).toBe('done');
    // A retry starts a new run: its pending systems replace the finished view.
    bulk.apply(job(2, ['ok', 'pending']));
    expect(bulk.jobs[0]?.targets[1]?.outcome).toBe('pending');
    expect(bulk.jobs).toHaveLength(1);
  });

  it('counts what a retry would send: refused and not sent, never unknown', () => {
    const j = job(1, ['ok', 'refused', 'unknown', 'skipped'], 'stopped');
    expect(retryable(j)).toBe(2);
    expect(tally(j)).toMatchObject({ ok: 1, refused: 1, unknown: 1, skipped: 1 });
  });
});
