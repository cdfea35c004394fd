import { describe, expect, it } from 'vitest';
import { comparePlan, fillsFirstText, PLAN_COLUMNS, planCells, type PlanRow, planRows, planTotal, type SystemCapacityEntry } from '../../../../app/capacity/plan.js';
import { assessCapacity } from '../../../../app/capacity/pools.js';
import { rollupAnswers, systemRollup } from '../../../../app/health/system-health.js';
import { healthSection } from '../../../../app/reports/health.js';
import { GENERATED_AT, fixtureInput } from '../reports/fixtures.js';

const TIB = 1024 ** 4;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const NOW = T0 + 29 * DAY;

/** Daily consumed history of one pool: `start` growing by `perDay`. */
const history = (pool: string, start: number, perDay: number) =>
  Array.from({ length: 30 }, (_, i) => ({ PoolName: pool, Time: new Date(T0 + i * DAY).toISOString().slice(0, 19), TotalConsumedSizeInBytes: start + i * perDay }));

/** A system with one pool of 100 TiB usable, `allocated` TiB allocated and consumed data growing by `perDay` TiB. */
function system(site: string, name: string, pools: Array<{ pool: string; allocated: number; consumed: number; perDay: number }>): SystemCapacityEntry {
  const capacity = assessCapacity({
    pools: { CapacityUsage: pools.map((p) => ({ Name: p.pool, TotalAllocatedSizeInBytes: p.allocated * TIB, TotalConsumedSizeInBytes: p.consumed * TIB, FreeCapacityInBytes: (100 - p.allocated) * TIB })) },
    provisioning: pools.map((p) => ({ PoolName: p.pool, State: 'Ok', Reason: 'None' })),
    history: pools.flatMap((p) => history(p.pool, (p.consumed - 29 * p.perDay) * TIB, p.perDay * TIB)),
    now: NOW,
  });
  return { siteId: site, siteName: site, system: name, capacity };
}

describe('capacity planning rows', () => {
  const fleet = [
    system('dc-a', 'slow-01', [{ pool: 'hdd', allocated: 40, consumed: 30, perDay: 0.1 }]),
    system('dc-a', 'fast-02', [
      { pool: 'hdd', allocated: 50, consumed: 60, perDay: 2 },
      { pool: 'ssd', allocated: 95, consumed: 20, perDay: 0 },
    ]),
    system('dc-b', 'flat-03', [{ pool: 'nvme', allocated: 70, consumed: 10, perDay: 0 }]),
  ];

  it('puts the pool that fills first on top, then the others by days, then pools not filling by used share', () => {
    const rows = planRows(fleet);
    expect(rows.map((r) => `${r.system}/${r.pool}`)).toEqual(['fast-02/hdd', 'slow-01/hdd', 'fast-02/ssd', 'flat-03/nvme']);
    const first = rows[0] as PlanRow;
    // 40 TiB left at 2 TiB a day.
    expect(first.daysUntilFull).toBe(20);
    expect(first.growthPerDay).toBe(2 * TIB);
    expect(first.range?.low).toBeLessThanOrEqual(20);
    expect(first.range?.high).toBeGreaterThanOrEqual(20);
    expect(rows[2]).toMatchObject({ usedPercent: 95, daysUntilFull: undefined, status: 'not-growing' });
  });

  it('puts a pool the system reports Full on top however slowly its data grows, and counts it full now', () => {
    const capacity = assessCapacity({
      pools: { CapacityUsage: [{ Name: 'hdd', TotalAllocatedSizeInBytes: 99.5 * TIB, TotalConsumedSizeInBytes: 10 * TIB, FreeCapacityInBytes: 0.5 * TIB }] },
      provisioning: [{ PoolName: 'hdd', State: 'Full', Reason: 'LowFreeSpace', FreeSpaceInPercentage: 0.5 }],
      history: history('hdd', 10 * TIB - 29 * 0.01 * TIB, 0.01 * TIB),
      now: NOW,
    });
    const rows = planRows([...fleet, { siteId: 'dc-c', siteName: 'dc-c', system: 'allocated-04', capacity }]);
    expect(rows[0]).toMatchObject({ system: 'allocated-04', pool: 'hdd', fullNow: true, verdict: 'full', level: 'critical' });
    // Its data alone would take years: a pool judged full shows no such date.
    expect(rows[0]).toMatchObject({ daysUntilFull: 0, fullBy: undefined, range: undefined });
    expect(planTotal(rows)).toMatchObject({ fullNow: 1, within30: 2, within90: 2 });
    // The fleet line names the pool that fills first.
    expect(fillsFirstText(planTotal(rows))).toBe('allocated-04/hdd full now');
  });

  it('sorts a thousand systems into one total order', () => {
    const many = Array.from({ length: 1000 }, (_, i) => system(`dc-${i % 7}`, `sys-${i}`, [{ pool: 'hdd', allocated: i % 90, consumed: 10 + (i % 50), perDay: (i % 13) / 10 }]));
    const rows = planRows(many);
    expect(rows).toHaveLength(1000);
    for (let i = 1; i < rows.length; i++) expect(comparePlan(rows[i - 1] as PlanRow, rows[i] as PlanRow)).toBeLessThan(0);
  });

  it('totals the fleet: sums of every pool, growth added up, pools full soon counted', () => {
    const t = planTotal(planRows(fleet));
    expect(t).toMatchObject({ pools: 4, systems: 3, usable: 400 * TIB, allocated: 255 * TIB, consumed: 120 * TIB, free: 145 * TIB, usedPercent: 63.75, fullNow: 0, within30: 1, within90: 1 });
    expect(t.growthPerDay).toBeCloseTo(2.1 * TIB, -3);
  });

  it('exports one cell per column', () => {
    const cells = planCells(planRows(fleet)[0] as PlanRow);
    expect(cells).toHaveLength(PLAN_COLUMNS.length);
    expect(cells.slice(0, 4)).toEqual(['dc-a', 'fast-02', 'hdd', 20]);
  });
});

describe('the planning view and the health report agree', () => {
  it('shows the same figures for every pool of the same cached answers', () => {
    const input = fixtureInput();
    const now = Date.parse(GENERATED_AT);
    // The view: the fleet overview's roll-up of each system's cached answers, then the planning rows.
    const entries = input.systems.map((s) => ({ siteId: s.siteId, siteName: s.siteName, system: s.system, capacity: systemRollup(rollupAnswers((r) => s.answers[r.op]?.value), now).capacity }));
    const view = planRows(entries);
    expect(view.length).toBeGreaterThan(0);
    expect(view.some((r) => r.daysUntilFull !== undefined)).toBe(true);
    // The report, built from the same snapshot.
    const table = healthSection(input).tables.find((t) => t.id === 'health.pools');
    const col = (id: string): number => table?.columns.findIndex((c) => c.id === id) ?? -1;
    for (const r of view) {
      const row = table?.rows.find((x) => x[col('site')] === r.siteName && x[col('system')] === r.system && x[col('pool')] === r.pool);
      expect(row, `${r.system}/${r.pool} in the report`).toBeDefined();
      const cells = planCells(r);
      const viewCol = (id: string): number => PLAN_COLUMNS.findIndex(([c]) => c === id);
      for (const [reportId, viewId] of [
        ['daysUntilFull', 'daysUntilFull'],
        ['range', 'range'],
        ['fullBy', 'fullBy'],
        ['growthPerDay', 'growthPerDay'],
        ['capacity', 'usable'],
        ['allocated', 'allocated'],
        ['consumed', 'consumed'],
        ['free', 'free'],
      ] as const) {
        expect(row?.[col(reportId)], `${r.system}/${r.pool} ${reportId}`).toEqual(cells[viewCol(viewId)]);
      }
    }
    // And the system summary's usable and allocated are the pools' sums, as the overview totals them.
    const summary = healthSection(input).tables.find((t) => t.id === 'health.systems');
    const sCol = (id: string): number => summary?.columns.findIndex((c) => c.id === id) ?? -1;
    for (const e of entries) {
      if (!e.capacity.pools.length) continue;
      const t = planTotal(planRows([e]));
      const row = summary?.rows.find((x) => x[sCol('system')] === e.system);
      expect(row?.[sCol('allocated')]).toBe(t.allocated);
      expect(row?.[sCol('capacity')]).toBe(t.unknownUsable ? null : t.usable);
    }
  });
});
