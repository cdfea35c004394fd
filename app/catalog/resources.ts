/**
 * Resource types of the storage management service (docs/interface.md, sections 2, 5 and 9).
 * All fields are optional. Integers (int64) and numbers (double) are both `number`.
 */

/** List responses wrap their elements as `{ Data: [...] }`. */
export interface DataList<T> {
  Data?: T[];
}

// 2.1 Application

export interface ApplicationVm {
  Name?: string;
  VolumeName?: string;
}

/** ApplicationElement. */
export interface Application {
  /** Name of the application instance. */
  Application?: string | null;
  /** Template the application was built from. */
  Template?: string | null;
  Description?: string | null;
  Volumes?: Volume[] | null;
  ConsistencyGroups?: ConsistencyGroup[] | null;
  Vms?: ApplicationVm[] | null;
}

export interface ApplicationElementCreate {
  /** Name of the new application. */
  Application?: string | null;
  /** Create from a predefined template. */
  Template?: string | null;
  Description?: string | null;
}

export interface ApplicationElementEdit {
  /** New name. */
  Application?: string | null;
  /** New description. */
  Description?: string | null;
}

// 2.2 Volume

export interface VolumeMapping {
  Host?: string;
  LunId?: number;
}

/** VolumeElement. */
export interface Volume {
  Application?: string | null;
  Volume?: string | null;
  VolumeEntityId?: number;
  Id?: number;
  MetadataVolumeEntityId?: number;
  IsInternalVolume?: boolean;
  IsRoot?: boolean;
  CapacityInBytes?: number;
  SnapshotCapacityInBytes?: number;
  Tiers?: Tiers;
  /** sample: Ok */
  State?: string;
  Vms?: string[];
  Shares?: Share[];
  Profile?: string;
  Mapping?: VolumeMapping[];
  Naa?: string;
  StatsInfo?: StatsInfo;
  FileSystemInformation?: FileSystemInformation;
  Object?: ObjectStore;
  /** sample: None */
  ConnectivityType?: string;
  Replication?: Replication;
  Pool?: string;
  MetadataPool?: string;
  StripedPools?: string[];
  StripedMetadataPools?: string[];
  Log2StrideSectors?: number;
  DataDegradationHistogram?: number[];
  MetadataDegradationHistogram?: number[];
  N?: number;
  K?: number;
  MetadataN?: number;
  MetadataK?: number;
  SectorSize?: string;
  /** Consistency group id. */
  Cgid?: number;
  GroupedVolume?: string;
  DisableSpaceReclamation?: boolean;
  SaveEncryptedRecoveryKey?: boolean;
  Encrypted?: boolean;
  ReadOnly?: boolean;
  Force?: boolean;
  /** secret: write-only, never shown */
  EncryptionKey?: string;
  Uptime?: string;
}

export interface Tiers {
  TierEntityIds?: number[];
  TierPools?: string[];
  TierN?: number[];
  TierK?: number[];
  TierSizesInBytes?: number[];
  EvacuationThresholdsInPercentage?: number[];
  LowerThresholdsInPercentage?: number[];
  TierDataDegradationHistogram?: number[][];
  TierMetadataDegradationHistogram?: number[][];
}

export interface Share {
  Application?: string;
  Volume?: string;
  Share?: string;
  Path?: string;
  Browsable?: boolean;
  RecycleBin?: boolean;
  ReadonlyAccess?: boolean;
  Smb?: boolean;
  Nfs?: boolean;
  AllowedSubnets?: string[];
}

export interface StatsInfo {
  UserDataAllocatedSizeInBytes?: number;
  UserDataConsumedSizeInBytes?: number;
  UpperTierAllocatedSizeInBytes?: number;
  UpperTierConsumedSizeInBytes?: number;
  RetentionAllocatedSizeInBytes?: number;
  RetentionConsumedSizeInBytes?: number;
  VRAIDAllocatedSizeInBytes?: number;
  VRAIDConsumedSizeInBytes?: number;
  Iops?: number;
  LatencyInMilliseconds?: number;
  IoSizeInBytes?: number;
  ThroughputInBytes?: number;
}

export interface FileSystemInformation {
  /** sample: Mounted */
  MountState?: string;
  /** sample: None */
  ReplicationMetadata?: string;
  /** The real field name carries a product-specific suffix in place of X. */
  EnableSnapX?: boolean;
  /** Journal or Ordered. */
  Profile?: string;
  FilesystemState?: string;
  InodeCount?: string;
  FreeInodes?: string;
  BlockSize?: string;
  BlockCount?: string;
  FreeBlocks?: string;
  FilesystemCreated?: string;
  LastMountTime?: string;
  LastWriteTime?: string;
  MountCount?: string;
  LastChecked?: string;
  LifeTimeWrites?: string;
}

/** The volume's "Object" object (object storage settings). */
export interface ObjectStore {
  Application?: string;
  Volume?: string;
  IP?: string;
  FloatingIp?: string;
  Port?: number;
  EnableSsl?: boolean;
  /** secret: write-only, never shown */
  AccessKeys?: string[];
  /** Enumeration of provider names; sample value not given in the document. */
  ObjectProvider?: string;
}

export interface Replication {
  IpAddress?: string;
  Port?: number;
  /** sample: Unknown */
  Role?: string;
  /** sample: Unknown */
  InternalRole?: string;
  /** sample: NotAvailable */
  LocalDataStatus?: string;
  ReplicationPairs?: ReplicationPair[];
}

export interface ReplicationPair {
  SyncInPercentage?: number;
  ReplicationId?: number;
  RemoteSystemName?: string;
  RemoteSystemId?: number;
  /** sample: Unknown */
  RemoteSystemRole?: string;
  IpAddress?: string;
  Port?: number;
  RemoteAppName?: string;
  RemoteVolName?: string;
  /** sample: None */
  ReplicationProtocol?: string;
  /** sample: Initializing */
  ConnectionStatus?: string;
  /** sample: NotAvailable */
  RemoteDataStatus?: string;
  /** sample: Unknown */
  RemoteDiskStatus?: string;
}

// 2.3 Consistency group

/** ConsistencyGroupElement. */
export interface ConsistencyGroup {
  Id?: number;
  ParentConsistencyGroupId?: number;
  ParentSnapshotId?: number;
  WorkerProcess?: number;
  SnapshotScheduler?: string[];
  IsVssBasedSnapshotScheduler?: boolean;
  IsDirectVssMapping?: boolean;
  IsAvailable?: boolean;
  VssInitiators?: string[];
  Volumes?: Volume[];
  Snapshots?: Snapshot[];
}

export interface Snapshot {
  Id?: number;
  /** ISO 8601 date-time */
  Date?: string;
  /** sample: None */
  Owner?: string;
}

/** Body of PUT /applications/encryption/supply_encryption_key. */
export interface EncryptionKeySupply {
  /** Id of the encrypted consistency group to open. */
  Cgid?: number | null;
  Application?: string | null;
  Volume?: string | null;
  /** secret: write-only, never shown */
  EncryptionKey?: string | null;
}

// 2.4 Application template

/** TemplateElement. */
export interface Template {
  Application?: string;
  Description?: string;
  Volumes?: TemplateVolume[];
  ConsistencyGroups?: TemplateConsistencyGroup[];
}

export interface TemplateConsistencyGroup {
  Id?: number;
  SnapshotScheduler?: string[];
  VolumeShadowCopySupport?: boolean;
  Volumes?: TemplateVolume[];
}

export interface TemplateVolume {
  Application?: string;
  Volume?: string;
  Id?: number;
  CapacityInBytes?: number;
  SnapshotCapacityInBytes?: number;
  Tiers?: Tiers;
  Pool?: string;
  StripedPools?: string[];
  Log2StrideSectors?: number;
  MetadataPool?: string;
  StripedMetadataPools?: string[];
  N?: number;
  K?: number;
  MetadataN?: number;
  MetadataK?: number;
  SectorSize?: string;
  /** Consistency group id. */
  Cgid?: number;
  GroupedVolume?: string;
}

// 2.5 Host

export interface HostVolumeMapping {
  Application?: string;
  Volume?: string;
  LunId?: number;
}

export interface HostPair {
  RemoteSystem?: string;
  RemoteHost?: string;
}

export interface Host {
  Name?: string;
  Ip?: string;
  Iqn?: string;
  Nqn?: string;
  /** secret: write-only, never shown */
  ChapSecret?: string;
  Wwns?: string[];
  /** List output only. */
  Mappings?: HostVolumeMapping[];
  /** List output only. */
  Pairs?: HostPair[];
}

/** Host mapping record (host perspective), from GET /hosts/mappings/list. */
export interface HostMapping {
  Application?: string;
  Host?: string;
  Volumes?: string[];
  LunIds?: string[];
}

// 2.6 Node and hardware resources

export interface Node {
  Name?: string;
  Id?: number;
  /** ISO 8601 date-time */
  Time?: string;
  /** sample: Running */
  State?: string;
  /** sample: Unknown */
  HAState?: string;
  CurrentManagementConnection?: boolean;
  Vols?: number;
  Iqn?: string;
  IsSEDPasswordSupplied?: boolean;
  Wwn?: string[];
  Volumes?: string[];
  Sensors?: Sensor[];
  Services?: string[];
  Sessions?: string[];
  SupportTunnelStatus?: string;
  Drives?: Drive[];
  CPU?: Cpu[];
  Memory?: MemoryModule[];
  NetworkInterfaceCards?: Nic[];
  FibreChannelHostBusAdapters?: Hba[];
  Chassis?: Chassis[];
  Pings?: Ping[];
  IpAddresses?: string[];
  TargetChap?: TargetChap;
  Isns?: Isns;
}

export interface Sensor {
  Name?: string;
  /** sample: Temperture (spelling as given) */
  Type?: string;
  Reading?: string;
  EventMessage?: string;
  /** sample: OK */
  Status?: string;
  State?: string;
  /** ISO 8601 date-time */
  LastReadingTimestamp?: string;
}

/** Fields shared by every hardware component. */
export interface HardwareComponent {
  ResourceSerial?: string;
  /** sample: OK */
  ResourceStatus?: string;
  ErrMsg?: string;
  Sensors?: Sensor[];
}

export interface Drive extends HardwareComponent {
  Name?: string;
  Device?: string;
  DeviceName?: string;
  ManualPool?: string;
  PhysicalSector?: string;
  LogicalSector?: string;
  Vendor?: string;
  Model?: string;
  RotationRate?: string;
  EnclosureIndex?: string;
  OSName?: string;
  Version?: string;
  LedState?: string;
  Id?: number;
  UsedCapacityInBytes?: number;
  CapacityInBytes?: number;
  /** sample: NotSupported */
  SelfEncryptingDrive?: string;
  /** sample: HDD */
  Type?: string;
  /** sample: Approved */
  ApprovedState?: string;
}

export interface Cpu extends HardwareComponent {
  Name?: string;
  Vendor?: string;
  Brand?: string;
  Model?: string;
  Family?: string;
  Stepping?: string;
  CoreCount?: string;
  LogicalCoresCount?: string;
  ProcessorID?: string;
  Id?: number;
}

export interface MemoryModule extends HardwareComponent {
  Name?: string;
  Manufacturer?: string;
  Capacity?: string;
  MemoryType?: string;
  Serial?: string;
  Id?: number;
}

export interface NicIp {
  Ip?: string;
  IscsiEnabled?: boolean;
  TcpNvmeofPorts?: string[];
  RdmaNvmeofPorts?: string[];
  TcpNvmeofEnabled?: boolean;
  RdmaNvmeofEnabled?: boolean;
}

export interface Nic extends HardwareComponent {
  Name?: string;
  Interface?: string;
  Device?: string;
  Vendor?: string;
  Id?: number;
  Slaves?: string[];
  SpeedGbs?: number;
  Ips?: NicIp[];
}

export interface Hba extends HardwareComponent {
  Name?: string;
  Model?: string;
  FirmwareVersion?: string;
  DriverVersion?: string;
  LinkState?: string;
  Id?: number;
}

export interface Chassis extends HardwareComponent {
  Name?: string;
  ProductVendor?: string;
  ProductName?: string;
  ProductVersion?: string;
  ProductSerial?: string;
  ProductUUID?: string;
  BoardVendor?: string;
  BoardName?: string;
  BoardVersion?: string;
  BoardSerial?: string;
  BiosVendor?: string;
  BiosVersion?: string;
  ChassisType?: string;
  ChassisSerial?: string;
  ChassisVendor?: string;
  ServerVendor?: string;
  Id?: number;
  IsVirtualMachine?: boolean;
}

export interface Ping {
  PingType?: string;
  Address?: string;
  Error?: string;
  Nics?: string[];
  IsSuccessful?: boolean;
}

export interface TargetChap {
  ChapName?: string;
  /** secret: write-only, never shown */
  ChapSecret?: string;
}

export interface Isns {
  IsnsAddress?: string;
  AccessControl?: boolean;
}

// 2.7 Floating IP

export interface PairedFloatingIp {
  Name?: string;
  RemoteSystemId?: number;
  RemoteSystemName?: string;
  Address?: string;
}

export interface FloatingIp {
  Name?: string;
  Address?: string;
  Mask?: string;
  Gateway?: string;
  OwnerNode?: string;
  Dummy?: boolean;
  Nodes?: string[];
  Interfaces?: string[];
  NodeInterfaces?: Node[];
  PairedFloatingIps?: PairedFloatingIp[];
}

// 2.8 NAS server

export interface NasServer {
  Name?: string;
  Workgroup?: string;
  NisServer?: string;
  NisDomain?: string;
  /** Directory domain; the real field name is product-specific. */
  DirectoryService?: string;
  Username?: string;
  /** secret: write-only, never shown */
  Password?: string;
  FloatingIps?: string[];
  OverwriteExistingServer?: boolean;
}

// 2.9 User

export interface User {
  Name?: string;
  /** secret: write-only, never shown */
  Password?: string;
  Email?: string;
  Role?: string;
  /** List output only. */
  TwoStepAuthenticationEnabled?: boolean;
}

// 2.10 System

/** Node summary inside a System (fields as in Node). */
export interface SystemNode {
  Name?: string;
  Id?: number;
  /** ISO 8601 date-time */
  Time?: string;
  /** sample: Running */
  State?: string;
  /** sample: Unknown */
  HAState?: string;
  CurrentManagementConnection?: boolean;
}

export interface System {
  Id?: number;
  Name?: string;
  IsCurrentlyConnectedSystem?: boolean;
  /** sample: Relay */
  Connectivity?: string;
  ConnectedNodeAddress?: string;
  RefreshedCachedQueryCount?: number;
  Nodes?: SystemNode[];
  ReplicationTargetSystems?: string[];
}

/** Response of GET /systems/list (not wrapped in Data). */
export interface SystemsList {
  Systems?: System[];
  Message?: string;
}

// 2.11 Notifications

export interface NotificationRecord {
  /** ISO 8601 date-time */
  Timestamp?: string;
  Node?: string;
  Id?: number;
  Level?: number;
  Module?: string;
  Message?: string;
  Exception?: string;
  Properties?: Record<string, string>;
}

export interface NotificationTarget {
  Name?: string;
  Type?: number;
  MinEventLevel?: number;
  ModulesListenedTo?: string[];
  VisibleToCustomers?: boolean;
  IsEnabled?: boolean;
}

export interface EmailSettings {
  MailServerAddress?: string;
  MailServerPort?: number;
  MailServerUsername?: string;
  SendingEmailAddress?: string;
  SecureSocketOption?: number;
  ValidateCertificate?: boolean;
}

/** Response of GET /notifications/settings/show. */
export interface NotificationSettings {
  EmailSettings?: EmailSettings;
  NotificationTargets?: NotificationTarget[];
}

/** Response of GET /notifications/settings/email/show. */
export interface EmailSettingsShow {
  EmailSettings?: EmailSettings;
  Notes?: string;
}

// 2.12 Monitoring and other records

export interface AluaRecord {
  VolumeFullName?: string;
  optimizedIops?: number;
  unoptimizedIops?: number;
}

export interface VirtualRaidValue {
  N?: number;
  K?: number;
}

export interface PoolProvisioning {
  PoolName?: string;
  VirtualRaidValues?: VirtualRaidValue[];
  /** sample: Ok */
  State?: string;
  /** sample: None */
  Reason?: string;
  FreeSpaceInPercentage?: number;
}

export interface EvacuationRecord {
  Name?: string;
  LowerTierPoolNames?: string[];
  UpperTierPoolName?: string;
  UpperTierUsedSizeInBytes?: number;
  UpperTierAllocatedSizeInBytes?: number;
  UpperTierLowerThresholdSizeInBytes?: number;
  UpperTierHigherThresholdSizeInBytes?: number;
  TierUsageChangePerSecondInBytes?: number;
  TierMinUsageChangeInBytes?: number;
  TierUsageChangeInBytes_90thPrecentile?: number;
  IsEvacuating?: boolean;
  IsInBypass?: boolean;
  WasEvacuating?: boolean;
}

export interface HealthVolumes {
  VolumesHealthInPercentage?: number;
  HealthyVolumes?: number;
  UnhealthyVolumes?: number;
  /** Map of name to state. */
  UnhealthyStates?: Record<string, string>;
}

export interface HealthHardwareResources {
  HardwareResourcesHealthInPercentage?: number;
  UnhealthyResourceCount?: Record<string, number>;
}

export interface HealthHardwareUtilization {
  HardwareUtilizationInPercentage?: number;
  CPUInPercentage?: number;
  MemoryInPercentage?: number;
  DriveInPercentage?: number;
}

export interface HealthPoolCapacity {
  PoolName?: string;
  CapacityInBytes?: number;
  CapacityUsageInBytes?: number;
}

export interface HealthPoolVirtualRaidProvisioning {
  Name?: string;
  FreeSpaceInPercentage?: number;
}

export interface HealthCapacityUtilization {
  CapacityInBytes?: number;
  CapacityUsageInBytes?: number;
  /** State values. */
  ProvisioningStates?: string[];
  PoolCapacity?: HealthPoolCapacity[];
  PoolCapacityVirtualRaidProvisioning?: HealthPoolVirtualRaidProvisioning[];
}

/** MonitoringHealth, from GET /monitoring/health/current. */
export interface Health {
  Volumes?: HealthVolumes;
  HardwareResources?: HealthHardwareResources;
  HardwareUtilization?: HealthHardwareUtilization;
  CapacityUtilization?: HealthCapacityUtilization;
}

export interface ChartsFileInfo {
  EntityIdentifier?: string;
  ChartMeasure?: string;
  Path?: string;
}

export interface PerformanceStatistic {
  /** ISO 8601 date-time */
  Time?: string;
  EntityName?: string;
  Iops?: number;
  ReadIops?: number;
  WriteIops?: number;
  LatencyInMilliseconds?: number;
  ReadLatencyInMilliseconds?: number;
  WriteLatencyInMilliseconds?: number;
  IoSizeInBytes?: number;
  ReadIoSizeInBytes?: number;
  WriteIoSizeInBytes?: number;
  ThroughputInBytes?: number;
  ReadThroughputInBytes?: number;
  WriteThroughputInBytes?: number;
}

export interface PerformanceHistory {
  PerformanceStatstics?: PerformanceStatistic[];
  ChartsFileInfo?: ChartsFileInfo[];
}

export interface LivePerformance {
  Time?: string;
  Name?: string;
  ReadIops?: number;
  WriteIops?: number;
  ReadLatencyInMilliseconds?: number;
  WriteLatencyInMilliseconds?: number;
  ReadIoSizeInBytes?: number;
  WriteIoSizeInBytes?: number;
  ReadThroughputInBytes?: number;
  WriteThroughputInBytes?: number;
}

export interface ReserveRecord {
  Name?: string;
  UsedDataInBytes?: number;
  TotalChunksInBytes?: number;
  HddChunksInBytes?: number;
  SsdChunksInBytes?: number;
  NvmeChunksInBytes?: number;
  ReserveSpaceInBytes?: number;
}

export interface TopVolumeStatistic {
  Name?: string;
  Iops?: number;
  CapacityInBytes?: number;
  LatencyInMilliseconds?: number;
}

export interface TopVolumes {
  ChartsFileInfo?: ChartsFileInfo[];
  Statistics?: TopVolumeStatistic[];
}

export interface UtilizationHistoryStatistic {
  /** ISO 8601 date-time */
  Time?: string;
  NodeName?: string;
  CpuInPercentage?: number;
  MemoryInPercentage?: number;
  SsdInPercentage?: number;
  HddInPercentage?: number;
  NvmeInPercentage?: number;
}

export interface UtilizationHistory {
  UtilizationHistoryStatstics?: UtilizationHistoryStatistic[];
  ChartsFileInfo?: ChartsFileInfo[];
}

export interface UtilizationLive {
  Time?: string;
  EntityName?: string;
  CPUInPercentage?: number;
  MemoryInPercentage?: number;
  HDDInPercentage?: number;
  SSDInPercentage?: number;
  NvmeInPercentage?: number;
  HDDPoolsInPercentage?: Record<string, number>;
  SSDPoolsInPercentage?: Record<string, number>;
  NvmePoolsInPercentage?: Record<string, number>;
}

export interface PoolCapacityUsageRecord {
  PoolId?: number;
  Name?: string;
  RawSizeInBytes?: number;
  TotalAllocatedSizeInBytes?: number;
  TotalConsumedSizeInBytes?: number;
  UserDataAllocatedSizeInBytes?: number;
  UserDataConsumedSizeInBytes?: number;
  UpperTierAllocatedSizeInBytes?: number;
  UpperTierConsumedSizeInBytes?: number;
  RetentionAllocatedSizeInBytes?: number;
  RetentionConsumedSizeInBytes?: number;
  VRAIDAllocationSizeInBytes?: number;
  VRAIDConsumedSizeInBytes?: number;
  MetadataSizeInBytes?: number;
  ReserveSizeInBytes?: number;
  OverAllocationSizeInBytes?: number;
  FreeCapacityInBytes?: number;
}

/** MonitoringCapacity, from GET /monitoring/capacity/pools/current. */
export interface PoolCapacityUsage {
  CapacityUsage?: PoolCapacityUsageRecord[];
  ChartsFileInfo?: ChartsFileInfo[];
}

export interface PoolCapacityHistoryStatistic {
  PoolName?: string;
  /** ISO 8601 date-time */
  Time?: string;
  TotalAllocatedSizeInBytes?: number;
  TotalConsumedSizeInBytes?: number;
}

export interface PoolCapacityHistory {
  PerformanceStatstics?: PoolCapacityHistoryStatistic[];
  ChartsFileInfo?: ChartsFileInfo[];
}

export interface DrivePerformanceResult {
  IOPS?: number;
  Throughput?: string;
  LatencyInMilliseconds?: number;
  DurationInSec?: number;
}

export interface DrivePerformance {
  NodeName?: string;
  PerformanceTestName?: string;
  Entity?: string;
  /** sample: SystemPerformance */
  Status?: string;
  PerformanceResult?: DrivePerformanceResult;
}

export interface AnomalyDetectionSettings {
  TimeframeDays?: number;
  AbnormalChangePercentage?: number;
}

export interface ComponentVersion {
  Component?: string;
  Version?: string;
  BuildNumber?: string;
}

/** Response of GET /Version. */
export interface VersionRecord {
  Versions?: ComponentVersion[];
}

export interface OrderedCommand {
  Command?: string;
  DisplayName?: string;
  AllowSkipping?: boolean;
  AllowRecurrentOperations?: boolean;
}

/** WorkflowElement. */
export interface Workflow {
  Path?: string;
  DisplayName?: string;
  RedirectPathOnSuccess?: string;
  TitleForChildrenSelection?: string;
  OrderedCommands?: OrderedCommand[];
  Children?: Workflow[];
}

// 4.12 Hypervisor datastore

export interface Datastore {
  Name?: string;
  Type?: string;
  Volume?: string[];
  Details?: string[];
  HypervisorHosts?: string[];
  Vms?: string[];
}

// 5 Authentication

/** Body of POST /login. */
export interface AuthenticateElement {
  Username?: string;
  /** secret: write-only, never shown */
  Password?: string;
  /** secret: write-only, never shown */
  TwoFactorAuthenticationToken?: string;
  /** Spelling as given by the service. */
  EmailVerficationUpdatedEmailAddress?: string;
  EmailVerificationToken?: string;
  InactivityTimeoutInMinutes?: number;
}

/** Response of POST /login. */
export interface AuthenticationResult {
  /** secret: write-only, never shown */
  SessionToken?: string;
  UserEmailAddress?: string;
  /** sample: Ok */
  Status?: string;
  Details?: string;
}
