// The readers of a status event (health summary, alert engine, metrics) keep what they derived from
// a system's answers and redo only what moved. One truth still holds: what they show after any
// poll is what a fresh computation from the cache gives, an unchanged poll leaves every output as it
// was (and costs no cache read of the notifications nor any alert write), and a change of one
// system's answers moves its outputs alone.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../../../app/domain/site.js';
import { NOTIFICATIONS_CACHE, smartRead } from '../../../../app/fleet/refresh-plan.js';
import { SUMMARY_READS } from '../../../../app/health/system-summary.js';
import { AlertEngine, type AlertFleet } from '../../../../main/alerts/alert-engine.js';
import { AlertStore } from '../../../../main/alerts/alert-store.js';
import { AnswerDigests, isVolatileKey, stableDigest } from '../../../../main/core/answer-digests.js';
import { redactedJson } from '../../../../app/redact.js';
import type { FleetEvent } from '../../../../main/core/fleet-state.js';
import { HealthSummaries } from '../../../../main/core/health-summaries.js';
import { SmartVerdicts } from '../../../../main/core/smart-verdicts.js';
import { WrittenAnswers } from '../../../../main/core/written-answers.js';
import { FleetMetrics } from '../../../../main/metrics/fleet-metrics.js';
import { SelfMetrics } from '../../../../main/metrics/self-metrics.js';
import { ActionLog } from '../../../../main/store/action-log.js';
import type { Database } from '../../../../main/store/driver.js';
import { OfflineCache, cacheKey } from '../../../../main/store/offline-cache.js';
import { openAlertsDatabase, openDatabase, openLogDatabase } from '../../../../main/store/open.js';
import { steppingClock, useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const AT = '2026-03-01T11:59:00.000Z';
const clock = (): Date => new Date(NOW);
const key = (r: { op: string; query: Record<string, unknown> }): string => cacheKey(r.op, r.query);
const NOTIFICATIONS_KEY = key(NOTIFICATIONS_CACHE);

/** One system's answers; `tick` moves what no reader reads (clocks, sensor readings, volume I/O), `failed` fails drive 2. */
function answersOf(o: { tick: number; failed?: boolean }): Array<[string, unknown]> {
  const sensors = [{ Name: 'temp', Reading: String(30 + o.tick), Status: 'OK' }];
  const day = (i: number): string => new Date(NOW - (30 - i) * 86_400_000).toISOString().replace(/\.\d+Z$/, '');
  return [
    [
      key(SUMMARY_READS.health),
      {
        Volumes: { VolumesHealthInPercentage: 100, HealthyVolumes: 3, UnhealthyVolumes: 0 },
        HardwareResources: { HardwareResourcesHealthInPercentage: 100, UnhealthyResourceCount: {} },
        HardwareUtilization: { HardwareUtilizationInPercentage: 40, CPUInPercentage: 20, MemoryInPercentage: 40 },
        CapacityUtilization: { CapacityInBytes: 1000, CapacityUsageInBytes: 500, PoolCapacity: [{ PoolName: 'p1', CapacityInBytes: 1000, CapacityUsageInBytes: 500 }] },
      },
    ],
    [key(SUMMARY_READS.nodes), { Data: [{ Name: 'n1', State: 'Running', HAState: 'Normal', Time: `2026-03-01T11:5${o.tick}:00`, Sensors: sensors }] }],
    [
      key(SUMMARY_READS.resources),
      {
        Data: [
          {
            Name: 'n1',
            Time: `2026-03-01T11:5${o.tick}:00`,
            Drives: [
              { Id: 1, Name: 'd1', ResourceStatus: 'Missing', ErrMsg: 'not detected', Sensors: [{ Name: 'temp', Reading: '0' }] },
              { Id: 2, Name: 'd2', ResourceStatus: o.failed ? 'Failed' : 'OK', Sensors: sensors },
            ],
          },
        ],
      },
    ],
    [
      key(SUMMARY_READS.replication),
      {
        Data: [
          {
            Application: 'app',
            Volumes: [{ Volume: 'v1', StatsInfo: { Iops: 100 + o.tick, LatencyInMilliseconds: 1 + o.tick }, Replication: { ReplicationPairs: [{ RemoteSystemName: 'r1', ConnectionStatus: 'Initializing', SyncInPercentage: 40 }] } }],
          },
        ],
      },
    ],
    [key(SUMMARY_READS.pools), { CapacityUsage: [{ Name: 'p1', TotalAllocatedSizeInBytes: 500, TotalConsumedSizeInBytes: 400, FreeCapacityInBytes: 500 }] }],
    [key(SUMMARY_READS.provisioning), { Data: [{ PoolName: 'p1', FreeSpaceInPercentage: 50, ProvisioningState: 'Ok' }] }],
    [key(SUMMARY_READS.history), { PerformanceStatstics: Array.from({ length: 10 }, (_, i) => ({ PoolName: 'p1', Time: day(i * 3), TotalConsumedSizeInBytes: 300 + i * 10 })) }],
    [key(smartRead('n1', 2)), 'SMART overall-health self-assessment test result: PASSED\n'],
  ];
}

const NOTIFICATIONS = { Data: [{ Id: 7, Level: 5, Timestamp: '2026-03-01T11:00:00', Message: 'controller reset', Node: 'n1' }, { Id: 6, Level: 2, Timestamp: '2026-03-01T10:00:00', Message: 'login' }] };

/** A fleet over a real offline cache, as the readers see it (statuses, events, answers, versions), counting the cache reads by key. */
function world() {
  const dir = tempDir();
  const cacheDb = openDatabase(dir);
  const alertsDb = openAlertsDatabase(dir);
  const logDb = openLogDatabase(dir);
  open.push(cacheDb, alertsDb, logDb);
  const cache = new OfflineCache({ db: cacheDb, clock });
  const statuses = new Map<string, SystemStatus>();
  const listeners = new Set<(e: FleetEvent) => void>();
  const reads: string[] = [];
  const fleet: AlertFleet & Required<Pick<AlertFleet, 'cachedVersions' | 'cachedText'>> = {
    on: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    status: (siteId) => [...statuses.values()].filter((s) => siteId === undefined || s.siteId === siteId),
    cached: (siteId, system, op, query = {}) => {
      reads.push(cacheKey(op, query));
      const hit = cache.get(siteId, system, cacheKey(op, query), { recordUse: false });
      return hit && { value: hit.value, at: hit.at };
    },
    cachedVersions: (siteId, system) => cache.versions(siteId, system),
    cachedText: (siteId, system, op, query = {}) => {
      reads.push(cacheKey(op, query));
      return cache.getText(siteId, system, cacheKey(op, query), { recordUse: false });
    },
  };
  const smart = new SmartVerdicts(fleet);
  const summaries = new HealthSummaries({ fleet, db: cacheDb, clock, smart, defer: (write) => write() });
  summaries.start();
  const store = new AlertStore(alertsDb);
  const engine = new AlertEngine({ store, fleet, actionLog: new ActionLog({ db: logDb, file: path.join(dir, 'actions.db'), clock: steppingClock() }), user: 'admin', siteIds: () => ['lab'], clock, digests: new AnswerDigests(fleet), smart });
  engine.start();
  let reconciled = 0;
  const reconcile = store.reconcile.bind(store);
  store.reconcile = (...a) => {
    reconciled++;
    return reconcile(...a);
  };
  const metrics = new FleetMetrics({ fleet, summaries, alerts: engine, sites: { list: () => [{ id: 'lab', name: 'lab' }] } }, { version: 't', self: new SelfMetrics(), clock: () => NOW });

  let polls = 0;
  let handOver = (rows: ConstructorParameters<typeof WrittenAnswers>[0], digests: Map<string, string>): WrittenAnswers => new WrittenAnswers(rows, digests);
  /**
   * A poll of one system ending: its answers written in one transaction, then its status event with
   * what it wrote. Its end time moves; its answers are read at the same instant each time (the
   * clock is fixed), so that the data age and the forecasts are the same too.
   */
  const poll = (system: string, answers: Array<[string, unknown]>): void => {
    const rows = answers.map(([k, v]) => cache.rowOf(k, v, AT, true));
    cache.putRows('lab', system, rows);
    const digests = new Map(answers.filter(([k]) => isVolatileKey(k)).map(([k, v]) => [k, stableDigest(redactedJson(v) ?? '')]));
    const status: SystemStatus = { siteId: 'lab', system, state: 'ok', lastSuccessAt: new Date(NOW - 60_000 + ++polls * 1000).toISOString(), seq: polls };
    statuses.set(system, status);
    const written = handOver(rows, digests);
    for (const l of listeners) l({ type: 'status', status, written });
  };

  /** The metrics page without the series of each poll's end time (which moves with every poll, as it should). */
  const page = (m: FleetMetrics): string =>
    m
      .scrape('prometheus')
      .split('\n')
      .filter((l) => !l.startsWith('fleetdeck_system_last_refresh_success_timestamp_seconds{'))
      .join('\n');

  /** Every output: each summary (without its sequence number), the open alerts, the metrics page. */
  const outputs = () => ({
    summaries: (JSON.parse(summaries.summaries().json) as Array<{ seq: number }>).map(({ seq: _seq, ...s }) => s),
    alerts: engine.list({ state: 'active' }).map((a) => `${a.system} ${a.rule} ${a.subject} ${a.level}: ${a.message}`).sort(),
    metrics: page(metrics),
  });

  /** The same outputs computed afresh from the cache alone, by readers that kept nothing. */
  const fresh = () => {
    const other = openDatabase(tempDir());
    const otherAlerts = openAlertsDatabase(tempDir());
    open.push(other, otherAlerts);
    const freshSmart = new SmartVerdicts(fleet);
    const freshSummaries = new HealthSummaries({ fleet, db: other, clock, smart: freshSmart });
    const freshEngine = new AlertEngine({ store: new AlertStore(otherAlerts), fleet, actionLog: new ActionLog({ db: logDb, file: path.join(dir, 'actions.db'), clock: steppingClock() }), user: 'admin', siteIds: () => ['lab'], clock, smart: freshSmart });
    for (const s of statuses.values()) freshEngine.evaluate(s);
    const freshMetrics = new FleetMetrics({ fleet, summaries: freshSummaries, alerts: freshEngine, sites: { list: () => [{ id: 'lab', name: 'lab' }] } }, { version: 't', self: new SelfMetrics(), clock: () => NOW });
    return {
      summaries: (JSON.parse(freshSummaries.summaries().json) as Array<{ seq: number }>).map(({ seq: _seq, ...s }) => s),
      alerts: freshEngine.list({ state: 'active' }).map((a) => `${a.system} ${a.rule} ${a.subject} ${a.level}: ${a.message}`).sort(),
      metrics: page(freshMetrics),
    };
  };
  /** How each poll hands what it wrote to the readers. */
  const handOverWith = (f: typeof handOver): void => void (handOver = f);
  return { cache, poll, handOverWith, outputs, fresh, reads, reconciled: () => reconciled, alertWrites: () => (alertsDb.prepare('SELECT total_changes() AS n').get() as { n: number }).n };
}

describe('the readers of a status event', () => {
  it('leave every output as it was after a poll that moved only what none of them reads, doing almost nothing', () => {
    const w = world();
    for (const system of ['x', 'y']) {
      w.cache.put('lab', system, NOTIFICATIONS_KEY, NOTIFICATIONS, AT);
      w.poll(system, answersOf({ tick: 0 }));
    }
    const before = w.outputs();
    expect(before.alerts.length).toBeGreaterThan(0);
    expect(before).toEqual(w.fresh());
    const reads = w.reads.length;
    const reconciled = w.reconciled();
    const alertWrites = w.alertWrites();

    // A steady poll: the capacity history and SMART are not read again (slow), the rest is, the same but for what no reader reads.
    const slow = new Set([key(SUMMARY_READS.history), key(smartRead('n1', 2))]);
    for (const system of ['x', 'y']) w.poll(system, answersOf({ tick: 1 }).filter(([k]) => !slow.has(k)));
    // Nothing read back from the cache for the two polls (not the notifications nor the history either), no alert looked up nor written.
    expect(w.reads.slice(reads)).toEqual([]);
    expect(w.reconciled()).toBe(reconciled);
    expect(w.alertWrites()).toBe(alertWrites);
    expect(w.outputs()).toEqual(before);
    expect(w.fresh()).toEqual(before);
  });

  it("moves one system's summary, alerts and metrics when its answers change, and no other's", () => {
    const w = world();
    for (const system of ['x', 'y']) {
      w.cache.put('lab', system, NOTIFICATIONS_KEY, NOTIFICATIONS, AT);
      w.poll(system, answersOf({ tick: 0 }));
    }
    const before = w.outputs();
    const reconciled = w.reconciled();

    w.poll('y', answersOf({ tick: 1, failed: true }));
    const after = w.outputs();
    expect(after).toEqual(w.fresh());
    const ofSystem = (o: typeof before, system: string) => ({
      summary: o.summaries.find((s) => (s as { system?: string }).system === system),
      alerts: o.alerts.filter((a) => a.startsWith(`${system} `)),
      metrics: o.metrics.split('\n').filter((l) => l.includes(`system="${system}"`)),
    });
    expect(ofSystem(after, 'x')).toEqual(ofSystem(before, 'x'));
    expect(ofSystem(after, 'y')).not.toEqual(ofSystem(before, 'y'));
    expect(JSON.stringify(ofSystem(after, 'y').summary)).toContain('"Failed"');
    expect(after.alerts).toContain('y drive n1/d2 critical: drive d2 on n1 is Failed');
    expect(before.alerts).not.toContain('y drive n1/d2 critical: drive d2 on n1 is Failed');
    expect(ofSystem(after, 'y').metrics.some((l) => l.includes('drive="d2"') && l.includes('status="Failed"'))).toBe(true);
    // Only the changed system was evaluated again.
    expect(w.reconciled()).toBe(reconciled + 1);
  });

  it("assess a system's capacity once for its summary and its alert rules, as afresh", () => {
    const w = world();
    let asked = 0;
    let assessed = 0;
    class Counted extends WrittenAnswers {
      override capacity(assess: Parameters<WrittenAnswers['capacity']>[0]): ReturnType<WrittenAnswers['capacity']> {
        asked++;
        return super.capacity(() => {
          assessed++;
          return assess();
        });
      }
    }
    w.handOverWith((rows, digests) => new Counted(rows, digests));
    w.cache.put('lab', 'x', NOTIFICATIONS_KEY, NOTIFICATIONS, AT);
    w.poll('x', answersOf({ tick: 0 }));
    expect([asked, assessed]).toEqual([2, 1]);
    expect(w.outputs()).toEqual(w.fresh());
  });

  it('reads the merged notifications again once their content changed', () => {
    const w = world();
    w.cache.put('lab', 'x', NOTIFICATIONS_KEY, NOTIFICATIONS, AT);
    w.poll('x', answersOf({ tick: 0 }));
    w.cache.put('lab', 'x', NOTIFICATIONS_KEY, { Data: [{ Id: 8, Level: 4, Timestamp: '2026-03-01T11:30:00', Message: 'fan degraded' }, ...NOTIFICATIONS.Data] }, AT);
    w.poll('x', answersOf({ tick: 1 }));
    const after = w.outputs();
    expect(JSON.stringify(after.summaries[0])).toContain('fan degraded');
    expect(after).toEqual(w.fresh());
  });
});
