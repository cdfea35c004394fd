import { z } from 'zod';
import { alertLevelSchema } from './evaluate.js';
import { ruleKindSchema } from './rules.js';

/** Where an alert is in its life: open, acknowledged, snoozed (until a time), or cleared (its condition ended; kept as history). */
export const ALERT_STATES = ['open', 'acknowledged', 'snoozed', 'cleared'] as const;
export const alertStateSchema = z.enum(ALERT_STATES);
export type AlertState = z.infer<typeof alertStateSchema>;

const isoTime = z.string().max(40);

/** One alert as the store lists it and IPC carries it. */
export const alertSchema = z.object({
  id: z.number().int(),
  rule: ruleKindSchema,
  siteId: z.string(),
  system: z.string(),
  /** What the alert is about within the system (a drive, a pool, a pair); '' for the system itself. */
  subject: z.string(),
  level: alertLevelSchema,
  /** What the rule saw, last time it saw it (already redacted: it comes from the cache and statuses). */
  message: z.string(),
  state: alertStateSchema,
  /** ISO times: raised, last seen by an evaluation, condition ended. */
  raisedAt: isoTime,
  lastSeenAt: isoTime,
  clearedAt: isoTime.optional(),
  acknowledgedAt: isoTime.optional(),
  acknowledgedBy: z.string().optional(),
  /** Snoozed until this time; it counts as open again afterwards. */
  snoozedUntil: isoTime.optional(),
});
export type Alert = z.infer<typeof alertSchema>;

/** Filters of the alert list; every one optional. `state: 'active'` is every alert not cleared. */
export const alertFilterSchema = z.object({
  state: z.union([alertStateSchema, z.literal('active')]).optional(),
  level: alertLevelSchema.optional(),
  site: z.string().min(1).max(200).optional(),
  system: z.string().min(1).max(200).optional(),
  rule: ruleKindSchema.optional(),
  limit: z.number().int().min(1).max(10_000).optional(),
});
export type AlertFilter = z.infer<typeof alertFilterSchema>;

/** The state of an alert at `now` (ms) from its stored times: a snooze that has run out leaves it open (or acknowledged). */
export function alertState(a: { clearedAt?: string | undefined; acknowledgedAt?: string | undefined; snoozedUntil?: string | undefined }, now: number): AlertState {
  if (a.clearedAt) return 'cleared';
  if (a.snoozedUntil && Date.parse(a.snoozedUntil) > now) return 'snoozed';
  return a.acknowledgedAt ? 'acknowledged' : 'open';
}

/**
 * What a list of alerts holds, counted by state in the order of `ALERT_STATES`: `14 alerts: 12 open,
 * 1 acknowledged, 1 snoozed`. A heading above a list says this, not the fleet's open count, so every
 * alert it shows is counted under its own state.
 */
export function alertsShownText(alerts: readonly Pick<Alert, 'state'>[]): string {
  const parts = ALERT_STATES.map((s) => [s, alerts.filter((a) => a.state === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  return `${alerts.length} alert${alerts.length === 1 ? '' : 's'}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}
