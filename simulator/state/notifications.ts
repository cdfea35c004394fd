import { NOTIFICATION_MODULES } from '../../app/catalog/values.js';
import type { NotificationRecord } from '../../app/catalog/resources.js';
import type { SystemState } from './model.js';

/**
 * Notification levels (the document leaves the numbers unshown):
 * 0 Verbose, 1 Debug, 2 Information, 3 Warning, 4 Error, 5 Critical.
 */
export const LEVEL_NAMES = ['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Critical'] as const;
export const LEVEL = { verbose: 0, debug: 1, info: 2, warning: 3, error: 4, critical: 5 } as const;

const LEVEL_ALIASES: Record<string, number> = { info: 2, warn: 3, fatal: 5, trace: 0 };

/** Parses a level given as a number (0–5) or a name (case-insensitive); undefined when neither. */
export function parseLevel(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^[0-5]$/.test(t)) return Number(t);
  const byName = LEVEL_NAMES.findIndex((n) => n.toLowerCase() === t);
  if (byName >= 0) return byName;
  return LEVEL_ALIASES[t];
}

/** Modules named in notification records and accepted in target Modules lists. */
export const MODULES = NOTIFICATION_MODULES;

/** Cap per system so long benchmark runs stay bounded in memory; the oldest records go first. */
const MAX_RECORDS = 5000;

export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

export interface NotifyInput {
  level: number;
  module: string;
  message: string;
  node?: string;
  exception?: string;
  properties?: Record<string, string>;
}

/** Appends a record with the next Id; Ids increase strictly per system. */
export function notify(system: SystemState, customer: string, nowMs: number, input: NotifyInput): NotificationRecord {
  const node = input.node ?? system.nodes.find((n) => n.id === system.managementNodeId)?.name ?? system.nodes[0]?.name ?? '';
  // Targets that would receive this record: enabled, level at or above their minimum, module listened to (empty = all).
  const delivered = system.targets
    .filter((t) => t.enabled && input.level >= t.minLevel && (t.modules.length === 0 || t.modules.some((m) => m.toLowerCase() === input.module.toLowerCase())))
    .map((t) => t.name);
  const record: NotificationRecord = {
    Timestamp: isoSeconds(nowMs),
    Node: node,
    Id: ++system.counters.notification,
    Level: input.level,
    Module: input.module,
    Message: input.message,
    Exception: input.exception ?? '',
    Properties: { System: system.name, Customer: customer, ...(delivered.length ? { DeliveredTo: delivered.join(',') } : {}), ...input.properties },
  };
  system.notifications.push(record);
  if (system.notifications.length > MAX_RECORDS) system.notifications.splice(0, system.notifications.length - MAX_RECORDS);
  return record;
}
