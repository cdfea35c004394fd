import { describe, expect, it } from 'vitest';
import { FIELDS_NO_RULE_READS, MAX_NOTIFICATION_ALERTS, evaluateAlerts, notificationWindowEnd, smartReportOf, smartVerdictOf, type AlertInput, type ComplianceFinding } from '../../../../app/alerts/evaluate.js';
import { DEFAULT_RULES, RULE_KINDS } from '../../../../app/alerts/rules.js';
import { healthy } from '../health/fixtures.js';
import { DAY, NOW, TIB, alertInput as input, rules } from './fixtures.js';

const nvme = (critical: string): string =>
  ['=== START OF SMART DATA SECTION ===', 'SMART overall-health self-assessment test result: PASSED', '', 'SMART/Health Information (NVMe Log 0x02)', `Critical Warning:                   ${critical}`, 'Temperature:                        38 Celsius', 'Available Spare:                    100%', 'Available Spare Threshold:          10%', 'Percentage Used:                    3%', 'Media and Data Integrity Errors:    0', ''].join('\n');

describe('alert evaluation', () => {
  it('reads no field that moves with every read of the node, drive and replication lists and health (clocks, sensor readings, load, volume I/O): skipping on them is safe', () => {
    expect([...FIELDS_NO_RULE_READS].sort()).toEqual(['HardwareUtilization', 'Sensors', 'StatsInfo', 'Time']);
    // Failing sensors, a drive failed, one node taken over: with or without those fields, the same evaluation.
    const sensors = [{ Name: 'temp', Type: 'Temperture', Reading: '95', Status: 'Critical', State: 'Failed', EventMessage: 'over temperature' }];
    const at = (time: string, withSensors: boolean): AlertInput =>
      input({}, {
        health: { ...healthy, CapacityUtilization: undefined, ...(withSensors ? { HardwareUtilization: { CPUInPercentage: 99, MemoryInPercentage: 99, HardwareUtilizationInPercentage: 99 } } : {}) },
        nodes: { Data: [{ Name: 'n1', State: 'Running', HAState: 'TakeoverActive', Time: time, ...(withSensors ? { Sensors: sensors } : {}) }, { Name: 'n2', State: 'Down', HAState: 'TakenOver', Time: time }] },
        resources: { Data: [{ Name: 'n1', Time: time, ...(withSensors ? { Sensors: sensors } : {}), Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Failed', ...(withSensors ? { Sensors: sensors } : {}) }] }] },
        replication: {
          Data: [{ Application: 'app', Volumes: [{ Volume: 'v1', ...(withSensors ? { StatsInfo: { Iops: 912, LatencyInMilliseconds: 41, VRAIDConsumedSizeInBytes: 7 } } : {}), Replication: { ReplicationPairs: [{ RemoteSystemName: 'r1', ConnectionStatus: 'Initializing', SyncInPercentage: 40 }] } }] }],
        },
      });
    const plain = evaluateAlerts(at('2026-01-31T11:00:00Z', false), DEFAULT_RULES);
    expect(plain.conditions.map((c) => c.rule).sort()).toEqual(['drive', 'ha', 'replication']);
    expect(evaluateAlerts(at('2026-01-31T11:59:00Z', true), DEFAULT_RULES)).toEqual(plain);
  });

  it('says until when time alone leaves the notification rule as it is: the first counted record leaving its window', () => {
    const rec = (id: number, hoursAgo: number, level: number) => ({ Id: id, Level: level, Timestamp: new Date(NOW - hoursAgo * 3_600_000).toISOString(), Message: 'x' });
    // Counted: levels 4 and 5 within 24 h; not: level 2, and one 30 h old.
    const notifications = { Data: [rec(1, 1, 5), rec(2, 20, 4), rec(3, 23, 2), rec(4, 30, 5)] };
    expect(notificationWindowEnd(input({ notifications }), DEFAULT_RULES)).toBe(NOW + 4 * 3_600_000);
    expect(notificationWindowEnd(input(), DEFAULT_RULES)).toBeUndefined();
    expect(notificationWindowEnd(input({ notifications }), rules((r) => (r.notification.enabled = false)))).toBeUndefined();
  });

  it('sees nothing on a healthy system, and has looked with every rule', () => {
    const e = evaluateAlerts(input(), DEFAULT_RULES);
    expect(e.conditions).toEqual([]);
    expect([...e.assessed].sort()).toEqual([...RULE_KINDS].sort());
  });

  it('raises a connection alert by state and leaves the data rules as they were (the cache is older than the failure)', () => {
    const e = evaluateAlerts(input({ state: 'unreachable', lastError: 'connect ECONNREFUSED' }), DEFAULT_RULES);
    expect(e.conditions).toEqual([{ rule: 'unreachable', subject: '', level: 'critical', message: 'the system does not answer: connect ECONNREFUSED' }]);
    expect([...e.assessed].sort()).toEqual(['certificate-changed', 'login-required', 'protocol-error', 'unlisted', 'unreachable']);
    expect(evaluateAlerts(input({ state: 'certificate-changed' }), DEFAULT_RULES).conditions[0]).toMatchObject({ rule: 'certificate-changed', level: 'critical' });
    expect(evaluateAlerts(input({ state: 'login-required' }), DEFAULT_RULES).conditions[0]).toMatchObject({ rule: 'login-required', level: 'warning' });
    // A system its site no longer lists: its own alert, with the list's message, and no data rule on its old answers.
    const unlisted = evaluateAlerts(input({ state: 'unlisted', lastError: "not listed by the site since 2026-03-01T00:00:00.000Z; the list says: relay down" }), DEFAULT_RULES);
    expect(unlisted.conditions).toEqual([{ rule: 'unlisted', subject: '', level: 'warning', message: 'the site no longer lists this system: not listed by the site since 2026-03-01T00:00:00.000Z; the list says: relay down' }]);
    expect(unlisted.assessed).not.toContain('drive');
  });

  it('raises answers it cannot read as their own alert, at the level of what is not understood, beside the data rules on what was read', () => {
    const why = 'GET /pools/list: the answer is not in any shape Fleetdeck knows';
    const e = evaluateAlerts(input({ state: 'protocol-error', lastError: why }), DEFAULT_RULES);
    expect(e.conditions).toEqual([{ rule: 'protocol-error', subject: '', level: 'unknown', message: `the answers of the system cannot be read: what is shown of it may be old or incomplete: ${why}` }]);
    expect(e.assessed).toContain('drive');
    // Read again and understood: the rule has looked and sees nothing, so the alert clears.
    const ok = evaluateAlerts(input(), DEFAULT_RULES);
    expect(ok.assessed).toContain('protocol-error');
    expect(ok.conditions).toEqual([]);
    expect(evaluateAlerts(input({ state: 'protocol-error' }), rules((r) => (r['protocol-error'].enabled = false))).conditions).toEqual([]);
  });

  it('does not judge the connection from cached data alone (a stale system), nor anything while refreshing', () => {
    expect(evaluateAlerts(input({ state: 'stale' }), DEFAULT_RULES).assessed).not.toContain('unreachable');
    expect(evaluateAlerts(input({ state: 'refreshing' }), DEFAULT_RULES)).toEqual({ conditions: [], assessed: [] });
  });

  it('raises a failed drive as critical, a degraded one as a warning, each named by node and drive', () => {
    const e = evaluateAlerts(input({}, { resources: { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Failed', ErrMsg: 'media error' }, { Id: 2, Name: 'd2', ResourceStatus: 'Degrading' }] }] } }), DEFAULT_RULES);
    expect(e.conditions).toEqual([
      { rule: 'drive', subject: 'n1/d1', level: 'critical', message: 'drive d1 on n1 is Failed: media error' },
      { rule: 'drive', subject: 'n1/d2', level: 'warning', message: 'drive d2 on n1 is Degrading' },
    ]);
  });

  it('raises a SMART risk at or above the rule’s minimum from the cached text, read by the SMART parser', () => {
    const smart = (_node: string, id: number) => smartReportOf(id === 1 ? nvme('0x01') : nvme('0x00'));
    const e = evaluateAlerts(input({ smart }), DEFAULT_RULES);
    expect(e.conditions).toHaveLength(1);
    expect(e.conditions[0]).toMatchObject({ rule: 'drive', subject: 'n1/d1', level: 'critical' });
    expect(e.conditions[0]?.message).toMatch(/^SMART risk critical on drive d1 of n1: /);
    // Text the parser cannot read rates unknown: below a warning, so no alert (the SMART report shows it).
    expect(evaluateAlerts(input({ smart: () => smartReportOf('garbage') }), DEFAULT_RULES).conditions).toEqual([]);
    // An answer that is not text is read, and rated unknown: never ok, never "no data".
    expect(smartReportOf({ Output: 'x' })?.risk).toBe('unknown');
    expect(smartReportOf(null)).toBeUndefined();
  });

  it('rates a drive whose status is not OK by its SMART too, when SMART says worse, and says so', () => {
    const resources = { Data: [{ Name: 'n1', Drives: [{ Id: 1, Name: 'd1', ResourceStatus: 'Degraded' }, { Id: 2, Name: 'd2', ResourceStatus: 'OK' }] }] };
    const smart = (_node: string, id: number) => smartReportOf(id === 1 ? nvme('0x01') : nvme('0x00'));
    const [d1] = evaluateAlerts(input({ smart }, { resources }), DEFAULT_RULES).conditions;
    expect(d1).toMatchObject({ subject: 'n1/d1', level: 'critical' });
    expect(d1?.message).toMatch(/^drive d1 on n1 is Degraded; SMART risk critical: /);
    // The roll-up's own SMART verdicts serve when the input names none.
    expect(evaluateAlerts(input({}, { resources, smart }), DEFAULT_RULES).conditions[0]).toEqual(d1);
    // A SMART warning on a drive OK by its status raises nothing under a rule that starts at critical.
    const warn = () => ({ risk: 'warning' as const, findings: [{ risk: 'warning' as const, subject: 'Media and Data Integrity Errors', message: '12' }] });
    const rules = { ...DEFAULT_RULES, drive: { enabled: true, minSmartRisk: 'critical' as const } };
    expect(evaluateAlerts(input({ smart: warn }, { resources: { Data: [{ Name: 'n1', Drives: [{ Id: 2, Name: 'd2', ResourceStatus: 'OK' }] }] } }), rules).conditions).toEqual([]);
  });

  it('keeps of a SMART report only what the drive rule reads: its risk and the findings it can report', () => {
    const failing = smartVerdictOf(nvme('0x01'));
    expect(Object.keys(failing ?? {}).sort()).toEqual(['findings', 'risk']);
    expect(failing?.risk).toBe('critical');
    expect(failing?.findings.length).toBeGreaterThan(0);
    expect(failing?.findings.every((f) => f.risk === 'warning' || f.risk === 'critical')).toBe(true);
    // The same conditions as from the whole report.
    const whole = evaluateAlerts(input({ smart: () => smartReportOf(nvme('0x01')) }), DEFAULT_RULES).conditions;
    expect(evaluateAlerts(input({ smart: () => failing }), DEFAULT_RULES).conditions).toEqual(whole);
    expect(smartVerdictOf(nvme('0x00'))).toEqual({ risk: 'ok', findings: [] });
    expect(smartVerdictOf('garbage')?.risk).toBe('unknown');
    expect(smartVerdictOf(undefined)).toBeUndefined();
  });

  it('raises a pool above the allocated share, and only above it', () => {
    const pools = (allocated: number) => ({ CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: allocated * TIB, TotalConsumedSizeInBytes: 1 * TIB, FreeCapacityInBytes: (100 - allocated) * TIB }] });
    const at = (allocated: number, r = DEFAULT_RULES) => evaluateAlerts(input({}, { pools: pools(allocated) }), r).conditions.filter((c) => c.rule === 'pool-used');
    expect(at(90)).toEqual([]);
    // Its level is the capacity assessment's (no provisioning state: 93 % allocated is critical there too).
    expect(at(93)).toEqual([{ rule: 'pool-used', subject: 'p', level: 'critical', message: 'pool p is 93 % allocated (rule: above 90 %)' }]);
    expect(at(85, rules((r) => (r['pool-used'].percent = 82)))).toEqual([{ rule: 'pool-used', subject: 'p', level: 'warning', message: 'pool p is 85 % allocated (rule: above 82 %)' }]);
    expect(at(93, rules((r) => (r['pool-used'].percent = 95)))).toEqual([]);
    expect(at(93, rules((r) => (r['pool-used'].enabled = false)))).toEqual([]);
  });

  it('raises a pool the forecast sees full within the rule’s days', () => {
    // 1 TiB a day on 100 TiB, 80 allocated: the 20 TiB free last 20 days (the consumed 60 would leave 40).
    const history = { PerformanceStatstics: Array.from({ length: 30 }, (_, i) => ({ PoolName: 'p', Time: new Date(NOW - (29 - i) * DAY).toISOString().slice(0, 19), TotalConsumedSizeInBytes: (31 + i) * TIB })) };
    const rollup = { pools: { CapacityUsage: [{ Name: 'p', TotalAllocatedSizeInBytes: 80 * TIB, TotalConsumedSizeInBytes: 60 * TIB, FreeCapacityInBytes: 20 * TIB }] }, history };
    expect(evaluateAlerts(input({}, rollup), rules((r) => (r['pool-full-days'].days = 15))).conditions.filter((c) => c.rule === 'pool-full-days')).toEqual([]);
    const c = evaluateAlerts(input({}, rollup), DEFAULT_RULES).conditions.filter((x) => x.rule === 'pool-full-days');
    // The alert's level is the pool's: full within 30 days is critical.
    expect(c).toEqual([{ rule: 'pool-full-days', subject: 'p', level: 'critical', message: 'pool p is forecast full in 20 days (rule: fewer than 30)' }]);
  });

  it('raises replication behind or disconnected, one alert per pair', () => {
    const replication = { Data: [{ Application: 'app', Volumes: [{ Volume: 'v', Replication: { ReplicationPairs: [{ RemoteSystemName: 'far', SyncInPercentage: 40, ConnectionStatus: 'Syncing' }, { RemoteSystemName: 'near', SyncInPercentage: 100, ConnectionStatus: 'InSync' }] } }] }] };
    expect(evaluateAlerts(input({}, { replication }), DEFAULT_RULES).conditions).toEqual([{ rule: 'replication', subject: 'app/v/far', level: 'warning', message: 'replication of app/v to far: Syncing, 40 % in sync' }]);
  });

  it('raises HA not normal, and says nothing of HA without a cached node list', () => {
    const nodes = { Data: [{ Name: 'n1', State: 'Running', HAState: 'TakeoverActive' }, { Name: 'n2', State: 'Down', HAState: 'TakenOver' }] };
    expect(evaluateAlerts(input({}, { nodes }), DEFAULT_RULES).conditions).toEqual([{ rule: 'ha', subject: '', level: 'critical', message: 'HA taken over: n2 taken over by n1' }]);
    expect(evaluateAlerts(input({}, { nodes: undefined }), DEFAULT_RULES).conditions).toEqual([]);
  });

  it('raises each recent notification at or above the level, newest first and at most a page of them', () => {
    const at = (hoursAgo: number) => new Date(NOW - hoursAgo * 3_600_000).toISOString().slice(0, 19);
    const notifications = {
      Data: [
        { Id: 1, Timestamp: at(1), Level: 5, Module: 'Pool', Node: 'n1', Message: 'pool offline' },
        { Id: 2, Timestamp: at(2), Level: 3, Module: 'Pool', Message: 'a warning only' },
        { Id: 3, Timestamp: at(30), Level: 4, Module: 'Pool', Message: 'too old' },
        { Id: 4, Timestamp: at(0.5), Level: 4, Module: 'Net', Message: 'link down' },
      ],
    };
    expect(evaluateAlerts(input({ notifications }), DEFAULT_RULES).conditions).toEqual([
      { rule: 'notification', subject: '#4', level: 'warning', message: 'Error (Net): link down' },
      { rule: 'notification', subject: '#1', level: 'critical', message: 'Critical on n1 (Pool): pool offline' },
    ]);
    const many = { Data: Array.from({ length: 50 }, (_, i) => ({ Id: i + 1, Timestamp: at(i / 10), Level: 4, Message: `e${i}` })) };
    expect(evaluateAlerts(input({ notifications: many }), DEFAULT_RULES).conditions).toHaveLength(MAX_NOTIFICATION_ALERTS);
  });

  it('sees nothing for a disabled rule but has still looked, so its alerts clear', () => {
    const e = evaluateAlerts(input({ state: 'unreachable' }), rules((r) => (r.unreachable.enabled = false)));
    expect(e.conditions).toEqual([]);
    expect(e.assessed).toContain('unreachable');
  });
});

describe('the compliance rule', () => {
  const check = (over: Partial<ComplianceFinding> = {}): ComplianceFinding => ({ id: 'support-tunnel-off', title: 'Tunnel closed', severity: 'high', result: 'fail', reason: '1 of 2 do not meet', ...over });

  it('raises a failing check at the level of the check, one alert per check', () => {
    const e = evaluateAlerts(input({ compliance: [check(), check({ id: 'vault', severity: 'critical' }), check({ id: 'ok', result: 'pass' })] }), DEFAULT_RULES);
    expect(e.conditions).toEqual([
      { rule: 'compliance', subject: 'support-tunnel-off', level: 'warning', message: 'compliance check failing (high): Tunnel closed: 1 of 2 do not meet' },
      { rule: 'compliance', subject: 'vault', level: 'critical', message: 'compliance check failing (critical): Tunnel closed: 1 of 2 do not meet' },
    ]);
  });

  it('sees no condition in a waiver in force, a check that cannot tell, or one below the severity asked', () => {
    const findings = [check({ waiver: { active: true } }), check({ id: 'unsure', result: 'cannot-tell' }), check({ id: 'minor', severity: 'low' })];
    expect(evaluateAlerts(input({ compliance: findings }), DEFAULT_RULES).conditions).toEqual([]);
    // An expired waiver excuses nothing.
    expect(evaluateAlerts(input({ compliance: [check({ waiver: { active: false } })] }), DEFAULT_RULES).conditions.map((c) => c.subject)).toEqual(['support-tunnel-off']);
    expect(evaluateAlerts(input({ compliance: [check({ severity: 'low' })] }), rules((r) => (r.compliance.minSeverity = 'low'))).conditions).toHaveLength(1);
    expect(evaluateAlerts(input({ compliance: [check()] }), rules((r) => (r.compliance.enabled = false))).conditions).toEqual([]);
  });

  it('leaves compliance alerts as they are where compliance was not evaluated', () => {
    expect(evaluateAlerts(input({ compliance: undefined }), DEFAULT_RULES).assessed).not.toContain('compliance');
    expect(evaluateAlerts(input(), DEFAULT_RULES).assessed).toContain('compliance');
  });
});
