import { z } from 'zod';
import type { Application, Node, NotificationRecord } from '../catalog/resources.js';
import type { SystemState } from '../domain/site.js';
import { haOf } from '../health/ha.js';
import { timeMs } from '../answers/time.js';
import { connectionLevel } from '../health/connection.js';
import type { Level } from '../health/level.js';
import { levelName, notificationRank } from '../health/notification-level.js';
import { laggingReplication, smartRisksOf, unhealthyDrives } from '../health/rollup.js';
import { driveLevel, pairLevel } from '../health/states.js';
import { capacityFromAnswers, type RollupAnswers } from '../health/system-health.js';
import type { Forecast } from '../capacity/forecast.js';
import { SEVERITIES, type Severity } from '../compliance/severity.js';
import type { CheckResult } from '../compliance/evaluate.js';
import { checkLevel, effectiveResult } from '../compliance/waivers.js';
import { riskAtLeast, type SmartLookup } from '../smart/verdict.js';
import { RULE_KINDS, type RuleKind, type RuleSettings } from './rules.js';

/** How loud an alert is: its object's level (an object in a state not understood is `unknown`). */
export const alertLevelSchema = z.enum(['warning', 'unknown', 'critical']);
export type AlertLevel = z.infer<typeof alertLevelSchema>;

/**
 * An alert's level from the level of what it is about: the same word the tree, the overview and the
 * reports show for that object. An alert exists only for an object that needs a look, so an object
 * a rule flags while its own level is ok (a threshold set below the app's) raises a warning.
 */
export function alertLevelOf(level: Level): AlertLevel {
  return level === 'ok' ? 'warning' : level;
}

/** A condition a rule sees on one system now: `subject` names what it is about (a drive, a pool), '' for the system itself. */
export interface AlertCondition {
  rule: RuleKind;
  subject: string;
  level: AlertLevel;
  /** What an admin reads. */
  message: string;
}

/** What the evaluation reads: the system's state and its cached answers (undefined where nothing is cached). */
export interface AlertInput {
  state: SystemState;
  /** The last error of the system's status (already redacted). */
  lastError?: string | undefined;
  /** The health roll-up's reads ({@link RollupAnswers}): capacity, nodes, drives and replication pairs come from there. */
  rollup: RollupAnswers;
  /** The merged notification records (`NOTIFICATIONS_CACHE`). */
  notifications?: unknown;
  /** What the rules read of one drive's SMART report ({@link smartVerdictOf}), if its text is cached (else `rollup.smart`). */
  smart?: SmartLookup | undefined;
  /** The system's compliance checks with their waivers; undefined when not evaluated (the rule then leaves its alerts as they are). */
  compliance?: readonly ComplianceFinding[] | undefined;
  /** Milliseconds since the epoch. */
  now: number;
}

/** What the compliance rule reads of one check's outcome. */
export interface ComplianceFinding {
  id: string;
  title: string;
  severity: Severity;
  result: CheckResult;
  reason: string;
  waiver?: { active: boolean } | undefined;
}

/**
 * The conditions every rule sees, and which rules could look at all (`assessed`): an alert of a
 * rule that was assessed and no longer sees its condition is cleared; one of a rule that could not
 * look (no answer from the system, so its data are as old as before) stays as it is.
 */
export interface Evaluation {
  conditions: AlertCondition[];
  assessed: RuleKind[];
}

const CONNECTION_RULES = ['unreachable', 'login-required', 'certificate-changed', 'unlisted', 'protocol-error'] as const satisfies readonly RuleKind[];
const DATA_RULES: readonly RuleKind[] = RULE_KINDS.filter((k) => !(CONNECTION_RULES as readonly string[]).includes(k));

/**
 * Fields of the node and drive lists, of the health answer and of the replication list
 * (`GET /nodes/list`, `GET /resources/list`, `GET /monitoring/health/current`,
 * `GET /replication/list`) that move with every read while no rule reads them: each node's clock
 * (`Time`), sensor readings (`Sensors`), CPU, memory and drive load (`HardwareUtilization`), a
 * volume's sizes and I/O figures (`StatsInfo`). Who skips evaluations of unchanged input may leave
 * them out of its comparison of those answers.
 */
export const FIELDS_NO_RULE_READS: readonly string[] = ['Time', 'Sensors', 'HardwareUtilization', 'StatsInfo'];

/** States after which the connection rules know the answer: the refresh reached the site, or was told not to (paused). */
const CONNECTION_KNOWN: ReadonlySet<SystemState> = new Set(['ok', 'unreachable', 'login-required', 'certificate-changed', 'paused', 'protocol-error', 'unlisted']);
/** States in which the cache holds what the system last said and nothing newer is coming: data rules read it. */
const DATA_KNOWN: ReadonlySet<SystemState> = new Set(['ok', 'stale', 'protocol-error']);

/** Whether the data rules (drives, pools, replication, notifications) read a system in this state: else only its state is evaluated. */
export function dataRulesApply(state: SystemState): boolean {
  return DATA_KNOWN.has(state);
}

const CONNECTION_TEXT: Readonly<Record<(typeof CONNECTION_RULES)[number], string>> = {
  unreachable: 'the system does not answer',
  'login-required': 'the session needs a new login: nothing is refreshed until then',
  'certificate-changed': "the site's certificate changed and is not trusted",
  unlisted: 'the site no longer lists this system',
  'protocol-error': 'the answers of the system cannot be read: what is shown of it may be old or incomplete',
};

const listOf = <T>(value: unknown): T[] => {
  const data = (value as { Data?: unknown } | null | undefined)?.Data;
  return Array.isArray(data) ? (data as T[]) : [];
};

export { smartReportOf, smartVerdictOf, type SmartVerdict } from '../smart/verdict.js';

/** At most this many notification alerts per system and evaluation: a flood of errors is one page, not a thousand notifications. */
export const MAX_NOTIFICATION_ALERTS = 20;

/**
 * Every rule against one system's state and cached answers. Pure: health, capacity, HA, SMART and
 * replication are read through the same functions the views use, so an alert and the overview
 * never disagree on what they see.
 */
export function evaluateAlerts(input: AlertInput, rules: RuleSettings): Evaluation {
  const conditions: AlertCondition[] = [];
  const assessed: RuleKind[] = [];
  if (CONNECTION_KNOWN.has(input.state)) {
    assessed.push(...CONNECTION_RULES);
    for (const rule of CONNECTION_RULES) {
      if (rules[rule].enabled && input.state === rule) {
        const text = CONNECTION_TEXT[rule];
        conditions.push({ rule, subject: '', level: alertLevelOf(connectionLevel(rule)), message: input.lastError ? `${text}: ${input.lastError}` : text });
      }
    }
  }
  if (!dataRulesApply(input.state)) return { conditions, assessed };
  // Compliance is judged only where it was evaluated: otherwise its alerts stay as they are.
  assessed.push(...DATA_RULES.filter((k) => k !== 'compliance' || input.compliance !== undefined));
  if (rules.compliance.enabled && input.compliance) conditions.push(...complianceConditions(input.compliance, rules.compliance.minSeverity));
  if (rules.drive.enabled) conditions.push(...driveConditions(input, rules.drive.minSmartRisk));
  conditions.push(...poolConditions(input, rules));
  if (rules.replication.enabled) {
    for (const p of laggingReplication(listOf<Application>(input.rollup.replication))) {
      const remote = p.pair.RemoteSystemName ?? `pair ${p.pair.ReplicationId ?? '?'}`;
      const sync = p.pair.SyncInPercentage !== undefined ? `${p.pair.SyncInPercentage} % in sync` : 'sync not reported';
      conditions.push({
        rule: 'replication',
        subject: `${p.application}/${p.volume}/${remote}`,
        level: alertLevelOf(pairLevel(p.pair)),
        message: `replication of ${p.application}/${p.volume} to ${remote}: ${p.pair.ConnectionStatus ?? 'status not reported'}, ${sync}`,
      });
    }
  }
  if (rules.ha.enabled && input.rollup.nodes !== undefined && input.rollup.nodes !== null) {
    const ha = haOf(listOf<Node>(input.rollup.nodes));
    if (ha.label === 'taken over' || ha.label === 'degraded') conditions.push({ rule: 'ha', subject: '', level: alertLevelOf(ha.level), message: `HA ${ha.label}: ${ha.text}` });
  }
  if (rules.notification.enabled) conditions.push(...notificationConditions(input, rules.notification));
  return { conditions, assessed };
}

/** A failing check without a waiver in force, of the severity asked or more: its level is the check's ({@link checkLevel}). */
function complianceConditions(findings: readonly ComplianceFinding[], minSeverity: Severity): AlertCondition[] {
  const min = SEVERITIES.indexOf(minSeverity);
  return findings
    .filter((f) => effectiveResult(f) === 'fail' && SEVERITIES.indexOf(f.severity) >= min)
    .map((f) => ({ rule: 'compliance' as const, subject: f.id, level: alertLevelOf(checkLevel(f)), message: `compliance check failing (${f.severity}): ${f.title}: ${f.reason}` }));
}

/**
 * A drive alert for every drive whose level is not ok ({@link driveLevel}: its status, or a SMART
 * risk its status does not show), at that level. A SMART risk below `minRisk` on a drive whose status
 * is OK raises none.
 */
function driveConditions(input: AlertInput, minRisk: 'warning' | 'critical'): AlertCondition[] {
  const out: AlertCondition[] = [];
  const lookup = input.smart ?? input.rollup.smart;
  for (const { node, drive, smart } of unhealthyDrives(listOf<Node>(input.rollup.resources), lookup && smartRisksOf(lookup))) {
    const name = drive.Name ?? `drive ${drive.Id ?? '?'}`;
    const status = driveLevel(drive);
    const level = driveLevel(drive, smart);
    const findings = smart?.findings.length ? `: ${smart.findings.join('; ')}` : '';
    if (status === 'ok') {
      if (!smart || !riskAtLeast(smart.risk, minRisk)) continue;
      out.push({ rule: 'drive', subject: `${node}/${name}`, level: alertLevelOf(level), message: `SMART risk ${smart.risk} on drive ${name} of ${node}${findings}` });
      continue;
    }
    // SMART named only where it makes the drive worse than its status says.
    const worseBySmart = smart && level !== status ? `; SMART risk ${smart.risk}${findings}` : '';
    out.push({ rule: 'drive', subject: `${node}/${name}`, level: alertLevelOf(level), message: `drive ${name} on ${node} is ${drive.ResourceStatus}${drive.ErrMsg ? `: ${drive.ErrMsg}` : ''}${worseBySmart}` });
  }
  return out;
}

/** The allocated share of a pool (%) the pool-used rule compares: the allocated share, else what the system's free share leaves. */
export function poolUsedPercent(pool: { allocatedPercent?: number | undefined; freePercent?: number | undefined }): number | undefined {
  return pool.allocatedPercent ?? (pool.freePercent !== undefined ? 100 - pool.freePercent : undefined);
}

/** The days the pool-full-days rule compares: 0 for a pool full now, the forecast's days while it grows; undefined when the forecast cannot tell or the pool is not growing. */
export function poolDaysLeft(f: { status: Forecast['status']; days?: number | undefined }): number | undefined {
  return f.status === 'full' ? 0 : f.status === 'growing' ? f.days : undefined;
}

function poolConditions(input: AlertInput, rules: RuleSettings): AlertCondition[] {
  const out: AlertCondition[] = [];
  const used = rules['pool-used'];
  const days = rules['pool-full-days'];
  if (!used.enabled && !days.enabled) return out;
  for (const pool of capacityFromAnswers(input.rollup, input.now).pools) {
    const share = poolUsedPercent(pool);
    if (used.enabled && share !== undefined && share > used.percent) {
      out.push({
        rule: 'pool-used',
        subject: pool.name,
        level: alertLevelOf(pool.level),
        message: `pool ${pool.name} is ${Math.round(share * 10) / 10} % allocated (rule: above ${used.percent} %)`,
      });
    }
    const left = poolDaysLeft(pool.forecast);
    if (days.enabled && left !== undefined && left < days.days) {
      out.push({
        rule: 'pool-full-days',
        subject: pool.name,
        level: alertLevelOf(pool.level),
        message: left === 0 ? `pool ${pool.name} is full` : `pool ${pool.name} is forecast full in ${Math.max(1, Math.round(left))} days (rule: fewer than ${days.days})`,
      });
    }
  }
  return out;
}

/**
 * Until when (ms since the epoch, inclusive) the passing of time alone leaves the notification
 * rule's result as it is for this input: the earliest moment a notification counted now leaves the
 * rule's window; undefined when none is counted. (Forecasts move with time too, continuously: whoever
 * skips evaluations of an unchanged input re-evaluates them at a bounded interval.)
 */
export function notificationWindowEnd(input: AlertInput, rules: RuleSettings): number | undefined {
  const rule = rules.notification;
  if (!rule.enabled) return undefined;
  const window = rule.withinHours * 3_600_000;
  let end: number | undefined;
  for (const r of listOf<NotificationRecord>(input.notifications)) {
    const t = timeMs(r.Timestamp);
    if (notificationRank(r.Level, -1) < rule.minLevel || t === undefined || t < input.now - window) continue;
    end = end === undefined ? t + window : Math.min(end, t + window);
  }
  return end;
}

function notificationConditions(input: AlertInput, rule: RuleSettings['notification']): AlertCondition[] {
  const since = input.now - rule.withinHours * 3_600_000;
  const recent = listOf<NotificationRecord>(input.notifications)
    // A record whose time is missing or unreadable cannot be shown to be old: it counts as recent.
    .map((r) => ({ r, t: timeMs(r.Timestamp) }))
    .filter((x) => notificationRank(x.r.Level, -1) >= rule.minLevel && (x.t === undefined || x.t >= since))
    .sort((a, b) => (b.t ?? input.now) - (a.t ?? input.now))
    .slice(0, MAX_NOTIFICATION_ALERTS);
  return recent.map(({ r }) => ({
    rule: 'notification' as const,
    // The record's id where the system gives one; else its time and module, which a merged cache keeps stable.
    subject: r.Id !== undefined ? `#${r.Id}` : `${r.Timestamp ?? ''} ${r.Module ?? ''}`.trim(),
    level: notificationRank(r.Level) >= 5 ? ('critical' as const) : ('warning' as const),
    message: `${levelName(r.Level)}${r.Node ? ` on ${r.Node}` : ''}${r.Module ? ` (${r.Module})` : ''}${timeMs(r.Timestamp) === undefined ? ` (time ${r.Timestamp ? 'unreadable' : 'not sent'})` : ''}: ${r.Message ?? ''}`.trim(),
  }));
}
