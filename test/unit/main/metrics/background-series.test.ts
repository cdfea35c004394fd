import { describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../../../app/domain/site.js';
import { FleetMetrics, type MetricsSource } from '../../../../main/metrics/fleet-metrics.js';
import { SelfMetrics } from '../../../../main/metrics/self-metrics.js';

const SYSTEMS = 60;
/** The CPU each cached read takes at least, ms: a system's series take three, so the background cannot write them all in one slice. */
const READ_MS = 2;

const nodes = [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Normal' }] }];

/** A fleet of SYSTEMS systems whose summaries are all there at start, and whose cached reads are slow and counted. */
function fleet(reads: string[]): { source: MetricsSource; emit: () => void } {
  const statuses = Array.from({ length: SYSTEMS }, (_, i) => ({ siteId: 's1', system: `sys-${String(i).padStart(2, '0')}`, state: 'ok', lastSuccessAt: '2026-11-28T10:00:00.000Z' }) as SystemStatus);
  const summaries = statuses.map((s, i) => ({ seq: i + 1, siteId: s.siteId, system: s.system, at: '2026-11-28T10:00:00.000Z', rollup: { level: 'ok', capacity: { pools: [] } } }));
  const listeners = new Set<(e: { type: string }) => void>();
  const source: MetricsSource = {
    fleet: {
      status: () => statuses,
      cached: (_siteId, system, op) => {
        reads.push(system);
        const until = performance.now() + READ_MS;
        while (performance.now() < until);
        return op === 'GET /resources/list' ? { value: { Data: nodes }, at: '2026-11-28T10:00:00.000Z' } : undefined;
      },
      on: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    summaries: {
      summaries: ({ since }) => {
        const changed = summaries.filter((s) => s.seq > (since ?? -1));
        return { seq: SYSTEMS, json: JSON.stringify(changed) };
      },
    },
    alerts: { list: () => [], smartVerdictsOf: () => undefined },
    sites: { list: () => [{ id: 's1', name: 'Lab' }] },
  };
  return { source, emit: () => listeners.forEach((l) => l({ type: 'status' })) };
}

const clock = (): number => Date.parse('2026-11-28T10:01:00.000Z');
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the series written in the background after a start', () => {
  it('are written a slice at a time, and a scrape before the end finishes them, the same page as written at once', async () => {
    const reads: string[] = [];
    const { source } = fleet(reads);
    const m = new FleetMetrics(source, { version: 't', self: new SelfMetrics(), clock });
    m.start();
    // The start's update runs on a timer, then yields between slices: after its first slice some systems are written, not all.
    while (reads.length === 0) await turn();
    const afterSlice = new Set(reads).size;
    expect(afterSlice).toBeGreaterThan(0);
    expect(afterSlice).toBeLessThan(SYSTEMS);
    const page = m.scrape('openmetrics');
    // The scrape wrote the others; each system's lists were read once in all.
    expect(new Set(reads).size).toBe(SYSTEMS);
    expect(reads.length).toBe(SYSTEMS * 3);
    await m.ready();
    expect(reads.length).toBe(SYSTEMS * 3);
    const fresh = new FleetMetrics(fleet([]).source, { version: 't', self: new SelfMetrics(), clock });
    expect(page).toBe(fresh.scrape('openmetrics'));
    expect(page.match(/^fleetdeck_drive_status\{site="s1",system="sys-\d+",node="n1"/gm)?.length).toBe(SYSTEMS);
    m.stop();
  });

  it('tells when done, and a status change while it runs is read after it', async () => {
    const reads: string[] = [];
    const { source, emit } = fleet(reads);
    const m = new FleetMetrics(source, { version: 't', self: new SelfMetrics(), clock });
    m.start();
    while (reads.length === 0) await turn();
    emit();
    await m.ready();
    expect(new Set(reads).size).toBe(SYSTEMS);
    // Nothing changed in the summaries: the pass after the change writes nothing again.
    expect(reads.length).toBe(SYSTEMS * 3);
    m.stop();
  });
});
