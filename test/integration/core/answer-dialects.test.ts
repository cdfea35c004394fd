import { afterAll, describe, expect, it } from 'vitest';
import { runBefore as runBeforeAll } from '../support/run-before.js';
import type { SystemStatus } from '../../../app/domain/site.js';
import type { ReportModel } from '../../../app/reports/model.js';
import { getOperation, type Health } from '../../../app/catalog/index.js';
import { worse, type Level } from '../../../app/health/level.js';
import { rollupHealth } from '../../../renderer/lib/health.js';
import type { Dialect } from '../../../simulator/index.js';
import { rowsOf } from '../../unit/app/reports/helpers.js';
import { reportHarness, type ReportHarness } from '../reports/support.js';

/**
 * The client, the refresh, the cached views and the reports against the
 * simulator answering like real systems that read the document otherwise. Each run starts the same
 * simulated fleet (fixed seed, frozen clock), refreshes it through the Fleet as the app does, and
 * builds the audit report from the offline cache.
 */
interface Run {
  statuses: SystemStatus[];
  /** Every cached answer as its stored JSON text, by system and cache key. */
  cache: Map<string, string>;
  report: ReportModel;
  h: ReportHarness;
}

async function run(dialects: Dialect[]): Promise<Run> {
  const h = await reportHarness({ sites: 1, systems: 2, dialects });
  const statuses = await h.fleet.refresh();
  const rows = h.db.prepare('SELECT system, key, value FROM cache_entries ORDER BY system, key').all() as Array<{ system: string; key: string; value: string }>;
  const report = (await h.reports.generate({ kind: 'audit', offline: true })).model;
  return { statuses, cache: new Map(rows.map((r) => [`${r.system} ${r.key}`, r.value])), report, h };
}

/** Each system's health roll-up (what the overview, the tree and the system header show) from its cached health record. */
function rollups(run: Run): Array<{ level: string; dimensions: Array<{ name: string; level: string; percent: number | undefined }> }> {
  return [...run.cache]
    .filter(([k]) => k.includes('GET /monitoring/health/current'))
    .map(([, json]) => rollupHealth(JSON.parse(json) as Health))
    .map((r) => ({ level: r.level, dimensions: r.dimensions.map((d) => ({ name: d.name, level: d.level, percent: d.percent })) }));
}

/** The report's tables as rows, without what differs between any two runs (times, ids). */
function tables(model: ReportModel): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of model.sections) for (const t of s.tables) if (!t.id.startsWith('actions.')) out[t.id] = rowsOf(model, t.id);
  return out;
}

const runs: Run[] = [];

/** Starts a run in these dialects before the tests of the enclosing describe; the run, once started. */
const runBefore = (dialects: Dialect[]): (() => Run) => runBeforeAll(() => run(dialects), runs);

/** The default dialect: what every other run is compared with. */
const base = runBefore([]);
afterAll(async () => {
  for (const r of runs) await r.h.close();
});

describe.each<Dialect>(['envelope-result', 'envelope-lower', 'snake-case', 'numeric-strings', 'bool-numbers', 'enum-case'])('the %s dialect', (dialect) => {
  const r = runBefore([dialect]);

  it('refreshes every system to ok, as in the default dialect', () => {
    expect(base().statuses.map((s) => [s.system, s.state])).toEqual([
      [expect.any(String), 'ok'],
      [expect.any(String), 'ok'],
    ]);
    expect(r().statuses.map((s) => [s.system, s.state, s.lastError])).toEqual(base().statuses.map((s) => [s.system, 'ok', undefined]));
  });

  it('caches exactly what the default dialect caches: the views read the same lists, figures and states', () => {
    expect([...r().cache.keys()]).toEqual([...base().cache.keys()]);
    // SMART text of every drive was read: the drive list was understood.
    expect([...r().cache.keys()].filter((k) => k.includes('/resources/drives/smart')).length).toBeGreaterThan(4);
    for (const [key, json] of base().cache) expect(r().cache.get(key), key).toBe(json);
  });

  it('rolls each system up to the same health as the default dialect', () => {
    expect(rollups(r())).toHaveLength(2);
    expect(rollups(r())).toEqual(rollups(base()));
  });

  it('reaches the same verdicts in every report table (health, capacity forecast, SMART, inventory, configuration)', () => {
    expect(tables(r().report)).toEqual(tables(base().report));
    expect(rowsOf(r().report, 'health.pools').some((p) => typeof p.daysUntilFull === 'number')).toBe(true);
  });
});

describe('the nulls dialect', () => {
  const r = runBefore(['nulls']);

  it('refreshes every system to ok and reads every list', () => {
    expect(r().statuses.map((s) => s.state)).toEqual(['ok', 'ok']);
    expect([...r().cache.keys()]).toEqual([...base().cache.keys()]);
  });

  it('keeps no null: a null field is absent, and every list has as many items as in the default dialect', () => {
    for (const [key, json] of r().cache) expect(json, key).not.toMatch(/:null|\[null|,null/);
    // Every list holds as many items as in the default dialect, the empty ones included.
    const lengths = (run: Run): Array<[string, number]> =>
      [...run.cache].flatMap(([k, json]) => {
        const data = (JSON.parse(json) as { Data?: unknown }).Data;
        return Array.isArray(data) ? [[k, data.length] as [string, number]] : [];
      });
    expect(lengths(r())).toEqual(lengths(base()));
  });

  it('reports a null health percentage as not reported, never as 0 % (critical)', () => {
    const systems = rowsOf(r().report, 'health.systems');
    expect(systems.map((s) => s.volumesHealth)).toEqual([null, null]);
    const reference = rowsOf(base().report, 'health.systems');
    expect(reference.map((s) => typeof s.volumesHealth)).toEqual(['number', 'number']);
    // A health figure not reported rolls the system up to unknown, as the overview shows it (or
    // worse, for what else the system shows: a drive whose SMART is critical).
    expect(systems.map((s) => s.level)).toEqual(reference.map((s) => worse(s.level as Level, 'unknown')));
    expect(systems.map((s) => s.level)).toContain('unknown');
    // Everything else in the row is as in the default dialect.
    expect(systems.map((s) => ({ ...s, volumesHealth: 'x', level: 'x' }))).toEqual(reference.map((s) => ({ ...s, volumesHealth: 'x', level: 'x' })));
  });

  it('rolls a null volumes health up as not reported (unknown), not as "critical, 0 % healthy"; the rest as in the default dialect', () => {
    const mine = rollups(r());
    expect(mine.map((x) => x.dimensions.find((d) => d.name === 'volumes'))).toEqual([
      { name: 'volumes', level: 'unknown', percent: undefined },
      { name: 'volumes', level: 'unknown', percent: undefined },
    ]);
    const others = (x: ReturnType<typeof rollups>): unknown => x.map((y) => y.dimensions.filter((d) => d.name !== 'volumes'));
    expect(others(mine)).toEqual(others(rollups(base())));
  });

  it('reaches the same SMART, capacity forecast and hardware verdicts', () => {
    for (const id of ['smart.summary', 'smart.drives', 'smart.findings', 'health.pools', 'health.hardwareProblems', 'health.unhealthyVolumes', 'health.notifications']) {
      expect(rowsOf(r().report, id), id).toEqual(rowsOf(base().report, id));
    }
  });
});

describe('the unknown-envelope dialect', () => {
  const r = runBefore(['unknown-envelope']);

  it('marks every system protocol-error, naming the operation and a sketch of what came back', () => {
    expect(r().statuses.map((s) => s.state)).toEqual(['protocol-error', 'protocol-error']);
    for (const s of r().statuses) {
      expect(s.lastError).toMatch(/^protocol error: GET \/\S+ answered \{"items": \[(\d+ objects?|)\], "total": \d+\} \(and \d+ more answer\(s\) not understood\)/);
      expect(s.lastError).toContain('SMART not read: the drive list (GET /resources/list) could not be read');
    }
  });

  it('caches no list answer (nothing to show as an empty list), and the object answers as in the default dialect', () => {
    const keys = [...r().cache.keys()];
    for (const k of keys) expect(k).not.toMatch(/(?<!systems)\/list|notifications\/query|\/live|reserve\/current|provisioning|capacity\/volumes|support\/tunnel/);
    expect(keys.filter((k) => k.includes('/resources/drives/smart'))).toEqual([]);
    for (const k of keys) expect(r().cache.get(k), k).toBe(base().cache.get(k));
    expect(keys.some((k) => k.endsWith('GET /monitoring/health/current?capacityUtilization=true&details=true&hardwareResources=true&hardwareUtilization=true&volumes=true'))).toBe(true);
  });

  it('reports say what was not understood and list nothing as data from it', () => {
    for (const s of r().statuses) expect(r().report.notes.some((n) => n.startsWith(`${r().h.saved[0]?.name} / ${s.system}: its answers were not understood (protocol error: GET /`))).toBe(true);
    expect(rowsOf(r().report, 'inventory.nodes')).toEqual([]);
    expect(rowsOf(r().report, 'smart.drives')).toEqual([]);
    expect(rowsOf(r().report, 'inventory.systems').map((s) => s.state)).toEqual(['protocol-error', 'protocol-error']);
  });

  it('refuses a live read of a list as a protocol error, not an empty list', async () => {
    const site = r().h.saved[0]?.id as string;
    const err = await r().h.fleet.call(site, r().statuses[0]?.system as string, 'GET /hosts/list').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unrecognised-answer', operation: 'GET /hosts/list' });
    expect((err as Error).message).toMatch(/GET \/hosts\/list answered \{"items": \[\d+ objects?\], "total": \d+\}, not \{"Data":\[Host, …\]\}/);
  });
});

describe('the big-ids dialect', () => {
  const r = runBefore(['big-ids']);

  it('keeps notification ids past 2^53 exact, each record once', () => {
    expect(r().statuses.map((s) => s.state)).toEqual(['ok', 'ok']);
    const key = [...r().cache.keys()].find((k) => k.endsWith('GET /notifications/query'));
    const records = (JSON.parse(r().cache.get(key as string) ?? '{}') as { Data: Array<{ Id: unknown }> }).Data;
    const reference = (JSON.parse(base().cache.get(key as string) ?? '{}') as { Data: Array<{ Id: number }> }).Data;
    expect(records.length).toBe(reference.length);
    expect(records.map((x) => x.Id)).toEqual(reference.map((x) => String(2n ** 53n + BigInt(x.Id))));
  });
});

describe('the sentinel-percentages dialect', () => {
  const r = runBefore(['sentinel-percentages']);

  it('reports a -1 health percentage as not reported (unknown), never as "critical, -1 % healthy"', () => {
    expect(r().statuses.map((s) => s.state)).toEqual(['ok', 'ok']);
    const systems = rowsOf(r().report, 'health.systems');
    expect(systems.map((s) => s.volumesHealth)).toEqual([null, null]);
    const reference = rowsOf(base().report, 'health.systems');
    expect(systems.map((s) => s.level)).toEqual(reference.map((s) => worse(s.level as Level, 'unknown')));
    expect(rollups(r()).map((x) => x.dimensions.find((d) => d.name === 'volumes'))).toEqual([
      { name: 'volumes', level: 'unknown', percent: undefined },
      { name: 'volumes', level: 'unknown', percent: undefined },
    ]);
  });

  it('keeps no negative percentage in the cache: a sentinel is a figure not reported', () => {
    for (const [key, json] of r().cache) expect(json, key).not.toMatch(/Percentage":-/);
  });
});

describe('the fraction-percentages dialect', () => {
  const r = runBefore(['fraction-percentages']);

  it('reads ratios as percentages: the same health, report and cached figures as the default dialect', () => {
    expect(r().statuses.map((s) => [s.state, s.percentScale])).toEqual([
      ['ok', 'fraction'],
      ['ok', 'fraction'],
    ]);
    expect(rollups(r())).toEqual(rollups(base()));
    expect(rowsOf(r().report, 'health.systems')).toEqual(rowsOf(base().report, 'health.systems'));
    for (const [key, json] of base().cache) if (key.includes('/monitoring/')) expect(r().cache.get(key), key).toBe(json);
  });

  it('learns the default dialect as a percent system', () => {
    expect(base().statuses.map((s) => s.percentScale)).toEqual(['percent', 'percent']);
  });
});

describe.each<Dialect>(['dotnet-references', 'spaced-enums', 'no-content-lists'])('the %s dialect', (dialect) => {
  const r = runBefore([dialect]);

  it('refreshes, caches and rolls up exactly as the default dialect', () => {
    expect(r().statuses.map((s) => [s.system, s.state, s.lastError])).toEqual(base().statuses.map((s) => [s.system, 'ok', undefined]));
    expect([...r().cache.keys()]).toEqual([...base().cache.keys()]);
    for (const [key, json] of base().cache) expect(r().cache.get(key), key).toBe(json);
    expect(rollups(r())).toEqual(rollups(base()));
  });
});

describe('the default dialect', () => {
  it('reads multi-word states and objects written twice in a refresh (what the dialects above rewrite)', () => {
    expect([...base().cache.values()].some((json) => /"(NotApproved|InSync)"/.test(json))).toBe(true);
  });
});

describe('the no-content-lists dialect', () => {
  const r = runBefore(['no-content-lists']);

  it('reads a 204 of a list operation as the empty list it is', async () => {
    const { h } = r();
    const siteId = h.saved[0]?.id ?? '';
    // The second system holds only the secondary side of the site's pair: no primary.
    const system = h.fleet.systemsOf(siteId)[1] ?? '';
    const answer = await h.fleet.call(siteId, system, getOperation('GET /replication/list'), { query: { filterPrimary: true } });
    expect(answer).toEqual({ Data: [] });
  });
});

describe('the unit-sizes dialect', () => {
  const r = runBefore(['unit-sizes']);

  it('reads "3.64 TB" and "98.18 %" as the figures they print: capacity and health as in the default dialect', () => {
    expect(r().statuses.map((s) => s.state)).toEqual(['ok', 'ok']);
    expect(rollups(r()).map((x) => x.dimensions.map((d) => [d.name, d.level]))).toEqual(rollups(base()).map((x) => x.dimensions.map((d) => [d.name, d.level])));
    const sizes = (run: Run): number[] => rowsOf(run.report, 'health.pools').flatMap((p) => [p.capacity, p.allocated, p.consumed]) as number[];
    expect(sizes(r()).length).toBeGreaterThan(0);
    sizes(base()).forEach((bytes, i) => {
      // Three significant digits: within half a unit of the third.
      expect(Math.abs((sizes(r())[i] ?? Number.NaN) - bytes)).toBeLessThanOrEqual(bytes * 0.005);
    });
    expect(rowsOf(r().report, 'health.systems').map((s) => s.volumesHealth)).toEqual(rowsOf(base().report, 'health.systems').map((s) => s.volumesHealth));
  });
});
