/**
 * A system's refresh or poll ends with one commit to the cache's file: its answers and its outcome
 * (`system_outcomes`) in one transaction, so another process never reads the answers newer than the
 * outcome or the reverse, and a failure inside that write leaves neither.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { connect } from '../../../main/store/driver.js';
import { DATABASE_FILE } from '../../../main/store/open.js';
import { SystemOutcomes } from '../../../main/store/system-outcomes.js';
import { walFrames } from '../../support/wal-frames.js';
import { useFleetsOnDisk, useSimulator, type FleetOnDisk } from '../support/simulated-fleet.js';

describe('a system poll commits its answers and its outcome together', () => {
  const world = useSimulator({ sites: 1, systems: 2, seed: 'poll-outcome-commit' });
  const openFleet = useFleetsOnDisk('fd-poll-commit-');

  async function harness(): Promise<FleetOnDisk & { siteId: string; systems: string[] }> {
    const site = world.sim.manifest.sites[0]!;
    const f = await openFleet((stores) => ({ outcomes: new SystemOutcomes(stores.cacheDb) }), [site]);
    return Object.assign(f, { siteId: f.siteIds[0]!, systems: [...site.systems] });
  }

  it('one commit per system write: the outcome goes in the answers transaction', async () => {
    const h = await harness();
    try {
      expect((await h.fleet.refresh({ force: true })).every((s) => s.state === 'ok')).toBe(true);
      // From here every commit stays in the WAL, to be counted.
      h.stores.cacheDb.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      h.stores.cacheDb.pragma('wal_autocheckpoint = 0');
      const writes: Array<{ system: string; commits: boolean; outcome: boolean }> = [];
      const putRows = h.stores.cache.putRows.bind(h.stores.cache);
      vi.spyOn(h.stores.cache, 'putRows').mockImplementation((siteId, system, rows, ...rest) => {
        const alongside = rest[0] as (() => void) | undefined;
        writes.push({ system, commits: rows.length > 0 || alongside !== undefined, outcome: alongside !== undefined });
        putRows(siteId, system, rows, ...rest);
      });
      const polled = await h.fleet.refresh({ force: true, mode: 'steady' });
      expect(polled.map((s) => `${s.system}: ${s.state}`)).toEqual(h.systems.map((system) => `${system}: ok`));
      // The file saw one commit per write of answers: none of an outcome's own.
      expect(walFrames(join(h.dir, `${DATABASE_FILE}-wal`)).commits).toBe(writes.filter((w) => w.commits).length);
      // Each system's poll ended with one write, which carried its outcome.
      for (const system of h.systems) expect(writes.filter((w) => w.system === system && w.outcome), system).toHaveLength(1);
      // What another process reads: each system's recorded outcome is the poll's.
      const recorded = new SystemOutcomes(h.stores.cacheDb).ofSite(h.siteId);
      for (const s of polled) expect(recorded.find((r) => r.system === s.system)?.lastSuccessAt, s.system).toBe(s.lastSuccessAt);
    } finally {
      await h.close();
    }
  });

  it('a failure inside the write leaves neither the answers nor the outcome', async () => {
    const h = await harness();
    const other = connect(join(h.dir, DATABASE_FILE));
    try {
      expect((await h.fleet.refresh({ force: true })).every((s) => s.state === 'ok')).toBe(true);
      const answers = other.prepare<[string], { key: string; at: string; value: string }>('SELECT key, at, value FROM cache_entries WHERE system = ? ORDER BY key');
      const outcome = other.prepare<[string], { status: string }>('SELECT status FROM system_outcomes WHERE system = ?');
      const system = h.systems[0]!;
      const answersBefore = answers.all(system);
      const outcomeBefore = outcome.get(system)?.status;
      expect(answersBefore.length).toBeGreaterThan(10);
      expect(outcomeBefore).toMatch(/"state":"ok"/);
      // The outcome's write fails, after the answers were written in the same transaction.
      other.exec(`CREATE TRIGGER refuse_outcome BEFORE UPDATE ON system_outcomes BEGIN SELECT RAISE(ABORT, 'outcome refused'); END`);
      // A write now would give the answers later read times than they hold: wait until the clock says so.
      const latest = Math.max(...answersBefore.map((a) => Date.parse(a.at)));
      while (Date.now() <= latest) await new Promise((resolve) => setImmediate(resolve));
      const statuses = await h.fleet.refresh({ force: true, systems: [system] });
      const status = statuses.find((s) => s.system === system);
      expect(status?.state).not.toBe('ok');
      expect(status?.lastError).toMatch(/outcome refused/);
      // Neither the answers (their read times would have moved) nor the outcome.
      expect(answers.all(system)).toEqual(answersBefore);
      expect(outcome.get(system)?.status).toBe(outcomeBefore);

      // Once the file takes writes again, the next refresh writes both.
      other.exec('DROP TRIGGER refuse_outcome');
      const again = (await h.fleet.refresh({ force: true, systems: [system] })).find((s) => s.system === system);
      expect(again?.state).toBe('ok');
      expect(answers.all(system).map((a) => a.at)).not.toEqual(answersBefore.map((a) => a.at));
      expect(JSON.parse(outcome.get(system)?.status ?? '{}')).toMatchObject({ state: 'ok', lastSuccessAt: again?.lastSuccessAt });
    } finally {
      other.close();
      await h.close();
    }
  });
});
