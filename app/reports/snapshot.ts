import type { System, SystemsList } from '../catalog/resources.js';
import type { FleetComplianceView } from '../compliance/results.js';
import { CAPACITY_HISTORY_CACHE, NOTIFICATIONS_CACHE, REFRESH_READS, drivesOf, smartRead, type PlannedRead } from '../fleet/refresh-plan.js';
import type { ActionLogVerification, ActionReportRecord } from '../domain/action.js';
import { smartReportOf, verdictOfReport, type SmartLookup } from '../smart/verdict.js';
import type { SmartReport } from '../smart/parse.js';
import type { ReportSource } from './model.js';

/**
 * What a report is built from: the cached answers of every system in scope, each with the time it
 * was read, plus the local action log. Collected by main from the offline cache; the builders are
 * pure functions of it, so a report made offline and one made after a refresh differ only in data.
 */

/** One cached answer and when it was read from the system. */
export interface CachedAnswer {
  value: unknown;
  /** ISO time the value was read from the system. */
  at: string;
}

/** SMART text of one drive, as cached. */
export interface SmartAnswer extends CachedAnswer {
  node: string;
  driveId: number;
}

/** Everything cached for one system. */
export interface SystemSnapshot {
  siteId: string;
  siteName: string;
  system: string;
  /** The system's state (ok, unreachable, stale, …) when the snapshot was taken. */
  state: string;
  /** Why the system is not ok, as its status says (already redacted), when it says. */
  problem?: string | undefined;
  /** The system's clock minus true time (ms) when it differs beyond the tolerance (its status says). */
  clockOffsetMs?: number | undefined;
  /** The system's own record from its site's cached system list (Id, connectivity, targets). */
  info?: System | undefined;
  /** Answers by operation key (`GET /nodes/list`), each read with the query of {@link REPORT_READS}. */
  answers: Partial<Record<string, CachedAnswer>>;
  smart: SmartAnswer[];
}

/** An action log record as reports show it (already redacted by the log). */
export type ActionRecordInput = ActionReportRecord;

/** The action log part of a report: the records of the period and the chain check. */
export interface ActionLogInput {
  records: ActionRecordInput[];
  /** The result of walking the whole hash chain. */
  verification: ActionLogVerification;
}

/** The whole input of a report builder. */
export interface ReportInput {
  /** ISO time the report is built: data ages and forecasts count from it. */
  generatedAt: string;
  generatedBy: string;
  appVersion: string;
  source: ReportSource;
  sites: Array<{ id: string; name: string }>;
  systems: SystemSnapshot[];
  /** Sites whose systems are unknown (never refreshed) or whose last refresh failed, with why. */
  siteProblems: Array<{ siteName: string; message: string }>;
  period: { since: string | null; until: string | null };
  actions: ActionLogInput;
  /** The compliance evaluation of the systems in scope, with waivers and kept scores; absent when not evaluated. */
  compliance?: FleetComplianceView | undefined;
}

/**
 * The reads a report uses, under exactly the operation and query the refresh caches them with:
 * every fixed read, plus the pool capacity history and the merged notifications (both cached under
 * the query `{}`). SMART text is read per drive from the hardware list, see {@link smartReadsOf}.
 */
export const REPORT_READS: readonly PlannedRead[] = [
  ...REFRESH_READS,
  { op: CAPACITY_HISTORY_CACHE.op, query: { ...CAPACITY_HISTORY_CACHE.query } },
  { op: NOTIFICATIONS_CACHE.op, query: { ...NOTIFICATIONS_CACHE.query } },
];

/** The SMART reads of the drives in a cached `/resources/list` answer. */
export function smartReadsOf(resources: unknown): PlannedRead[] {
  return drivesOf(resources).map((d) => smartRead(d.node, d.driveid));
}

/** The cached value of a read, typed by the caller (answers are untrusted JSON: every field is optional). */
export function answer<T>(system: SystemSnapshot, op: string): T | undefined {
  return system.answers[op]?.value as T | undefined;
}

/** The `Data` list of a cached `{Data:[...]}` answer; empty when missing or malformed. */
export function dataList<T>(system: SystemSnapshot, op: string): T[] {
  const data = (answer<{ Data?: unknown }>(system, op) ?? {}).Data;
  return Array.isArray(data) ? (data as T[]) : [];
}

/** The record of `system` in a cached `GET /systems/list` answer. */
export function systemRecord(systems: unknown, system: string): System | undefined {
  const list = (systems as SystemsList | null | undefined)?.Systems;
  return Array.isArray(list) ? list.find((x) => x?.Name === system) : undefined;
}

const parsedSmart = new WeakMap<SmartAnswer, SmartReport | undefined>();

/** A drive's cached SMART answer parsed ({@link smartReportOf}), once per answer however many sections read it. */
export function smartReportOfAnswer(a: SmartAnswer): SmartReport | undefined {
  if (!parsedSmart.has(a)) parsedSmart.set(a, smartReportOf(a.value));
  return parsedSmart.get(a);
}

/** The system's SMART verdicts by drive, from its snapshot: what the roll-up and the drive levels read. */
export function smartLookupOf(s: SystemSnapshot): SmartLookup {
  const byDrive = new Map(s.smart.map((a) => [`${a.node}\u0000${a.driveId}`, a]));
  return (node, driveId) => {
    const a = byDrive.get(`${node}\u0000${driveId}`);
    const report = a ? smartReportOfAnswer(a) : undefined;
    return report ? verdictOfReport(report) : undefined;
  };
}
