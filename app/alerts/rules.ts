import { z } from 'zod';
import { severitySchema } from '../compliance/severity.js';

/**
 * Alert rules, declared once: their kinds, their settings (zod, since they cross IPC and are
 * stored), the defaults, and how an admin's overrides at fleet, site and system scope combine
 * (the most specific wins, setting by setting).
 */

/** Every rule kind, in the order the rule editor lists them. */
export const RULE_KINDS = [
  'unreachable',
  'login-required',
  'certificate-changed',
  'unlisted',
  'protocol-error',
  'drive',
  'pool-used',
  'pool-full-days',
  'replication',
  'ha',
  'notification',
  'compliance',
] as const;
export const ruleKindSchema = z.enum(RULE_KINDS);
export type RuleKind = z.infer<typeof ruleKindSchema>;

const enabled = z.boolean();

/** The settings of each rule kind. */
export const ruleSettingsSchema = z.object({
  unreachable: z.object({ enabled }),
  'login-required': z.object({ enabled }),
  'certificate-changed': z.object({ enabled }),
  /** A system the app knew that its site's list no longer shows. */
  unlisted: z.object({ enabled }),
  /** A system whose answers the app cannot read (not understood, unnamed or named twice in its site's list). */
  'protocol-error': z.object({ enabled }),
  /** A drive whose status is not OK, or whose cached SMART text shows a risk at or above `minSmartRisk`. */
  drive: z.object({ enabled, minSmartRisk: z.enum(['warning', 'critical']) }),
  /** A pool whose allocated share of usable capacity is above `percent`. */
  'pool-used': z.object({ enabled, percent: z.number().min(1).max(100) }),
  /** A pool the forecast sees full in fewer than `days` days. */
  'pool-full-days': z.object({ enabled, days: z.number().min(1).max(3650) }),
  /** A replication pair below 100 % in sync, or not connected in sync. */
  replication: z.object({ enabled }),
  /** High availability not normal: a node taken over, down, or in an HA state the app does not know. */
  ha: z.object({ enabled }),
  /** A notification of the system at or above `minLevel` (0 Verbose … 5 Critical) from the last `withinHours` hours. */
  notification: z.object({ enabled, minLevel: z.number().int().min(0).max(5), withinHours: z.number().min(1).max(24 * 30) }),
  /** A check of the compliance baseline that newly fails (no waiver in force), of `minSeverity` or more. */
  compliance: z.object({ enabled, minSeverity: severitySchema }),
});
export type RuleSettings = z.infer<typeof ruleSettingsSchema>;

/** What an admin changed at one scope: any subset of kinds, any subset of their settings. */
export const ruleOverrideSchema = z.object(
  Object.fromEntries(RULE_KINDS.map((k) => [k, ruleSettingsSchema.shape[k].partial().optional()])) as {
    [K in RuleKind]: z.ZodOptional<ReturnType<(typeof ruleSettingsSchema.shape)[K]['partial']>>;
  },
);
export type RuleOverride = z.infer<typeof ruleOverrideSchema>;

/** Where an override applies: the whole fleet, one site, or one system of a site. */
export const ruleScopeSchema = z.union([
  z.object({ level: z.literal('fleet') }),
  z.object({ level: z.literal('site'), siteId: z.string().min(1).max(200) }),
  z.object({ level: z.literal('system'), siteId: z.string().min(1).max(200), system: z.string().min(1).max(200) }),
]);
export type RuleScope = z.infer<typeof ruleScopeSchema>;

/** One stored override with its scope. */
export const scopedOverrideSchema = z.object({ scope: ruleScopeSchema, override: ruleOverrideSchema });
export type ScopedOverride = z.infer<typeof scopedOverrideSchema>;

/**
 * The defaults: every rule on; a pool over 90 % allocated or full within 30 days; SMART from a
 * warning; notifications from Error (level 4, what the fleet overview calls high-level) of the
 * last 24 hours; compliance checks of medium severity and above.
 */
export const DEFAULT_RULES: RuleSettings = {
  unreachable: { enabled: true },
  'login-required': { enabled: true },
  'certificate-changed': { enabled: true },
  unlisted: { enabled: true },
  'protocol-error': { enabled: true },
  drive: { enabled: true, minSmartRisk: 'warning' },
  'pool-used': { enabled: true, percent: 90 },
  'pool-full-days': { enabled: true, days: 30 },
  replication: { enabled: true },
  ha: { enabled: true },
  notification: { enabled: true, minLevel: 4, withinHours: 24 },
  compliance: { enabled: true, minSeverity: 'medium' },
};

/** What each rule kind watches, in the words of the rule editor. */
export const RULE_TITLES: Readonly<Record<RuleKind, string>> = {
  unreachable: 'System unreachable',
  'login-required': 'Login required',
  'certificate-changed': 'Certificate changed',
  unlisted: 'System not listed by its site',
  'protocol-error': 'Answers not understood',
  drive: 'Drive not OK or SMART risk',
  'pool-used': 'Pool used above a share',
  'pool-full-days': 'Pool full within days',
  replication: 'Replication behind or disconnected',
  ha: 'HA state not normal',
  notification: 'Notification at or above a level',
  compliance: 'Compliance check failing',
};

/** How specific a scope is: a system's override beats its site's, which beats the fleet's. */
function rank(scope: RuleScope): number {
  return scope.level === 'fleet' ? 0 : scope.level === 'site' ? 1 : 2;
}

/** Whether an override at `scope` applies to `system` of `siteId`. */
export function scopeApplies(scope: RuleScope, siteId: string, system: string): boolean {
  if (scope.level === 'fleet') return true;
  if (scope.siteId !== siteId) return false;
  return scope.level === 'site' || scope.system === system;
}

/** Two scopes name the same place. */
export function sameScope(a: RuleScope, b: RuleScope): boolean {
  if (a.level !== b.level) return false;
  if (a.level === 'fleet' || b.level === 'fleet') return true;
  if (a.siteId !== b.siteId) return false;
  return a.level === 'site' || (b.level === 'system' && a.system === b.system);
}

/** The rules in force for one system: the defaults, then the fleet's, the site's and the system's overrides, setting by setting. */
export function effectiveRules(overrides: readonly ScopedOverride[], siteId: string, system: string): RuleSettings {
  const applicable = overrides.filter((o) => scopeApplies(o.scope, siteId, system)).sort((a, b) => rank(a.scope) - rank(b.scope));
  const out = Object.fromEntries(RULE_KINDS.map((k) => [k, { ...DEFAULT_RULES[k] }])) as unknown as Record<RuleKind, Record<string, unknown>>;
  for (const { override } of applicable) {
    for (const kind of RULE_KINDS) {
      const part = override[kind];
      if (!part) continue;
      for (const [key, value] of Object.entries(part)) if (value !== undefined) out[kind][key] = value;
    }
  }
  return out as unknown as RuleSettings;
}

/** A short text of a scope, for the action log and the rule editor: `fleet`, `site lab`, `system lab/tundra-01`. */
export function scopeText(scope: RuleScope): string {
  if (scope.level === 'fleet') return 'fleet';
  return scope.level === 'site' ? `site ${scope.siteId}` : `system ${scope.siteId}/${scope.system}`;
}
