import { countResults, evaluateSystem, type AnswerSource, type CachedAnswer, type CheckOutcome, type CheckResult } from '../../app/compliance/evaluate.js';
import type { Baseline } from '../../app/compliance/baseline.js';
import type { OperationKey } from '../../app/catalog/index.js';
import type { Site } from '../../app/domain/site.js';
import { refreshRead } from '../../app/fleet/refresh-plan.js';
import { cacheKey, type OfflineCache } from '../store/offline-cache.js';

/** One system's compliance: every check of the baseline with its result and evidence. */
export interface SystemCompliance {
  siteId: string;
  site: string;
  system: string;
  counts: Record<CheckResult, number>;
  checks: CheckOutcome[];
}

export interface FleetComplianceOptions {
  baseline: Baseline;
  cache: OfflineCache;
  sites: readonly Site[];
  /** Only these sites (ids); all when omitted. */
  siteIds?: ReadonlySet<string>;
  now: Date;
}

/**
 * Evaluates the baseline for every system with cached answers at the given sites, from the
 * offline cache alone: one query per system, and only the answers the baseline reads are parsed.
 * Systems come sorted by site name, then system name.
 */
export function evaluateFleet(o: FleetComplianceOptions): SystemCompliance[] {
  const sites = new Map(o.sites.filter((s) => !o.siteIds || o.siteIds.has(s.id)).map((s) => [s.id, s]));
  const keys = new Map<OperationKey, string>();
  const keyOf = (op: OperationKey): string => {
    let k = keys.get(op);
    if (k === undefined) keys.set(op, (k = cacheKey(op, refreshRead(op).query)));
    return k;
  };
  const now = o.now.getTime();
  const out: SystemCompliance[] = [];
  for (const { siteId, system } of o.cache.systems()) {
    const site = sites.get(siteId);
    // The empty name holds the site's own answers (its system list), not a system's.
    if (!site || system === '') continue;
    const entries = o.cache.systemEntries(siteId, system);
    const parsed = new Map<OperationKey, CachedAnswer | undefined>();
    const answers: AnswerSource = (op) => {
      if (parsed.has(op)) return parsed.get(op);
      const entry = entries.get(keyOf(op));
      const answer = entry === undefined ? undefined : parseEntry(entry);
      parsed.set(op, answer);
      return answer;
    };
    const checks = evaluateSystem(o.baseline, { site: site.name, group: site.group, tags: site.tags }, answers, now);
    out.push({ siteId, site: site.name, system, counts: countResults(checks), checks });
  }
  return out.sort((a, b) => a.site.localeCompare(b.site) || a.system.localeCompare(b.system));
}

function parseEntry(entry: { json: string; at: string }): CachedAnswer {
  try {
    return { value: JSON.parse(entry.json) as unknown, at: entry.at };
  } catch {
    return { unreadable: 'the stored text is not JSON (damaged); refresh the system to replace it' };
  }
}
