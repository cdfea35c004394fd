import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, RULE_KINDS, effectiveRules, ruleOverrideSchema, sameScope, scopeApplies, type ScopedOverride } from '../../../../app/alerts/rules.js';

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
