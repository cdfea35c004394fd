import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldsRead } from '../../../../app/compliance/baseline.js';
import { refreshRead } from '../../../../app/fleet/refresh-plan.js';
import { AlertEngine, type AlertCompliance, type AlertFleet } from '../../../../main/alerts/alert-engine.js';
import { AlertStore } from '../../../../main/alerts/alert-store.js';
import { shippedBaseline } from '../../../../main/compliance/baseline-source.js';
import { ActionLog } from '../../../../main/store/action-log.js';
import type { Database } from '../../../../main/store/driver.js';
import { openAlertsDatabase, openLogDatabase } from '../../../../main/store/open.js';
import { cacheKey } from '../../../../main/store/offline-cache.js';
import { steppingClock, useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

const REPLICATION = refreshRead('GET /replication/list');
const replication = (iops: number) => ({ Data: [{ Application: 'a', Volumes: [{ Volume: 'v', StatsInfo: { Iops: iops }, Replication: { ReplicationPairs: [{ ConnectionStatus: 'InSync' }] } }] }] });

/** An engine whose compliance checks read the replication list and name `fields`; counts the checks' evaluations. */
function engineReading(fields: ReadonlySet<string>) {
  const dir = tempDir();
  const db = openAlertsDatabase(dir);
  const logDb = openLogDatabase(dir);
  open.push(db, logDb);
  const held = new Map<string, { value: unknown; version: number }>();
  let version = 0;
  const fleet: AlertFleet = {
    on: () => () => undefined,
    status: () => [],
    cached: (_s, _y, op, query = {}) => {
      const hit = held.get(cacheKey(op, query));
      return hit && { value: hit.value, at: '2026-01-01T00:00:00.000Z' };
    },
    cachedVersions: () => new Map([...held].map(([k, v]) => [k, v.version])),
    cachedText: (_s, _y, op, query = {}) => {
      const hit = held.get(cacheKey(op, query));
      return hit && { json: JSON.stringify(hit.value) };
    },
  };
  let evaluated = 0;
  const compliance: AlertCompliance = {
    system: () => {
      evaluated++;
      return { checks: [] };
    },
    reads: () => [REPLICATION],
    revision: () => 'r',
    fieldsRead: () => fields,
  };
  const clock = () => new Date('2026-01-01T00:00:00.000Z');
  const e = new AlertEngine({ store: new AlertStore(db), fleet, actionLog: new ActionLog({ db: logDb, file: path.join(dir, 'actions.db'), clock: steppingClock() }), user: 'admin', siteIds: () => ['lab'], clock, compliance });
  return {
    poll(value: unknown) {
      held.set(cacheKey(REPLICATION.op, REPLICATION.query), { value, version: ++version });
      e.evaluate({ siteId: 'lab', system: 'sys', state: 'ok' });
    },
    evaluated: () => evaluated,
  };
}

describe('what the alert engine compares of the compliance reads', () => {
  it('leaves out the volumes\' I/O figures while no check reads them: a poll that moved only those evaluates no check', () => {
    const e = engineReading(new Set(['Data', 'Volumes', 'Replication', 'ReplicationPairs', 'ConnectionStatus']));
    e.poll(replication(1));
    e.poll(replication(2));
    expect(e.evaluated()).toBe(1);
  });

  it('compares them by content version once a check names such a field', () => {
    const e = engineReading(new Set(['Data', 'Volumes', 'StatsInfo', 'Iops']));
    e.poll(replication(1));
    e.poll(replication(2));
    expect(e.evaluated()).toBe(2);
  });

  it("names every segment of the shipped baseline's paths", () => {
    const names = fieldsRead(shippedBaseline().baseline);
    for (const n of ['Data', 'Volumes', 'Replication', 'ReplicationPairs', 'ConnectionStatus', 'RemoteVolName', 'TwoStepAuthenticationEnabled', 'FreeSpaceInPercentage', 'PoolName']) expect(names).toContain(n);
    expect(names).not.toContain('StatsInfo');
    expect(names).not.toContain('GET /replication/list');
  });
});
