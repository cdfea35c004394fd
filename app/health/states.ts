import type { Drive, ReplicationPair } from '../catalog/resources.js';
import { worse, type Level } from './level.js';

/**
 * One classification per enumeration the interface reports (drive, node, HA, pool, volume,
 * replication states). The tree, the overview, system pages, alerts, every report and the CLI read
 * a state's level here and nowhere else, so one state never reads one way on one surface and another
 * way on the next. A state outside the known words is "not understood": level `unknown`, which ranks
 * above a warning, never dropped and never ok.
 */

/** What a reported state means to the app. */
export interface StateClass {
  level: Level;
  /** False for a word this app does not know: shown as is, counted as possibly serious. */
  understood: boolean;
}

/** The enumerations classified here. */
export type StateKind = 'drive' | 'node' | 'ha' | 'pool' | 'volume' | 'replication';

type Table = ReadonlyArray<readonly [RegExp, Level]>;

// Matched against the state lower-cased with spaces, dashes and underscores removed.
const TABLES: Readonly<Record<StateKind, Table>> = {
  drive: [
    [/^(ok|online|healthy|good|normal)$/, 'ok'],
    [/^(failed|failure|missing|removed|offline|faulted|fault|dead|critical|error|unavailable)$/, 'critical'],
    [/^(warning|degraded|degrading|predictive.*|predicted.*|rebuilding)$/, 'warning'],
  ],
  node: [
    [/^(running|up|online|ok)$/, 'ok'],
    [/^(down|stopped|offline|failed|halted|error)$/, 'critical'],
    [/^(booting|starting|stopping|maintenance|degraded)$/, 'warning'],
  ],
  ha: [
    // The interface shows "Unknown" as its sample HA state: on a running node it is not a fault.
    [/^(normal|unknown|none|)$/, 'ok'],
    [/^(takenover|takeoveractive)$/, 'critical'],
    [/^(givingback|givebackactive|takingover|degraded)$/, 'warning'],
  ],
  pool: [
    [/^(ok|normal|healthy|none|good)$/, 'ok'],
    [/(full|critical|exhaust)/, 'critical'],
    [/(warn|low|near|degrad)/, 'warning'],
  ],
  volume: [
    [/^(ok|online|healthy|normal|good)$/, 'ok'],
    [/^(failed|offline|faulted|error|critical|unavailable)$/, 'critical'],
    [/^(degraded|rebuilding|warning|recovering|readonly)$/, 'warning'],
  ],
  replication: [
    [/^(insync|synced|synchronized|connected|ok|active)$/, 'ok'],
    [/^(disconnected|failed|error|broken|stopped|split.*)$/, 'critical'],
    [/^(initializing|syncing|resyncing|paused|suspended|outofsync|lagging)$/, 'warning'],
  ],
};

/**
 * The level of a state of `kind`; undefined when none is reported (empty or absent), which the
 * caller treats as its field's "not reported". The HA table counts an empty state as normal.
 */
export function classifyState(kind: StateKind, state: string | null | undefined): StateClass | undefined {
  if (typeof state !== 'string') return undefined;
  const s = state.trim().toLowerCase().replace(/[\s_-]+/g, '');
  if (s === '' && kind !== 'ha') return undefined;
  for (const [pattern, level] of TABLES[kind]) if (pattern.test(s)) return { level, understood: true };
  return { level: 'unknown', understood: false };
}

/** The level of a state of `kind`, `ok` when none is reported. */
export function stateLevelOf(kind: StateKind, state: string | null | undefined): Level {
  return classifyState(kind, state)?.level ?? 'ok';
}

/**
 * What a drive's SMART text adds to its level: a risk it found (warning or critical), with the
 * findings behind it. A SMART text the parser could not read adds nothing here: the SMART report
 * names it "unknown" (not understood), and the drive keeps the level of its status.
 */
export interface DriveSmartRisk {
  readonly risk: 'warning' | 'critical';
  /** The findings behind it, as `subject: message`. */
  readonly findings: readonly string[];
}

/**
 * A drive's level, as every view, alert and report shows it: its `ResourceStatus` classified
 * (app/health/states.ts), made worse by a risk its SMART text shows. A drive that reports no status
 * is ok; one in a status not understood is unknown; an Online drive whose SMART predicts failure
 * is a warning or critical as SMART says.
 */
export function driveLevel(drive: Pick<Drive, 'ResourceStatus'>, smart?: { readonly risk: string } | undefined): Level {
  const status = stateLevelOf('drive', drive.ResourceStatus);
  return smart?.risk === 'warning' || smart?.risk === 'critical' ? worse(status, smart.risk) : status;
}

/** What a SMART verdict adds to a drive's level ({@link DriveSmartRisk}), or undefined when it adds nothing. */
export function driveSmartRisk(verdict: { readonly risk: string; readonly findings: ReadonlyArray<{ risk: string; subject: string; message: string }> } | undefined): DriveSmartRisk | undefined {
  if (verdict?.risk !== 'warning' && verdict?.risk !== 'critical') return undefined;
  return { risk: verdict.risk, findings: verdict.findings.filter((f) => f.risk === 'warning' || f.risk === 'critical').map((f) => `${f.subject}: ${f.message}`) };
}

/** A drive's status as lists show it: the status, and the SMART risk where it makes the drive worse. */
export function driveStatusText(d: { readonly drive: Pick<Drive, 'ResourceStatus' | 'ErrMsg'>; readonly smart?: DriveSmartRisk | undefined }): string {
  const status = d.drive.ResourceStatus ?? '—';
  return d.smart && driveLevel(d.drive, d.smart) !== driveLevel(d.drive) ? `${status}, SMART ${d.smart.risk}` : status;
}

/** What lists say of a drive not OK: its error message, then what its SMART text found. */
export function driveMessage(d: { readonly drive: Pick<Drive, 'ResourceStatus' | 'ErrMsg'>; readonly smart?: DriveSmartRisk | undefined }): string | undefined {
  const parts = [d.drive.ErrMsg, ...(d.smart?.findings ?? [])].filter((p): p is string => typeof p === 'string' && p !== '');
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * A replication pair's level, as every view, alert and report shows it: its connection status
 * classified (app/health/states.ts), and at least a warning while it is below 100 % in sync.
 */
export function pairLevel(pair: Pick<ReplicationPair, 'ConnectionStatus' | 'SyncInPercentage'>): Level {
  const behind: Level = typeof pair.SyncInPercentage === 'number' && pair.SyncInPercentage < 100 ? 'warning' : 'ok';
  return worse(stateLevelOf('replication', pair.ConnectionStatus), behind);
}
