import { describe, expect, it } from 'vitest';
import type { Baseline, Check } from '../../../../app/compliance/baseline.js';
import { evaluateCheck, evaluateSystem, type AnswerSource, type CachedAnswer } from '../../../../app/compliance/evaluate.js';
import { SECURE_BASELINE } from '../../../../app/compliance/secure-baseline.js';
import type { OperationKey } from '../../../../app/catalog/index.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const READ_AT = '2026-03-01T11:00:00.000Z';
const TARGET = { site: 'north', group: 'prod', tags: ['gold'] };

type Answers = Partial<Record<OperationKey, unknown>>;

/** A system that meets every check of the shipped baseline. */
function secureAnswers(): Answers {
  return {
    'GET /users/list': { Data: [{ Name: 'admin', TwoStepAuthenticationEnabled: true }, { Name: 'ops', TwoStepAuthenticationEnabled: true }] },
    'GET /nodes/support/tunnel/status': { Data: [{ Name: 'n1', SupportTunnelStatus: 'Disabled' }, { Name: 'n2', SupportTunnelStatus: 'Disabled' }] },
    'GET /nodes/list': {
      Data: [
        { Name: 'n1', TargetChap: { ChapName: 'tgt', ChapSecret: '[redacted]' }, Isns: { IsnsAddress: '10.0.0.5', AccessControl: true }, IsSEDPasswordSupplied: true },
        { Name: 'n2', TargetChap: { ChapName: 'tgt', ChapSecret: '[redacted]' }, Isns: { IsnsAddress: '10.0.0.5', AccessControl: true }, IsSEDPasswordSupplied: true },
      ],
    },
    'GET /hosts/list': { Data: [{ Name: 'esx1', Iqn: 'iqn.2026-01.test:esx1', ChapSecret: '[redacted]' }, { Name: 'fc1', Wwns: ['50:01'] }] },
    'GET /notifications/settings/show': {
      EmailSettings: { MailServerAddress: 'mail.example.test', ValidateCertificate: true },
      NotificationTargets: [{ Name: 'noc', IsEnabled: true, MinEventLevel: 3 }],
    },
    'GET /settings/anomaly_detection/show': { TimeframeDays: 7, AbnormalChangePercentage: 30 },
    'GET /applications/list': {
      Data: [{ Application: 'db', Volumes: [{ Volume: 'data', Encrypted: true }], ConsistencyGroups: [{ Id: 1, SnapshotScheduler: ['daily'] }] }],
    },
    'GET /resources/list': { Data: [{ Name: 'n1', Drives: [{ Name: 'd1', SelfEncryptingDrive: 'Unlocked' }] }] },
    'GET /replication/list': { Data: [{ Application: 'db', Volumes: [{ Volume: 'data', Replication: { ReplicationPairs: [{ RemoteVolName: 'data', ConnectionStatus: 'InSync' }] } }] }] },
    'GET /monitoring/capacity/provisioning': { Data: [{ PoolName: 'p1', FreeSpaceInPercentage: 64 }] },
  };
}

/** Per check of the shipped baseline: a change that makes it fail, and one that leaves it unable to tell. */
const CASES: Record<string, { fail: (a: Answers) => void; unknown: (a: Answers) => void }> = {
  'users-two-step': {
    fail: (a) => set(a, 'GET /users/list', 'Data.1.TwoStepAuthenticationEnabled', false),
    unknown: (a) => set(a, 'GET /users/list', 'Data.1.TwoStepAuthenticationEnabled', undefined),
  },
  'support-tunnel-off': {
    fail: (a) => set(a, 'GET /nodes/support/tunnel/status', 'Data.0.SupportTunnelStatus', 'Enabled (case 4711)'),
    unknown: (a) => set(a, 'GET /nodes/support/tunnel/status', 'Data.0.SupportTunnelStatus', undefined),
  },
  'target-chap': {
    fail: (a) => set(a, 'GET /nodes/list', 'Data.0.TargetChap.ChapName', ''),
    unknown: (a) => delete a['GET /hosts/list'],
  },
  'host-chap': {
    fail: (a) => set(a, 'GET /hosts/list', 'Data.0.ChapSecret', undefined),
    unknown: (a) => set(a, 'GET /hosts/list', 'Data', 'not a list'),
  },
  'isns-access-control': {
    fail: (a) => set(a, 'GET /nodes/list', 'Data.1.Isns.AccessControl', false),
    unknown: (a) => set(a, 'GET /nodes/list', 'Data.1.Isns.AccessControl', undefined),
  },
  'email-validates-certificate': {
    fail: (a) => set(a, 'GET /notifications/settings/show', 'EmailSettings.ValidateCertificate', false),
    unknown: (a) => set(a, 'GET /notifications/settings/show', 'EmailSettings.ValidateCertificate', undefined),
  },
  'notification-target-warning': {
    fail: (a) => set(a, 'GET /notifications/settings/show', 'NotificationTargets.0.MinEventLevel', 4),
    unknown: (a) => set(a, 'GET /notifications/settings/show', 'NotificationTargets.0.IsEnabled', undefined),
  },
  'anomaly-detection-on': {
    fail: (a) => set(a, 'GET /settings/anomaly_detection/show', 'TimeframeDays', 0),
    unknown: (a) => set(a, 'GET /settings/anomaly_detection/show', 'AbnormalChangePercentage', 'n/a'),
  },
  'volumes-encrypted': {
    fail: (a) => set(a, 'GET /applications/list', 'Data.0.Volumes.0.Encrypted', false),
    unknown: (a) => set(a, 'GET /applications/list', 'Data.0.Volumes.0.Encrypted', undefined),
  },
  'sed-password-supplied': {
    fail: (a) => set(a, 'GET /nodes/list', 'Data.0.IsSEDPasswordSupplied', false),
    unknown: (a) => delete a['GET /resources/list'],
  },
  'snapshot-schedules': {
    fail: (a) => set(a, 'GET /applications/list', 'Data.0.ConsistencyGroups.0.SnapshotScheduler', []),
    unknown: (a) => delete a['GET /applications/list'],
  },
  'replication-in-sync': {
    fail: (a) => set(a, 'GET /replication/list', 'Data.0.Volumes.0.Replication.ReplicationPairs.0.ConnectionStatus', 'Syncing'),
    unknown: (a) => set(a, 'GET /replication/list', 'Data.0.Volumes.0.Replication.ReplicationPairs.0.ConnectionStatus', undefined),
  },
  'pool-free-space': {
    fail: (a) => set(a, 'GET /monitoring/capacity/provisioning', 'Data.0.FreeSpaceInPercentage', 12.5),
    unknown: (a) => set(a, 'GET /monitoring/capacity/provisioning', 'Data.0.FreeSpaceInPercentage', undefined),
  },
};

function set(a: Answers, op: OperationKey, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = a[op] as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) o = o[p] as Record<string, unknown>;
  const last = parts[parts.length - 1] as string;
  if (value === undefined) delete o[last];
  else o[last] = value;
}

function source(a: Answers, at = READ_AT): AnswerSource {
  return (op) => (op in a ? { value: a[op], at } : undefined);
}

const check = (id: string): Check => SECURE_BASELINE.checks.find((c) => c.id === id) as Check;
const run = (id: string, a: Answers) => evaluateCheck(check(id), SECURE_BASELINE.maxAgeHours, TARGET, source(a), NOW);

describe('the shipped secure baseline, check by check', () => {
  it('has a case here for every check it ships', () => {
    expect(Object.keys(CASES).sort()).toEqual(SECURE_BASELINE.checks.map((c) => c.id).sort());
  });

  it('passes every check on a secure system, each with the operation and age of its evidence', () => {
    for (const outcome of evaluateSystem(SECURE_BASELINE, TARGET, source(secureAnswers()), NOW)) {
      expect(outcome.result, `${outcome.id}: ${outcome.reason}`).toBe('pass');
      expect(outcome.evidence?.ageSeconds).toBe(3600);
      expect(outcome.evidence?.at).toBe(READ_AT);
    }
  });

  for (const [id, c] of Object.entries(CASES)) {
    it(`${id}: fails with the offending value, and cannot tell when the data does not say`, () => {
      const failing = secureAnswers();
      c.fail(failing);
      const failed = run(id, failing);
      expect(failed.result, failed.reason).toBe('fail');
      expect(failed.evidence?.op).toBe(check(id).rule.read);
      expect(failed.evidence?.values.length).toBeGreaterThan(0);

      const unsure = secureAnswers();
      c.unknown(unsure);
      const unknown = run(id, unsure);
      expect(unknown.result, unknown.reason).toBe('cannot-tell');
    });
  }

  it('shows the failing item and its value as evidence', () => {
    const a = secureAnswers();
    CASES['users-two-step']!.fail(a);
    const out = run('users-two-step', a);
    expect(out.reason).toBe('1 of 2 do not meet TwoStepAuthenticationEnabled = true');
    expect(out.evidence).toEqual({ op: 'GET /users/list', at: READ_AT, ageSeconds: 3600, items: 2, values: [{ item: 'ops', field: 'TwoStepAuthenticationEnabled', value: false }] });
  });
});

describe('evaluation rules', () => {
  it('cannot tell, never passes, when the answer is missing, unreadable or too old', () => {
    const missing: AnswerSource = () => undefined;
    expect(evaluateCheck(check('users-two-step'), 24, TARGET, missing, NOW).result).toBe('cannot-tell');
    const damaged: AnswerSource = (): CachedAnswer => ({ unreadable: 'damaged' });
    expect(evaluateCheck(check('users-two-step'), 24, TARGET, damaged, NOW).result).toBe('cannot-tell');
    const old = evaluateCheck(check('users-two-step'), 24, TARGET, source(secureAnswers(), '2026-02-27T12:00:00.000Z'), NOW);
    expect(old.result).toBe('cannot-tell');
    expect(old.reason).toMatch(/too old: read 2 d ago, older than the 24 h allowed/);
    expect(old.evidence?.ageSeconds).toBe(2 * 86_400);
  });

  it('a check’s own age limit overrides the baseline’s', () => {
    const strict: Check = { ...check('pool-free-space'), maxAgeHours: 0.5 };
    expect(evaluateCheck(strict, 24, TARGET, source(secureAnswers()), NOW).result).toBe('cannot-tell');
  });

  it('is not applicable outside its scope, or when its precondition does not hold', () => {
    const scoped = (scope: Check['scope']): Check => ({ ...check('users-two-step'), scope });
    expect(evaluateCheck(scoped({ site: 'south' }), 24, TARGET, source(secureAnswers()), NOW).result).toBe('not-applicable');
    expect(evaluateCheck(scoped({ group: 'prod', tag: 'gold' }), 24, TARGET, source(secureAnswers()), NOW).result).toBe('pass');
    expect(evaluateCheck(scoped({ tag: 'silver' }), 24, TARGET, source(secureAnswers()), NOW).result).toBe('not-applicable');
    const noIscsi = secureAnswers();
    noIscsi['GET /hosts/list'] = { Data: [{ Name: 'fc1', Wwns: ['50:01'] }] };
    set(noIscsi, 'GET /nodes/list', 'Data.0.TargetChap.ChapName', '');
    expect(run('target-chap', noIscsi).result).toBe('not-applicable');
    expect(run('host-chap', noIscsi).result).toBe('not-applicable');
  });

  it('`some` fails on an empty list, `every` is not applicable, `none` passes', () => {
    const a = secureAnswers();
    set(a, 'GET /notifications/settings/show', 'NotificationTargets', []);
    expect(run('notification-target-warning', a).result).toBe('fail');
    set(a, 'GET /replication/list', 'Data', []);
    expect(run('replication-in-sync', a).result).toBe('not-applicable');
    const none: Baseline = {
      ...SECURE_BASELINE,
      checks: [{ ...check('support-tunnel-off'), rule: { read: 'GET /nodes/support/tunnel/status', items: 'Data', none: { field: 'SupportTunnelStatus', matches: '^enabled' } } }],
    };
    expect(evaluateSystem(none, TARGET, source({ 'GET /nodes/support/tunnel/status': { Data: [] } }), NOW)[0]?.result).toBe('pass');
    expect(evaluateSystem(none, TARGET, source(secureAnswers()), NOW)[0]?.result).toBe('pass');
  });
});
