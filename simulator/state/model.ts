import type { ComponentVersion, NotificationRecord, Tiers } from '../../app/catalog/resources.js';
import type { Dialect } from '../dialects.js';

/**
 * Internal state of the simulated fleet. It differs from the wire records: secrets are kept here
 * and never leave through views, cross-system references hold system ids (so renames need no
 * cascade), and time-dependent values (replication progress, drive wear) are derived from the clock.
 */

export type DriveType = 'HDD' | 'SSD' | 'NVMe';
/** ResourceStatus values (the document shows only OK). */
export type ResourceStatus = 'OK' | 'Warning' | 'Degraded' | 'Failed' | 'Missing';
/** ApprovedState values (the document shows only Approved). */
export type ApprovedState = 'Approved' | 'NotApproved';
export type SedState = 'NotSupported' | 'Locked' | 'Unlocked';

export interface SensorState {
  name: string;
  /** The document spells the temperature type "Temperture"; kept as given. */
  type: 'Temperture' | 'Fan' | 'Voltage' | 'Power';
  base: number;
  unit: string;
  status: 'OK' | 'Warning' | 'Critical';
}

export interface ComponentBase {
  id: number;
  serial: string;
  status: ResourceStatus;
  errMsg: string;
  sensors: SensorState[];
}

/** Wear counters at generation time plus a growth rate; values at time t are derived, not stored. */
export interface DriveWear {
  powerOnHours: number;
  powerCycles: number;
  temperatureC: number;
  reallocated: number;
  pending: number;
  uncorrectable: number;
  reportedUncorrect: number;
  commandTimeout: number;
  crcErrors: number;
  /** Sectors per simulated hour; 0 for healthy drives. */
  degradePerHour: number;
  /** NVMe: percentage of spare left and percentage of rated life used. */
  availableSpare: number;
  percentageUsed: number;
  mediaErrors: number;
  dataUnitsRead: number;
  dataUnitsWritten: number;
  unsafeShutdowns: number;
}

export interface DriveState extends ComponentBase {
  name: string;
  device: string;
  slot: number;
  type: DriveType;
  vendor: string;
  model: string;
  firmware: string;
  capacityBytes: number;
  rotationRate: string;
  physicalSector: number;
  logicalSector: number;
  enclosureIndex: number;
  pool: string;
  approved: ApprovedState;
  sed: SedState;
  ledOn: boolean;
  wear: DriveWear;
  /** Simulated time wear is measured from. */
  wearEpochMs: number;
  failedAtMs?: number;
}

export interface NicIpState {
  ip: string;
  prefix: number;
  iscsi: boolean;
  tcpNvmeof: boolean;
  rdmaNvmeof: boolean;
  tcpPorts: string[];
  rdmaPorts: string[];
}

export interface NicState extends ComponentBase {
  name: string;
  device: string;
  vendor: string;
  speedGbs: number;
  slaves: string[];
  ips: NicIpState[];
  role: 'management' | 'data' | 'replication';
  mac: string;
}

export interface CpuState extends ComponentBase {
  name: string;
  vendor: string;
  brand: string;
  model: string;
  family: string;
  stepping: string;
  cores: number;
  threads: number;
  processorId: string;
}

export interface MemoryState extends ComponentBase {
  name: string;
  manufacturer: string;
  capacityGiB: number;
  memoryType: string;
}

export interface HbaState extends ComponentBase {
  name: string;
  model: string;
  firmware: string;
  driver: string;
  linkState: 'Online' | 'Linkdown';
  wwpn: string;
}

export interface ChassisState extends ComponentBase {
  name: string;
  vendor: string;
  product: string;
  productVersion: string;
  uuid: string;
  boardName: string;
  boardSerial: string;
  biosVersion: string;
  virtual: boolean;
}

/** HA states chosen for the simulator (the document shows only Unknown). */
export type HaState = 'Normal' | 'TakenOver' | 'TakeoverActive';

export interface NodeState {
  id: number;
  name: string;
  state: 'Running' | 'Down';
  ha: HaState;
  /** Services this node owns when the pair is normal. */
  ownServices: string[];
  /** Services running on it now (its own plus a partner's after a takeover). */
  services: string[];
  tunnel: boolean;
  tunnelSession: string;
  iqn: string;
  drives: DriveState[];
  cpus: CpuState[];
  memory: MemoryState[];
  nics: NicState[];
  hbas: HbaState[];
  chassis: ChassisState[];
  sensors: SensorState[];
}

export interface PoolState {
  id: number;
  name: string;
  type: DriveType;
  n: number;
  k: number;
}

export interface FileSystemState {
  profile: 'Journal' | 'Ordered';
  mounted: boolean;
  replicationMetadata: boolean;
  snap: boolean;
  createdAtMs: number;
  lastMountAtMs: number;
  mountCount: number;
}

/** How a volume is laid out: what a volume template sets and a volume created from it keeps. */
export interface VolumeLayout {
  capacityBytes: number;
  snapshotCapacityBytes: number;
  pool: string;
  metadataPool: string;
  stripedPools: string[];
  stripedMetadataPools: string[];
  n: number;
  k: number;
  metadataN: number;
  metadataK: number;
  sectorSize: string;
  log2Stride: number;
  cgid: number | undefined;
  groupedVolume: string;
  tiers: Tiers | undefined;
}

export interface VolumeState extends VolumeLayout {
  id: number;
  entityId: number;
  metadataEntityId: number;
  name: string;
  encrypted: boolean;
  readOnly: boolean;
  naa: string;
  createdAtMs: number;
  /** Share of the capacity holding user data, 0..1. */
  consumed: number;
  ownerNodeId: number;
  fs: FileSystemState | undefined;
  /** Secret: kept for completeness, never shown. */
  encryptionKey: string | undefined;
}

export interface SnapshotState {
  id: number;
  dateMs: number;
  owner: 'None' | 'Scheduler' | 'User';
}

export interface CgState {
  id: number;
  schedulers: string[];
  vss: boolean;
  available: boolean;
  snapshots: SnapshotState[];
}

export interface AppState {
  name: string;
  template: string | undefined;
  description: string;
  volumes: VolumeState[];
  cgs: CgState[];
  vms: Array<{ Name: string; VolumeName: string }>;
}

export interface TemplateVolumeState extends VolumeLayout {
  id: number;
  name: string;
}

export interface TemplateCgState {
  id: number;
  frequency: string[];
  retention: string[];
  vss: boolean;
}

export interface TemplateState {
  name: string;
  description: string;
  volumes: TemplateVolumeState[];
  cgs: TemplateCgState[];
}

export interface HostPairState {
  systemId: number;
  host: string;
}

export interface HostState {
  name: string;
  ip: string;
  wwns: string[];
  iqn: string;
  nqn: string;
  /** Secret. */
  chapSecret: string | undefined;
  pairs: HostPairState[];
}

export interface MappingState {
  volumeId: number;
  host: string;
  lun: number;
}

export interface FloatingIpPairState {
  systemId: number;
  name: string;
}

export interface FloatingIpState {
  name: string;
  address: string;
  mask: string;
  gateway: string;
  dummy: boolean;
  nodeIds: number[];
  interfaces: string[];
  pairs: FloatingIpPairState[];
}

export interface ReplicationFloatingIpState {
  name: string;
  addresses: string[];
  mask: string;
  gateway: string;
  nodeIds: number[];
  interfaces: string[];
}

export interface NasServerState {
  name: string;
  floatingIps: string[];
  nisDomain: string;
  nisServer: string;
  workgroup: string;
  directoryService: string;
  username: string;
  /** Secret. */
  password: string | undefined;
}

/** Notification target kinds with their Type integers (the document leaves the numbers unshown). */
export const TARGET_TYPES = { email: 0, logserver: 1, chathook: 2, snmp: 3, syslog: 4, remote_support: 5 } as const;
export type TargetKind = keyof typeof TARGET_TYPES;

export interface TargetState {
  name: string;
  kind: TargetKind;
  minLevel: number;
  modules: string[];
  visible: boolean;
  enabled: boolean;
  batchLimit: number;
  batchPeriod: number;
  /** Non-secret settings (address, URL, port …), kept for edits. */
  settings: Record<string, string | number>;
  /** Secrets (SNMP community and phrases); never shown. */
  secrets: Record<string, string>;
}

export interface EmailState {
  server: string;
  port: number;
  username: string;
  /** Secret. */
  password: string | undefined;
  from: string;
  secureSocketOption: number;
  validateCertificate: boolean;
}

export interface SystemState {
  id: number;
  name: string;
  serial: string;
  siteIndex: number;
  index: number;
  /** 10.<site>.<system>.0/24 management, 10.<100+site>.<system>.0/24 data, 10.<200+site>.<system>.0/24 replication. */
  subnets: string[];
  managementNodeId: number;
  nodes: NodeState[];
  pools: PoolState[];
  apps: AppState[];
  templates: TemplateState[];
  hosts: HostState[];
  mappings: MappingState[];
  floatingIps: FloatingIpState[];
  replicationFloatingIps: ReplicationFloatingIpState[];
  nasServers: NasServerState[];
  notifications: NotificationRecord[];
  targets: TargetState[];
  email: EmailState;
  binaryUnits: boolean;
  anomaly: { days: number; percent: number };
  chap: { name: string; secret: string | undefined };
  isns: { address: string; accessControl: boolean };
  sedPassword: string | undefined;
  versions: ComponentVersion[];
  /** Seed-derived number mixed into every time series of this system. */
  seriesSeed: number;
  createdAtMs: number;
  counters: { hardware: number; volume: number; entity: number; cg: number; snapshot: number; template: number; notification: number };
}

export type ReplicationMode = 'Synchronous' | 'Semisynchronous' | 'Asynchronous';

export interface VolumeRef {
  systemId: number;
  volumeId: number;
}

/** A replication pair between two systems of one site; its progress is a function of the clock. */
export interface ReplicationLink {
  id: number;
  primary: VolumeRef;
  secondary: VolumeRef;
  mode: ReplicationMode;
  /** When the current (re)synchronisation began. */
  syncStartMs: number;
  /** Bytes to copy in the current synchronisation. */
  syncBytes: number;
  /** Set once InSync has been announced, so the notification is written once. */
  announcedInSync: boolean;
  /** Last reconnect (replication/refresh?reconnect=true): Initializing for a moment afterwards. */
  reconnectedAtMs?: number;
}

/** Roles chosen for the simulator (the document leaves them unshown). */
export type Role = 'Administrator' | 'Operator' | 'Viewer';

export interface UserState {
  name: string;
  /** Secret. */
  password: string;
  email: string;
  role: Role;
  /** Secret: TOTP key, readable only through the control API. */
  totpSecret: Buffer;
  /** The last code accepted and when (dialect `mfa-401` accepts a code once). */
  lastCode?: { code: string; atMs: number } | undefined;
}

export interface Session {
  token: string;
  user: string;
  systemId: number;
  lastSeenMs: number;
  timeoutMs: number;
}

export interface SiteState {
  index: number;
  name: string;
  /** Customer name carried in notification Properties (searchable). */
  customer: string;
  /** Last simulated time time-driven transitions were applied. */
  lastTickMs: number;
  systems: SystemState[];
  users: UserState[];
  sessions: Map<string, Session>;
  multifactor: boolean;
  links: ReplicationLink[];
  nextLinkId: number;
}

export interface FleetState {
  seed: string;
  sites: SiteState[];
  /** Dialects switched on (simulator/dialects.ts); answers follow the document's reading without any. */
  dialects: Set<Dialect>;
}
