import { formatDateTime, type NotificationRecord } from '../../app/catalog/index.js';
import { LEVEL_NAMES } from './levels.js';
import { notificationRank } from '../../app/health/notification-level.js';
import { parseTime } from './format.js';

/** The filters of GET /notifications/query, as the form holds them. */
export interface NotificationFilter {
  nodes: string[];
  /** Lowest level shown (index into LEVEL_NAMES); undefined for all. */
  minLevel: number | undefined;
  /** Exactly these levels; empty for all. */
  levels: number[];
  modules: string[];
  /** `datetime-local` values (local time), empty for open-ended. */
  from: string;
  to: string;
  search: string;
  /** At most this many records. */
  top: number;
  descending: boolean;
}

export function emptyFilter(): NotificationFilter {
  return { nodes: [], minLevel: undefined, levels: [], modules: [], from: '', to: '', search: '', top: 1000, descending: true };
}

function localToUtc(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : formatDateTime(d);
}

/** The query parameters of GET /notifications/query for a filter (levels by name, times in UTC). */
export function notificationQuery(f: NotificationFilter): Record<string, unknown> {
  const q: Record<string, unknown> = { top: f.top, descendingOrder: f.descending };
  if (f.nodes.length) q.nodes = f.nodes;
  if (f.minLevel !== undefined) q.minLevel = LEVEL_NAMES[f.minLevel] ?? String(f.minLevel);
  if (f.levels.length) q.levels = f.levels.map((l) => LEVEL_NAMES[l] ?? String(l));
  if (f.modules.length) q.modules = f.modules;
  const start = localToUtc(f.from);
  const end = localToUtc(f.to);
  if (start) q.startTimestamp = start;
  if (end) q.endTimestamp = end;
  if (f.search.trim()) q.search = f.search.trim();
  return q;
}

/**
 * The same filter applied to records in memory: what offline views do with the cached records.
 * Search matches message, module, node, exception and property values, case-insensitively.
 */
export function filterNotifications(records: readonly NotificationRecord[], f: NotificationFilter): NotificationRecord[] {
  const start = f.from ? new Date(f.from).getTime() : undefined;
  const end = f.to ? new Date(f.to).getTime() : undefined;
  const words = f.search.toLowerCase().split(/\s+/).filter(Boolean);
  // Each kept record with its time, parsed once, so the sort compares numbers, not strings: a
  // system may cache 100,000 records.
  const out: Array<{ r: NotificationRecord; t: number }> = [];
  for (const r of records) {
    const level = notificationRank(r.Level);
    if (f.minLevel !== undefined && level < f.minLevel) continue;
    if (f.levels.length && !f.levels.includes(level)) continue;
    if (f.nodes.length && !f.nodes.includes(r.Node ?? '')) continue;
    if (f.modules.length && !f.modules.includes(r.Module ?? '')) continue;
    const t = parseTime(r.Timestamp);
    if (start !== undefined && (t === undefined || t < start)) continue;
    if (end !== undefined && (t === undefined || t > end)) continue;
    if (words.length) {
      const hay = [r.Message, r.Module, r.Node, r.Exception, ...Object.values(r.Properties ?? {})].join('\n').toLowerCase();
      if (!words.every((w) => hay.includes(w))) continue;
    }
    // No time sorts as the oldest.
    out.push({ r, t: t ?? -Infinity });
  }
  const sign = f.descending ? -1 : 1;
  out.sort((a, b) => sign * (a.t === b.t ? (a.r.Id ?? 0) - (b.r.Id ?? 0) : a.t < b.t ? -1 : 1));
  return out.slice(0, Math.max(1, f.top)).map((x) => x.r);
}
