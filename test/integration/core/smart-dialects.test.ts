import { afterAll, describe, expect, it } from 'vitest';
import { runBefore as runBeforeAll } from '../support/run-before.js';
import { smartReportOf } from '../../../app/alerts/evaluate.js';
import type { SystemStatus } from '../../../app/domain/site.js';
import type { Dialect } from '../../../simulator/index.js';
import { pastFailureDrive } from '../../../simulator/state/smart.js';
import { reportHarness, type ReportHarness } from '../reports/support.js';

/**
 * SMART as smartctl prints it in its other forms: the brief `-x` table (a FAIL column of `NOW` and
 * `Past`) and `--json`. Every drive must rate as it does from the `-A` text, and the drive whose
 * attribute failed in the past must not be called OK.
 */
interface Run {
  h: ReportHarness;
  statuses: SystemStatus[];
  /** Each drive's SMART risk, by cache key. */
  risks: Map<string, string>;
}

async function run(dialects: Dialect[]): Promise<Run> {
  const h = await reportHarness({ sites: 1, systems: 1, dialects });
  const statuses = await h.fleet.refresh();
  const rows = h.db.prepare("SELECT key, value FROM cache_entries WHERE key LIKE 'GET /resources/drives/smart%' ORDER BY key").all() as Array<{ key: string; value: string }>;
  const risks = new Map(rows.map((r) => [r.key, smartReportOf(JSON.parse(r.value))?.risk ?? 'none']));
  return { h, statuses, risks };
}

const runs: Run[] = [];
afterAll(async () => {
  for (const r of runs) await r.h.close();
});

/** Starts a run in these dialects before the tests of the enclosing describe; the run, once started. */
const runBefore = (dialects: Dialect[]): (() => Run) => runBeforeAll(() => run(dialects), runs);

const base = runBefore([]);

/** The SMART key of the drive whose Spin_Up_Time failed in the past. */
function pastDrive(r: Run): string {
  const system = r.h.sim.fleet.sites[0]?.systems[0];
  const node = system?.nodes[0];
  const drive = system ? pastFailureDrive(system) : undefined;
  const key = [...r.risks.keys()].find((k) => k.includes(`driveid=${drive?.id}&`) && k.includes(encodeURIComponent(node?.name ?? '')));
  if (!key) throw new Error('no SMART read of the first ATA drive');
  return key;
}

describe.each<Dialect[]>([['smart-json'], ['smart-brief'], ['smart-json', 'smart-brief']])('dialects %j', (...dialects) => {
  const r = runBefore(dialects);

  it('reads every drive\'s SMART (no answer refused) and the system stays ok', () => {
    expect(r().statuses.map((s) => [s.state, s.lastError])).toEqual([['ok', undefined]]);
    expect([...r().risks.keys()]).toEqual([...base().risks.keys()]);
    expect(r().risks.size).toBeGreaterThan(4);
  });

  it('rates every drive as the -A text does, and the drive that failed in the past as a warning', () => {
    const past = dialects.includes('smart-brief') ? pastDrive(r()) : undefined;
    expect(base().risks.get(past ?? '') ?? 'ok').toBe('ok');
    for (const [key, risk] of base().risks) expect(r().risks.get(key), key).toBe(key === past ? 'warning' : risk);
    expect([...r().risks.values()]).not.toContain('unknown');
  });
});
