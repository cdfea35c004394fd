import { describe, expect, it } from 'vitest';
import type { CheckOutcome } from '../../../../app/compliance/evaluate.js';
import { fixPlan } from '../../../../app/compliance/fix.js';
import { systemsWorstFirst, worstFirst } from '../../../../app/compliance/order.js';
import type { SystemComplianceView } from '../../../../app/compliance/results.js';
import { SECURE_BASELINE } from '../../../../app/compliance/secure-baseline.js';
import {
  UNWAIVE_OPERATION,
  WAIVE_OPERATION,
  applyWaivers,
  checkLevel,
  complianceScore,
  countEffective,
  waiverText,
  waiversFromLog,
  type Waiver,
  type WaiverRecord,
} from '../../../../app/compliance/waivers.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const fail = (id = 'support-tunnel-off', over: Partial<CheckOutcome> = {}): CheckOutcome => ({ id, title: id, severity: 'high', result: 'fail', reason: '1 of 2 do not meet it', ...over });
const waiver = (over: Partial<Waiver> = {}): Waiver => ({ check: 'support-tunnel-off', siteId: 's1', system: 'alpha', reason: 'case 42', until: '2026-07-01T00:00:00.000Z', by: 'ann', at: '2026-05-01T00:00:00.000Z', seq: 1, ...over });
const grant = (seq: number, params: Record<string, unknown>, op = WAIVE_OPERATION): WaiverRecord => ({ seq, at: `2026-05-0${seq}T00:00:00.000Z`, user: 'ann', operation: op, params });

describe('waivers read from the action log', () => {
  it('keeps per check and scope the newest grant, drops revoked ones and records that do not read', () => {
    const base = { check: 'support-tunnel-off', siteId: 's1', system: 'alpha', reason: 'case 42', until: '2026-07-01T00:00:00Z' };
    const list = waiversFromLog([
      grant(1, base),
      grant(2, { ...base, reason: 'case 43', until: '2026-08-01T00:00:00Z' }),
      grant(3, { ...base, system: 'beta' }),
      grant(4, { check: 'support-tunnel-off', siteId: 's1', system: 'beta' }, UNWAIVE_OPERATION),
      grant(5, { ...base, check: 'host-chap', reason: '' }),
      grant(6, { ...base, check: 'users-two-step', siteId: '', system: 'alpha' }),
      grant(7, { ...base, check: 'volumes-encrypted', extra: true }),
    ]);
    expect(list).toEqual([{ ...base, reason: 'case 43', until: '2026-08-01T00:00:00Z', by: 'ann', at: '2026-05-02T00:00:00.000Z', seq: 2 }]);
  });

  it('a later grant after a revocation applies again, whatever order the records come in', () => {
    const base = { check: 'host-chap', siteId: '', system: '', reason: 'lab', until: '2026-07-01T00:00:00Z' };
    expect(waiversFromLog([grant(3, base), grant(2, { check: 'host-chap', siteId: '', system: '' }, UNWAIVE_OPERATION), grant(1, base)]).map((w) => w.seq)).toEqual([3]);
  });
});

describe('applying waivers', () => {
  it('excuses a failing check while the waiver is in force, not one that passes or cannot tell', () => {
    const out = applyWaivers([fail(), fail('host-chap', { result: 'pass' }), fail('target-chap', { result: 'cannot-tell' })], [waiver(), waiver({ check: 'host-chap' }), waiver({ check: 'target-chap' })], 's1', 'alpha', NOW);
    expect(out[0]?.waiver).toMatchObject({ active: true, reason: 'case 42', by: 'ann' });
    expect(out[1]?.waiver).toBeUndefined();
    expect(out[2]?.waiver).toBeUndefined();
    expect(countEffective(out)).toEqual({ fail: 0, 'cannot-tell': 1, waived: 1, pass: 1, 'not-applicable': 0 });
  });

  it('an expired waiver fails again and says so', () => {
    const [o] = applyWaivers([fail()], [waiver({ until: '2026-05-31T23:59:59.000Z' })], 's1', 'alpha', NOW);
    expect(o?.waiver?.active).toBe(false);
    expect(o?.reason).toBe('1 of 2 do not meet it; the waiver granted by ann expired 2026-05-31T23:59:59.000Z');
    expect(countEffective([o!]).fail).toBe(1);
    expect(waiverText(o!.waiver!)).toBe('waiver expired (case 42, by ann, until 2026-05-31T23:59:59.000Z)');
    // It ends exactly at its time.
    expect(applyWaivers([fail()], [waiver({ until: new Date(NOW).toISOString() })], 's1', 'alpha', NOW)[0]?.waiver?.active).toBe(false);
  });

  it('covers a system by its own, its site\u2019s or the fleet\u2019s waiver, the most specific first, never another site\u2019s', () => {
    const fleet = waiver({ siteId: '', system: '', reason: 'fleet', seq: 1, until: '2027-01-01T00:00:00.000Z' });
    const siteWide = waiver({ system: '', reason: 'site', seq: 2 });
    const other = waiver({ siteId: 's2', system: '', reason: 'other site', seq: 3 });
    expect(applyWaivers([fail()], [fleet, siteWide, other], 's1', 'alpha', NOW)[0]?.waiver?.reason).toBe('site');
    expect(applyWaivers([fail()], [fleet, other], 's1', 'beta', NOW)[0]?.waiver?.reason).toBe('fleet');
    expect(applyWaivers([fail()], [other], 's1', 'beta', NOW)[0]?.waiver).toBeUndefined();
  });
});

describe('scores, levels and order', () => {
  it('scores the applicable checks that pass or are waived; cannot tell counts against', () => {
    expect(complianceScore({ fail: 1, 'cannot-tell': 1, waived: 1, pass: 5, 'not-applicable': 9 })).toBe(75);
    expect(complianceScore({ fail: 0, 'cannot-tell': 0, waived: 0, pass: 0, 'not-applicable': 3 })).toBeUndefined();
    expect(complianceScore({ fail: 2, 'cannot-tell': 0, waived: 0, pass: 1, 'not-applicable': 0 })).toBe(33.3);
  });

  it('gives a check the app\u2019s level: critical only for a failing critical check, unknown when it cannot tell', () => {
    expect(checkLevel(fail('x', { severity: 'critical' }))).toBe('critical');
    expect(checkLevel(fail('x', { severity: 'high' }))).toBe('warning');
    expect(checkLevel({ ...fail('x', { severity: 'critical' }), waiver: { active: true } })).toBe('ok');
    expect(checkLevel(fail('x', { result: 'cannot-tell' }))).toBe('unknown');
    expect(checkLevel(fail('x', { result: 'not-applicable' }))).toBe('ok');
  });

  it('lists checks and systems worst first', () => {
    const checks = [fail('a', { result: 'pass' }), { ...fail('b'), waiver: { ...waiver(), active: true } }, fail('c', { severity: 'low' }), fail('d', { result: 'cannot-tell' }), fail('e', { severity: 'critical' })];
    expect(worstFirst(checks).map((c) => c.id)).toEqual(['e', 'c', 'd', 'b', 'a']);
    const sys = (system: string, fails: number, score: number) => ({ site: 'n', system, score, counts: { fail: fails, 'cannot-tell': 0, waived: 0, pass: 0, 'not-applicable': 0 } });
    expect(systemsWorstFirst([sys('a', 0, 100), sys('b', 2, 50), sys('c', 0, 80)]).map((s) => s.system)).toEqual(['b', 'c', 'a']);
  });
});

describe('the fix preview', () => {
  const tunnel = SECURE_BASELINE.checks.find((c) => c.id === 'support-tunnel-off')!;
  const email = SECURE_BASELINE.checks.find((c) => c.id === 'email-validates-certificate')!;
  const system = (name: string, check: Partial<CheckOutcome> & { waiver?: Waiver & { active: boolean } }): SystemComplianceView => ({
    siteId: 's1',
    site: 'north',
    system: name,
    counts: { fail: 1, 'cannot-tell': 0, waived: 0, pass: 0, 'not-applicable': 0 },
    checks: [{ ...fail(), ...check }],
  });

  it('writes once per failing item where the fix names the item, grouping equal writes', () => {
    const items = (...names: string[]) => ({ op: 'GET /nodes/support/tunnel/status' as const, items: 2, values: names.map((item) => ({ item, field: 'SupportTunnelStatus', value: 'Enabled' })) });
    const plan = fixPlan(tunnel, [
      system('alpha', { evidence: items('n1', 'n2') }),
      system('beta', { evidence: items('n1') }),
      system('gamma', { result: 'pass' }),
      system('delta', { waiver: { ...waiver(), active: true } }),
      system('eps', { evidence: { ...items(), values: [{ field: 'SupportTunnelStatus' }] } }),
    ]);
    expect(plan?.writes).toEqual([
      { op: 'PUT /nodes/support/tunnel/disable', body: { Node: 'n1' }, targets: [{ siteId: 's1', site: 'north', system: 'alpha', item: 'n1' }, { siteId: 's1', site: 'north', system: 'beta', item: 'n1' }] },
      { op: 'PUT /nodes/support/tunnel/disable', body: { Node: 'n2' }, targets: [{ siteId: 's1', site: 'north', system: 'alpha', item: 'n2' }] },
    ]);
    expect(plan?.left).toEqual([{ siteId: 's1', site: 'north', system: 'eps', why: 'the evidence names no failing item to put in the write' }]);
  });

  it('writes once per failing system otherwise, and has no plan for a check without a fix', () => {
    const plan = fixPlan(email, [system('alpha', { id: email.id }), system('beta', { id: email.id })]);
    expect(plan?.writes).toEqual([{ op: 'PUT /notifications/settings/email/edit', body: { EnableCertificateValidation: true }, targets: [expect.objectContaining({ system: 'alpha' }), expect.objectContaining({ system: 'beta' })] }]);
    expect(fixPlan(SECURE_BASELINE.checks.find((c) => c.id === 'users-two-step')!, [])).toBeUndefined();
  });
});
