import type { Site } from '../../app/domain/site.js';
import { REPORT_READS, smartReadsOf, systemRecord, type ActionLogInput, type CachedAnswer, type SmartAnswer, type SystemSnapshot } from '../../app/reports/snapshot.js';
import type { Fleet } from '../core/fleet.js';
import type { ActionLog } from '../store/action-log.js';

/**
 * The cached answers of every system of the given sites, read from the offline cache with the
 * exact operation and query a refresh stores them under. Never contacts a system.
 */
export function collectSystems(fleet: Fleet, sites: readonly Site[]): { systems: SystemSnapshot[]; unknownSites: Site[] } {
  const systems: SystemSnapshot[] = [];
  const unknownSites: Site[] = [];
  for (const site of sites) {
    const statuses = new Map(fleet.status(site.id).map((s) => [s.system, s]));
    const names = [...new Set([...fleet.systemsOf(site.id), ...statuses.keys()])].sort((a, b) => a.localeCompare(b));
    if (!names.length) unknownSites.push(site);
    const list = fleet.cached(site.id, '', 'GET /systems/list', {}, { recordUse: false })?.value;
    for (const system of names) {
      // All of a system's answers in one read (a report reads nearly all of them: a read per
      // answer and per drive's SMART text cost more than building the report). Not recorded as
      // use: a report reading everything would only reset the LRU order views depend on.
      const cached = fleet.cachedSystem(site.id, system);
      const answers: Partial<Record<string, CachedAnswer>> = {};
      for (const read of REPORT_READS) {
        const hit = cached(read.op, read.query);
        if (hit) answers[read.op] = { value: hit.value, at: hit.at };
      }
      const smart: SmartAnswer[] = [];
      for (const read of smartReadsOf(answers['GET /resources/list']?.value)) {
        const hit = cached(read.op, read.query);
        if (hit) smart.push({ node: String(read.query.node), driveId: Number(read.query.driveid), value: hit.value, at: hit.at });
      }
      systems.push({
        siteId: site.id,
        siteName: site.name,
        system,
        // Known only from the cache (no status this run): the data is as old as it says, not live.
        state: statuses.get(system)?.state ?? 'stale',
        problem: statuses.get(system)?.lastError,
        clockOffsetMs: statuses.get(system)?.clockOffsetMs,
        info: systemRecord(list, system),
        answers,
        smart,
      });
    }
  }
  return { systems, unknownSites };
}

/**
 * Action log records in a period (since inclusive, until exclusive), limited to `siteIds` when
 * given (a log restart is always shown), with the result of checking the whole chain. A log that
 * cannot be read gives no records and a failed check that says why.
 */
export function collectActions(log: ActionLog, period: { since: string | null; until: string | null }, siteIds: readonly string[] | undefined): ActionLogInput {
  const verification = log.verify();
  if (log.unusable) return { records: [], verification };
  const records = log
    .list({ ...(period.since ? { since: period.since } : {}), ...(period.until ? { until: period.until } : {}) })
    .filter((r) => !siteIds || siteIds.includes(r.siteId) || r.siteId === '')
    .map((r) => ({ seq: r.seq, at: r.at, user: r.user, siteId: r.siteId, system: r.system, operation: r.operation, params: r.params, result: r.result, message: r.message, hash: r.hash }));
  return { records, verification };
}
