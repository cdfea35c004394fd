import { describe, expect, it } from 'vitest';
import type { Forecast } from '../../../../app/capacity/forecast.js';
import { comparePlan, fillsFirstText, PLAN_COLUMNS, type PlanCell, planCells, poolFigures, type PlanRow, planRows, planTotal, rangeText, type SystemCapacityEntry, totalCells } from '../../../../app/capacity/plan.js';
import { assessCapacity, type PoolCapacity } from '../../../../app/capacity/pools.js';
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

/** A planning row as `planRows` makes it, with only the figures a test names. */
function row(r: Partial<PlanRow> & Pick<PlanRow, 'system' | 'pool'>): PlanRow {
  return {
    key: `dc\u0000${r.system}\u0000${r.pool}`,
    siteId: 'dc',
    siteName: 'dc',
    level: 'ok',
    verdict: 'ok',
    fullNow: false,
    usable: 100,
    allocated: 50,
    consumed: 10,
    free: 50,
    freePercent: 50,
    usedPercent: 50,
    growthPerDay: 0,
    daysUntilFull: undefined,
    range: undefined,
    fullBy: undefined,
    status: 'not-growing',
    basis: 'free',
    ...r,
  };
}

describe('pool figures of a table', () => {
  const pool = (over: Partial<PoolCapacity>, forecast: Partial<Forecast>): PoolCapacity => ({
    name: 'hdd',
    usable: 100,
    allocated: 50,
    consumed: 10,
    free: 50,
    freePercent: 50,
    allocatedPercent: 50.123,
    state: 'Ok',
    reason: undefined,
    layouts: [],
    forecast: { status: 'growing', basis: 'free', slopePerDay: 2.6, capacity: 100, days: 20, range: { low: 10.4, high: Number.POSITIVE_INFINITY }, fullAt: '2026-02-01T00:00:00.000Z', samples: 30, ...forecast },
    level: 'ok',
    verdict: 'ok',
    reasons: [],
    ...over,
  });

  it('rounds the used share to two decimals and growth to whole bytes, and keeps the open end of the range', () => {
    expect(poolFigures(pool({}, {}))).toMatchObject({ usedPercent: 50.12, growthPerDay: 3, daysUntilFull: 20, range: { low: 10, high: Number.POSITIVE_INFINITY }, fullBy: '2026-02-01T00:00:00.000Z', status: 'growing' });
  });

  it('leaves unknown what is unknown: no used share without an allocated share, no growth without a fit', () => {
    const f = poolFigures(pool({ allocatedPercent: undefined }, { status: 'insufficient-data', slopePerDay: 0, days: undefined, range: undefined, fullAt: undefined }));
    expect(f.usedPercent).toBeUndefined();
    expect(f.growthPerDay).toBeUndefined();
    expect(f.daysUntilFull).toBeUndefined();
  });

  it('gives a pool full now 0 days and no date or range, and a shrinking pool its growth but no days', () => {
    const full = poolFigures(pool({}, { status: 'full', days: 0, range: { low: 0, high: 0 }, fullAt: '2026-01-01T00:00:00.000Z' }));
    expect(full).toMatchObject({ daysUntilFull: 0, status: 'full' });
    expect(full.fullBy).toBeUndefined();
    expect(full.range).toBeUndefined();
    const shrinking = poolFigures(pool({}, { status: 'not-growing', slopePerDay: -5, days: undefined, range: undefined, fullAt: undefined }));
    expect(shrinking.growthPerDay).toBe(-5);
    expect(shrinking.daysUntilFull).toBeUndefined();
  });

  it('writes the range as low – high, with ∞ for an open end, and nothing without a range', () => {
    expect(rangeText({ low: 12, high: 40 })).toBe('12 – 40');
    expect(rangeText({ low: 12, high: Number.POSITIVE_INFINITY })).toBe('12 – ∞');
    expect(rangeText(undefined)).toBeUndefined();
  });
});

describe('planning order and total', () => {
  it('keys a row by site, system and pool, so equal names elsewhere stay apart', () => {
    const entry = (siteId: string, system: string): SystemCapacityEntry => ({ siteId, siteName: siteId, system, capacity: assessCapacity({ pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: 1, FreeCapacityInBytes: 9 }] } }) });
    const keys = planRows([entry('a', 'b'), entry('a', 'c'), entry('b', 'b')]).map((r) => r.key);
    expect(new Set(keys).size).toBe(3);
    expect(keys).toContain('a\u0000b\u0000p');
  });

  it('orders pools not filling by the larger used share before their names', () => {
    const rows = [row({ system: 'a', pool: 'p', usedPercent: 10 }), row({ system: 'b', pool: 'p', usedPercent: 80 }), row({ system: 'c', pool: 'p', usedPercent: undefined })];
    expect(rows.sort(comparePlan).map((r) => r.system)).toEqual(['b', 'a', 'c']);
    // A known share, however small, before an unknown one.
    const known = row({ system: 'z', pool: 'p', usedPercent: 0.5 });
    const unknown = row({ system: 'a', pool: 'p', usedPercent: undefined });
    expect([unknown, known].sort(comparePlan)).toEqual([known, unknown]);
    expect([known, unknown].sort(comparePlan)).toEqual([known, unknown]);
  });

  it('breaks remaining ties by site, then system, then pool, with numbers in names in numeric order', () => {
    const rows = [row({ system: 'sys-10', pool: 'p' }), row({ system: 'sys-2', pool: 'z' }), row({ system: 'sys-2', pool: 'a' }), row({ siteName: 'ab', system: 'sys-1', pool: 'p' })];
    expect(rows.sort(comparePlan).map((r) => `${r.siteName}/${r.system}/${r.pool}`)).toEqual(['ab/sys-1/p', 'dc/sys-2/a', 'dc/sys-2/z', 'dc/sys-10/p']);
  });

  it('counts a pool due in exactly 30 or 90 days within those, one due later not, and one not filling in neither', () => {
    const t = planTotal([row({ system: 'a', pool: 'p', daysUntilFull: 30, status: 'growing' }), row({ system: 'b', pool: 'p', daysUntilFull: 31, status: 'growing' }), row({ system: 'c', pool: 'p', daysUntilFull: 90, status: 'growing' }), row({ system: 'd', pool: 'p', daysUntilFull: 91, status: 'growing' }), row({ system: 'e', pool: 'p' })]);
    expect(t).toMatchObject({ within30: 1, within90: 3, fullNow: 0 });
  });

  it('names as filling first the pool with the fewest days, the earlier row on a tie, and a full pool before any', () => {
    const a = row({ system: 'a', pool: 'p', daysUntilFull: 30, status: 'growing' });
    const b = row({ system: 'b', pool: 'p', daysUntilFull: 10, status: 'growing' });
    const c = row({ system: 'c', pool: 'p', daysUntilFull: 10, status: 'growing' });
    const d = row({ system: 'd', pool: 'p' });
    expect(planTotal([a, b, c, d]).fillsFirst).toEqual({ siteName: 'dc', system: 'b', pool: 'p', days: 10 });
    expect(planTotal([a, row({ system: 'f', pool: 'p', fullNow: true, daysUntilFull: 0, status: 'full' })]).fillsFirst?.system).toBe('f');
    expect(planTotal([d]).fillsFirst).toBeUndefined();
  });

  it('counts pools of unknown usable apart and leaves them out of the used share', () => {
    const t = planTotal([row({ system: 'a', pool: 'p', usable: 100, allocated: 50 }), row({ system: 'b', pool: 'p', usable: undefined, allocated: 40 })]);
    expect(t).toMatchObject({ unknownUsable: 1, usable: 100, allocated: 90, usedPercent: 50 });
    expect(planTotal([]).usedPercent).toBeUndefined();
    expect(planTotal([row({ system: 'a', pool: 'p', usable: undefined })]).usedPercent).toBeUndefined();
  });
});

describe('planning export cells', () => {
  it('writes an unknown figure as an empty cell and the outlook as level and verdict', () => {
    const cells = planCells(row({ system: 'a', pool: 'p', usable: undefined, growthPerDay: undefined, level: 'warning', verdict: 'nearly full', range: { low: 3, high: 9 } }));
    const at = (id: string): PlanCell => cells[PLAN_COLUMNS.findIndex(([c]) => c === id)] as PlanCell;
    expect(at('usable')).toBeNull();
    expect(at('growthPerDay')).toBeNull();
    expect(at('daysUntilFull')).toBeNull();
    expect(at('fullBy')).toBeNull();
    expect(at('range')).toBe('3 – 9');
    expect(at('allocated')).toBe(50);
    expect(at('outlook')).toBe('warning: nearly full');
  });

  it('says which pool fills first: full now, or first in N days (one day singular), or nothing', () => {
    expect(fillsFirstText({ fillsFirst: { siteName: 's', system: 'sys', pool: 'p', days: 0 } })).toBe('sys/p full now');
    expect(fillsFirstText({ fillsFirst: { siteName: 's', system: 'sys', pool: 'p', days: 1 } })).toBe('sys/p first, in 1 day');
    expect(fillsFirstText({ fillsFirst: { siteName: 's', system: 'sys', pool: 'p', days: 31 } })).toBe('sys/p first, in 31 days');
    expect(fillsFirstText({ fillsFirst: undefined })).toBeUndefined();
  });

  it('writes the fleet total as one cell per column: counts, sums and the pools full soon', () => {
    const t = planTotal([row({ system: 'a', pool: 'p', daysUntilFull: 12, status: 'growing', growthPerDay: 7 }), row({ system: 'b', pool: 'p', fullNow: true, daysUntilFull: 0, status: 'full' })]);
    const cells = totalCells(t);
    expect(cells).toHaveLength(PLAN_COLUMNS.length);
    expect(cells).toEqual(['Fleet total', '2 systems', '2 pools', 'b/p full now', null, null, 50, 7, 200, 100, 20, 100, '1 full now, 2 within 30 days, 2 within 90 days']);
    expect(totalCells(planTotal([]))).toEqual(['Fleet total', '0 systems', '0 pools', null, null, null, null, 0, 0, 0, 0, 0, '0 full now, 0 within 30 days, 0 within 90 days']);
  });
});
