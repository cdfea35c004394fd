import { afterEach, describe, expect, it } from 'vitest';
import { getOperation } from '../../../../app/catalog/index.js';
import type { SystemStatus } from '../../../../app/domain/site.js';
import { smartRead } from '../../../../app/fleet/refresh-plan.js';
import { ATA_SMART } from '../../app/reports/fixtures.js';
import { briefOf, healthSummaryOf, summaryFromWire, SUMMARY_READS, healthBriefSchema, healthSummarySchema } from '../../../../app/health/system-summary.js';
import { REDACTED } from '../../../../app/redact.js';
import { HealthSummaries, SUMMARY_FORMAT, summaryDrives, type SummarySource } from '../../../../main/core/health-summaries.js';
import { SmartVerdicts } from '../../../../main/core/smart-verdicts.js';
import type { FleetEvent } from '../../../../main/core/fleet-state.js';
import { OfflineCache, cacheKey, openDatabase, type Database } from '../../../../main/store/index.js';
import { steppingClock, useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();
const open: Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

const CLOCK = () => new Date('2026-03-01T00:00:00Z');
const healthOf = (volumes: number) => ({
  Volumes: { VolumesHealthInPercentage: volumes },
  HardwareResources: { HardwareResourcesHealthInPercentage: 100 },
  HardwareUtilization: { HardwareUtilizationInPercentage: 10 },
  CapacityUtilization: { CapacityInBytes: 100, CapacityUsageInBytes: 50, PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 100, CapacityUsageInBytes: 50 }] },
});
const keyOf = (r: { op: string; query: Record<string, unknown> }): string => cacheKey(getOperation(r.op).key, r.query);

/** A fleet over a real offline cache: its statuses, its events, and how many cached answers were read. */
function fleetOver(cache: OfflineCache, statuses: SystemStatus[]) {
  const listeners = new Set<(e: FleetEvent) => void>();
  let reads = 0;
  const source: SummarySource = {
    on: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    status: (siteId) => statuses.filter((s) => !siteId || s.siteId === siteId),
    cached: (siteId, system, op, query = {}, options) => {
      reads++;
      const hit = cache.get(siteId, system, cacheKey(getOperation(op).key, query), options);
      return hit ? { value: hit.value, at: hit.at } : undefined;
    },
  };
  return {
    source,
    reads: () => reads,
    emit: (status: SystemStatus) => {
      for (const l of listeners) l({ type: 'status', status });
    },
  };
}

function setup(statuses: SystemStatus[]) {
  const dir = tempDir();
  const db = openDatabase(dir);
  open.push(db);
  const cache = new OfflineCache({ db, clock: steppingClock() });
  return { dir, db, cache, fleet: fleetOver(cache, statuses) };
}

/** Systems a/x, a/y and b/z, each with a healthy record cached. */
function threeHealthySystems() {
  const statuses: SystemStatus[] = [
    { siteId: 'a', system: 'x', state: 'ok' },
    { siteId: 'a', system: 'y', state: 'ok' },
    { siteId: 'b', system: 'z', state: 'ok' },
  ];
  const world = setup(statuses);
  for (const s of statuses) world.cache.put(s.siteId, s.system, keyOf(SUMMARY_READS.health), healthOf(100), '2026-02-01T00:00:00Z');
  return { statuses, ...world };
}

const parse = (json: string) => (JSON.parse(json) as unknown[]).map((x) => healthSummarySchema.parse(x));
const parseBriefs = (json: string) => (JSON.parse(json) as unknown[]).map((x) => healthBriefSchema.parse(x));
/** A stored row's summary (the part after the health brief's line). */
const storedSummary = (text: string): unknown => JSON.parse(text.slice(text.indexOf('\n') + 1));

describe('health summaries kept by main', () => {
  it("computes a system's summary when its refresh ends, and answers only what changed since a seq", () => {
    const { cache, fleet, db } = threeHealthySystems();
    const summaries = new HealthSummaries({ fleet: fleet.source, db, clock: CLOCK });
    summaries.start();

    const first = summaries.summaries();
    const all = parse(first.json);
    expect(all.map((s) => `${s.siteId}/${s.system} ${s.rollup.level} ${s.at}`)).toEqual(['a/x ok 2026-02-01T00:00:00.000Z', 'a/y ok 2026-02-01T00:00:00.000Z', 'b/z ok 2026-02-01T00:00:00.000Z']);
    expect(parse(summaries.summaries({ since: first.seq }).json)).toEqual([]);

    // A refresh of a/y wrote a worse health record; its status events: refreshing (ignored), then its end.
    cache.put('a', 'y', keyOf(SUMMARY_READS.health), healthOf(50), '2026-02-02T00:00:00Z');
    fleet.emit({ siteId: 'a', system: 'y', state: 'refreshing' });
    expect(parse(summaries.summaries({ since: first.seq }).json)).toEqual([]);
    fleet.emit({ siteId: 'a', system: 'y', state: 'ok' });
    const changed = summaries.summaries({ since: first.seq });
    expect(parse(changed.json).map((s) => `${s.system} ${s.rollup.level} ${s.at}`)).toEqual(['y critical 2026-02-02T00:00:00.000Z']);
    expect(changed.seq).toBeGreaterThan(first.seq);
    // A window scoped to site b sees b's systems only.
    expect(parse(summaries.summaries({ siteId: 'b' }).json).map((s) => s.system)).toEqual(['z']);
    summaries.stop();
  });

  it("rates a drive by its cached SMART text too, so the tree's level is the alert's", () => {
    const { cache, fleet, db } = threeHealthySystems();
    const drives = { Data: [{ Name: 'n1', Drives: [{ Id: 7, Name: 'sdh', ResourceStatus: 'OK' }] }] };
    cache.put('a', 'x', keyOf(SUMMARY_READS.resources), drives, '2026-02-01T00:00:00Z');
    // 150 reallocated sectors: past the critical limit, while the system still says OK.
    cache.put('a', 'x', keyOf(smartRead('n1', 7)), ATA_SMART, '2026-02-01T00:00:00Z');
    const summaries = new HealthSummaries({ fleet: fleet.source, db, clock: CLOCK });
    const [x] = parse(summaries.summaries({ siteId: 'a' }).json);
    expect(x!.rollup.level).toBe('critical');
    expect(x!.drives).toEqual([{ node: 'n1', drive: drives.Data[0]!.Drives[0], smart: { risk: 'critical', findings: [expect.stringMatching(/^5 Reallocated_Sector_Ct: /)] } }]);
    expect(parseBriefs(summaries.summaries({ siteId: 'a', form: 'brief' }).json)[0]).toMatchObject({ drives: 1, rollup: { level: 'critical' } });
  });

  it('computes nothing again on a status event that ends no refresh or poll', () => {
    const statuses: SystemStatus[] = [{ siteId: 'a', system: 'x', state: 'ok' }];
    const { cache, fleet, db } = setup(statuses);
    cache.put('a', 'x', keyOf(SUMMARY_READS.health), healthOf(100), '2026-02-01T00:00:00Z');
    const summaries = new HealthSummaries({ fleet: fleet.source, db, clock: CLOCK });
    summaries.start();
    const first = summaries.summaries();
    const reads = fleet.reads();
    // The site paused: a status event, no refresh or poll ended, nothing new to compute.
    fleet.emit({ siteId: 'a', system: 'x', state: 'paused' });
    expect(fleet.reads()).toBe(reads);
    expect(summaries.summaries({ since: first.seq }).json).toBe('[]');
    // A background poll's end (no 'refreshing' before it): a new success time.
    cache.put('a', 'x', keyOf(SUMMARY_READS.health), healthOf(50), '2026-02-03T00:00:00Z');
    fleet.emit({ siteId: 'a', system: 'x', state: 'ok', lastSuccessAt: '2026-02-03T00:00:00Z' });
    expect(parse(summaries.summaries({ since: first.seq }).json).map((s) => `${s.system} ${s.rollup.level} ${s.at}`)).toEqual(['x critical 2026-02-03T00:00:00.000Z']);
  });

  // Each poll's summary was its own commit, a third of what a summary cost main.
  it('stores the summaries computed after polls together, later, and what still waits when stopped', () => {
    const { statuses, cache, fleet, db } = threeHealthySystems();
    const deferred: Array<() => void> = [];
    const summaries = new HealthSummaries({ fleet: fleet.source, db, clock: CLOCK, defer: (write) => void deferred.push(write) });
    summaries.start();
    const stored = (): string[] =>
      db
        .prepare<[], { site_id: string; system: string; summary: string }>('SELECT site_id, system, summary FROM system_summaries ORDER BY site_id, system')
        .all()
        .map((r) => `${r.site_id}/${r.system} ${healthSummarySchema.parse({ seq: 0, ...(storedSummary(r.summary) as object) }).rollup.level}`);
    // Asked for (a window's first read): computed and stored at once.
    summaries.summaries();
    expect(stored()).toEqual(['a/x ok', 'a/y ok', 'b/z ok']);

    for (const s of statuses) cache.put(s.siteId, s.system, keyOf(SUMMARY_READS.health), healthOf(50), '2026-02-02T00:00:00Z');
    fleet.emit({ siteId: 'a', system: 'x', state: 'ok', lastSuccessAt: '2026-02-02T00:00:00Z' });
    fleet.emit({ siteId: 'a', system: 'y', state: 'ok', lastSuccessAt: '2026-02-02T00:00:00Z' });
    // Served from memory at once; stored when the deferred write runs, once for both.
    expect(parse(summaries.summaries({ siteId: 'a' }).json).map((s) => s.rollup.level)).toEqual(['critical', 'critical']);
    expect(stored()).toEqual(['a/x ok', 'a/y ok', 'b/z ok']);
    expect(deferred).toHaveLength(1);
    deferred.shift()?.();
    expect(stored()).toEqual(['a/x critical', 'a/y critical', 'b/z ok']);

    fleet.emit({ siteId: 'b', system: 'z', state: 'ok', lastSuccessAt: '2026-02-02T00:00:00Z' });
    expect(stored()).toContain('b/z ok');
    summaries.stop();
    expect(stored()).toEqual(['a/x critical', 'a/y critical', 'b/z critical']);
    // The write scheduled before the stop finds nothing left to store.
    deferred.shift()?.();
    expect(stored()).toEqual(['a/x critical', 'a/y critical', 'b/z critical']);
  });

  it('keeps the summaries across a restart: loaded without reading any answer, those of forgotten systems dropped', () => {
    const statuses: SystemStatus[] = [
      { siteId: 'a', system: 'x', state: 'ok' },
      { siteId: 'a', system: 'gone', state: 'ok' },
    ];
    const { dir, cache, fleet, db } = setup(statuses);
    for (const s of statuses) cache.put(s.siteId, s.system, keyOf(SUMMARY_READS.health), healthOf(90), '2026-02-01T00:00:00Z');
    const before = parse(new HealthSummaries({ fleet: fleet.source, db, clock: CLOCK }).summaries().json);
    db.close();

    const db2 = openDatabase(dir);
    open.push(db2);
    const restarted = fleetOver(new OfflineCache({ db: db2 }), [statuses[0]!]);
    const summaries = new HealthSummaries({ fleet: restarted.source, db: db2, clock: () => new Date('2030-01-01T00:00:00Z') });
    expect(parse(summaries.summaries().json).map(({ seq: _seq, ...s }) => s)).toEqual(before.filter((s) => s.system === 'x').map(({ seq: _seq, ...s }) => s));
    expect(restarted.reads()).toBe(0);
    expect(db2.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM system_summaries').get()?.n).toBe(1);
  });

  it('computes a summary a stored row of another format or no row at all lacks, once, when first asked', () => {
    const statuses: SystemStatus[] = [{ siteId: 'a', system: 'x', state: 'stale' }];
    const { cache, fleet, db } = setup(statuses);
    cache.put('a', 'x', keyOf(SUMMARY_READS.health), healthOf(100), '2026-02-01T00:00:00Z');
    db.prepare('INSERT INTO system_summaries (site_id, system, format, summary) VALUES (?, ?, ?, ?)').run('a', 'x', 0, '{"siteId":"a","system":"x","old":true}');
    const summaries = new HealthSummaries({ fleet: fleet.source, db, clock: CLOCK });
    expect(parse(summaries.summaries().json)[0]).toMatchObject({ system: 'x', at: '2026-02-01T00:00:00.000Z', rollup: { level: 'ok' } });
    const reads = fleet.reads();
    summaries.summaries();
    expect(fleet.reads()).toBe(reads);
  });

  // The window's first frame reads the roll-ups alone (a few hundred bytes per system), the details after it.
  it('keeps each health brief beside its summary: the same facts and seq, without pools and lists, changed ones only since a seq', () => {
    const { cache, fleet, db } = threeHealthySystems();
    cache.put('a', 'x', keyOf(SUMMARY_READS.resources), { Data: [{ Name: 'n1', Drives: [{ Id: 1, ResourceStatus: 'Failed' }, { Id: 2, ResourceStatus: 'OK' }] }] }, '2026-02-01T00:00:00Z');
    const summaries = new HealthSummaries({ fleet: fleet.source, db, clock: CLOCK });
    summaries.start();
    const whole = summaries.summaries();
    const briefs = summaries.summaries({ form: 'brief' });
    expect(briefs.seq).toBe(whole.seq);
    const full = parse(whole.json);
    const brief = parseBriefs(briefs.json);
    // Each is the brief of its summary, as the window computes it from a summary it read whole.
    expect(brief).toEqual(full.map((s) => JSON.parse(JSON.stringify({ siteId: s.siteId, system: s.system, seq: s.seq, ...briefOf(summaryFromWire(s)) })) as unknown));
    expect(brief[0]).toMatchObject({ system: 'x', drives: 1, lagging: 0, rollup: { capacity: { usable: 100, allocated: 50, pools: 1, attention: 0, verdict: 'ok' } } });
    // Neither the pools with their forecasts nor the drive records cross in the first read.
    expect(whole.json).toContain('forecast');
    expect(whole.json).toContain('ResourceStatus');
    expect(briefs.json).not.toContain('forecast');
    expect(briefs.json).not.toContain('ResourceStatus');

    cache.put('b', 'z', keyOf(SUMMARY_READS.health), healthOf(50), '2026-02-02T00:00:00Z');
    fleet.emit({ siteId: 'b', system: 'z', state: 'ok', lastSuccessAt: '2026-02-02T00:00:00Z' });
    expect(parseBriefs(summaries.summaries({ since: briefs.seq, form: 'brief' }).json).map((s) => `${s.system} ${s.rollup.level}`)).toEqual(['z critical']);
    expect(parseBriefs(summaries.summaries({ siteId: 'a', form: 'brief' }).json).map((s) => s.system)).toEqual(['x', 'y']);
    summaries.stop();
  });

  it("upgrades a stored row of the previous format from its own summary, without reading the system's answers", () => {
    const statuses: SystemStatus[] = [{ siteId: 'a', system: 'x', state: 'ok' }];
    const { dir, cache, fleet, db } = setup(statuses);
    cache.put('a', 'x', keyOf(SUMMARY_READS.health), healthOf(90), '2026-02-01T00:00:00Z');
    const before = new HealthSummaries({ fleet: fleet.source, db, clock: CLOCK });
    const whole = parse(before.summaries().json).map(({ seq: _seq, ...s }) => s);
    const briefs = parseBriefs(before.summaries({ form: 'brief' }).json).map(({ seq: _seq, ...s }) => s);
    // The row as format 1 stored it: the summary's JSON alone.
    const row = db.prepare<[], { summary: string }>('SELECT summary FROM system_summaries').get()?.summary ?? '';
    db.prepare('UPDATE system_summaries SET format = 1, summary = ?').run(JSON.stringify(storedSummary(row)));
    db.close();

    const db2 = openDatabase(dir);
    open.push(db2);
    const restarted = fleetOver(new OfflineCache({ db: db2 }), statuses);
    const summaries = new HealthSummaries({ fleet: restarted.source, db: db2, clock: CLOCK });
    expect(parseBriefs(summaries.summaries({ form: 'brief' }).json).map(({ seq: _seq, ...s }) => s)).toEqual(briefs);
    expect(parse(summaries.summaries().json).map(({ seq: _seq, ...s }) => s)).toEqual(whole);
    expect(restarted.reads()).toBe(0);
    expect(db2.prepare<[], { format: number }>('SELECT format FROM system_summaries').get()?.format).toBe(SUMMARY_FORMAT);
  });

  it('redacts what it keeps and sends, and takes a damaged answer as not cached', () => {
    const statuses: SystemStatus[] = [{ siteId: 'a', system: 'x', state: 'ok' }];
    const { fleet, db } = setup(statuses);
    const source: SummarySource = {
      ...fleet.source,
      cached: (_s, _y, op) => {
        if (op === SUMMARY_READS.health.op) throw new Error('the cached answer is damaged');
        // Not redacted by a cache here: the summary must redact on its own.
        return op === SUMMARY_READS.notifications.op ? { value: { Data: [{ Level: 5, Timestamp: '2026-02-01T00:00:00Z', Message: 'chap failed', ChapSecret: 'hunter2-secret', Password: 'pw-123' }] }, at: '2026-02-01T00:00:00Z' } : undefined;
      },
    };
    const summaries = new HealthSummaries({ fleet: source, db, clock: CLOCK });
    const { json } = summaries.summaries();
    expect(summaries.summaries({ form: 'brief' }).json).not.toContain('hunter2-secret');
    expect(json).not.toContain('hunter2-secret');
    expect(json).not.toContain('pw-123');
    const [s] = parse(json);
    expect(s?.errors[0]).toMatchObject({ Message: 'chap failed', ChapSecret: REDACTED, Password: REDACTED });
    expect(s?.rollup.level).toBe('unknown');
    const stored = db.prepare<[], { summary: string }>('SELECT summary FROM system_summaries').get()?.summary ?? '';
    expect(stored).not.toContain('hunter2-secret');
  });
});

describe('what a summary reads of a drive list', () => {
  const drives = {
    Data: [
      {
        Name: 'n1',
        Time: '2026-02-01T00:00:00Z',
        Drives: [
          { Id: 7, Name: 'sdh', ResourceStatus: 'OK', Sensors: [{ Name: 'sdh Temp', Reading: '31 C' }] },
          { Id: 8, Name: 'sdi', ResourceStatus: 'Failed', ErrMsg: 'media errors', Sensors: [{ Name: 'sdi Temp', Reading: '40 C' }] },
          { Id: 9, Name: 'sdj', ResourceStatus: 'OK' },
        ],
        CPU: [{ Id: 20, Name: 'CPU0', ResourceStatus: 'OK' }],
      },
      { Name: 'n2', Drives: [{ Id: 10, Name: 'sda', ResourceStatus: 'Warning' }, { Id: 11, Name: 'sdb', ResourceStatus: 'OK' }] },
      { Name: 'n3', Drives: [{ Id: 12, Name: 'sda', ResourceStatus: 'OK' }] },
    ],
    Incomplete: { Read: 3, Total: 4 },
  };

  /** A fleet whose cache gives content versions (as the app's does), counting reads of the drive list. */
  function world() {
    const statuses: SystemStatus[] = [{ siteId: 'a', system: 'x', state: 'ok' }];
    const w = setup(statuses);
    let driveReads = 0;
    const source: SummarySource = {
      ...w.fleet.source,
      cached: (siteId, system, op, query, options) => {
        if (op === SUMMARY_READS.resources.op) driveReads++;
        return w.fleet.source.cached(siteId, system, op, query, options);
      },
      cachedVersions: (siteId, system) => w.cache.versions(siteId, system),
    };
    w.cache.put('a', 'x', keyOf(SUMMARY_READS.health), healthOf(100), '2026-02-01T00:00:00Z');
    w.cache.put('a', 'x', keyOf(SUMMARY_READS.resources), drives, '2026-02-01T00:00:00Z');
    w.cache.put('a', 'x', keyOf(smartRead('n1', 7)), ATA_SMART, '2026-02-01T00:00:00Z');
    return { ...w, source, driveReads: () => driveReads };
  }

  /** The summary as computed from the whole cached list, by a reader that keeps nothing. */
  const fromWhole = (cache: OfflineCache): unknown => {
    const smart = new SmartVerdicts({ cached: (siteId, system, op, query, options) => cache.get(siteId, system, cacheKey(getOperation(op).key, query ?? {}), options) });
    return healthSummaryOf((r) => cache.get('a', 'x', keyOf(r)), CLOCK().getTime(), smart.lookup('a', 'x'));
  };
  const current = (summaries: HealthSummaries): unknown => {
    const [x] = JSON.parse(summaries.summaries().json) as Array<Record<string, unknown>>;
    const { seq: _seq, siteId: _site, system: _system, ...summary } = x!;
    return summary;
  };

  it('gives the summary the whole list gives', () => {
    const w = world();
    const smart = new SmartVerdicts({ cached: (siteId, system, op, query, options) => w.cache.get(siteId, system, cacheKey(getOperation(op).key, query ?? {}), options) });
    const lookup = smart.lookup('a', 'x');
    const reduced = summaryDrives(drives, lookup) as typeof drives;
    expect(JSON.stringify(reduced).length).toBeLessThan(JSON.stringify(drives).length);
    const read = (r: { op: string; query: Record<string, unknown> }) => {
      const hit = w.cache.get('a', 'x', keyOf(r));
      return hit && r.op === SUMMARY_READS.resources.op ? { value: reduced, at: hit.at } : hit;
    };
    const summary = healthSummaryOf(read, CLOCK().getTime(), lookup);
    expect(summary).toEqual(fromWhole(w.cache));
    expect(summary.drives.map((d) => `${d.node} ${d.drive.Id}`)).toEqual(['n1 7', 'n1 8', 'n2 10']);
    expect(summaryDrives(null, lookup)).toBeNull();
  });

  it('keeps what it read of the node list and provisioning while they stand, with the read time of their answers now', () => {
    const w = world();
    let detailReads = 0;
    const source: SummarySource = {
      ...w.source,
      cached: (siteId, system, op, query, options) => {
        if (op === SUMMARY_READS.nodes.op || op === SUMMARY_READS.provisioning.op) detailReads++;
        return w.source.cached(siteId, system, op, query, options);
      },
      cachedReadTimes: (siteId, system) => w.cache.readTimes(siteId, system),
    };
    const nodes = { Data: [{ Name: 'n1', Id: 1, State: 'Running', HAState: 'Normal', Time: '2026-02-01T00:00:00Z', IP: '10.0.0.1' }, { Name: 'n2', Id: 2, State: 'Down', HAState: 'TakenOver' }] };
    const provisioning = { Data: [{ PoolName: 'p', State: 'Warning', Reason: 'LowFreeSpace', VirtualRaidValues: [{ N: 4, K: 2 }] }] };
    w.cache.put('a', 'x', keyOf(SUMMARY_READS.nodes), nodes, '2026-02-01T00:00:00Z');
    w.cache.put('a', 'x', keyOf(SUMMARY_READS.provisioning), provisioning, '2026-02-01T00:00:00Z');
    const summaries = new HealthSummaries({ fleet: source, db: w.db, clock: CLOCK });
    summaries.start();
    const poll = (at: string): void => w.fleet.emit({ siteId: 'a', system: 'x', state: 'ok', lastSuccessAt: at });
    poll('2026-02-02T00:00:00Z');
    const reads = detailReads;
    expect(reads).toBe(2);
    expect(current(summaries)).toEqual(fromWhole(w.cache));
    // A poll that read provisioning again unchanged (its version stands, its read time moves) and a new health record.
    w.cache.put('a', 'x', keyOf(SUMMARY_READS.provisioning), provisioning, '2026-02-03T00:00:00Z');
    w.cache.put('a', 'x', keyOf(SUMMARY_READS.health), healthOf(90), '2026-02-03T00:00:00Z');
    poll('2026-02-03T00:00:00Z');
    expect(detailReads).toBe(reads);
    expect(current(summaries)).toEqual(fromWhole(w.cache));
    expect((current(summaries) as { detailsAt: { nodes: string; pools: string } }).detailsAt).toMatchObject({ nodes: '2026-02-01T00:00:00.000Z', pools: '2026-02-03T00:00:00.000Z' });
    expect((current(summaries) as { rollup: { ha: { label: string } } }).rollup.ha.label).toBe('taken over');
    summaries.stop();
  });

  it('is not read again while the list and the SMART texts stand; read again when either moved', () => {
    const w = world();
    const summaries = new HealthSummaries({ fleet: w.source, db: w.db, clock: CLOCK });
    summaries.start();
    const poll = (at: string): void => w.fleet.emit({ siteId: 'a', system: 'x', state: 'ok', lastSuccessAt: at });
    poll('2026-02-02T00:00:00Z');
    const reads = w.driveReads();
    expect(reads).toBeGreaterThan(0);
    // A poll that stored a new health record and left the drive list alone.
    w.cache.put('a', 'x', keyOf(SUMMARY_READS.health), healthOf(90), '2026-02-03T00:00:00Z');
    poll('2026-02-03T00:00:00Z');
    expect(w.driveReads()).toBe(reads);
    expect(current(summaries)).toEqual(fromWhole(w.cache));
    // Drive 9's SMART turned critical: the list is read again, drive 9 rated by it.
    w.cache.put('a', 'x', keyOf(smartRead('n1', 9)), ATA_SMART, '2026-02-04T00:00:00Z');
    poll('2026-02-04T00:00:00Z');
    expect(w.driveReads()).toBe(reads + 1);
    expect(current(summaries)).toEqual(fromWhole(w.cache));
    expect((current(summaries) as { drives: Array<{ drive: { Id: number } }> }).drives.map((d) => d.drive.Id)).toContain(9);
    // Drive 7's SMART text dropped (by another connection) while drive 9's, the newer, stands: read again.
    const other = openDatabase(w.dir);
    other.prepare('DELETE FROM cache_entries WHERE site_id = ? AND system = ? AND key = ?').run('a', 'x', keyOf(smartRead('n1', 7)));
    other.close();
    poll('2026-02-04T12:00:00Z');
    expect(w.driveReads()).toBe(reads + 2);
    expect(current(summaries)).toEqual(fromWhole(w.cache));
    expect((current(summaries) as { drives: Array<{ drive: { Id: number }; smart?: unknown }> }).drives.find((d) => d.drive.Id === 7)?.smart).toBeUndefined();
    // A new drive list (drive 12 failed): read again.
    w.cache.put('a', 'x', keyOf(SUMMARY_READS.resources), { Data: [...drives.Data.slice(0, 2), { Name: 'n3', Drives: [{ Id: 12, Name: 'sda', ResourceStatus: 'Failed' }] }] }, '2026-02-05T00:00:00Z');
    poll('2026-02-05T00:00:00Z');
    expect(w.driveReads()).toBe(reads + 3);
    expect(current(summaries)).toEqual(fromWhole(w.cache));
    summaries.stop();
  });
});
