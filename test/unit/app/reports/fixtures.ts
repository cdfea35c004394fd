import type { ReportInput, SystemSnapshot } from '../../../../app/reports/snapshot.js';

/** When the fixture report is generated. */
export const GENERATED_AT = '2025-01-15T12:00:00.000Z';
/** Data of system alpha was read 10 minutes before; beta's a day and a half before. */
export const ALPHA_AT = '2025-01-15T11:50:00.000Z';
export const BETA_AT = '2025-01-14T00:00:00.000Z';

export const ATA_SMART = `smartctl 7.3 2022-02-28 r5338 [x86_64-linux-5.15.0-91-generic] (local build)
=== START OF INFORMATION SECTION ===
Device Model:     WUH721816ALE6L4
Serial Number:    SER-ALPHA-1
Firmware Version: PCGNW232

=== START OF READ SMART DATA SECTION ===
SMART overall-health self-assessment test result: PASSED

ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE
  5 Reallocated_Sector_Ct   0x0033   098   098   010    Pre-fail  Always             - 150
  9 Power_On_Hours          0x0032   092   092   000    Old_age   Always             - 8201
197 Current_Pending_Sector  0x0012   100   100   000    Old_age   Always             - 0
`;

export const NVME_SMART = `smartctl 7.3 2022-02-28 r5338
=== START OF INFORMATION SECTION ===
Model Number:                       SSDPE2KX040T8
Serial Number:                      SER-ALPHA-2
Firmware Version:                   VDV10170

=== START OF SMART DATA SECTION ===
SMART overall-health self-assessment test result: PASSED

SMART/Health Information (NVMe Log 0x02)
Critical Warning:                   0x00
Temperature:                        39 Celsius
Available Spare:                    100%
Available Spare Threshold:          10%
Percentage Used:                    10%
Media and Data Integrity Errors:    0
`;

const day = (n: number): string => new Date(Date.UTC(2025, 0, 15 - n)).toISOString().replace('.000Z', 'Z');

/** 30 daily points growing 10 GiB a day towards a 10 TiB pool holding 5 TiB now. */
function history(): unknown {
  const gib = 1024 ** 3;
  return {
    PerformanceStatstics: Array.from({ length: 30 }, (_, i) => ({ PoolName: 'hdd-pool', Time: day(29 - i), TotalConsumedSizeInBytes: 5 * 1024 * gib - (29 - i) * 10 * gib })),
  };
}

function alpha(): SystemSnapshot {
  const at = ALPHA_AT;
  const a = (value: unknown) => ({ value, at });
  const volume = (Application: string, Volume: string, extra: Record<string, unknown> = {}) => ({
    Application,
    Volume,
    CapacityInBytes: 2 * 1024 ** 4,
    Pool: 'hdd-pool',
    MetadataPool: 'nvme-pool',
    N: 4,
    K: 2,
    State: 'Ok',
    Encrypted: false,
    ReadOnly: false,
    Cgid: 1,
    Naa: '600500',
    ...extra,
  });
  return {
    siteId: 'east',
    siteName: 'East DC',
    system: 'alpha',
    state: 'ok',
    info: { Id: 101, Name: 'alpha', Connectivity: 'Direct', ReplicationTargetSystems: ['beta'] },
    answers: {
      'GET /nodes/list': a({
        Data: [
          {
            Name: 'alpha-n1',
            Id: 1,
            State: 'Running',
            HAState: 'Normal',
            Iqn: 'iqn.2012-06.com.example:alpha.n1',
            Wwn: ['50:01'],
            IpAddresses: ['10.0.0.11'],
            Services: ['Block'],
            Vols: 2,
            SupportTunnelStatus: 'Disabled',
            TargetChap: { ChapName: 'tgt', ChapSecret: '[redacted]' },
            Isns: { IsnsAddress: '10.0.0.5', AccessControl: true },
            IsSEDPasswordSupplied: true,
          },
          { Name: 'alpha-n2', Id: 2, State: 'Running', HAState: 'Normal', TargetChap: { ChapName: '' }, Isns: { IsnsAddress: '', AccessControl: false }, IsSEDPasswordSupplied: false },
        ],
      }),
      'GET /resources/list': a({
        Data: [
          {
            Name: 'alpha-n1',
            Drives: [
              { Name: 'sda', Id: 1, Type: 'HDD', Vendor: 'WDC', Model: 'WUH721816ALE6L4', ResourceSerial: 'SER-ALPHA-1', Version: 'PCGNW232', CapacityInBytes: 16e12, ResourceStatus: 'Warning', ErrMsg: 'Reallocated sectors' },
              { Name: 'nvme0n1', Id: 2, Type: 'NVMe', Model: 'SSDPE2KX040T8', ResourceSerial: 'SER-ALPHA-2', Version: 'VDV10170', ResourceStatus: 'OK' },
              { Name: 'sdz', Id: 3, Type: 'HDD', Model: 'X', ResourceSerial: 'SER-ALPHA-3', ResourceStatus: 'Failed', ErrMsg: 'Drive failed: unrecoverable media errors.' },
            ],
            CPU: [{ Name: 'CPU0', Vendor: 'GenuineIntel', Brand: 'Xeon Silver', ResourceSerial: 'CPU-SER', CoreCount: '16', ResourceStatus: 'OK' }],
            Memory: [{ Name: 'DIMM_A1', Manufacturer: 'Samsung', Capacity: '32 GB', MemoryType: 'DDR4', Serial: 'MEM-SER', ResourceStatus: 'OK' }],
            Chassis: [{ Name: 'Chassis', ProductVendor: 'HPE', ProductName: 'ProLiant DL380', ProductSerial: 'CHASSIS-SER', BiosVersion: 'U30 v2.68', ResourceStatus: 'OK' }],
            FibreChannelHostBusAdapters: [{ Name: 'fc0', Model: 'QLE2772', FirmwareVersion: '9.08.02', ResourceSerial: 'HBA-SER', ResourceStatus: 'OK' }],
          },
        ],
      }),
      'GET /resources/network/list': a({ Data: [{ Name: 'alpha-n1', NetworkInterfaceCards: [{ Name: 'eth0', Vendor: 'Intel', Device: '0000:03:00.0', ResourceSerial: '0c:c4:7a:00:00:01', SpeedGbs: 25, ResourceStatus: 'OK' }] }] }),
      'GET /nodes/support/tunnel/status': a({ Data: [{ Name: 'alpha-n1', SupportTunnelStatus: 'Enabled (session 42)' }, { Name: 'alpha-n2', SupportTunnelStatus: 'Disabled' }] }),
      'GET /monitoring/health/current': a({
        Volumes: { VolumesHealthInPercentage: 75, HealthyVolumes: 3, UnhealthyVolumes: 1, UnhealthyStates: { 'db/log': 'Degraded' } },
        HardwareResources: { HardwareResourcesHealthInPercentage: 98.2, UnhealthyResourceCount: { Drive: 2 } },
        HardwareUtilization: { CPUInPercentage: 56, MemoryInPercentage: 62 },
        CapacityUtilization: { CapacityInBytes: 10 * 1024 ** 4, CapacityUsageInBytes: 5 * 1024 ** 4, PoolCapacity: [{ PoolName: 'hdd-pool', CapacityInBytes: 10 * 1024 ** 4, CapacityUsageInBytes: 6 * 1024 ** 4 }] },
      }),
      'GET /monitoring/capacity/pools/current': a({ CapacityUsage: [{ Name: 'hdd-pool', TotalAllocatedSizeInBytes: 6 * 1024 ** 4, TotalConsumedSizeInBytes: 5 * 1024 ** 4, FreeCapacityInBytes: 4 * 1024 ** 4 }] }),
      'GET /monitoring/capacity/pools/history': a(history()),
      'GET /monitoring/capacity/provisioning': a({ Data: [{ PoolName: 'hdd-pool', State: 'Ok', Reason: 'None', FreeSpaceInPercentage: 50 }] }),
      'GET /notifications/query': a({
        Data: [
          { Timestamp: '2025-01-15T10:00:00Z', Node: 'alpha-n1', Id: 3, Level: 5, Module: 'Hardware', Message: 'Drive sdz failed.' },
          { Timestamp: '2025-01-15T09:00:00Z', Node: 'alpha-n1', Id: 2, Level: 2, Module: 'Authentication', Message: "User 'admin' logged in." },
          { Timestamp: '2025-01-14T09:00:00Z', Node: 'alpha-n2', Id: 1, Level: 3, Module: 'Hardware', Message: 'Fan FAN2 below nominal speed.' },
        ],
      }),
      'GET /applications/list': a({
        Data: [
          {
            Application: 'db',
            Template: 'Database',
            Description: '<script>alert(1)</script> OLTP',
            Volumes: [volume('db', 'data', { Encrypted: true, EncryptionKey: 'MARKER-raw-key-in-cache' }), volume('db', 'log', { Encrypted: true, State: 'Degraded' })],
            ConsistencyGroups: [{ Id: 1, SnapshotScheduler: ['hourly', 'daily'], Volumes: [{ Volume: 'data' }, { Volume: 'log' }], Snapshots: [{ Id: 1 }, { Id: 2 }] }],
          },
          { Application: 'share', Template: 'FileShare', Description: 'Files', Volumes: [volume('share', 'files')], ConsistencyGroups: [] },
        ],
      }),
      'GET /hosts/list': a({
        Data: [
          { Name: 'esx01', Ip: '10.1.0.1', Wwns: ['21:00:00:24:ff:00:00:01'], Iqn: 'iqn.1998-01.com.vmware:esx01', Nqn: '', ChapSecret: '[redacted]', Pairs: [{ RemoteSystem: 'beta', RemoteHost: 'esx01-dr' }] },
          { Name: '=HYPERLINK("http://evil")', Ip: '10.1.0.2', Wwns: [], Iqn: 'iqn.x:evil', ChapSecret: '' },
          { Name: 'k8s', Ip: '10.1.0.3', Nqn: 'nqn.2014-08.org.nvmexpress:uuid:1' },
        ],
      }),
      'GET /hosts/mappings/list': a({ Data: [{ Application: 'db', Host: 'esx01', Volumes: ['data', 'log'], LunIds: ['0', '1'] }] }),
      'GET /replication/list': a({
        Data: [
          {
            Application: 'db',
            Volumes: [
              {
                Application: 'db',
                Volume: 'data',
                Replication: {
                  Role: 'Primary',
                  LocalDataStatus: 'UpToDate',
                  ReplicationPairs: [{ RemoteSystemName: 'beta', RemoteAppName: 'db-dr', RemoteVolName: 'data', ReplicationProtocol: 'Synchronous', ConnectionStatus: 'InSync', RemoteDataStatus: 'UpToDate', SyncInPercentage: 100 }],
                },
              },
              { Application: 'db', Volume: 'log', Replication: { Role: 'None', ReplicationPairs: [] } },
            ],
          },
        ],
      }),
      'GET /nas_servers/list': a({ Data: [{ Name: 'ALPHA-NAS', Workgroup: 'WORKGROUP', DirectoryService: 'corp.example.com', Username: 'svc-join', Password: 'MARKER-raw-nas-password', FloatingIps: ['nas-fip'] }] }),
      'GET /floatingips/list': a({ Data: [{ Name: 'nas-fip', Address: '10.0.0.200', Mask: '255.255.255.0', Gateway: '10.0.0.1', OwnerNode: 'alpha-n1', Nodes: ['alpha-n1', 'alpha-n2'], Interfaces: ['eth2'], Dummy: false, PairedFloatingIps: [{ RemoteSystemName: 'beta', Name: 'nas-fip-dr' }] }] }),
      'GET /users/list': a({
        Data: [
          { Name: 'admin', Email: 'admin@example.com', Role: 'Administrator', TwoStepAuthenticationEnabled: true },
          { Name: 'auditor', Email: 'auditor@example.com', Role: 'Viewer', TwoStepAuthenticationEnabled: false },
        ],
      }),
      'GET /notifications/settings/show': a({
        EmailSettings: { MailServerAddress: 'smtp.example.com', MailServerPort: 587, MailServerUsername: 'mailer', SendingEmailAddress: 'storage@example.com', SecureSocketOption: 3, ValidateCertificate: true },
        NotificationTargets: [
          { Name: 'ops-email', Type: 0, MinEventLevel: 3, ModulesListenedTo: [], VisibleToCustomers: true, IsEnabled: true },
          { Name: 'trap', Type: 3, MinEventLevel: 4, ModulesListenedTo: ['Hardware'], VisibleToCustomers: false, IsEnabled: false },
        ],
      }),
      'GET /settings/anomaly_detection/show': a({ TimeframeDays: 7, AbnormalChangePercentage: 30 }),
      'GET /Version': a({ Versions: [{ Component: 'Management', Version: '5.5.0', BuildNumber: '5.5.0.2957' }, { Component: 'Firmware', Version: '2.14.1', BuildNumber: '20244397' }] }),
    },
    smart: [
      { node: 'alpha-n1', driveId: 1, value: ATA_SMART, at },
      { node: 'alpha-n1', driveId: 2, value: NVME_SMART, at },
    ],
  };
}

function beta(): SystemSnapshot {
  const a = (value: unknown) => ({ value, at: BETA_AT });
  return {
    siteId: 'west',
    siteName: 'West DC',
    system: 'beta',
    state: 'unreachable',
    answers: {
      'GET /nodes/list': a({ Data: [{ Name: 'beta-n1', Id: 7, State: 'Running', HAState: 'Normal' }] }),
      'GET /Version': a({ Versions: [{ Component: 'Management', Version: '5.4.2', BuildNumber: '5.4.2.100' }] }),
      'GET /hosts/list': a({ Data: [{ Name: 'esx01-dr', Iqn: 'iqn.1998-01.com.vmware:esx01-dr' }] }),
      'GET /users/list': a({ Data: [{ Name: 'admin', Role: 'Administrator', TwoStepAuthenticationEnabled: false }] }),
    },
    smart: [],
  };
}

function gamma(): SystemSnapshot {
  return { siteId: 'west', siteName: 'West DC', system: 'gamma', state: 'stale', answers: {}, smart: [] };
}

/** A snapshot of three systems: alpha fully cached, beta partly and old (unreachable), gamma empty. */
export function fixtureInput(): ReportInput {
  return {
    generatedAt: GENERATED_AT,
    generatedBy: 'auditor-os-user',
    appVersion: '9.9.9',
    source: 'cache',
    sites: [
      { id: 'east', name: 'East DC' },
      { id: 'west', name: 'West DC' },
    ],
    systems: [alpha(), beta(), gamma()],
    siteProblems: [],
    period: { since: '2025-01-01T00:00:00.000Z', until: null },
    actions: {
      records: [
        {
          seq: 1,
          at: '2025-01-10T08:00:00.000Z',
          user: 'alice as admin',
          siteId: 'east',
          system: 'alpha',
          operation: 'POST /hosts/create',
          params: { query: {}, body: { Name: 'esx01', ChapSecret: 'MARKER-raw-chap-in-log' } },
          result: 'ok',
          message: 'Host esx01 created.',
          hash: 'a'.repeat(64),
        },
        { seq: 2, at: '2025-01-11T08:00:00.000Z', user: 'alice as admin', siteId: 'gone-site', system: 'x', operation: 'DELETE /hosts/delete', params: { query: { name: 'old' }, body: null }, result: 'error', message: 'Host old does not exist', hash: 'b'.repeat(64) },
      ],
      verification: { ok: true, count: 2, writes: 1, problems: [] },
    },
  };
}
