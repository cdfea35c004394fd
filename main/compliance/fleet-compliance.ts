import { evaluateSystem, type AnswerSource, type CachedAnswer } from '../../app/compliance/evaluate.js';
import type { Baseline } from '../../app/compliance/baseline.js';
import type { SystemComplianceView } from '../../app/compliance/results.js';
import { applyWaivers, complianceScore, countEffective, type Waiver } from '../../app/compliance/waivers.js';
import type { OperationKey } from '../../app/catalog/index.js';
import type { Site } from '../../app/domain/site.js';
import { refreshRead } from '../../app/fleet/refresh-plan.js';
import { cacheKey, type OfflineCache } from '../store/offline-cache.js';
import type { WrittenAnswers } from '../core/written-answers.js';

/** One system's compliance: every check of the baseline with its result, evidence and waiver. */
export type SystemCompliance = SystemComplianceView;

export interface FleetComplianceOptions {
  baseline: Baseline;
  cache: OfflineCache;
  sites: readonly Site[];
  /** Only these sites (ids); all when omitted. */
  siteIds?: ReadonlySet<string>;
  /** Waivers recorded in the action log (none when omitted). */
  waivers?: readonly Waiver[];
  now: Date;
}

/**
 * Evaluates the baseline for every system with cached answers at the given sites, from the
 * offline cache alone: only the answers the baseline reads are read and parsed, once per system.
 * Waivers apply to failing checks; counts and score are the effective ones. Systems come sorted by
 * site name, then system name.
 */
export function evaluateFleet(o: FleetComplianceOptions): SystemCompliance[] {
  const sites = new Map(o.sites.filter((s) => !o.siteIds || o.siteIds.has(s.id)).map((s) => [s.id, s]));
  const out: SystemCompliance[] = [];
  for (const { siteId, system } of o.cache.systems()) {
    const site = sites.get(siteId);
    // The empty name holds the site's own answers (its system list), not a system's.
    if (!site || system === '') continue;
    out.push(evaluateCachedSystem(o, site, system));
  }
  return out.sort((a, b) => a.site.localeCompare(b.site) || a.system.localeCompare(b.system));
}

/**
 * One system of a site from its cached answers (what the alert engine asks after each refresh,
 * handing over in `written` what that refresh wrote: read from there, the rest from the cache).
 */
export function evaluateCachedSystem(o: Omit<FleetComplianceOptions, 'sites' | 'siteIds'> & { written?: WrittenAnswers | undefined }, site: Site, system: string): SystemCompliance {
  const parsed = new Map<OperationKey, CachedAnswer | undefined>();
  const answers: AnswerSource = (op) => {
    if (parsed.has(op)) return parsed.get(op);
    const key = keyOf(op);
    const answer = o.written?.get(key) ?? readEntry(o.cache, site.id, system, key);
    parsed.set(op, answer);
    return answer;
  };
  const now = o.now.getTime();
  const checks = applyWaivers(evaluateSystem(o.baseline, { site: site.name, group: site.group, tags: site.tags }, answers, now), o.waivers ?? [], site.id, system, now);
  const counts = countEffective(checks);
  const score = complianceScore(counts);
  return { siteId: site.id, site: site.name, system, counts, ...(score !== undefined ? { score } : {}), checks };
}

const keys = new Map<OperationKey, string>();
/** The cache key of an operation's refresh read, computed once per operation. */
function keyOf(op: OperationKey): string {
  let k = keys.get(op);
  if (k === undefined) keys.set(op, (k = cacheKey(op, refreshRead(op).query)));
  return k;
}

/** One cached answer, read alone: a system's cache also holds SMART texts and notifications no check reads. */
function readEntry(cache: OfflineCache, siteId: string, system: string, key: string): CachedAnswer | undefined {
  try {
    // Not a view: reading must not keep entries from eviction nor write a use per read.
    const entry = cache.get(siteId, system, key, { recordUse: false });
    return entry && { value: entry.value, at: entry.at };
  } catch (err) {
    if (err instanceof SyntaxError) return { unreadable: 'the stored text is not JSON (damaged); refresh the system to replace it' };
    throw err;
  }
}
