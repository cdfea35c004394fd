/**
 * A smaller driver for two steps of the `scale` part: the fleet search and the tree
 * filter at 1,000 systems, without the 25 ms latency refresh and the RSS child. Builds the cached
 * 100 × 10 fleet once (kept in BENCH_FLEET_DIR when set, to run again on the same cache), then
 * measures main's search index (CPU of the build from the cache and of a query) and the renderer's
 * figures exactly as the scale part takes them (`uiAtScale`).
 *
 *   npx tsx test/bench/search-filter.ts [--main-only]
 */
import { openCachedCopy } from './cached-fleet.js';
import { ms, type ChildSimulator } from './support.js';
import { SIZES, uiAtScale } from './scale.js';

const size = SIZES.s1000;

const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

async function main(): Promise<void> {
  const { rt, sites, close } = await openCachedCopy(size, 'search');
  try {
    const statuses = rt.fleet.status();
    const systems = statuses.length;
    const host = new URL(sites[0]!.baseUrl).hostname;
    // The baseline: the renderer reading four cached answers of every system through `cache:read` (main's share of it).
    const READS = ['GET /hosts/list', 'GET /applications/list', 'GET /resources/list', 'GET /nodes/list'] as const;
    const c0 = process.cpuUsage();
    for (const s of statuses) for (const op of READS) await rt.handlers['cache:read']({ site: s.siteId, system: s.system, operation: op, query: {} });
    const oldCpu = cpuMs(process.cpuUsage(c0));
    // After: main's index, read from the cache once (what start-up's background slices do).
    const c1 = process.cpuUsage();
    rt.search.settle();
    const buildCpu = cpuMs(process.cpuUsage(c1));
    const c2 = process.cpuUsage();
    const QUERIES = 20;
    let answer = await rt.handlers['search:query']({ query: host, limit: 500 });
    for (let i = 1; i < QUERIES; i++) answer = await rt.handlers['search:query']({ query: host, limit: 500 });
    const queryCpu = cpuMs(process.cpuUsage(c2)) / QUERIES;
    const c3 = process.cpuUsage();
    for (let i = 0; i < QUERIES; i++) await rt.handlers['search:query']({ query: 'sys', limit: 8 });
    const typeCpu = cpuMs(process.cpuUsage(c3)) / QUERIES;
    console.log(`${systems} systems, main's CPU: 4 cache:read per system (before) ${ms(oldCpu)}; index read from the cache ${ms(buildCpu)}; query "${host}" ${ms(queryCpu)} each (${answer.total} matches, ${answer.results.length} returned, ${answer.pending} pending); 8 suggestions for "sys" ${ms(typeCpu)} each`);
    if (process.argv.includes('--main-only')) return;
    const sim = { sites } as ChildSimulator;
    const ui = await uiAtScale(rt, sim);
    console.log(`tree filter "${ui.filterTerm}": longest task ${ms(ui.filterLongestTask)}, longest keystroke to frame ${ms(ui.filterLongestKey)}; ${ui.filterShown} shown, ${ui.filterExpected} match`);
    console.log(`fleet search: ${ms(ui.searchMs)} (${ui.searchResults}); first paint ${ms(ui.paintMs)} (app's shell in its own process), ${ms(ui.inProcess.paintMs)} (served from this process)`);
  } finally {
    await close();
  }
}

await main();
