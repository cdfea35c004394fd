import { z } from 'zod';
import type { Node, NotificationRecord } from '../catalog/resources.js';
import { NOTIFICATIONS_CACHE, type PlannedRead } from '../fleet/refresh-plan.js';
import { incompleteOf } from '../answers/incomplete.js';
import { historyRowsRead, type PoolHistoryRow } from '../capacity/forecast.js';
import type { SmartLookup } from '../smart/verdict.js';
import { highLevel } from './rollup.js';
import { oldestOf, type DetailsAt, type HealthSummary } from './summary-facts.js';
import { listOf, ROLLUP_READS, rollupAnswers, systemObjects, systemRollup, type CapacityMemo } from './system-health.js';

// The window's side (the summary's type and `summaryFromWire`) is in summary-facts.ts, without zod, for its first script.
export { briefFromWire, briefOf, summaryFromWire, type HealthBrief, type HealthSummary } from './summary-facts.js';

/**
 * One system's health summary as every fleet-wide view shows it (the overview, the tree, the system
 * header, capacity planning): the roll-up with capacity and HA, unhealthy drives, lagging
 * replication, recent high-level notifications and the time the health record was read (the data
 * age). Main computes it once per change of the system's cached answers and sends them to the
 * window in one read (`health:summaries`), instead of the window reading eight answers per system.
 */

/** The cached reads a summary is computed from: the roll-up's, plus notifications. */
export const SUMMARY_READS = {
  ...ROLLUP_READS,
  notifications: { op: NOTIFICATIONS_CACHE.op, query: { ...NOTIFICATIONS_CACHE.query } },
} as const satisfies Record<string, PlannedRead>;

/** High-level notifications kept per system. */
export const SUMMARY_ERRORS = 20;

/** A cached answer with the time it was read; undefined (or null) when nothing is cached. */
export type CachedRead = { value: unknown; at: string } | null | undefined;

/**
 * A system's health summary from its cached answers, each read by `read` (the offline cache in main, a
 * fixture in tests), its drives' SMART verdicts by `smart`, the capacity forecast counted from
 * `now` (ms since the epoch), or taken from `memo` where other readers of the same answers share it.
 */
export function healthSummaryOf(read: (r: PlannedRead) => CachedRead, now: number, smart?: SmartLookup, memo?: CapacityMemo): HealthSummary {
  const health = read(SUMMARY_READS.health);
  // Each detail list's own read time (a steady poll reads them less often than the health record).
  const at = new Map<PlannedRead, string | undefined>();
  const answers = rollupAnswers((r) => {
    const hit = r === SUMMARY_READS.health ? health : read(r);
    at.set(r, hit?.at);
    return hit?.value;
  }, smart, memo);
  const pools = [at.get(SUMMARY_READS.pools), at.get(SUMMARY_READS.provisioning)];
  const detailsAt: DetailsAt = {
    ...(at.get(SUMMARY_READS.nodes) ? { nodes: at.get(SUMMARY_READS.nodes) } : {}),
    ...(at.get(SUMMARY_READS.resources) ? { drives: at.get(SUMMARY_READS.resources) } : {}),
    // The older of the two a pool's figures and state come from.
    ...(oldestOf(pools) ? { pools: oldestOf(pools) } : {}),
  };
  const objects = systemObjects(answers);
  const drivesRead = incompleteOf(answers.resources);
  const pairsRead = incompleteOf(answers.replication);
  return {
    rollup: systemRollup(answers, now, objects),
    at: health?.at,
    ...(Object.keys(detailsAt).length ? { detailsAt } : {}),
    drives: objects.drives ?? [],
    lagging: objects.lagging ?? [],
    errors: highLevel(listOf<NotificationRecord>(read(SUMMARY_READS.notifications)?.value), SUMMARY_ERRORS),
    ...(drivesRead || pairsRead ? { incomplete: { ...(drivesRead ? { drives: drivesRead } : {}), ...(pairsRead ? { replication: pairsRead } : {}) } } : {}),
  };
}

/**
 * What a summary reads of the merged notifications: their high-level records, at most
 * {@link SUMMARY_ERRORS}, as a notification list. {@link healthSummaryOf} gives the same summary from
 * it as from the whole list, so a reader that keeps it per content version (a few records instead
 * of up to a thousand) need not read the list again while it is unchanged.
 */
export function summaryNotifications(value: unknown): { Data: NotificationRecord[] } {
  return { Data: highLevel(listOf<NotificationRecord>(value), SUMMARY_ERRORS) };
}

/**
 * What a summary reads of the node list: each node's name, id, state and HA state (its HA), as a
 * node list. Like {@link summaryNotifications}, {@link healthSummaryOf} gives the same summary from it.
 */
export function summaryNodes(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return { Data: listOf<Node>(value).map((n) => ({ Name: n.Name, Id: n.Id, State: n.State, HAState: n.HAState })) };
}

/**
 * What a summary reads of the pools' capacity history: its rows as `historyByPool` reads them. Like
 * {@link summaryNotifications}, {@link healthSummaryOf} gives the same summary from it.
 */
export function summaryHistory(value: unknown): { PerformanceStatstics: PoolHistoryRow[] } {
  const rows = (value as { PerformanceStatstics?: unknown } | null | undefined)?.PerformanceStatstics;
  return { PerformanceStatstics: Array.isArray(rows) ? historyRowsRead(rows as PoolHistoryRow[]) : [] };
}

// The wire form. Figures a system does not report are left out (JSON drops undefined); the one
// infinite figure, the upper end of a forecast's range when growth is not certain, travels as null.
const level = z.enum(['critical', 'unknown', 'warning', 'ok']);
const figure = z.number().optional();
const forecastSchema = z.object({
  status: z.enum(['full', 'growing', 'not-growing', 'insufficient-data']),
  basis: z.enum(['free', 'consumed', 'state']),
  slopePerDay: z.number(),
  slopeStdErrorPerDay: figure,
  consumedNow: figure,
  capacity: z.number(),
  days: figure,
  range: z.object({ low: z.number(), high: z.number().nullable() }).optional(),
  fullAt: z.string().optional(),
  samples: z.number(),
});
const poolSchema = z.object({
  name: z.string(),
  usable: figure,
  allocated: figure,
  consumed: figure,
  free: figure,
  freePercent: figure,
  allocatedPercent: figure,
  state: z.string().optional(),
  reason: z.string().optional(),
  layouts: z.array(z.object({ n: z.number(), k: z.number() })),
  forecast: forecastSchema,
  level,
  verdict: z.string(),
  reasons: z.array(z.string()),
  fillsFirst: z.string().optional(),
});
const dimensions = z.array(z.object({ name: z.enum(['volumes', 'hardware', 'utilization', 'capacity', 'ha', 'drives', 'replication']), level, percent: figure, text: z.string() }));
const haSchema = z
  .object({
    level,
    label: z.enum(['normal', 'taken over', 'degraded', 'not reported']),
    text: z.string(),
    takenOver: z.array(z.string()),
    takingOver: z.array(z.string()),
    down: z.array(z.string()),
  })
  .optional();
const detailsAtSchema = z.object({ nodes: z.string().optional(), drives: z.string().optional(), pools: z.string().optional() }).optional();
const rollupSchema = z.object({
  level,
  dimensions,
  reasons: z.array(z.string()),
  capacity: z.object({ pools: z.array(poolSchema), total: poolSchema.optional(), level, reasons: z.array(z.string()) }),
  ha: haSchema,
});
const count = z.number().int().min(0);
const incompleteSchema = z.object({ Read: count, Total: count.optional() });
/** A record as the system sent it (normalised and redacted in main): a drive, a replication pair, a notification. */
const record = z.record(z.string(), z.unknown());

/** One system's summary as `health:summaries` answers it. */
export const healthSummarySchema = z.object({
  siteId: z.string(),
  system: z.string(),
  /** Main's summary sequence number when this summary was last computed: asking `since` it gives what changed after. */
  seq: z.number().int(),
  rollup: rollupSchema,
  at: z.string().optional(),
  detailsAt: detailsAtSchema,
  drives: z.array(z.object({ node: z.string(), drive: record, smart: z.object({ risk: z.enum(['warning', 'critical']), findings: z.array(z.string()) }).optional() })),
  lagging: z.array(z.object({ application: z.string(), volume: z.string(), pair: record })),
  errors: z.array(record),
  incomplete: z.object({ drives: incompleteSchema.optional(), replication: incompleteSchema.optional() }).optional(),
});
export type HealthSummaryWire = z.output<typeof healthSummarySchema>;

/**
 * One system's health brief as `health:briefs` answers it (`HealthBrief`): the roll-up without
 * pools and forecasts, with the capacity figures of the fleet totals, the counts of unhealthy drives
 * and lagging pairs, and the data age. Main keeps it beside the summary, computed from the same answers.
 */
export const healthBriefSchema = z.object({
  siteId: z.string(),
  system: z.string(),
  /** The sequence number of the summary it was computed with (the same for both forms). */
  seq: z.number().int(),
  rollup: z.object({
    level,
    dimensions,
    reasons: z.array(z.string()),
    capacity: z.object({ level, verdict: z.string().optional(), usable: z.number(), allocated: z.number(), unknownUsable: count, pools: count, attention: count }),
    ha: haSchema,
  }),
  at: z.string().optional(),
  oldestDetailAt: z.string().optional(),
  drives: count,
  lagging: count,
});
export type HealthBriefWire = z.output<typeof healthBriefSchema>;
