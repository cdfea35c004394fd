import { B, DT, I, N, S, list, map, oneOf, ref, secret, type InferShape, type ObjectSchema } from './schema.js';

/**
 * The resource types of the storage management service (docs/interface.md, sections 2, 5 and 9),
 * declared once as data (`schema.ts` notation). The TypeScript types below are inferred from it;
 * the normaliser reads it as `ANSWER_TYPES` (`answer-types.ts`); operation bodies that carry a
 * whole resource (`volume Volume` of the datastore plugin, a template volume's `Tiers`) refer to
 * it by name. Every field is optional; integers (int64) and numbers (double) are both `number`.
 */

const RESOURCE_STATUS = ['OK', 'Warning', 'Degraded', 'Failed', 'Missing'] as const;
const REPLICATION_ROLE = ['Unknown', 'None', 'Primary', 'Secondary'] as const;
const DATA_STATUS = ['NotAvailable', 'UpToDate', 'Inconsistent'] as const;
const NODE_STATE = ['Running', 'Down'] as const;
const HA_STATE = ['Unknown', 'Normal', 'TakenOver', 'TakeoverActive'] as const;
const PROVISIONING_STATE = ['Ok', 'Warning', 'Full', 'Degraded'] as const;

/** Fields every hardware component carries (2.6). */
const COMPONENT = { ResourceSerial: S, ResourceStatus: oneOf(...RESOURCE_STATUS), ErrMsg: S, Sensors: list(ref('Sensor')) } as const;

/** The layout fields a volume template shares with a volume (2.4). */
const VOLUME_LAYOUT = {
  Application: S, Volume: S, Id: I, CapacityInBytes: I, SnapshotCapacityInBytes: I, Tiers: ref('Tiers'), Pool: S, StripedPools: list(S),
  Log2StrideSectors: I, MetadataPool: S, StripedMetadataPools: list(S), N: I, K: I, MetadataN: I, MetadataK: I, SectorSize: S, Cgid: I,
  GroupedVolume: S,
} as const;

/** Every resource type by name, in the document's order. */
export const RESOURCES = {
  // 2.1–2.3 Applications, volumes, consistency groups
  Application: {
    Application: S, Template: S, Description: S, Volumes: list(ref('Volume')), ConsistencyGroups: list(ref('ConsistencyGroup')),
    Vms: list(ref('ApplicationVm')),
  },
  ApplicationVm: { Name: S, VolumeName: S },
  Volume: {
    Application: S, Volume: S, VolumeEntityId: I, Id: I, MetadataVolumeEntityId: I, IsInternalVolume: B, IsRoot: B, CapacityInBytes: I,
    SnapshotCapacityInBytes: I, Tiers: ref('Tiers'), State: oneOf('Ok', 'Degraded', 'Locked'), Vms: list(S), Shares: list(ref('Share')), Profile: S,
    Mapping: list(ref('VolumeMapping')), Naa: S, StatsInfo: ref('StatsInfo'), FileSystemInformation: ref('FileSystemInformation'),
    Object: ref('ObjectStore'), ConnectivityType: oneOf('None', 'Block', 'Nas'), Replication: ref('Replication'), Pool: S, MetadataPool: S,
    StripedPools: list(S), StripedMetadataPools: list(S), Log2StrideSectors: I, DataDegradationHistogram: list(I),
    MetadataDegradationHistogram: list(I), N: I, K: I, MetadataN: I, MetadataK: I, SectorSize: S, Cgid: I, GroupedVolume: S,
    DisableSpaceReclamation: B, SaveEncryptedRecoveryKey: B, Encrypted: B, ReadOnly: B, Force: B, EncryptionKey: secret(S), Uptime: S,
  },
  VolumeMapping: { Host: S, LunId: I },
  Tiers: {
    TierEntityIds: list(I), TierPools: list(S), TierN: list(I), TierK: list(I), TierSizesInBytes: list(I),
    EvacuationThresholdsInPercentage: list(N), LowerThresholdsInPercentage: list(N), TierDataDegradationHistogram: list(list(I)),
    TierMetadataDegradationHistogram: list(list(I)),
  },
  Share: { Application: S, Volume: S, Share: S, Path: S, Browsable: B, RecycleBin: B, ReadonlyAccess: B, Smb: B, Nfs: B, AllowedSubnets: list(S) },
  StatsInfo: {
    UserDataAllocatedSizeInBytes: N, UserDataConsumedSizeInBytes: N, UpperTierAllocatedSizeInBytes: N, UpperTierConsumedSizeInBytes: N,
    RetentionAllocatedSizeInBytes: N, RetentionConsumedSizeInBytes: N, VRAIDAllocatedSizeInBytes: N, VRAIDConsumedSizeInBytes: N, Iops: N,
    LatencyInMilliseconds: N, IoSizeInBytes: N, ThroughputInBytes: N,
  },
  FileSystemInformation: {
    MountState: oneOf('Mounted', 'Unmounted'), ReplicationMetadata: oneOf('None', 'Present'), EnableSnapX: B, Profile: S, FilesystemState: S,
    InodeCount: S, FreeInodes: S, BlockSize: S, BlockCount: S, FreeBlocks: S, FilesystemCreated: S, LastMountTime: S, LastWriteTime: S,
    MountCount: S, LastChecked: S, LifeTimeWrites: S,
  },
  ObjectStore: { Application: S, Volume: S, IP: S, FloatingIp: S, Port: I, EnableSsl: B, AccessKeys: secret(list(S)), ObjectProvider: S },
  Replication: {
    IpAddress: S, Port: I, Role: oneOf(...REPLICATION_ROLE), InternalRole: oneOf(...REPLICATION_ROLE), LocalDataStatus: oneOf(...DATA_STATUS),
    ReplicationPairs: list(ref('ReplicationPair')),
  },
  ReplicationPair: {
    SyncInPercentage: N, ReplicationId: I, RemoteSystemName: S, RemoteSystemId: I, RemoteSystemRole: oneOf(...REPLICATION_ROLE), IpAddress: S,
    Port: I, RemoteAppName: S, RemoteVolName: S, ReplicationProtocol: oneOf('None', 'Synchronous', 'Semisynchronous', 'Asynchronous'),
    ConnectionStatus: oneOf('Initializing', 'Syncing', 'InSync'), RemoteDataStatus: oneOf(...DATA_STATUS), RemoteDiskStatus: oneOf('Unknown', 'Ok'),
  },
  ConsistencyGroup: {
    Id: I, ParentConsistencyGroupId: I, ParentSnapshotId: I, WorkerProcess: I, SnapshotScheduler: list(S), IsVssBasedSnapshotScheduler: B,
    IsDirectVssMapping: B, IsAvailable: B, VssInitiators: list(S), Volumes: list(ref('Volume')), Snapshots: list(ref('Snapshot')),
  },
  Snapshot: { Id: I, Date: DT, Owner: oneOf('None', 'Scheduler', 'User') },

  // 2.4 Templates
  Template: { Application: S, Description: S, Volumes: list(ref('TemplateVolume')), ConsistencyGroups: list(ref('TemplateConsistencyGroup')) },
  TemplateConsistencyGroup: { Id: I, SnapshotScheduler: list(S), VolumeShadowCopySupport: B, Volumes: list(ref('TemplateVolume')) },
  TemplateVolume: VOLUME_LAYOUT,

  // 2.5 Hosts
  Host: {
    Name: S, Ip: S, Iqn: S, Nqn: S, ChapSecret: secret(S), Wwns: list(S), Mappings: list(ref('HostVolumeMapping')), Pairs: list(ref('HostPair')),
  },
  HostVolumeMapping: { Application: S, Volume: S, LunId: I },
  HostPair: { RemoteSystem: S, RemoteHost: S },
  HostMapping: { Application: S, Host: S, Volumes: list(S), LunIds: list(S) },

  // 2.6 Nodes and hardware
  Node: {
    Name: S, Id: I, Time: DT, State: oneOf(...NODE_STATE), HAState: oneOf(...HA_STATE), CurrentManagementConnection: B, Vols: I, Iqn: S,
    IsSEDPasswordSupplied: B, Wwn: list(S), Volumes: list(S), Sensors: list(ref('Sensor')), Services: list(S), Sessions: list(S),
    SupportTunnelStatus: S, Drives: list(ref('Drive')), CPU: list(ref('Cpu')), Memory: list(ref('MemoryModule')),
    NetworkInterfaceCards: list(ref('Nic')), FibreChannelHostBusAdapters: list(ref('Hba')), Chassis: list(ref('Chassis')), Pings: list(ref('Ping')),
    IpAddresses: list(S), TargetChap: ref('TargetChap'), Isns: ref('Isns'),
  },
  Sensor: { Name: S, Type: S, Reading: S, EventMessage: S, Status: oneOf('OK', 'Warning', 'Critical'), State: S, LastReadingTimestamp: DT },
  Drive: {
    ...COMPONENT, Name: S, Device: S, DeviceName: S, ManualPool: S, PhysicalSector: S, LogicalSector: S, Vendor: S, Model: S, RotationRate: S,
    EnclosureIndex: S, OSName: S, Version: S, LedState: S, Id: I, UsedCapacityInBytes: I, CapacityInBytes: I,
    SelfEncryptingDrive: oneOf('NotSupported', 'Locked', 'Unlocked'), Type: oneOf('HDD', 'SSD', 'NVMe'),
    ApprovedState: oneOf('Approved', 'NotApproved'),
  },
  Cpu: { ...COMPONENT, Name: S, Vendor: S, Brand: S, Model: S, Family: S, Stepping: S, CoreCount: S, LogicalCoresCount: S, ProcessorID: S, Id: I },
  MemoryModule: { ...COMPONENT, Name: S, Manufacturer: S, Capacity: S, MemoryType: S, Serial: S, Id: I },
  NicIp: { Ip: S, IscsiEnabled: B, TcpNvmeofPorts: list(S), RdmaNvmeofPorts: list(S), TcpNvmeofEnabled: B, RdmaNvmeofEnabled: B },
  Nic: { ...COMPONENT, Name: S, Interface: S, Device: S, Vendor: S, Id: I, Slaves: list(S), SpeedGbs: I, Ips: list(ref('NicIp')) },
  Hba: { ...COMPONENT, Name: S, Model: S, FirmwareVersion: S, DriverVersion: S, LinkState: S, Id: I },
  Chassis: {
    ...COMPONENT, Name: S, ProductVendor: S, ProductName: S, ProductVersion: S, ProductSerial: S, ProductUUID: S, BoardVendor: S, BoardName: S,
    BoardVersion: S, BoardSerial: S, BiosVendor: S, BiosVersion: S, ChassisType: S, ChassisSerial: S, ChassisVendor: S, ServerVendor: S, Id: I,
    IsVirtualMachine: B,
  },
  Ping: { PingType: S, Address: S, Error: S, Nics: list(S), IsSuccessful: B },
  TargetChap: { ChapName: S, ChapSecret: secret(S) },
  Isns: { IsnsAddress: S, AccessControl: B },

  // 2.7–2.9 Floating IPs, NAS servers, users
  FloatingIp: {
    Name: S, Address: S, Mask: S, Gateway: S, OwnerNode: S, Dummy: B, Nodes: list(S), Interfaces: list(S), NodeInterfaces: list(ref('Node')),
    PairedFloatingIps: list(ref('PairedFloatingIp')),
  },
  PairedFloatingIp: { Name: S, RemoteSystemId: I, RemoteSystemName: S, Address: S },
  NasServer: {
    Name: S, Workgroup: S, NisServer: S, NisDomain: S, DirectoryService: S, Username: S, Password: secret(S), FloatingIps: list(S),
    OverwriteExistingServer: B,
  },
  User: { Name: S, Password: secret(S), Email: S, Role: S, TwoStepAuthenticationEnabled: B },

  // 2.10 Systems
  SystemsList: { Systems: list(ref('System')), Message: S },
  System: {
    Id: I, Name: S, IsCurrentlyConnectedSystem: B, Connectivity: oneOf('Relay', 'Direct'), ConnectedNodeAddress: S, RefreshedCachedQueryCount: I,
    Nodes: list(ref('SystemNode')), ReplicationTargetSystems: list(S),
  },
  SystemNode: { Name: S, Id: I, Time: DT, State: oneOf(...NODE_STATE), HAState: oneOf(...HA_STATE), CurrentManagementConnection: B },

  // 2.11 Notifications
  NotificationRecord: { Timestamp: DT, Node: S, Id: I, Level: I, Module: S, Message: S, Exception: S, Properties: map(S) },
  NotificationTarget: { Name: S, Type: I, MinEventLevel: I, ModulesListenedTo: list(S), VisibleToCustomers: B, IsEnabled: B },
  EmailSettings: {
    MailServerAddress: S, MailServerPort: I, MailServerUsername: S, SendingEmailAddress: S, SecureSocketOption: I, ValidateCertificate: B,
  },
  NotificationSettings: { EmailSettings: ref('EmailSettings'), NotificationTargets: list(ref('NotificationTarget')) },
  EmailSettingsShow: { EmailSettings: ref('EmailSettings'), Notes: S },

  // 2.12 Monitoring
  AluaRecord: { VolumeFullName: S, optimizedIops: I, unoptimizedIops: I },
  VirtualRaidValue: { N: I, K: I },
  PoolProvisioning: {
    PoolName: S, VirtualRaidValues: list(ref('VirtualRaidValue')), State: oneOf(...PROVISIONING_STATE),
    Reason: oneOf('None', 'DriveFailure', 'LowFreeSpace'), FreeSpaceInPercentage: N,
  },
  EvacuationRecord: {
    Name: S, LowerTierPoolNames: list(S), UpperTierPoolName: S, UpperTierUsedSizeInBytes: N, UpperTierAllocatedSizeInBytes: N,
    UpperTierLowerThresholdSizeInBytes: N, UpperTierHigherThresholdSizeInBytes: N, TierUsageChangePerSecondInBytes: N, TierMinUsageChangeInBytes: N,
    TierUsageChangeInBytes_90thPrecentile: N, IsEvacuating: B, IsInBypass: B, WasEvacuating: B,
  },
  Health: {
    Volumes: ref('HealthVolumes'), HardwareResources: ref('HealthHardwareResources'), HardwareUtilization: ref('HealthHardwareUtilization'),
    CapacityUtilization: ref('HealthCapacityUtilization'),
  },
  HealthVolumes: { VolumesHealthInPercentage: N, HealthyVolumes: I, UnhealthyVolumes: I, UnhealthyStates: map(S) },
  HealthHardwareResources: { HardwareResourcesHealthInPercentage: N, UnhealthyResourceCount: map(I) },
  HealthHardwareUtilization: { HardwareUtilizationInPercentage: N, CPUInPercentage: N, MemoryInPercentage: N, DriveInPercentage: N },
  HealthCapacityUtilization: {
    CapacityInBytes: N, CapacityUsageInBytes: N, ProvisioningStates: list(oneOf(...PROVISIONING_STATE)), PoolCapacity: list(ref('HealthPoolCapacity')),
    PoolCapacityVirtualRaidProvisioning: list(ref('HealthPoolVirtualRaidProvisioning')),
  },
  HealthPoolCapacity: { PoolName: S, CapacityInBytes: N, CapacityUsageInBytes: N },
  HealthPoolVirtualRaidProvisioning: { Name: S, FreeSpaceInPercentage: N },
  ChartsFileInfo: { EntityIdentifier: S, ChartMeasure: S, Path: S },
  PerformanceHistory: { PerformanceStatstics: list(ref('PerformanceStatistic')), ChartsFileInfo: list(ref('ChartsFileInfo')) },
  PerformanceStatistic: {
    Time: DT, EntityName: S, Iops: N, ReadIops: N, WriteIops: N, LatencyInMilliseconds: N, ReadLatencyInMilliseconds: N,
    WriteLatencyInMilliseconds: N, IoSizeInBytes: N, ReadIoSizeInBytes: N, WriteIoSizeInBytes: N, ThroughputInBytes: N, ReadThroughputInBytes: N,
    WriteThroughputInBytes: N,
  },
  LivePerformance: {
    Time: S, Name: S, ReadIops: N, WriteIops: N, ReadLatencyInMilliseconds: N, WriteLatencyInMilliseconds: N, ReadIoSizeInBytes: N,
    WriteIoSizeInBytes: N, ReadThroughputInBytes: N, WriteThroughputInBytes: N,
  },
  ReserveRecord: {
    Name: S, UsedDataInBytes: N, TotalChunksInBytes: N, HddChunksInBytes: N, SsdChunksInBytes: N, NvmeChunksInBytes: N, ReserveSpaceInBytes: N,
  },
  TopVolumes: { ChartsFileInfo: list(ref('ChartsFileInfo')), Statistics: list(ref('TopVolumeStatistic')) },
  TopVolumeStatistic: { Name: S, Iops: I, CapacityInBytes: I, LatencyInMilliseconds: N },
  UtilizationHistory: { UtilizationHistoryStatstics: list(ref('UtilizationHistoryStatistic')), ChartsFileInfo: list(ref('ChartsFileInfo')) },
  UtilizationHistoryStatistic: {
    Time: DT, NodeName: S, CpuInPercentage: N, MemoryInPercentage: N, SsdInPercentage: N, HddInPercentage: N, NvmeInPercentage: N,
  },
  UtilizationLive: {
    Time: S, EntityName: S, CPUInPercentage: I, MemoryInPercentage: I, HDDInPercentage: I, SSDInPercentage: I, NvmeInPercentage: I,
    HDDPoolsInPercentage: map(I), SSDPoolsInPercentage: map(I), NvmePoolsInPercentage: map(I),
  },
  PoolCapacityUsage: { CapacityUsage: list(ref('PoolCapacityUsageRecord')), ChartsFileInfo: list(ref('ChartsFileInfo')) },
  PoolCapacityUsageRecord: {
    PoolId: I, Name: S, RawSizeInBytes: N, TotalAllocatedSizeInBytes: N, TotalConsumedSizeInBytes: N, UserDataAllocatedSizeInBytes: N,
    UserDataConsumedSizeInBytes: N, UpperTierAllocatedSizeInBytes: N, UpperTierConsumedSizeInBytes: N, RetentionAllocatedSizeInBytes: N,
    RetentionConsumedSizeInBytes: N, VRAIDAllocationSizeInBytes: N, VRAIDConsumedSizeInBytes: N, MetadataSizeInBytes: N, ReserveSizeInBytes: N,
    OverAllocationSizeInBytes: N, FreeCapacityInBytes: N,
  },
  PoolCapacityHistory: { PerformanceStatstics: list(ref('PoolCapacityHistoryStatistic')), ChartsFileInfo: list(ref('ChartsFileInfo')) },
  PoolCapacityHistoryStatistic: { PoolName: S, Time: DT, TotalAllocatedSizeInBytes: N, TotalConsumedSizeInBytes: N },
  DrivePerformance: {
    NodeName: S, PerformanceTestName: S, Entity: S, Status: oneOf('SystemPerformance', 'BelowExpectedPerformance'),
    PerformanceResult: ref('DrivePerformanceResult'),
  },
  DrivePerformanceResult: { IOPS: I, Throughput: S, LatencyInMilliseconds: N, DurationInSec: N },

  // 4.11–4.12 Settings, version, workflows
  AnomalyDetectionSettings: { TimeframeDays: I, AbnormalChangePercentage: N },
  Datastore: { Name: S, Type: S, Volume: list(S), Details: list(S), HypervisorHosts: list(S), Vms: list(S) },
  VersionRecord: { Versions: list(ref('ComponentVersion')) },
  ComponentVersion: { Component: S, Version: S, BuildNumber: S },
  Workflow: {
    Path: S, DisplayName: S, RedirectPathOnSuccess: S, TitleForChildrenSelection: S, OrderedCommands: list(ref('OrderedCommand')),
    Children: list(ref('Workflow')),
  },
  OrderedCommand: { Command: S, DisplayName: S, AllowSkipping: B, AllowRecurrentOperations: B },

  // 5 Authentication
  AuthenticationResult: { SessionToken: secret(S), UserEmailAddress: S, Status: oneOf('Ok', 'TwoFactorRequired'), Details: S },
} as const satisfies Readonly<Record<string, ObjectSchema>>;

/** A resource type's name. */
export type ResourceName = keyof typeof RESOURCES;

/** Every resource type, inferred from its declaration (refs resolve through this map). */
export type Resources = { [K in ResourceName]: InferShape<(typeof RESOURCES)[K], Resources> };

/** The inferred type of one resource. */
export type Resource<K extends ResourceName> = Resources[K];

/** List responses wrap their elements as `{ Data: [...] }` (the normaliser guarantees it). */
export interface DataList<T> {
  Data?: T[];
}

export type Application = Resources['Application'];
export type ApplicationVm = Resources['ApplicationVm'];
export type Volume = Resources['Volume'];
export type VolumeMapping = Resources['VolumeMapping'];
export type Tiers = Resources['Tiers'];
export type Share = Resources['Share'];
export type StatsInfo = Resources['StatsInfo'];
export type FileSystemInformation = Resources['FileSystemInformation'];
export type ObjectStore = Resources['ObjectStore'];
export type Replication = Resources['Replication'];
export type ReplicationPair = Resources['ReplicationPair'];
export type ConsistencyGroup = Resources['ConsistencyGroup'];
export type Snapshot = Resources['Snapshot'];
export type Template = Resources['Template'];
export type TemplateConsistencyGroup = Resources['TemplateConsistencyGroup'];
export type TemplateVolume = Resources['TemplateVolume'];
export type Host = Resources['Host'];
export type HostVolumeMapping = Resources['HostVolumeMapping'];
export type HostPair = Resources['HostPair'];
export type HostMapping = Resources['HostMapping'];
export type Node = Resources['Node'];
export type Sensor = Resources['Sensor'];
export type Drive = Resources['Drive'];
export type Cpu = Resources['Cpu'];
export type MemoryModule = Resources['MemoryModule'];
export type NicIp = Resources['NicIp'];
export type Nic = Resources['Nic'];
export type Hba = Resources['Hba'];
export type Chassis = Resources['Chassis'];
export type Ping = Resources['Ping'];
export type TargetChap = Resources['TargetChap'];
export type Isns = Resources['Isns'];
export type FloatingIp = Resources['FloatingIp'];
export type PairedFloatingIp = Resources['PairedFloatingIp'];
export type NasServer = Resources['NasServer'];
export type User = Resources['User'];
export type SystemsList = Resources['SystemsList'];
export type System = Resources['System'];
export type SystemNode = Resources['SystemNode'];
export type NotificationRecord = Resources['NotificationRecord'];
export type NotificationTarget = Resources['NotificationTarget'];
export type EmailSettings = Resources['EmailSettings'];
export type NotificationSettings = Resources['NotificationSettings'];
export type EmailSettingsShow = Resources['EmailSettingsShow'];
export type AluaRecord = Resources['AluaRecord'];
export type VirtualRaidValue = Resources['VirtualRaidValue'];
export type PoolProvisioning = Resources['PoolProvisioning'];
export type EvacuationRecord = Resources['EvacuationRecord'];
export type Health = Resources['Health'];
export type HealthVolumes = Resources['HealthVolumes'];
export type HealthHardwareResources = Resources['HealthHardwareResources'];
export type HealthHardwareUtilization = Resources['HealthHardwareUtilization'];
export type HealthCapacityUtilization = Resources['HealthCapacityUtilization'];
export type HealthPoolCapacity = Resources['HealthPoolCapacity'];
export type HealthPoolVirtualRaidProvisioning = Resources['HealthPoolVirtualRaidProvisioning'];
export type ChartsFileInfo = Resources['ChartsFileInfo'];
export type PerformanceHistory = Resources['PerformanceHistory'];
export type PerformanceStatistic = Resources['PerformanceStatistic'];
export type LivePerformance = Resources['LivePerformance'];
export type ReserveRecord = Resources['ReserveRecord'];
export type TopVolumes = Resources['TopVolumes'];
export type TopVolumeStatistic = Resources['TopVolumeStatistic'];
export type UtilizationHistory = Resources['UtilizationHistory'];
export type UtilizationHistoryStatistic = Resources['UtilizationHistoryStatistic'];
export type UtilizationLive = Resources['UtilizationLive'];
export type PoolCapacityUsage = Resources['PoolCapacityUsage'];
export type PoolCapacityUsageRecord = Resources['PoolCapacityUsageRecord'];
export type PoolCapacityHistory = Resources['PoolCapacityHistory'];
export type PoolCapacityHistoryStatistic = Resources['PoolCapacityHistoryStatistic'];
export type DrivePerformance = Resources['DrivePerformance'];
export type DrivePerformanceResult = Resources['DrivePerformanceResult'];
export type AnomalyDetectionSettings = Resources['AnomalyDetectionSettings'];
export type Datastore = Resources['Datastore'];
export type VersionRecord = Resources['VersionRecord'];
export type ComponentVersion = Resources['ComponentVersion'];
export type Workflow = Resources['Workflow'];
export type OrderedCommand = Resources['OrderedCommand'];
export type AuthenticationResult = Resources['AuthenticationResult'];
