import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RULES,
  RULE_KINDS,
  effectiveRules,
  ruleOverrideSchema,
  ruleScopeSchema,
  ruleSettingsSchema,
  sameScope,
  scopeApplies,
  scopedOverrideSchema,
  type RuleSettings,
  type ScopedOverride,
} from '../../../../app/alerts/rules.js';

describe('alert rules', () => {
  it('has a default for every kind, every one on', () => {
    expect(Object.keys(DEFAULT_RULES).sort()).toEqual([...RULE_KINDS].sort());
    for (const k of RULE_KINDS) expect(DEFAULT_RULES[k].enabled, k).toBe(true);
    expect(DEFAULT_RULES['pool-used'].percent).toBe(90);
    expect(DEFAULT_RULES.notification.minLevel).toBe(4);
  });

  it('lets the most specific scope win, setting by setting', () => {
    const overrides: ScopedOverride[] = [
      { scope: { level: 'system', siteId: 'lab', system: 'tundra-01' }, override: { 'pool-used': { percent: 95 } } },
      { scope: { level: 'fleet' }, override: { 'pool-used': { percent: 70 }, ha: { enabled: false } } },
      { scope: { level: 'site', siteId: 'lab' }, override: { 'pool-used': { percent: 80, enabled: false } } },
    ];
    expect(effectiveRules(overrides, 'lab', 'tundra-01')['pool-used']).toEqual({ enabled: false, percent: 95 });
    expect(effectiveRules(overrides, 'lab', 'tundra-02')['pool-used']).toEqual({ enabled: false, percent: 80 });
    expect(effectiveRules(overrides, 'prod', 'tundra-01')['pool-used']).toEqual({ enabled: true, percent: 70 });
    expect(effectiveRules(overrides, 'prod', 'tundra-01').ha.enabled).toBe(false);
    // The defaults themselves are never changed by resolving.
    expect(DEFAULT_RULES['pool-used']).toEqual({ enabled: true, percent: 90 });
  });

  it('applies a site scope to its systems only, and a system scope to that system of that site', () => {
    expect(scopeApplies({ level: 'site', siteId: 'lab' }, 'lab', 'x')).toBe(true);
    expect(scopeApplies({ level: 'site', siteId: 'lab' }, 'prod', 'x')).toBe(false);
    expect(scopeApplies({ level: 'system', siteId: 'lab', system: 'x' }, 'prod', 'x')).toBe(false);
    expect(sameScope({ level: 'system', siteId: 'lab', system: 'x' }, { level: 'site', siteId: 'lab' })).toBe(false);
    expect(sameScope({ level: 'fleet' }, { level: 'fleet' })).toBe(true);
  });

  it('refuses settings out of range in an override', () => {
    expect(ruleOverrideSchema.safeParse({ 'pool-used': { percent: 0 } }).success).toBe(false);
    expect(ruleOverrideSchema.safeParse({ notification: { minLevel: 9 } }).success).toBe(false);
    expect(ruleOverrideSchema.safeParse({ drive: { minSmartRisk: 'unknown' } }).success).toBe(false);
    expect(ruleOverrideSchema.safeParse({ 'pool-full-days': { days: 14 } }).success).toBe(true);
  });
});

describe('alert rules as they cross IPC and are stored', () => {
  // Every rule off, every figure at its upper bound; then at the lower bound.
  const highest: RuleSettings = {
    unreachable: { enabled: false },
    'login-required': { enabled: false },
    'certificate-changed': { enabled: false },
    unlisted: { enabled: false },
    'protocol-error': { enabled: false },
    drive: { enabled: false, minSmartRisk: 'critical' },
    'pool-used': { enabled: false, percent: 100 },
    'pool-full-days': { enabled: false, days: 3650 },
    replication: { enabled: false },
    ha: { enabled: false },
    notification: { enabled: false, minLevel: 5, withinHours: 720 },
    compliance: { enabled: false, minSeverity: 'critical' },
  };
  const lowest = { drive: { minSmartRisk: 'warning' }, 'pool-used': { percent: 1 }, 'pool-full-days': { days: 1 }, notification: { minLevel: 0, withinHours: 1 }, compliance: { minSeverity: 'low' } } as const;

  it('keeps every setting of every kind, at both ends of its range', () => {
    expect(ruleSettingsSchema.parse(highest)).toEqual(highest);
    expect(ruleOverrideSchema.parse(highest)).toEqual(highest);
    expect(ruleOverrideSchema.parse(lowest)).toEqual(lowest);
    const off = effectiveRules([{ scope: { level: 'fleet' }, override: ruleOverrideSchema.parse(highest) }], 'lab', 'x');
    for (const k of RULE_KINDS) expect(off[k].enabled, k).toBe(false);
  });

  it('refuses a figure just past its range', () => {
    expect(ruleOverrideSchema.safeParse({ 'pool-used': { percent: 101 } }).success).toBe(false);
    expect(ruleOverrideSchema.safeParse({ 'pool-full-days': { days: 3651 } }).success).toBe(false);
    expect(ruleOverrideSchema.safeParse({ notification: { withinHours: 721 } }).success).toBe(false);
    expect(ruleOverrideSchema.safeParse({ notification: { minLevel: -1 } }).success).toBe(false);
    expect(ruleOverrideSchema.safeParse({ compliance: { minSeverity: 'severe' } }).success).toBe(false);
  });

  it('keeps the scope and the override of a stored override, at every scope', () => {
    const scopes = [{ level: 'fleet' }, { level: 'site', siteId: 'lab' }, { level: 'system', siteId: 'lab', system: 'tundra-01' }] as const;
    for (const scope of scopes) {
      expect(ruleScopeSchema.parse(scope)).toEqual(scope);
      const stored = { scope, override: { ha: { enabled: false }, 'pool-used': { percent: 80 } } };
      expect(scopedOverrideSchema.parse(stored)).toEqual(stored);
    }
  });
});
