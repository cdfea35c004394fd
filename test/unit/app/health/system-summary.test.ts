import { describe, expect, it } from 'vitest';
import type { PlannedRead } from '../../../../app/fleet/refresh-plan.js';
import { highLevel, laggingReplication, unhealthyDrives } from '../../../../app/health/rollup.js';
import { systemRollup } from '../../../../app/health/system-health.js';
import { planRows, planTotal } from '../../../../app/capacity/plan.js';
import type { Forecast } from '../../../../app/capacity/forecast.js';
import type { HaSummary } from '../../../../app/health/ha.js';
import type { SmartVerdict } from '../../../../app/smart/verdict.js';
import {
  briefFromWire,
  briefOf,
  summaryFromWire,
  healthSummaryOf,
  summaryHistory,
  summaryNodes,
  summaryNotifications,
  SUMMARY_ERRORS,
  SUMMARY_READS,
  healthBriefSchema,
  healthSummarySchema,
  type CachedRead,
} from '../../../../app/health/system-summary.js';

const NOW = Date.parse('2026-03-01T00:00:00Z');
const DAY = 86_400_000;
const AT = '2026-02-28T23:00:00.000Z';
const TIB = 1024 ** 4;

/** The answers a refresh caches for one system: a noisy pool (its forecast range open-ended), a failed drive, a lagging pair, 25 errors. */
const answers: Record<keyof typeof SUMMARY_READS, unknown> = {
  health: {
    Volumes: { VolumesHealthInPercentage: 100 },
    HardwareResources: { HardwareResourcesHealthInPercentage: 90 },
    HardwareUtilization: { HardwareUtilizationInPercentage: 40 },
    CapacityUtilization: { CapacityInBytes: 100 * TIB, CapacityUsageInBytes: 60 * TIB, PoolCapacity: [{ PoolName: 'p', CapacityInBytes: 100 * TIB, CapacityUsageInBytes: 60 * TIB }] },
  },
  pools: null,
  provisioning: { Data: [{ PoolName: 'p', State: 'Warning', Reason: 'LowFreeSpace' }] },
  history: {
    // Up, down, up: growth not distinguishable from zero, so the range's upper end is infinite.
    PerformanceStatstics: [50, 58, 49, 59, 51, 60].map((t, i) => ({ PoolName: 'p', Time: new Date(NOW - (5 - i) * DAY).toISOString().slice(0, 19), TotalConsumedSizeInBytes: t * TIB })),
  },
  nodes: { Data: [{ Name: 'n1', State: 'Running', HAState: 'TakeoverActive' }, { Name: 'n2', State: 'Down', HAState: 'TakenOver' }] },
  resources: { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'OK' }, { Id: 2, Name: 'd2', ResourceStatus: 'Failed' }] }] },
  replication: { Data: [{ Application: 'app', Volumes: [{ Volume: 'v1', Replication: { ReplicationPairs: [{ SyncInPercentage: 40, ConnectionStatus: 'Initializing' }] } }] }] },
  notifications: {
    Data: [
      ...Array.from({ length: 25 }, (_, i) => ({ Id: i, Level: 4 + (i % 2), Timestamp: `2026-02-${String(1 + i).padStart(2, '0')}T00:00:00Z`, Message: `error ${i}` })),
      { Id: 99, Level: 2, Timestamp: '2026-02-27T00:00:00Z', Message: 'information' },
    ],
  },
};

const readOf = (a: Partial<Record<keyof typeof SUMMARY_READS, unknown>>) => (r: PlannedRead): CachedRead => {
  const name = (Object.keys(SUMMARY_READS) as Array<keyof typeof SUMMARY_READS>).find((k) => SUMMARY_READS[k] === r);
  const value = name ? a[name] : undefined;
  return value === undefined ? undefined : { value, at: AT };
};

const dataOf = (v: unknown): never[] => ((v as { Data?: unknown } | null)?.Data as never[] | undefined) ?? [];

describe("a system's health summary", () => {
  it('is the same from what it reads of the notifications, the capacity history and the nodes as from the whole answers', () => {
    const whole = healthSummaryOf(readOf(answers), NOW);
    const messy = { PerformanceStatstics: [...(answers.history as { PerformanceStatstics: object[] }).PerformanceStatstics, { PoolName: 'p', Time: 7 }, { Time: '2026-02-01T00:00:00' }] };
    expect(healthSummaryOf(readOf({ ...answers, history: messy }), NOW)).toEqual(whole);
    const parts = healthSummaryOf(readOf({ ...answers, notifications: summaryNotifications(answers.notifications), history: summaryHistory(messy), nodes: summaryNodes(answers.nodes) }), NOW);
    expect(parts).toEqual(whole);
    expect(summaryNotifications(answers.notifications).Data).toHaveLength(SUMMARY_ERRORS);
    expect(summaryHistory(messy).PerformanceStatstics).toHaveLength(6);
    expect(summaryHistory(undefined)).toEqual({ PerformanceStatstics: [] });
  });

  it('holds the same facts the window computed from the eight cached answers before', () => {
    const facts = healthSummaryOf(readOf(answers), NOW);
    // What renderer/lib/fleet-health.svelte.ts computed per system until main kept the summaries.
    const before = {
      rollup: systemRollup({ health: answers.health, pools: answers.pools, provisioning: answers.provisioning, history: answers.history, nodes: answers.nodes, resources: answers.resources, replication: answers.replication }, NOW),
      at: AT,
      detailsAt: { nodes: AT, drives: AT, pools: AT },
      drives: unhealthyDrives(dataOf(answers.resources)),
      lagging: laggingReplication(dataOf(answers.replication)),
      errors: highLevel(dataOf(answers.notifications), 20),
    };
    expect(facts).toEqual(before);
    expect(facts.rollup.level).toBe('critical');
    expect(facts.drives.map((d) => d.drive.Name)).toEqual(['d2']);
    expect(facts.lagging).toHaveLength(1);
    expect(facts.errors).toHaveLength(SUMMARY_ERRORS);
    expect(facts.errors[0]?.Message).toBe('error 24');
    expect(facts.rollup.capacity.pools[0]?.forecast.range?.high).toBe(Number.POSITIVE_INFINITY);
  });

  it('crosses as JSON, checked by its schema, and comes back equal, the open-ended range included', () => {
    const facts = healthSummaryOf(readOf(answers), NOW);
    const wire = healthSummarySchema.parse(JSON.parse(JSON.stringify({ siteId: 's', system: 'x', seq: 3, ...facts })));
    expect(wire.rollup.capacity.pools[0]?.forecast.range?.high).toBeNull();
    expect(summaryFromWire(wire)).toEqual(facts);
  });

  it("carries each detail list's own read time beside the health record's: pools the older of pool capacity and provisioning", () => {
    const ats: Partial<Record<keyof typeof SUMMARY_READS, string>> = {
      health: '2026-03-01T00:00:00.000Z',
      nodes: '2026-02-28T23:56:00.000Z',
      resources: '2026-02-28T23:57:00.000Z',
      pools: '2026-02-28T23:58:00.000Z',
      provisioning: '2026-02-28T23:55:00.000Z',
    };
    const read = (r: PlannedRead): CachedRead => {
      const name = (Object.keys(SUMMARY_READS) as Array<keyof typeof SUMMARY_READS>).find((k) => SUMMARY_READS[k] === r)!;
      return { value: answers[name] ?? { Data: [] }, at: ats[name] ?? AT };
    };
    const facts = healthSummaryOf(read, NOW);
    expect(facts.at).toBe(ats.health);
    expect(facts.detailsAt).toEqual({ nodes: ats.nodes, drives: ats.resources, pools: ats.provisioning });
    expect(briefOf(facts).oldestDetailAt).toEqual(ats.provisioning);
    const wire = healthSummarySchema.parse(JSON.parse(JSON.stringify({ siteId: 's', system: 'x', seq: 3, ...facts })));
    expect(summaryFromWire(wire).detailsAt).toEqual(facts.detailsAt);
    expect(healthBriefSchema.parse(JSON.parse(JSON.stringify({ siteId: 's', system: 'x', seq: 3, ...briefOf(facts) }))).oldestDetailAt).toEqual(ats.provisioning);
  });

  it('is unknown, without a data age, for a system with nothing cached', () => {
    const facts = healthSummaryOf(readOf({}), NOW);
    expect(facts).toMatchObject({ at: undefined, drives: [], lagging: [], errors: [] });
    expect(facts.rollup.level).toBe('unknown');
    expect(summaryFromWire(healthSummarySchema.parse(JSON.parse(JSON.stringify({ siteId: 's', system: 'x', seq: 1, ...facts }))))).toEqual(facts);
  });

  it('carries every forecast status and basis, HA label, SMART risk, pool layout and partial list through its schema', () => {
    const risks = ['warning', 'critical'] as const;
    const partial = {
      ...answers,
      resources: { ...(answers.resources as object), Incomplete: { Read: 1, Total: 40 } },
      replication: { ...(answers.replication as object), Incomplete: { Read: 1 } },
    };
    const statuses: Forecast['status'][] = ['full', 'growing', 'not-growing', 'insufficient-data'];
    const bases: Forecast['basis'][] = ['free', 'consumed', 'state', 'free'];
    const labels: HaSummary['label'][] = ['normal', 'taken over', 'degraded', 'not reported'];
    statuses.forEach((status, i) => {
      const risk = risks[i % 2] ?? 'warning';
      const verdict: SmartVerdict = { risk, findings: [{ risk, subject: '5 Reallocated_Sector_Ct', message: 'sectors reallocated' }] };
      const facts = healthSummaryOf(readOf(partial), NOW, () => verdict);
      const [pool] = facts.rollup.capacity.pools;
      if (!pool || !facts.rollup.ha) throw new Error('the fixture has a pool and a node list');
      const sent = {
        ...facts,
        rollup: {
          ...facts.rollup,
          capacity: { ...facts.rollup.capacity, pools: [{ ...pool, layouts: [{ n: 4, k: 2 }], forecast: { ...pool.forecast, status, basis: bases[i] as Forecast['basis'] } }] },
          ha: { ...facts.rollup.ha, label: labels[i] as HaSummary['label'] },
        },
      };
      expect(sent.drives[0]?.smart).toEqual({ risk, findings: ['5 Reallocated_Sector_Ct: sectors reallocated'] });
      expect(sent.incomplete).toEqual({ drives: { Read: 1, Total: 40 }, replication: { Read: 1 } });
      expect(summaryFromWire(healthSummarySchema.parse(JSON.parse(JSON.stringify({ siteId: 's', system: 'x', seq: 2, ...sent }))))).toEqual(sent);
    });
  });

  it('refuses a wire form that is not a summary', () => {
    expect(healthSummarySchema.safeParse({ siteId: 's', system: 'x', seq: 1 }).success).toBe(false);
    const facts = healthSummaryOf(readOf(answers), NOW);
    expect(healthSummarySchema.safeParse({ siteId: 's', system: 'x', seq: 1, ...facts, rollup: { ...facts.rollup, level: 'fine' } }).success).toBe(false);
  });
});

// The window's first frame reads a health brief per system, the details after it.
describe("a system's health brief", () => {
  /** Three pools: one without a usable size, one nearly full, one ok. */
  const threePools = {
    ...answers,
    health: {
      ...(answers.health as object),
      CapacityUtilization: {
        PoolCapacity: [
          { PoolName: 'p', CapacityInBytes: 100 * TIB, CapacityUsageInBytes: 95 * TIB },
          { PoolName: 'q', CapacityInBytes: 100 * TIB, CapacityUsageInBytes: 10 * TIB },
          { PoolName: 'r', CapacityUsageInBytes: 5 * TIB },
        ],
      },
    },
    provisioning: null,
  };

  it('holds the capacity figures of the fleet totals as planTotal counts them, the worst verdict and the counts', () => {
    const facts = healthSummaryOf(readOf(threePools), NOW);
    const brief = briefOf(facts);
    const total = planTotal(planRows([{ siteId: 's', siteName: 'S', system: 'x', capacity: facts.rollup.capacity }]));
    expect(brief.rollup.capacity).toMatchObject({ usable: total.usable, allocated: total.allocated, unknownUsable: total.unknownUsable, pools: total.pools, level: facts.rollup.capacity.level });
    expect(total.unknownUsable).toBe(1);
    expect(brief.rollup.capacity.verdict).toBe(facts.rollup.capacity.pools[0]?.verdict);
    expect(brief.rollup.capacity.attention).toBe(facts.rollup.capacity.pools.filter((p) => p.level !== 'ok' && p.level !== 'unknown').length);
    expect(brief.rollup.capacity.attention).toBeGreaterThan(0);
    // Everything else the first frame shows is the roll-up's own.
    expect(brief).toMatchObject({ at: AT, drives: 1, lagging: 1, rollup: { level: facts.rollup.level, dimensions: facts.rollup.dimensions, reasons: facts.rollup.reasons, ha: facts.rollup.ha } });
  });

  it('crosses as JSON, checked by its schema, in a fraction of the summary', () => {
    const facts = healthSummaryOf(readOf(answers), NOW);
    const json = JSON.stringify({ siteId: 's', system: 'x', seq: 3, ...briefOf(facts) });
    const { siteId, system, seq, ...brief } = briefFromWire(healthBriefSchema.parse(JSON.parse(json)));
    expect({ siteId, system, seq }).toEqual({ siteId: 's', system: 'x', seq: 3 });
    expect(brief).toEqual(JSON.parse(JSON.stringify(briefOf(facts))));
    expect(json.length).toBeLessThan(JSON.stringify({ siteId: 's', system: 'x', seq: 3, ...facts }).length / 3);
  });

  it('is unknown, without pools or a data age, for a system with nothing cached', () => {
    const brief = briefOf(healthSummaryOf(readOf({}), NOW));
    expect(brief).toMatchObject({ at: undefined, drives: 0, lagging: 0, rollup: { level: 'unknown', capacity: { usable: 0, allocated: 0, pools: 0, attention: 0, verdict: undefined } } });
    expect(healthBriefSchema.safeParse(JSON.parse(JSON.stringify({ siteId: 's', system: 'x', seq: 1, ...brief }))).success).toBe(true);
  });

  it('refuses a wire form that is not a health brief', () => {
    const brief = briefOf(healthSummaryOf(readOf(answers), NOW));
    expect(healthBriefSchema.safeParse({ siteId: 's', system: 'x', seq: 1, ...brief, drives: -1 }).success).toBe(false);
    expect(healthBriefSchema.safeParse({ siteId: 's', system: 'x', seq: 1, ...brief, rollup: { ...brief.rollup, capacity: {} } }).success).toBe(false);
  });
});
