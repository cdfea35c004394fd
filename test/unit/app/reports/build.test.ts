import { describe, expect, it } from 'vitest';
import { buildReport } from '../../../../app/reports/build.js';
import { AUDIT_PARTS, REPORT_KINDS, overallDataAges } from '../../../../app/reports/model.js';
import { reportModelSchema } from '../../../../app/reports/schema.js';
import { ALPHA_AT, BETA_AT, GENERATED_AT, fixtureInput } from './fixtures.js';
import { sasHdd } from '../../../support/smart-scsi.js';
import { rowsOf, tableOf } from './helpers.js';

const TIB = 1024 ** 4;
const GIB = 1024 ** 3;

describe('every report kind', () => {
  it('builds a model that matches the stored/IPC schema, deterministically, for each kind', () => {
    for (const kind of REPORT_KINDS) {
      const model = buildReport(kind, fixtureInput());
      expect(reportModelSchema.safeParse(model).success, kind).toBe(true);
      expect(buildReport(kind, fixtureInput())).toEqual(model);
      expect(model).toMatchObject({ kind, generatedAt: GENERATED_AT, generatedBy: 'auditor-os-user', appVersion: '9.9.9', source: 'cache' });
      expect(model.scope.systems.map((s) => `${s.siteName}/${s.system}`)).toEqual(['East DC/alpha', 'West DC/beta', 'West DC/gamma']);
    }
  });

  it('never carries a secret value, even one that sat in a cached answer or the action log unmasked', () => {
    for (const kind of REPORT_KINDS) {
      const text = JSON.stringify(buildReport(kind, fixtureInput()));
      expect(text).not.toMatch(/MARKER-raw/);
    }
  });
});

describe('inventory', () => {
  const model = buildReport('inventory', fixtureInput());

  it('lists systems with id, connectivity, node count, management version and state', () => {
    expect(rowsOf(model, 'inventory.systems')).toEqual([
      { site: 'East DC', system: 'alpha', id: 101, connectivity: 'Direct', nodes: 2, managementVersion: '5.5.0', replicationTargets: 'beta', state: 'ok' },
      { site: 'West DC', system: 'beta', id: null, connectivity: null, nodes: 1, managementVersion: '5.4.2', replicationTargets: null, state: 'unreachable' },
      { site: 'West DC', system: 'gamma', id: null, connectivity: null, nodes: null, managementVersion: null, replicationTargets: null, state: 'stale' },
    ]);
  });

  it('lists every hardware component with serial and firmware, NICs once (from the network list)', () => {
    const hw = rowsOf(model, 'inventory.hardware');
    const by = (name: string) => hw.find((r) => r.name === name);
    expect(by('Chassis')).toMatchObject({ component: 'Chassis', vendor: 'HPE', serial: 'CHASSIS-SER', firmware: 'BIOS U30 v2.68' });
    expect(by('sda')).toMatchObject({ component: 'Drive (HDD)', serial: 'SER-ALPHA-1', firmware: 'PCGNW232', capacity: '14.6 TiB', status: 'Warning' });
    expect(by('fc0')).toMatchObject({ component: 'FC HBA', serial: 'HBA-SER', firmware: '9.08.02' });
    expect(by('DIMM_A1')).toMatchObject({ serial: 'MEM-SER', capacity: '32 GB' });
    expect(hw.filter((r) => r.component === 'NIC')).toEqual([expect.objectContaining({ name: 'eth0', serial: '0c:c4:7a:00:00:01', capacity: '25 Gb/s' })]);
  });

  it('lists the component versions of each system', () => {
    expect(rowsOf(model, 'inventory.versions').map((r) => `${r.system} ${r.component} ${r.version} ${r.build}`)).toEqual([
      'alpha Management 5.5.0 5.5.0.2957',
      'alpha Firmware 2.14.1 20244397',
      'beta Management 5.4.2 5.4.2.100',
    ]);
  });

  it('says per system how old its data is, and that gamma has none', () => {
    expect(model.sections[0]?.dataAges).toEqual([
      { siteId: 'east', siteName: 'East DC', system: 'alpha', at: ALPHA_AT, ageSeconds: 600, state: 'ok' },
      { siteId: 'west', siteName: 'West DC', system: 'beta', at: BETA_AT, ageSeconds: 36 * 3600, state: 'unreachable' },
      { siteId: 'west', siteName: 'West DC', system: 'gamma', at: null, ageSeconds: null, state: 'stale' },
    ]);
  });
});

describe('health and capacity', () => {
  const model = buildReport('health', fixtureInput());

  it('computes whole days until the free space is gone at the least-squares growth, counted from generation time, and says so', () => {
    // 10 GiB/day exactly; 4 TiB free (usable − allocated): 409.6 days, 410 whole.
    expect(rowsOf(model, 'health.pools')).toEqual([
      {
        site: 'East DC',
        system: 'alpha',
        pool: 'hdd-pool',
        state: 'Ok',
        reason: 'None',
        capacity: 10 * TIB,
        allocated: 6 * TIB,
        consumed: 5 * TIB,
        free: 4 * TIB,
        freePercent: 50,
        growthPerDay: 10 * GIB,
        daysUntilFull: 410,
        range: '409 – 410',
        fullBy: new Date(Date.parse(GENERATED_AT) + 410 * 86_400_000).toISOString(),
        basis: 'free space (usable − allocated) used up at the growth of consumed data (least-squares line through 30 samples)',
        outlook: 'ok: growing',
      },
    ]);
  });

  it('shows a pool the system reports Full as critical and full now (no far-off date), however slowly it grows', () => {
    const input = fixtureInput();
    const alpha = input.systems[0] as (typeof input.systems)[number];
    alpha.answers['GET /monitoring/capacity/provisioning'] = { value: { Data: [{ PoolName: 'hdd-pool', State: 'Full', Reason: 'LowFreeSpace', FreeSpaceInPercentage: 0.65 }] }, at: ALPHA_AT };
    const full = buildReport('health', input);
    expect(rowsOf(full, 'health.pools')[0]).toMatchObject({ state: 'Full', freePercent: 0.65, daysUntilFull: 0, range: null, fullBy: null, basis: 'the system judges the pool full now (its state, or under 1 % free)', outlook: 'critical: full; full now' });
    expect(rowsOf(full, 'health.systems')[0]).toMatchObject({ capacityLevel: 'critical', level: 'critical' });
  });

  it('shows an allocation no pool reports as not reported, never 0 bytes', () => {
    const input = fixtureInput();
    const alpha = input.systems[0] as (typeof input.systems)[number];
    // The sizes came in a form not read (absent): only the pool's name and state are known.
    alpha.answers['GET /monitoring/health/current'] = { value: { CapacityUtilization: { PoolCapacity: [{ PoolName: 'hdd-pool' }] } }, at: ALPHA_AT };
    alpha.answers['GET /monitoring/capacity/pools/current'] = { value: { CapacityUsage: [{ Name: 'hdd-pool' }] }, at: ALPHA_AT };
    const row = rowsOf(buildReport('health', input), 'health.systems')[0];
    expect(row).toMatchObject({ capacity: null, allocated: null, allocatedPercent: null });
  });

  it('summarises health per system and lists unhealthy volumes, hardware problems and warnings', () => {
    // 75 % of volumes healthy is below the roll-up's critical threshold, as the overview shows it.
    // Usable and allocated are the pools' sums, as the overview totals them (the fixture's health
    // record says 5 TiB allocated for the system while its one pool says 6: the pools decide).
    expect(rowsOf(model, 'health.systems')[0]).toMatchObject({ level: 'critical', volumesHealth: 75, unhealthyVolumes: 1, hardwareHealth: 98.2, unhealthyResources: 'Drive: 2', capacity: 10 * TIB, allocated: 6 * TIB, allocatedPercent: 60, capacityLevel: 'ok' });
    expect(rowsOf(model, 'health.unhealthyVolumes')).toEqual([{ site: 'East DC', system: 'alpha', volume: 'db/log', state: 'Degraded', level: 'warning' }]);
    // sda's SMART text is past its critical limits: the drive is critical, as in every view, and the row says why.
    expect(rowsOf(model, 'health.hardwareProblems').map((r) => `${r.name} ${r.status} ${r.level}`)).toEqual(['sda Warning critical', 'sdz Failed critical']);
    expect(String(rowsOf(model, 'health.hardwareProblems')[0]!.error)).toMatch(/SMART risk critical: /);
    expect(rowsOf(model, 'health.notifications').map((r) => `${r.time} ${r.level} ${r.message}`)).toEqual([
      '2025-01-15T10:00:00Z Critical Drive sdz failed.',
      '2025-01-14T09:00:00Z Warning Fan FAN2 below nominal speed.',
    ]);
  });
});

describe('hardware and SMART risk', () => {
  const model = buildReport('smart', fixtureInput());

  it('classifies each drive from its SMART text and status, worst first', () => {
    expect(rowsOf(model, 'smart.drives').map((r) => `${r.drive} ${r.risk} ${r.serial}`)).toEqual(['sda critical SER-ALPHA-1', 'sdz critical SER-ALPHA-3', 'nvme0n1 ok SER-ALPHA-2']);
    const sda = rowsOf(model, 'smart.drives')[0];
    expect(sda).toMatchObject({ selfAssessment: 'PASSED', smartAt: ALPHA_AT });
    expect(String(sda?.findings)).toMatch(/5 Reallocated_Sector_Ct: raw count 150 is at or above 100/);
  });

  it('counts drives by risk per system and lists every finding', () => {
    expect(rowsOf(model, 'smart.summary')).toEqual([
      { site: 'East DC', system: 'alpha', drives: 3, critical: 2, warning: 0, ok: 1, unknown: 0, noData: 0 },
      { site: 'West DC', system: 'beta', drives: 0, critical: 0, warning: 0, ok: 0, unknown: 0, noData: 0 },
      { site: 'West DC', system: 'gamma', drives: 0, critical: 0, warning: 0, ok: 0, unknown: 0, noData: 0 },
    ]);
    expect(rowsOf(model, 'smart.findings').map((r) => `${r.drive} ${r.risk} ${r.subject}`)).toEqual(['sda warning drive status', 'sda critical 5 Reallocated_Sector_Ct', 'sdz critical drive status']);
  });

  it('rates a SAS drive from its SCSI text and counts text it cannot read as unknown, never ok', () => {
    const input = fixtureInput();
    const alpha = input.systems[0] as (typeof input.systems)[number];
    const [sas, unread] = [101, 102];
    const resources = alpha.answers['GET /resources/list']?.value as { Data: Array<{ Name: string; Drives: object[] }> };
    resources.Data[0]?.Drives.push(
      { Name: 'sdb', Id: sas, Type: 'HDD', Vendor: 'HGST', Model: 'HUH721212AL5200', ResourceSerial: 'SER-SAS-1', ResourceStatus: 'OK' },
      { Name: 'sdc', Id: unread, Type: 'HDD', Vendor: 'HGST', Model: 'HUH721212AL5200', ResourceSerial: 'SER-SAS-2', ResourceStatus: 'OK' },
    );
    alpha.smart.push(
      { node: 'alpha-n1', driveId: sas, value: sasHdd({ grownDefects: 2500, uncorrected: { read: 57 } }), at: ALPHA_AT },
      { node: 'alpha-n1', driveId: unread, value: 'Smartctl open device: /dev/sdc failed: DELL or MegaRaid controller', at: ALPHA_AT },
    );
    const model = buildReport('smart', input);
    const drives = rowsOf(model, 'smart.drives');
    expect(drives.find((r) => r.drive === 'sdb')).toMatchObject({ risk: 'critical', selfAssessment: 'OK' });
    expect(String(drives.find((r) => r.drive === 'sdb')?.findings)).toMatch(/Elements in grown defect list: 2500 .*read: Total uncorrected errors: 57 uncorrected read errors/);
    expect(drives.find((r) => r.drive === 'sdc')).toMatchObject({ risk: 'unknown' });
    // Worst first: the unknown drive after every warning and critical one, before the ok one.
    expect(drives.map((r) => r.risk)).toEqual(['critical', 'critical', 'critical', 'unknown', 'ok']);
    expect(rowsOf(model, 'smart.summary')[0]).toMatchObject({ drives: 5, critical: 3, ok: 1, unknown: 1, noData: 0 });
    expect(rowsOf(model, 'smart.findings').filter((r) => r.drive === 'sdc').map((r) => `${r.risk} ${r.subject}`)).toEqual(['unknown format']);
  });

  it('counts a SMART answer that is neither text nor smartctl JSON as unknown, not as no data', () => {
    const input = fixtureInput();
    const nvme = input.systems[0]?.smart[1];
    if (nvme) nvme.value = { health: 'fine', wear: 3 };
    const model = buildReport('smart', input);
    expect(rowsOf(model, 'smart.drives').find((r) => r.drive === 'nvme0n1')).toMatchObject({ risk: 'unknown' });
    expect(rowsOf(model, 'smart.summary')[0]).toMatchObject({ ok: 0, unknown: 1, noData: 0 });
  });

  it('reads smartctl --json output as its text: a failing NVMe log is critical', () => {
    const input = fixtureInput();
    const nvme = input.systems[0]?.smart[1];
    if (nvme) nvme.value = JSON.stringify({ smart_status: { passed: false }, nvme_smart_health_information_log: { critical_warning: 4, available_spare: 100, available_spare_threshold: 10, percentage_used: 3, media_errors: 0 } });
    const model = buildReport('smart', input);
    expect(rowsOf(model, 'smart.drives').find((r) => r.drive === 'nvme0n1')).toMatchObject({ risk: 'critical' });
  });
});

describe('configuration snapshot', () => {
  const model = buildReport('config', fixtureInput());

  it('shows volumes with encryption on/off and never the key', () => {
    expect(rowsOf(model, 'config.volumes').map((r) => `${r.application}/${r.volume} ${r.encryption} ${r.protection} ${r.state}`)).toEqual([
      'db/data on 4+2 Ok',
      'db/log on 4+2 Degraded',
      'share/files off 4+2 Ok',
    ]);
  });

  it('shows hosts with WWNs/IQNs/NQNs and CHAP only as set, not set or not reported', () => {
    const hosts = rowsOf(model, 'config.hosts');
    expect(hosts.map((r) => `${r.host} ${r.chap}`)).toEqual(['esx01 set', '=HYPERLINK("http://evil") not set', 'k8s not reported', 'esx01-dr not reported']);
    expect(hosts[0]).toMatchObject({ wwns: '21:00:00:24:ff:00:00:01', iqn: 'iqn.1998-01.com.vmware:esx01', pairs: 'beta/esx01-dr' });
    expect(hosts[2]?.nqn).toBe('nqn.2014-08.org.nvmexpress:uuid:1');
  });

  it('shows mappings with LUNs, replication with its state, schedules, NAS servers and floating IPs', () => {
    expect(rowsOf(model, 'config.mappings').map((r) => `${r.host} ${r.application}/${r.volume} ${r.lun}`)).toEqual(['esx01 db/data 0', 'esx01 db/log 1']);
    expect(rowsOf(model, 'config.replication')).toEqual([
      { site: 'East DC', system: 'alpha', application: 'db', volume: 'data', role: 'Primary', localData: 'UpToDate', remoteSystem: 'beta', remoteApplication: 'db-dr', remoteVolume: 'data', protocol: 'Synchronous', connection: 'InSync', remoteData: 'UpToDate', sync: 100, level: 'ok' },
    ]);
    expect(rowsOf(model, 'config.schedules')[0]).toMatchObject({ application: 'db', consistencyGroup: 1, schedules: 'hourly, daily', volumes: 'data, log', snapshots: 2 });
    expect(rowsOf(model, 'config.nasServers')[0]).toMatchObject({ name: 'ALPHA-NAS', directory: 'corp.example.com', directoryUser: 'svc-join', floatingIps: 'nas-fip' });
    expect(rowsOf(model, 'config.floatingIps')[0]).toMatchObject({ name: 'nas-fip', address: '10.0.0.200', owner: 'alpha-n1', paired: 'beta/nas-fip-dr' });
  });

  it('shows users with roles and 2FA, notification targets, and node security as set / not set', () => {
    expect(rowsOf(model, 'config.users').map((r) => `${r.system} ${r.user} ${r.role} ${r.twoFactor}`)).toEqual(['alpha admin Administrator on', 'alpha auditor Viewer off', 'beta admin Administrator off']);
    expect(rowsOf(model, 'config.notificationTargets').map((r) => `${r.name} ${r.enabled} ${r.modules}`)).toEqual(['ops-email true all', 'trap false Hardware']);
    // Enumerations the systems report as numbers read by their names.
    expect(rowsOf(model, 'config.notificationTargets').map((r) => `${r.type} ${r.minLevel}`)).toEqual(['E-mail Warning', 'SNMP Error']);
    expect(rowsOf(model, 'config.email').map((r) => r.secureSocket)).toEqual(['StartTls']);
    expect(rowsOf(model, 'config.nodeSecurity')).toEqual([
      { site: 'East DC', system: 'alpha', node: 'alpha-n1', targetChap: 'set', isns: 'set', isnsAccessControl: 'on', sed: 'supplied', supportTunnel: 'Enabled (session 42)' },
      { site: 'East DC', system: 'alpha', node: 'alpha-n2', targetChap: 'not set', isns: 'not set', isnsAccessControl: 'off', sed: 'not supplied', supportTunnel: 'Disabled' },
      { site: 'West DC', system: 'beta', node: 'beta-n1', targetChap: 'not reported', isns: 'not reported', isnsAccessControl: null, sed: null, supportTunnel: null },
    ]);
    // iSNS address and CHAP name are settings of a secret: the report says only whether they are set.
    const text = JSON.stringify(model);
    expect(text).not.toContain('10.0.0.5');
    expect(text).not.toContain('"tgt"');
  });
});

describe('action log', () => {
  const model = buildReport('actions', fixtureInput());

  it('lists the period’s records with site names, masked parameters and the chain check', () => {
    const rows = rowsOf(model, 'actions.records');
    expect(rows.map((r) => `${r.seq} ${r.site}/${r.system} ${r.operation} ${r.result}`)).toEqual(['1 East DC/alpha POST /hosts/create ok', '2 gone-site/x DELETE /hosts/delete error']);
    expect(JSON.parse(String(rows[0]?.parameters))).toEqual({ query: {}, body: { Name: 'esx01', ChapSecret: '[redacted]' } });
    expect(rowsOf(model, 'actions.verification')).toEqual([{ checkedRecords: 2, intact: true, problems: null, period: 'from 2025-01-01T00:00:00.000Z until now', shown: 2 }]);
    expect(model.sections[0]?.dataAges).toEqual([]);
  });

  it('puts a broken chain in the notes', () => {
    const input = fixtureInput();
    input.actions.verification = { ok: false, count: 2, writes: 1, problems: [{ seq: 2, reason: 'record content does not match its hash: it was edited' }] };
    const broken = buildReport('actions', input);
    expect(rowsOf(broken, 'actions.verification')[0]).toMatchObject({ intact: false, problems: 'record 2: record content does not match its hash: it was edited' });
    expect(broken.notes.join('\n')).toMatch(/failed its hash chain check/);
  });
});

describe('audit pack', () => {
  const model = buildReport('audit', fixtureInput());

  it('contains every kind’s section in order', () => {
    expect(model.sections.map((s) => s.kind)).toEqual([...AUDIT_PARTS]);
    expect(tableOf(model, 'config.hosts').rows).toHaveLength(4);
    expect(tableOf(model, 'actions.records').rows).toHaveLength(2);
  });

  it('notes up front which systems were unreachable or have no data, with the age of the oldest data', () => {
    const notes = model.notes.join('\n');
    expect(notes).toMatch(/offline cache only/);
    expect(notes).toContain(`West DC / beta was unreachable when this report was made; its oldest data is from ${BETA_AT} (1.5 d old)`);
    expect(notes).toContain('West DC / gamma: nothing cached');
    expect(notes).not.toContain('alpha');
    expect(overallDataAges(model).map((a) => `${a.system} ${a.at}`)).toEqual([`alpha ${ALPHA_AT}`, `beta ${BETA_AT}`, 'gamma null']);
  });

  it('says when the data was refreshed first and names sites that failed', () => {
    const input = fixtureInput();
    input.source = 'fresh';
    input.siteProblems = [{ siteName: 'West DC', message: 'could not be refreshed for this report (connection refused)' }];
    const fresh = buildReport('audit', input);
    expect(fresh.source).toBe('fresh');
    expect(fresh.notes.join('\n')).toMatch(/right after refreshing/);
    expect(fresh.notes).toContain('Site West DC: could not be refreshed for this report (connection refused)');
  });
});
