import { describe, expect, it } from 'vitest';
import { alertLevelOf, dataRulesApply, evaluateAlerts, notificationWindowEnd, poolDaysLeft, poolUsedPercent, type AlertInput } from '../../../../app/alerts/evaluate.js';
import { DEFAULT_RULES, type RuleSettings } from '../../../../app/alerts/rules.js';
import { DAY, HOUR, NOW, TIB, alertInput as input, rules } from './fixtures.js';

const rulesSeen = (i: AlertInput, r: RuleSettings = DEFAULT_RULES): string[] => evaluateAlerts(i, r).conditions.map((c) => c.rule);
const failedDrive = { resources: { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Failed' }] }] } };
const pair = (p: object) => ({ replication: { Data: [{ Application: 'app', Volumes: [{ Volume: 'v', Replication: { ReplicationPairs: [p] } }] }] } });
const history = (perDay: number, start: number) =>
  Array.from({ length: 30 }, (_, i) => ({ PoolName: 'p', Time: new Date(NOW - (29 - i) * DAY).toISOString().slice(0, 19), TotalConsumedSizeInBytes: start + i * perDay }));

describe('an alert’s level', () => {
  it('is its object’s level, and a warning for an object flagged by a rule while its own level is ok', () => {
    expect(alertLevelOf('ok')).toBe('warning');
    expect(alertLevelOf('warning')).toBe('warning');
    expect(alertLevelOf('unknown')).toBe('unknown');
    expect(alertLevelOf('critical')).toBe('critical');
  });
});

describe('which rules look at a system', () => {
  it('apply the data rules to a refreshed, stale or misanswering system only', () => {
    expect(['ok', 'stale', 'protocol-error'].every((s) => dataRulesApply(s as AlertInput['state']))).toBe(true);
    expect(['unreachable', 'login-required', 'paused', 'refreshing'].some((s) => dataRulesApply(s as AlertInput['state']))).toBe(false);
  });

  it('judge the connection of a paused system and one that misanswers, so their old connection alerts clear', () => {
    for (const state of ['paused', 'protocol-error'] as const) expect(evaluateAlerts(input({ state }), DEFAULT_RULES).assessed, state).toContain('unreachable');
  });

  it('assess compliance only where it was evaluated', () => {
    expect(evaluateAlerts(input({ compliance: undefined }), DEFAULT_RULES).assessed).not.toContain('compliance');
    expect(evaluateAlerts(input({ compliance: undefined }), DEFAULT_RULES).assessed).toContain('drive');
    expect(evaluateAlerts(input(), DEFAULT_RULES).assessed).toContain('compliance');
  });

  it('say why the session or the certificate needs the admin, with the last error', () => {
    expect(evaluateAlerts(input({ state: 'login-required' }), DEFAULT_RULES).conditions[0]?.message).toBe('the session needs a new login: nothing is refreshed until then');
    expect(evaluateAlerts(input({ state: 'certificate-changed', lastError: 'pin mismatch' }), DEFAULT_RULES).conditions[0]?.message).toBe("the site's certificate changed and is not trusted: pin mismatch");
  });

  it('see nothing of a disabled drive, replication, HA or notification rule', () => {
    const bad = input({ notifications: { Data: [{ Id: 1, Level: 5, Timestamp: new Date(NOW - HOUR).toISOString(), Message: 'x' }] } }, {
      ...failedDrive,
      ...pair({ RemoteSystemName: 'far', SyncInPercentage: 10, ConnectionStatus: 'Disconnected' }),
      nodes: { Data: [{ Name: 'n1', State: 'Running', HAState: 'TakeoverActive' }, { Name: 'n2', State: 'Down', HAState: 'TakenOver' }] },
    });
    expect(rulesSeen(bad).sort()).toEqual(['drive', 'ha', 'notification', 'replication']);
    for (const kind of ['drive', 'replication', 'ha', 'notification'] as const) expect(rulesSeen(bad, rules((r) => (r[kind].enabled = false))), kind).not.toContain(kind);
  });

  it('take no list from an answer that is null', () => {
    expect(evaluateAlerts(input({ notifications: null }, { nodes: null, resources: null, replication: null }), DEFAULT_RULES).conditions).toEqual([]);
  });
});

describe('the replication rule', () => {
  it('names a pair without a remote name by its id, and says what the system did not report', () => {
    const c = evaluateAlerts(input({}, pair({ ReplicationId: 7, ConnectionStatus: 'Disconnected' })), DEFAULT_RULES).conditions;
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ subject: 'app/v/pair 7', message: 'replication of app/v to pair 7: Disconnected, sync not reported' });
    expect(evaluateAlerts(input({}, pair({ SyncInPercentage: 50 })), DEFAULT_RULES).conditions[0]).toMatchObject({ subject: 'app/v/pair ?', message: 'replication of app/v to pair ?: status not reported, 50 % in sync' });
  });
});

describe('the HA rule', () => {
  it('raises a degraded HA (a node down, nothing taken over), and nothing without a node list', () => {
    const down = evaluateAlerts(input({}, { nodes: { Data: [{ Name: 'n1', State: 'Running', HAState: 'Normal' }, { Name: 'n2', State: 'Down', HAState: 'Normal' }] } }), DEFAULT_RULES).conditions;
    expect(down.map((c) => c.rule)).toEqual(['ha']);
    expect(down[0]?.message).toMatch(/^HA degraded: /);
    expect(rulesSeen(input({}, { nodes: undefined }))).toEqual([]);
    expect(rulesSeen(input({}, { nodes: null }))).toEqual([]);
  });
});

describe('the drive rule', () => {
  const smart = (risk: 'warning' | 'critical', findings: string[]) => () => ({ risk, findings: findings.map((message) => ({ risk, subject: 's', message })) });

  it('names a drive without a name by its id', () => {
    const c = evaluateAlerts(input({}, { resources: { Data: [{ Name: 'n1', Drives: [{ Id: 4, ResourceStatus: 'Failed' }, { ResourceStatus: 'Failed' }] }] } }), DEFAULT_RULES).conditions;
    expect(c.map((x) => x.subject)).toEqual(['n1/drive 4', 'n1/drive ?']);
  });

  it('names SMART on a drive not OK only where it makes the drive worse than its status', () => {
    const degraded = { resources: { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Degraded' }] }] } };
    const worse = evaluateAlerts(input({ smart: smart('critical', ['a', 'b']) }, degraded), DEFAULT_RULES).conditions[0];
    expect(worse?.level).toBe('critical');
    expect(worse?.message).toMatch(/; SMART risk critical: .*a.*; .*b/);
    const same = evaluateAlerts(input({ smart: smart('warning', ['a']) }, degraded), DEFAULT_RULES).conditions[0];
    expect(same?.message).not.toContain('SMART');
    expect(evaluateAlerts(input({}, degraded), DEFAULT_RULES).conditions[0]?.message).not.toContain('SMART');
  });

  it('says a SMART risk without findings with nothing after it', () => {
    const c = evaluateAlerts(input({ smart: smart('critical', []) }), DEFAULT_RULES).conditions[0];
    expect(c?.message).toBe('SMART risk critical on drive d1 of n1');
  });
});

describe('the pool rules', () => {
  it('compare the allocated share, else what the free share leaves, else nothing', () => {
    expect(poolUsedPercent({ allocatedPercent: 40, freePercent: 10 })).toBe(40);
    expect(poolUsedPercent({ allocatedPercent: 0, freePercent: 10 })).toBe(0);
    expect(poolUsedPercent({ freePercent: 10 })).toBe(90);
    expect(poolUsedPercent({})).toBeUndefined();
  });

  it('count 0 days for a pool full now, the forecast’s days while it grows, none otherwise', () => {
    expect(poolDaysLeft({ status: 'full', days: 3 })).toBe(0);
    expect(poolDaysLeft({ status: 'growing', days: 12 })).toBe(12);
    expect(poolDaysLeft({ status: 'not-growing', days: 12 })).toBeUndefined();
    expect(poolDaysLeft({ status: 'insufficient-data' })).toBeUndefined();
  });

  it('raise a pool full within fewer days than the rule’s, not one due on that very day, and say a pool is full', () => {
    // 40 TiB free, consumed growing 1 TiB a day and already past what is allocated: 40 days.
    const at = (days: number) => rulesSeen(input({}, { pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: 0, FreeCapacityInBytes: 100 * TIB }] }, history: { PerformanceStatstics: history(TIB, 31 * TIB) } }), rules((r) => ((r['pool-full-days'].days = days), (r['pool-used'].enabled = false))));
    expect(at(41)).toEqual(['pool-full-days']);
    expect(at(40)).toEqual([]);
    const full = evaluateAlerts(input({}, { pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: 100 * TIB, FreeCapacityInBytes: 0 }] } }), rules((r) => (r['pool-used'].enabled = false))).conditions;
    expect(full).toEqual([{ rule: 'pool-full-days', subject: 'p', level: 'critical', message: 'pool p is full' }]);
  });

  it('run the full-days rule alone when the used rule is off, and the used rule alone when the other is', () => {
    const nearlyFull = { pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: 100 * TIB, FreeCapacityInBytes: 0 }] } };
    expect(rulesSeen(input({}, nearlyFull), rules((r) => (r['pool-used'].enabled = false)))).toEqual(['pool-full-days']);
    expect(rulesSeen(input({}, nearlyFull), rules((r) => (r['pool-full-days'].enabled = false)))).toEqual(['pool-used']);
    expect(rulesSeen(input({}, nearlyFull), rules((r) => ((r['pool-full-days'].enabled = false), (r['pool-used'].enabled = false))))).toEqual([]);
  });

  it('raise nothing for a pool whose share is unknown', () => {
    expect(rulesSeen(input({}, { pools: { CapacityUsage: [{ Name: 'p', TotalConsumedSizeInBytes: 1 }] } }), rules((r) => (r['pool-used'].percent = 1)))).toEqual([]);
  });
});

describe('the notification rule', () => {
  const rec = (over: object) => ({ Level: 4, Message: 'm', ...over });
  const at = (hoursAgo: number): string => new Date(NOW - hoursAgo * HOUR).toISOString();

  it('counts a record exactly as old as the window, and not one without a level, even from level 0', () => {
    const n = { Data: [rec({ Id: 1, Timestamp: at(24) }), rec({ Id: 2, Timestamp: at(1), Level: undefined })] };
    expect(evaluateAlerts(input({ notifications: n }), DEFAULT_RULES).conditions.map((c) => c.subject)).toEqual(['#1']);
    expect(evaluateAlerts(input({ notifications: n }), rules((r) => (r.notification.minLevel = 0))).conditions.map((c) => c.subject)).toEqual(['#1']);
    expect(notificationWindowEnd(input({ notifications: n }), DEFAULT_RULES)).toBe(NOW);
    expect(notificationWindowEnd(input({ notifications: n }), rules((r) => (r.notification.minLevel = 0)))).toBe(NOW);
  });

  it('leaves a record without a level out of the window even from level 0', () => {
    const n = { Data: [rec({ Id: 1, Timestamp: at(2) }), rec({ Id: 2, Timestamp: at(20), Level: undefined })] };
    expect(notificationWindowEnd(input({ notifications: n }), rules((r) => (r.notification.minLevel = 0)))).toBe(NOW - 2 * HOUR + 24 * HOUR);
  });

  it('ends the window at the earliest counted record leaving it, ignoring records without a time', () => {
    const n = { Data: [rec({ Id: 1, Timestamp: at(2) }), rec({ Id: 2, Timestamp: at(5) }), rec({ Id: 3, Timestamp: at(3) }), rec({ Id: 4 })] };
    expect(notificationWindowEnd(input({ notifications: n }), DEFAULT_RULES)).toBe(NOW - 5 * HOUR + 24 * HOUR);
  });

  it('counts a record without a readable time as recent, sorted as of now, and says its time is unreadable or not sent', () => {
    const n = { Data: [rec({ Id: 1, Timestamp: at(2) }), rec({ Module: 'disk', Node: 'n1' }), rec({ Id: 3, Timestamp: 'yesterday' }), rec({ Id: 4, Timestamp: at(1) })] };
    const c = evaluateAlerts(input({ notifications: n }), DEFAULT_RULES).conditions;
    expect(c.map((x) => x.subject)).toEqual(['disk', '#3', '#4', '#1']);
    expect(c[0]?.message).toBe('Error on n1 (disk) (time not sent): m');
    expect(c[1]?.message).toBe('Error (time unreadable): m');
    expect(c[2]?.message).toBe('Error: m');
  });

  it('names a record without an id by its time and module, and one with neither by nothing', () => {
    const n = { Data: [rec({ Timestamp: at(1), Module: 'disk' }), rec({ Timestamp: at(2) }), rec({ Level: 5, Message: undefined })] };
    const c = evaluateAlerts(input({ notifications: n }), DEFAULT_RULES).conditions;
    expect(c.map((x) => x.subject)).toEqual(['', `${at(1)} disk`, at(2)]);
    expect(c[0]).toMatchObject({ level: 'critical', message: 'Critical (time not sent):' });
  });
});
