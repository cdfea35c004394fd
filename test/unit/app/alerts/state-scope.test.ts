import { describe, expect, it } from 'vitest';
import { alertFilterSchema, alertSchema, alertState } from '../../../../app/alerts/alert.js';
import { DEFAULT_RULES, effectiveRules, RULE_KINDS, RULE_TITLES, ruleScopeSchema, sameScope, scopeApplies, scopeText, type RuleScope, type ScopedOverride } from '../../../../app/alerts/rules.js';

const NOW = Date.UTC(2026, 0, 31, 12);
const iso = (ms: number): string => new Date(ms).toISOString();

describe('an alert’s state at a time', () => {
  it('is cleared once cleared, whatever else it holds', () => {
    expect(alertState({ clearedAt: iso(NOW - 1), acknowledgedAt: iso(NOW - 2), snoozedUntil: iso(NOW + 1000) }, NOW)).toBe('cleared');
  });

  it('is snoozed until its snooze ends, then acknowledged or open again', () => {
    expect(alertState({ snoozedUntil: iso(NOW + 1) }, NOW)).toBe('snoozed');
    expect(alertState({ snoozedUntil: iso(NOW) }, NOW)).toBe('open');
    expect(alertState({ snoozedUntil: iso(NOW + 1), acknowledgedAt: iso(NOW - 5) }, NOW)).toBe('snoozed');
    expect(alertState({ snoozedUntil: iso(NOW - 1), acknowledgedAt: iso(NOW - 5) }, NOW)).toBe('acknowledged');
  });

  it('is acknowledged once acknowledged, else open', () => {
    expect(alertState({ acknowledgedAt: iso(NOW - 5) }, NOW)).toBe('acknowledged');
    expect(alertState({}, NOW)).toBe('open');
  });
});

describe('alert list filters', () => {
  it('take a state or "active", and a limit of 1 to 10,000', () => {
    expect(alertFilterSchema.safeParse({ state: 'active', limit: 10_000 }).success).toBe(true);
    expect(alertFilterSchema.safeParse({ state: 'gone' }).success).toBe(false);
    expect(alertFilterSchema.safeParse({ limit: 0 }).success).toBe(false);
    expect(alertFilterSchema.safeParse({ limit: 10_001 }).success).toBe(false);
    expect(alertFilterSchema.safeParse({ site: '' }).success).toBe(false);
    expect(alertFilterSchema.safeParse({ system: 'x'.repeat(201) }).success).toBe(false);
  });

  it('carry an alert only with a known rule, level and state', () => {
    const a = { id: 1, rule: 'drive', siteId: 's', system: 'x', subject: '', level: 'critical', message: 'm', state: 'open', raisedAt: iso(NOW), lastSeenAt: iso(NOW) };
    expect(alertSchema.safeParse(a).success).toBe(true);
    expect(alertSchema.safeParse({ ...a, rule: 'nope' }).success).toBe(false);
    expect(alertSchema.safeParse({ ...a, level: 'ok' }).success).toBe(false);
    expect(alertSchema.safeParse({ ...a, raisedAt: 'x'.repeat(41) }).success).toBe(false);
    for (const level of ['warning', 'unknown', 'critical']) expect(alertSchema.parse({ ...a, level })).toEqual({ ...a, level });
  });

  it('take every filter at once: a state, a level, a site and a system by name, a rule and a limit', () => {
    for (const level of ['warning', 'unknown', 'critical']) {
      const filter = { state: 'open', level, site: 'lab', system: 'tundra-01', rule: 'ha', limit: 50 };
      expect(alertFilterSchema.parse(filter)).toEqual(filter);
    }
    expect(alertFilterSchema.safeParse({ site: 'x'.repeat(200), system: 'y'.repeat(200) }).success).toBe(true);
    expect(alertFilterSchema.safeParse({ site: 'x'.repeat(201) }).success).toBe(false);
  });
});

describe('rule scopes', () => {
  const fleet: RuleScope = { level: 'fleet' };
  const lab: RuleScope = { level: 'site', siteId: 'lab' };
  const prod: RuleScope = { level: 'site', siteId: 'prod' };
  const x: RuleScope = { level: 'system', siteId: 'lab', system: 'x' };
  const y: RuleScope = { level: 'system', siteId: 'lab', system: 'y' };
  const prodX: RuleScope = { level: 'system', siteId: 'prod', system: 'x' };

  it('apply: the fleet to all, a site to its systems, a system to itself only', () => {
    expect(scopeApplies(fleet, 'any', 'any')).toBe(true);
    expect(scopeApplies(x, 'lab', 'x')).toBe(true);
    expect(scopeApplies(x, 'lab', 'y')).toBe(false);
  });

  it('name the same place only at the same level with the same site and system', () => {
    const all = [fleet, lab, prod, x, y, prodX];
    for (const [i, a] of all.entries()) for (const [j, b] of all.entries()) expect(sameScope(a, b), `${scopeText(a)} ~ ${scopeText(b)}`).toBe(i === j);
    expect(sameScope(lab, { level: 'site', siteId: 'lab' })).toBe(true);
    expect(sameScope(x, { level: 'system', siteId: 'lab', system: 'x' })).toBe(true);
  });

  it('are written fleet, site <id>, system <site>/<system>', () => {
    expect([fleet, lab, x].map(scopeText)).toEqual(['fleet', 'site lab', 'system lab/x']);
  });

  it('refuse an empty or over-long site or system', () => {
    expect(ruleScopeSchema.safeParse({ level: 'site', siteId: '' }).success).toBe(false);
    expect(ruleScopeSchema.safeParse({ level: 'system', siteId: 'lab', system: 'x'.repeat(201) }).success).toBe(false);
    expect(ruleScopeSchema.safeParse({ level: 'system', siteId: 'lab', system: 'x' }).success).toBe(true);
  });
});

describe('the rules in force', () => {
  it('let a system beat its site and a site beat the fleet, whatever order the overrides are stored in', () => {
    const o = (scope: RuleScope, days: number): ScopedOverride => ({ scope, override: { 'pool-full-days': { days } } });
    const stored = [o({ level: 'system', siteId: 'lab', system: 'x' }, 7), o({ level: 'site', siteId: 'lab' }, 14), o({ level: 'fleet' }, 60)];
    for (const order of [stored, [...stored].reverse(), [stored[1], stored[0], stored[2]] as ScopedOverride[]]) {
      expect(effectiveRules(order, 'lab', 'x')['pool-full-days'].days).toBe(7);
      expect(effectiveRules(order, 'lab', 'y')['pool-full-days'].days).toBe(14);
      expect(effectiveRules(order, 'prod', 'x')['pool-full-days'].days).toBe(60);
    }
  });

  it('keep the default where an override leaves a setting undefined, and are the defaults with no override', () => {
    const r = effectiveRules([{ scope: { level: 'fleet' }, override: { notification: { minLevel: undefined, withinHours: 2 } } }], 'lab', 'x');
    expect(r.notification).toEqual({ enabled: true, minLevel: 4, withinHours: 2 });
    expect(effectiveRules([], 'lab', 'x')).toEqual(DEFAULT_RULES);
  });

  it('have a title for every kind', () => {
    for (const k of RULE_KINDS) expect(RULE_TITLES[k].length, k).toBeGreaterThan(0);
    expect(RULE_TITLES['pool-full-days']).toBe('Pool full within days');
  });
});
