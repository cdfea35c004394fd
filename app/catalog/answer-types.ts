import { scalarOf } from './fields.js';
import type { ScalarType } from './types.js';

/**
 * The resource types of section 2 of docs/interface.md as data: what the response normaliser
 * (`app/answers/normalise.ts`) checks every 200 answer against. `resources.ts` holds the same
 * types for the compiler; a test keeps the two in step.
 *
 * Field notation as in the catalog (`fields.ts`): `S` string, `I` integer, `N` number, `B`
 * boolean, `dt` date-time, `[X]` array of X, `{X}` map of string to X, and a capitalised word the
 * named type of this table (so types may nest and recur, as Workflow does).
 */

/** A field's type in an answer: a scalar, an array, a map of string keys, or a named answer type. */
export type AnswerValueType =
  | ScalarType
  | { readonly array: AnswerValueType }
  | { readonly map: AnswerValueType }
  | { readonly ref: string };

export interface AnswerField {
  readonly name: string;
  readonly type: AnswerValueType;
  /**
   * Known spellings of an enumeration (the document's sample and the values the app and the
   * simulator use). A value matching one case-insensitively takes its spelling; others are kept.
   */
  readonly values?: readonly string[];
}

export interface AnswerType {
  readonly name: string;
  readonly fields: readonly AnswerField[];
}

type Enums = Readonly<Record<string, readonly string[]>>;

function parseType(text: string): AnswerValueType {
  if (text.startsWith('[') && text.endsWith(']')) return { array: parseType(text.slice(1, -1)) };
  if (text.startsWith('{') && text.endsWith('}')) return { map: parseType(text.slice(1, -1)) };
  const scalar = scalarOf(text);
  if (scalar) return scalar;
  if (!/^[A-Z]\w*$/.test(text)) throw new Error(`answer types: bad type "${text}"`);
  return { ref: text };
}

function type(name: string, spec: string, enums: Enums = {}): AnswerType {
  const fields = spec.split(',').map((part): AnswerField => {
    const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(part);
    if (!m) throw new Error(`answer types: bad field "${part}" in ${name}`);
    const [, field, t] = m as unknown as [string, string, string];
    const values = enums[field];
    return values ? { name: field, type: parseType(t), values } : { name: field, type: parseType(t) };
  });
  for (const e of Object.keys(enums)) if (!fields.some((f) => f.name === e)) throw new Error(`answer types: ${name} has no field ${e}`);
  return { name, fields };
}

const RESOURCE_STATUS = ['OK', 'Warning', 'Degraded', 'Failed', 'Missing'];
const REPLICATION_ROLE = ['Unknown', 'None', 'Primary', 'Secondary'];
const DATA_STATUS = ['NotAvailable', 'UpToDate', 'Inconsistent'];
const NODE_STATE = ['Running', 'Down'];
const HA_STATE = ['Unknown', 'Normal', 'TakenOver', 'TakeoverActive'];
const PROVISIONING_STATE = ['Ok', 'Warning', 'Full', 'Degraded'];
/** Fields every hardware component carries (2.6). */
const COMPONENT = 'ResourceSerial S, ResourceStatus S, ErrMsg S, Sensors [Sensor]';
const COMPONENT_ENUMS = { ResourceStatus: RESOURCE_STATUS };
const VOLUME_LAYOUT =
  'Application S, Volume S, Id I, CapacityInBytes I, SnapshotCapacityInBytes I, Tiers Tiers, Pool S, StripedPools [S], Log2StrideSectors I, ' +
  'MetadataPool S, StripedMetadataPools [S], N I, K I, MetadataN I, MetadataK I, SectorSize S, Cgid I, GroupedVolume S';

const TYPES: readonly AnswerType[] = [
  // 2.1–2.3
  type('Application', 'Application S, Template S, Description S, Volumes [Volume], ConsistencyGroups [ConsistencyGroup], Vms [ApplicationVm]'),
  type('ApplicationVm', 'Name S, VolumeName S'),
  type(
    'Volume',
    'Application S, Volume S, VolumeEntityId I, Id I, MetadataVolumeEntityId I, IsInternalVolume B, IsRoot B, CapacityInBytes I, ' +
      'SnapshotCapacityInBytes I, Tiers Tiers, State S, Vms [S], Shares [Share], Profile S, Mapping [VolumeMapping], Naa S, StatsInfo StatsInfo, ' +
      'FileSystemInformation FileSystemInformation, Object ObjectStore, ConnectivityType S, Replication Replication, Pool S, MetadataPool S, ' +
      'StripedPools [S], StripedMetadataPools [S], Log2StrideSectors I, DataDegradationHistogram [I], MetadataDegradationHistogram [I], N I, K I, ' +
      'MetadataN I, MetadataK I, SectorSize S, Cgid I, GroupedVolume S, DisableSpaceReclamation B, SaveEncryptedRecoveryKey B, Encrypted B, ' +
      'ReadOnly B, Force B, EncryptionKey S, Uptime S',
    { State: ['Ok', 'Degraded', 'Locked'], ConnectivityType: ['None', 'Block', 'Nas'] },
  ),
  type('VolumeMapping', 'Host S, LunId I'),
  type(
    'Tiers',
    'TierEntityIds [I], TierPools [S], TierN [I], TierK [I], TierSizesInBytes [I], EvacuationThresholdsInPercentage [N], ' +
      'LowerThresholdsInPercentage [N], TierDataDegradationHistogram [[I]], TierMetadataDegradationHistogram [[I]]',
  ),
  type('Share', 'Application S, Volume S, Share S, Path S, Browsable B, RecycleBin B, ReadonlyAccess B, Smb B, Nfs B, AllowedSubnets [S]'),
  type(
    'StatsInfo',
    'UserDataAllocatedSizeInBytes N, UserDataConsumedSizeInBytes N, UpperTierAllocatedSizeInBytes N, UpperTierConsumedSizeInBytes N, ' +
      'RetentionAllocatedSizeInBytes N, RetentionConsumedSizeInBytes N, VRAIDAllocatedSizeInBytes N, VRAIDConsumedSizeInBytes N, Iops N, ' +
      'LatencyInMilliseconds N, IoSizeInBytes N, ThroughputInBytes N',
  ),
  type(
    'FileSystemInformation',
    'MountState S, ReplicationMetadata S, EnableSnapX B, Profile S, FilesystemState S, InodeCount S, FreeInodes S, BlockSize S, BlockCount S, ' +
      'FreeBlocks S, FilesystemCreated S, LastMountTime S, LastWriteTime S, MountCount S, LastChecked S, LifeTimeWrites S',
    { MountState: ['Mounted', 'Unmounted'], ReplicationMetadata: ['None', 'Present'] },
  ),
  type('ObjectStore', 'Application S, Volume S, IP S, FloatingIp S, Port I, EnableSsl B, AccessKeys [S], ObjectProvider S'),
  type('Replication', 'IpAddress S, Port I, Role S, InternalRole S, LocalDataStatus S, ReplicationPairs [ReplicationPair]', {
    Role: REPLICATION_ROLE,
    InternalRole: REPLICATION_ROLE,
    LocalDataStatus: DATA_STATUS,
  }),
  type(
    'ReplicationPair',
    'SyncInPercentage N, ReplicationId I, RemoteSystemName S, RemoteSystemId I, RemoteSystemRole S, IpAddress S, Port I, RemoteAppName S, ' +
      'RemoteVolName S, ReplicationProtocol S, ConnectionStatus S, RemoteDataStatus S, RemoteDiskStatus S',
    {
      RemoteSystemRole: REPLICATION_ROLE,
      ReplicationProtocol: ['None', 'Synchronous', 'Semisynchronous', 'Asynchronous'],
      ConnectionStatus: ['Initializing', 'Syncing', 'InSync'],
      RemoteDataStatus: DATA_STATUS,
      RemoteDiskStatus: ['Unknown', 'Ok'],
    },
  ),
  type(
    'ConsistencyGroup',
    'Id I, ParentConsistencyGroupId I, ParentSnapshotId I, WorkerProcess I, SnapshotScheduler [S], IsVssBasedSnapshotScheduler B, ' +
      'IsDirectVssMapping B, IsAvailable B, VssInitiators [S], Volumes [Volume], Snapshots [Snapshot]',
  ),
  type('Snapshot', 'Id I, Date dt, Owner S', { Owner: ['None', 'Scheduler', 'User'] }),
  // 2.4
  type('Template', 'Application S, Description S, Volumes [TemplateVolume], ConsistencyGroups [TemplateConsistencyGroup]'),
  type('TemplateConsistencyGroup', 'Id I, SnapshotScheduler [S], VolumeShadowCopySupport B, Volumes [TemplateVolume]'),
  type('TemplateVolume', VOLUME_LAYOUT),
  // 2.5
  type('Host', 'Name S, Ip S, Iqn S, Nqn S, ChapSecret S, Wwns [S], Mappings [HostVolumeMapping], Pairs [HostPair]'),
  type('HostVolumeMapping', 'Application S, Volume S, LunId I'),
  type('HostPair', 'RemoteSystem S, RemoteHost S'),
  type('HostMapping', 'Application S, Host S, Volumes [S], LunIds [S]'),
  // 2.6
  type(
    'Node',
    'Name S, Id I, Time dt, State S, HAState S, CurrentManagementConnection B, Vols I, Iqn S, IsSEDPasswordSupplied B, Wwn [S], Volumes [S], ' +
      'Sensors [Sensor], Services [S], Sessions [S], SupportTunnelStatus S, Drives [Drive], CPU [Cpu], Memory [MemoryModule], ' +
      'NetworkInterfaceCards [Nic], FibreChannelHostBusAdapters [Hba], Chassis [Chassis], Pings [Ping], IpAddresses [S], TargetChap TargetChap, Isns Isns',
    { State: NODE_STATE, HAState: HA_STATE },
  ),
  type('Sensor', 'Name S, Type S, Reading S, EventMessage S, Status S, State S, LastReadingTimestamp dt', {
    Status: ['OK', 'Warning', 'Critical'],
  }),
  type(
    'Drive',
    `${COMPONENT}, Name S, Device S, DeviceName S, ManualPool S, PhysicalSector S, LogicalSector S, Vendor S, Model S, RotationRate S, ` +
      'EnclosureIndex S, OSName S, Version S, LedState S, Id I, UsedCapacityInBytes I, CapacityInBytes I, SelfEncryptingDrive S, Type S, ApprovedState S',
    { ...COMPONENT_ENUMS, SelfEncryptingDrive: ['NotSupported', 'Locked', 'Unlocked'], Type: ['HDD', 'SSD', 'NVMe'], ApprovedState: ['Approved', 'NotApproved'] },
  ),
  type('Cpu', `${COMPONENT}, Name S, Vendor S, Brand S, Model S, Family S, Stepping S, CoreCount S, LogicalCoresCount S, ProcessorID S, Id I`, COMPONENT_ENUMS),
  type('MemoryModule', `${COMPONENT}, Name S, Manufacturer S, Capacity S, MemoryType S, Serial S, Id I`, COMPONENT_ENUMS),
  type('NicIp', 'Ip S, IscsiEnabled B, TcpNvmeofPorts [S], RdmaNvmeofPorts [S], TcpNvmeofEnabled B, RdmaNvmeofEnabled B'),
  type('Nic', `${COMPONENT}, Name S, Interface S, Device S, Vendor S, Id I, Slaves [S], SpeedGbs I, Ips [NicIp]`, COMPONENT_ENUMS),
  type('Hba', `${COMPONENT}, Name S, Model S, FirmwareVersion S, DriverVersion S, LinkState S, Id I`, COMPONENT_ENUMS),
  type(
    'Chassis',
    `${COMPONENT}, Name S, ProductVendor S, ProductName S, ProductVersion S, ProductSerial S, ProductUUID S, BoardVendor S, BoardName S, ` +
      'BoardVersion S, BoardSerial S, BiosVendor S, BiosVersion S, ChassisType S, ChassisSerial S, ChassisVendor S, ServerVendor S, Id I, IsVirtualMachine B',
    COMPONENT_ENUMS,
  ),
  type('Ping', 'PingType S, Address S, Error S, Nics [S], IsSuccessful B'),
  type('TargetChap', 'ChapName S, ChapSecret S'),
  type('Isns', 'IsnsAddress S, AccessControl B'),
  // 2.7–2.9
  type('FloatingIp', 'Name S, Address S, Mask S, Gateway S, OwnerNode S, Dummy B, Nodes [S], Interfaces [S], NodeInterfaces [Node], PairedFloatingIps [PairedFloatingIp]'),
  type('PairedFloatingIp', 'Name S, RemoteSystemId I, RemoteSystemName S, Address S'),
  type('NasServer', 'Name S, Workgroup S, NisServer S, NisDomain S, DirectoryService S, Username S, Password S, FloatingIps [S], OverwriteExistingServer B'),
  type('User', 'Name S, Password S, Email S, Role S, TwoStepAuthenticationEnabled B'),
  // 2.10
  type('SystemsList', 'Systems [System], Message S'),
  type(
    'System',
    'Id I, Name S, IsCurrentlyConnectedSystem B, Connectivity S, ConnectedNodeAddress S, RefreshedCachedQueryCount I, Nodes [SystemNode], ReplicationTargetSystems [S]',
    { Connectivity: ['Relay', 'Direct'] },
  ),
  type('SystemNode', 'Name S, Id I, Time dt, State S, HAState S, CurrentManagementConnection B', { State: NODE_STATE, HAState: HA_STATE }),
  // 2.11
  type('NotificationRecord', 'Timestamp dt, Node S, Id I, Level I, Module S, Message S, Exception S, Properties {S}'),
  type('NotificationTarget', 'Name S, Type I, MinEventLevel I, ModulesListenedTo [S], VisibleToCustomers B, IsEnabled B'),
  type('EmailSettings', 'MailServerAddress S, MailServerPort I, MailServerUsername S, SendingEmailAddress S, SecureSocketOption I, ValidateCertificate B'),
  type('NotificationSettings', 'EmailSettings EmailSettings, NotificationTargets [NotificationTarget]'),
  type('EmailSettingsShow', 'EmailSettings EmailSettings, Notes S'),
  // 2.12
  type('AluaRecord', 'VolumeFullName S, optimizedIops I, unoptimizedIops I'),
  type('VirtualRaidValue', 'N I, K I'),
  type('PoolProvisioning', 'PoolName S, VirtualRaidValues [VirtualRaidValue], State S, Reason S, FreeSpaceInPercentage N', {
    State: PROVISIONING_STATE,
    Reason: ['None', 'DriveFailure', 'LowFreeSpace'],
  }),
  type(
    'EvacuationRecord',
    'Name S, LowerTierPoolNames [S], UpperTierPoolName S, UpperTierUsedSizeInBytes N, UpperTierAllocatedSizeInBytes N, ' +
      'UpperTierLowerThresholdSizeInBytes N, UpperTierHigherThresholdSizeInBytes N, TierUsageChangePerSecondInBytes N, TierMinUsageChangeInBytes N, ' +
      'TierUsageChangeInBytes_90thPrecentile N, IsEvacuating B, IsInBypass B, WasEvacuating B',
  ),
  type('Health', 'Volumes HealthVolumes, HardwareResources HealthHardwareResources, HardwareUtilization HealthHardwareUtilization, CapacityUtilization HealthCapacityUtilization'),
  type('HealthVolumes', 'VolumesHealthInPercentage N, HealthyVolumes I, UnhealthyVolumes I, UnhealthyStates {S}'),
  type('HealthHardwareResources', 'HardwareResourcesHealthInPercentage N, UnhealthyResourceCount {I}'),
  type('HealthHardwareUtilization', 'HardwareUtilizationInPercentage N, CPUInPercentage N, MemoryInPercentage N, DriveInPercentage N'),
  type(
    'HealthCapacityUtilization',
    'CapacityInBytes N, CapacityUsageInBytes N, ProvisioningStates [S], PoolCapacity [HealthPoolCapacity], PoolCapacityVirtualRaidProvisioning [HealthPoolVirtualRaidProvisioning]',
    { ProvisioningStates: PROVISIONING_STATE },
  ),
  type('HealthPoolCapacity', 'PoolName S, CapacityInBytes N, CapacityUsageInBytes N'),
  type('HealthPoolVirtualRaidProvisioning', 'Name S, FreeSpaceInPercentage N'),
  type('ChartsFileInfo', 'EntityIdentifier S, ChartMeasure S, Path S'),
  type('PerformanceHistory', 'PerformanceStatstics [PerformanceStatistic], ChartsFileInfo [ChartsFileInfo]'),
  type(
    'PerformanceStatistic',
    'Time dt, EntityName S, Iops N, ReadIops N, WriteIops N, LatencyInMilliseconds N, ReadLatencyInMilliseconds N, WriteLatencyInMilliseconds N, ' +
      'IoSizeInBytes N, ReadIoSizeInBytes N, WriteIoSizeInBytes N, ThroughputInBytes N, ReadThroughputInBytes N, WriteThroughputInBytes N',
  ),
  type(
    'LivePerformance',
    'Time S, Name S, ReadIops N, WriteIops N, ReadLatencyInMilliseconds N, WriteLatencyInMilliseconds N, ReadIoSizeInBytes N, WriteIoSizeInBytes N, ' +
      'ReadThroughputInBytes N, WriteThroughputInBytes N',
  ),
  type('ReserveRecord', 'Name S, UsedDataInBytes N, TotalChunksInBytes N, HddChunksInBytes N, SsdChunksInBytes N, NvmeChunksInBytes N, ReserveSpaceInBytes N'),
  type('TopVolumes', 'ChartsFileInfo [ChartsFileInfo], Statistics [TopVolumeStatistic]'),
  type('TopVolumeStatistic', 'Name S, Iops I, CapacityInBytes I, LatencyInMilliseconds N'),
  type('UtilizationHistory', 'UtilizationHistoryStatstics [UtilizationHistoryStatistic], ChartsFileInfo [ChartsFileInfo]'),
  type('UtilizationHistoryStatistic', 'Time dt, NodeName S, CpuInPercentage N, MemoryInPercentage N, SsdInPercentage N, HddInPercentage N, NvmeInPercentage N'),
  type(
    'UtilizationLive',
    'Time S, EntityName S, CPUInPercentage I, MemoryInPercentage I, HDDInPercentage I, SSDInPercentage I, NvmeInPercentage I, HDDPoolsInPercentage {I}, ' +
      'SSDPoolsInPercentage {I}, NvmePoolsInPercentage {I}',
  ),
  type('PoolCapacityUsage', 'CapacityUsage [PoolCapacityUsageRecord], ChartsFileInfo [ChartsFileInfo]'),
  type(
    'PoolCapacityUsageRecord',
    'PoolId I, Name S, RawSizeInBytes N, TotalAllocatedSizeInBytes N, TotalConsumedSizeInBytes N, UserDataAllocatedSizeInBytes N, ' +
      'UserDataConsumedSizeInBytes N, UpperTierAllocatedSizeInBytes N, UpperTierConsumedSizeInBytes N, RetentionAllocatedSizeInBytes N, ' +
      'RetentionConsumedSizeInBytes N, VRAIDAllocationSizeInBytes N, VRAIDConsumedSizeInBytes N, MetadataSizeInBytes N, ReserveSizeInBytes N, ' +
      'OverAllocationSizeInBytes N, FreeCapacityInBytes N',
  ),
  type('PoolCapacityHistory', 'PerformanceStatstics [PoolCapacityHistoryStatistic], ChartsFileInfo [ChartsFileInfo]'),
  type('PoolCapacityHistoryStatistic', 'PoolName S, Time dt, TotalAllocatedSizeInBytes N, TotalConsumedSizeInBytes N'),
  type('DrivePerformance', 'NodeName S, PerformanceTestName S, Entity S, Status S, PerformanceResult DrivePerformanceResult', {
    Status: ['SystemPerformance', 'BelowExpectedPerformance'],
  }),
  type('DrivePerformanceResult', 'IOPS I, Throughput S, LatencyInMilliseconds N, DurationInSec N'),
  type('AnomalyDetectionSettings', 'TimeframeDays I, AbnormalChangePercentage N'),
  type('VersionRecord', 'Versions [ComponentVersion]'),
  type('ComponentVersion', 'Component S, Version S, BuildNumber S'),
  type('Workflow', 'Path S, DisplayName S, RedirectPathOnSuccess S, TitleForChildrenSelection S, OrderedCommands [OrderedCommand], Children [Workflow]'),
  type('OrderedCommand', 'Command S, DisplayName S, AllowSkipping B, AllowRecurrentOperations B'),
  // 5
  type('AuthenticationResult', 'SessionToken S, UserEmailAddress S, Status S, Details S', { Status: ['Ok', 'TwoFactorRequired'] }),
];

/** Every answer type by name. */
export const ANSWER_TYPES: ReadonlyMap<string, AnswerType> = new Map(TYPES.map((t) => [t.name, t]));

for (const t of TYPES) {
  for (const f of t.fields) {
    let v: AnswerValueType = f.type;
    while (typeof v !== 'string' && !('ref' in v)) v = 'array' in v ? v.array : v.map;
    if (typeof v !== 'string' && !ANSWER_TYPES.has(v.ref)) throw new Error(`answer types: ${t.name}.${f.name} names unknown type ${v.ref}`);
  }
}

/**
 * Integer fields that identify something (`Id`, `ReplicationId`, `TierEntityIds`, `Cgid`…): a value
 * beyond 2^53 is kept as its exact decimal text, since rounding it would name another object.
 */
export function isIdentifierField(name: string): boolean {
  return /id(s)?$/i.test(name);
}
