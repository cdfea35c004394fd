import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { evaluateSystem, type CachedAnswer } from '../../app/compliance/evaluate.js';
import { SECURE_BASELINE } from '../../app/compliance/secure-baseline.js';
import type { OperationKey } from '../../app/catalog/index.js';
import { refreshRead } from '../../app/fleet/refresh-plan.js';
import { evaluateFleet } from '../../main/compliance/fleet-compliance.js';
import { openRuntime } from '../../main/runtime.js';
import { cacheKey } from '../../main/store/offline-cache.js';
import { startSimulator } from '../../simulator/index.js';
import { copiedSystem } from './cached-fleet.js';
import type { BenchIo } from './scale.js';
import { median, ms, verdict } from './support.js';

const SYSTEMS = 1000;
const TRIES = 5;

/**
 * The shipped baseline over 1,000 cached systems: one simulated system's refreshed answers copied
 * under 1,000 names into a real cache file, then `evaluateFleet` (the answers the baseline reads,
 * read and parsed once per system, every check evaluated). The baseline figure is the evaluation alone,
 * over answers already parsed: what the cache read and JSON parsing add is the difference. CPU time
 * is printed beside wall time: on a loaded shared machine the wall time is mostly waiting for a core.
 */
export async function benchCompliance(io: BenchIo): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-compliance-'));
  const sim = await startSimulator({ sites: 1, systems: 1, seed: 'bench-compliance', controlServer: false });
  try {
    const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 60_000 });
    try {
      const s = sim.manifest.sites[0]!;
      const t0 = performance.now();
      const { entries } = await copiedSystem(rt, s, SYSTEMS);
      io.log(`compliance: ${SYSTEMS} systems refreshed and cached in ${ms(performance.now() - t0)}`);

      const now = new Date();
      const fleetTimes: number[] = [];
      const fleetCpu: number[] = [];
      let systems = 0;
      let checks = 0;
      for (let t = 0; t < TRIES; t++) {
        const start = performance.now();
        const cpu = process.cpuUsage();
        const out = evaluateFleet({ baseline: SECURE_BASELINE, cache: rt.cache, sites: rt.sites.list(), now });
        fleetTimes.push(performance.now() - start);
        const used = process.cpuUsage(cpu);
        fleetCpu.push((used.user + used.system) / 1000);
        systems = out.length;
        checks = out.reduce((n, x) => n + x.checks.length, 0);
      }

      const parsed = new Map<OperationKey, CachedAnswer>();
      for (const c of SECURE_BASELINE.checks) {
        for (const op of [c.rule.read, ...(c.rule.when ? [c.rule.when.read] : [])]) {
          const e = entries.get(cacheKey(op, refreshRead(op).query));
          if (e) parsed.set(op, { value: JSON.parse(e.json) as unknown, at: e.at });
        }
      }
      const evalTimes: number[] = [];
      const evalCpu: number[] = [];
      for (let t = 0; t < TRIES; t++) {
        const start = performance.now();
        const cpu = process.cpuUsage();
        for (let i = 0; i < SYSTEMS; i++) evaluateSystem(SECURE_BASELINE, { site: s.name, tags: [] }, (op) => parsed.get(op), now.getTime());
        evalTimes.push(performance.now() - start);
        const used = process.cpuUsage(cpu);
        evalCpu.push((used.user + used.system) / 1000);
      }
      const total = median(fleetTimes);
      io.report({
        name: `compliance: secure baseline over ${systems} cached systems`,
        value: ms(total),
        baseline: `${ms(median(fleetCpu))} of CPU; ${checks} check results; evaluation alone over parsed answers ${ms(median(evalTimes))} (${ms(median(evalCpu))} of CPU); median of ${TRIES}, load average ${loadavg()[0]?.toFixed(1) ?? '?'}`,
        goal: '< 1 s',
        verdict: verdict(total < 1000),
      });
    } finally {
      await rt.close();
    }
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
