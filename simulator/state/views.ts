import type {
  Application, Chassis, ConsistencyGroup, Cpu, Drive, FloatingIp, Hba, Host, MemoryModule, NasServer, Nic, Node, NotificationTarget,
  Sensor, StatsInfo, System, Template, TemplateVolume, User, Volume,
} from '../../app/catalog/resources.js';
import { findPool, poolAllocatedBytes, poolDegraded, poolUsableBytes } from './capacity.js';
import { managementNode, systemById, volumeIndex } from './lookup.js';
import type {
  AppState, ChassisState, ComponentBase, CpuState, DriveState, FloatingIpState, HbaState, HostState, MemoryState, NasServerState, NicState,
  NodeState, SensorState, Session, SiteState, SystemState, TargetState, TemplateState, TemplateVolumeState, UserState, VolumeState,
} from './model.js';
import { TARGET_TYPES } from './model.js';
import { isoSeconds } from './notifications.js';
import { linksOfVolume, replicationView } from './replication.js';
import { sasIdentity } from './sas-smart.js';
import { round2, sensorReading, volumeLoad } from './series.js';

/**
 * Wire views of the state. Secrets (passwords, CHAP secrets, keys, SNMP phrases) never appear here:
 * this module is the only path from state to responses.
 */

const SENSOR_SPREAD: Record<SensorState['type'], number> = { Temperture: 2, Fan: 250, Power: 25, Voltage: 0.1 };

export function sensorView(seed: number, entity: number, s: SensorState, nowMs: number): Sensor {
  const value = sensorReading(seed, entity, s.base, SENSOR_SPREAD[s.type], nowMs);
  const reading = s.type === 'Voltage' ? value.toFixed(2) : String(Math.round(value));
  return {
    Name: s.name,
    Type: s.type,
    Reading: `${reading} ${s.unit}`,
    EventMessage: s.status === 'OK' ? '' : `${s.name} outside its normal range`,
    Status: s.status,
    State: s.status === 'OK' ? 'Normal' : 'Abnormal',
    LastReadingTimestamp: isoSeconds(Math.floor(nowMs / 60_000) * 60_000),
  };
}

export interface ComponentOptions {
  details: boolean;
  sensors: boolean;
  seed: number;
  nowMs: number;
}

function common(c: ComponentBase, o: ComponentOptions): { ResourceSerial: string; ResourceStatus: string; ErrMsg: string; Sensors?: Sensor[] } {
  const base = { ResourceSerial: c.serial, ResourceStatus: c.status, ErrMsg: c.errMsg };
  return o.sensors ? { ...base, Sensors: c.sensors.map((s, i) => sensorView(o.seed, c.id * 16 + i, s, o.nowMs)) } : base;
}

export function driveUsedBytes(system: SystemState, d: DriveState): number {
  const pool = d.approved === 'Approved' && d.pool ? findPool(system, d.pool) : undefined;
  if (!pool) return 0;
  const usable = poolUsableBytes(system, pool);
  return usable > 0 ? Math.floor((d.capacityBytes * poolAllocatedBytes(system, pool)) / usable) : 0;
}

/**
 * A drive on the wire. `sas` (the `sas-smart` dialect) shows HDDs and SSDs as the SAS drives of
 * the same maker and size, as a system with a SAS backplane lists them.
 */
export function driveView(system: SystemState, d: DriveState, o: ComponentOptions & { led: boolean; sas?: boolean }): Drive {
  const sas = o.sas ? sasIdentity(d) : undefined;
  const brief: Drive = {
    Name: d.name,
    Id: d.id,
    Type: d.type,
    CapacityInBytes: d.capacityBytes,
    ManualPool: d.pool,
    ApprovedState: d.approved,
    ...common(d, o),
  };
  const out: Drive = o.details
    ? {
        ...brief,
        Device: d.device,
        DeviceName: sas ? `/dev/disk/by-id/scsi-S${sas.vendor}_${sas.model}_${d.serial}` : `/dev/disk/by-id/${d.type === 'NVMe' ? 'nvme' : 'ata'}-${d.model}_${d.serial}`,
        PhysicalSector: String(d.physicalSector),
        LogicalSector: String(d.logicalSector),
        Vendor: sas?.vendor ?? d.vendor,
        Model: sas?.model ?? d.model,
        RotationRate: d.rotationRate,
        EnclosureIndex: `${d.enclosureIndex}:${d.slot}`,
        OSName: d.name,
        Version: sas?.firmware ?? d.firmware,
        UsedCapacityInBytes: driveUsedBytes(system, d),
        SelfEncryptingDrive: d.sed,
      }
    : brief;
  if (o.led) out.LedState = d.ledOn ? 'On' : 'Off';
  return out;
}

export function cpuView(c: CpuState, o: ComponentOptions): Cpu {
  const brief: Cpu = { Name: c.name, Id: c.id, ...common(c, o) };
  return o.details
    ? { ...brief, Vendor: c.vendor, Brand: c.brand, Model: c.model, Family: c.family, Stepping: c.stepping, CoreCount: String(c.cores), LogicalCoresCount: String(c.threads), ProcessorID: c.processorId }
    : brief;
}

export function memoryView(m: MemoryState, o: ComponentOptions): MemoryModule {
  const brief: MemoryModule = { Name: m.name, Id: m.id, ...common(m, o) };
  return o.details ? { ...brief, Manufacturer: m.manufacturer, Capacity: `${m.capacityGiB} GB`, MemoryType: m.memoryType, Serial: m.serial } : brief;
}

export function nicView(n: NicState, o: ComponentOptions): Nic {
  const brief: Nic = {
    Name: n.name,
    Id: n.id,
    SpeedGbs: n.speedGbs,
    Ips: n.ips.map((ip) => ({
      Ip: ip.ip,
      IscsiEnabled: ip.iscsi,
      TcpNvmeofPorts: [...ip.tcpPorts],
      RdmaNvmeofPorts: [...ip.rdmaPorts],
      TcpNvmeofEnabled: ip.tcpNvmeof,
      RdmaNvmeofEnabled: ip.rdmaNvmeof,
    })),
    ...common(n, o),
  };
  return o.details ? { ...brief, Interface: n.name, Device: n.device, Vendor: n.vendor, Slaves: [...n.slaves] } : brief;
}

export function hbaView(h: HbaState, o: ComponentOptions): Hba {
  const brief: Hba = { Name: h.name, Id: h.id, LinkState: h.linkState, ...common(h, o) };
  return o.details ? { ...brief, Model: h.model, FirmwareVersion: h.firmware, DriverVersion: h.driver } : brief;
}

export function chassisView(c: ChassisState, o: ComponentOptions): Chassis {
  const brief: Chassis = { Name: c.name, Id: c.id, IsVirtualMachine: c.virtual, ...common(c, o) };
  return o.details
    ? {
        ...brief,
        ProductVendor: c.vendor,
        ProductName: c.product,
        ProductVersion: c.productVersion,
        ProductSerial: c.serial,
        ProductUUID: c.uuid,
        BoardVendor: c.vendor,
        BoardName: c.boardName,
        BoardVersion: '1.02',
        BoardSerial: c.boardSerial,
        BiosVendor: c.vendor === 'HPE' ? 'HPE' : 'American Megatrends Inc.',
        BiosVersion: c.biosVersion,
        ChassisType: 'Rack Mount Chassis',
        ChassisSerial: c.serial,
        ChassisVendor: c.vendor,
        ServerVendor: c.vendor,
      }
    : brief;
}

export interface NodeViewOptions {
  sensors: boolean;
  gateway: boolean;
  vols: boolean;
  ip: boolean;
  sed: boolean;
}

export function nodeSummary(system: SystemState, node: NodeState, nowMs: number): Node {
  return {
    Name: node.name,
    Id: node.id,
    Time: isoSeconds(nowMs),
    State: node.state,
    HAState: node.ha,
    CurrentManagementConnection: managementNode(system).id === node.id,
  };
}

export function nodeView(system: SystemState, node: NodeState, nowMs: number, o: NodeViewOptions): Node {
  const out: Node = {
    ...nodeSummary(system, node, nowMs),
    Services: [...node.services],
    SupportTunnelStatus: node.tunnel ? 'Enabled' : 'Disabled',
    TargetChap: { ChapName: system.chap.name },
    Isns: { IsnsAddress: system.isns.address, AccessControl: system.isns.accessControl },
  };
  if (o.gateway) {
    out.Iqn = node.iqn;
    out.Wwn = node.hbas.map((h) => h.wwpn);
  }
  if (o.vols) {
    const names = system.apps.flatMap((a) => a.volumes.filter((v) => v.ownerNodeId === node.id).map((v) => `${a.name}/${v.name}`));
    out.Vols = names.length;
    out.Volumes = names;
  }
  if (o.ip) out.IpAddresses = node.nics.flatMap((n) => n.ips.map((i) => i.ip));
  if (o.sed) out.IsSEDPasswordSupplied = system.sedPassword !== undefined;
  if (o.sensors) out.Sensors = node.sensors.map((s, i) => sensorView(system.seriesSeed, node.id * 64 + i, s, nowMs));
  return out;
}

export function volumeDegraded(system: SystemState, vol: VolumeState): boolean {
  const pool = findPool(system, vol.pool);
  return pool !== undefined && poolDegraded(system, pool);
}

export function volumeState(system: SystemState, vol: VolumeState, cgAvailable: boolean): string {
  if (!cgAvailable) return 'Locked';
  return volumeDegraded(system, vol) ? 'Degraded' : 'Ok';
}

export function statsInfo(system: SystemState, vol: VolumeState, nowMs: number): StatsInfo {
  const pool = findPool(system, vol.pool);
  const load = volumeLoad(system.seriesSeed, vol.entityId, nowMs, pool?.type === 'HDD', volumeDegraded(system, vol));
  const iops = load.readIops + load.writeIops;
  const ioSize = iops > 0 ? Math.round((load.readIops * load.readIoSize + load.writeIops * load.writeIoSize) / iops) : 0;
  const consumed = Math.floor(vol.capacityBytes * vol.consumed);
  const raid = (vol.n + vol.k) / vol.n;
  return {
    UserDataAllocatedSizeInBytes: vol.capacityBytes,
    UserDataConsumedSizeInBytes: consumed,
    UpperTierAllocatedSizeInBytes: 0,
    UpperTierConsumedSizeInBytes: 0,
    RetentionAllocatedSizeInBytes: vol.snapshotCapacityBytes,
    RetentionConsumedSizeInBytes: Math.floor(vol.snapshotCapacityBytes * vol.consumed * 0.4),
    VRAIDAllocatedSizeInBytes: Math.floor(vol.capacityBytes * raid),
    VRAIDConsumedSizeInBytes: Math.floor(consumed * raid),
    Iops: iops,
    LatencyInMilliseconds: iops > 0 ? round2((load.readIops * load.readLatencyMs + load.writeIops * load.writeLatencyMs) / iops) : 0,
    IoSizeInBytes: ioSize,
    ThroughputInBytes: load.readIops * load.readIoSize + load.writeIops * load.writeIoSize,
  };
}

const fsDate = (ms: number): string => (ms > 0 ? new Date(ms).toUTCString() : '');

export function volumeView(site: SiteState, system: SystemState, app: AppState, vol: VolumeState, nowMs: number): Volume {
  const cg = vol.cgid === undefined ? undefined : app.cgs.find((c) => c.id === vol.cgid);
  const mapped = system.mappings.filter((m) => m.volumeId === vol.id);
  const blocks = Math.floor(vol.capacityBytes / 4096);
  const fs = vol.fs;
  const out: Volume = {
    Application: app.name,
    Volume: vol.name,
    VolumeEntityId: vol.entityId,
    Id: vol.id,
    MetadataVolumeEntityId: vol.metadataEntityId,
    IsInternalVolume: false,
    IsRoot: false,
    CapacityInBytes: vol.capacityBytes,
    SnapshotCapacityInBytes: vol.snapshotCapacityBytes,
    Tiers: vol.tiers ?? {
      TierEntityIds: [vol.entityId],
      TierPools: [vol.pool],
      TierN: [vol.n],
      TierK: [vol.k],
      TierSizesInBytes: [vol.capacityBytes],
      EvacuationThresholdsInPercentage: [],
      LowerThresholdsInPercentage: [],
      TierDataDegradationHistogram: [],
      TierMetadataDegradationHistogram: [],
    },
    State: volumeState(system, vol, cg?.available ?? true),
    Vms: app.vms.filter((v) => v.VolumeName === vol.name).map((v) => v.Name),
    Shares: [],
    Profile: fs?.profile ?? '',
    Mapping: mapped.map((m) => ({ Host: m.host, LunId: m.lun })),
    Naa: vol.naa,
    StatsInfo: statsInfo(system, vol, nowMs),
    ConnectivityType: fs ? 'Nas' : mapped.length > 0 ? 'Block' : 'None',
    Replication: replicationView(site, system, vol, nowMs),
    Pool: vol.pool,
    MetadataPool: vol.metadataPool,
    StripedPools: [...vol.stripedPools],
    StripedMetadataPools: [...vol.stripedMetadataPools],
    Log2StrideSectors: vol.log2Stride,
    DataDegradationHistogram: volumeDegraded(system, vol) ? [vol.n + vol.k - 1, 1] : [vol.n + vol.k, 0],
    MetadataDegradationHistogram: [vol.metadataN + vol.metadataK, 0],
    N: vol.n,
    K: vol.k,
    MetadataN: vol.metadataN,
    MetadataK: vol.metadataK,
    SectorSize: vol.sectorSize,
    GroupedVolume: vol.groupedVolume,
    DisableSpaceReclamation: false,
    SaveEncryptedRecoveryKey: false,
    Encrypted: vol.encrypted,
    ReadOnly: vol.readOnly,
    Uptime: `${Math.max(0, Math.floor((nowMs - vol.createdAtMs) / 86_400_000))} days`,
  };
  if (vol.cgid !== undefined) out.Cgid = vol.cgid;
  if (fs) {
    const free = Math.floor(blocks * (1 - vol.consumed));
    out.FileSystemInformation = {
      MountState: fs.mounted ? 'Mounted' : 'Unmounted',
      ReplicationMetadata: fs.replicationMetadata ? 'Present' : 'None',
      EnableSnapX: fs.snap,
      Profile: fs.profile,
      FilesystemState: 'clean',
      InodeCount: String(Math.floor(vol.capacityBytes / 16384)),
      FreeInodes: String(Math.floor((vol.capacityBytes / 16384) * (1 - vol.consumed * 0.6))),
      BlockSize: '4096',
      BlockCount: String(blocks),
      FreeBlocks: String(free),
      FilesystemCreated: fsDate(fs.createdAtMs),
      LastMountTime: fsDate(fs.lastMountAtMs),
      LastWriteTime: fs.mounted ? fsDate(Math.floor(nowMs / 60_000) * 60_000) : fsDate(fs.lastMountAtMs),
      MountCount: String(fs.mountCount),
      LastChecked: fsDate(fs.createdAtMs),
      LifeTimeWrites: `${Math.floor((vol.capacityBytes * vol.consumed * 3) / 2 ** 30)} GB`,
    };
    out.Shares = [
      { Application: app.name, Volume: vol.name, Share: vol.name, Path: `/mnt/${app.name}/${vol.name}`, Browsable: true, RecycleBin: false, ReadonlyAccess: false, Smb: true, Nfs: true, AllowedSubnets: [system.subnets[1] as string] },
    ];
  }
  return out;
}

export interface AppViewOptions {
  desc: boolean;
  cg: boolean;
  vols: boolean;
  /** Restricts the volumes shown (and the consistency groups' volumes). */
  volumeFilter?: (vol: VolumeState) => boolean;
}

/** An application as the simulator sends it: a template-less one says `"Template": null`, as the document's sample does. */
export type ApplicationAnswer = Omit<Application, 'Template'> & { Template?: string | null };

export function appView(site: SiteState, system: SystemState, app: AppState, nowMs: number, o: AppViewOptions): ApplicationAnswer {
  const keep = o.volumeFilter ?? (() => true);
  const vols = app.volumes.filter(keep);
  const out: ApplicationAnswer = { Application: app.name, Template: app.template ?? null, Vms: app.vms.map((v) => ({ ...v })) };
  if (o.desc) out.Description = app.description;
  if (o.vols) out.Volumes = vols.map((v) => volumeView(site, system, app, v, nowMs));
  if (o.cg) {
    out.ConsistencyGroups = app.cgs.map((cg): ConsistencyGroup => ({
      Id: cg.id,
      ParentConsistencyGroupId: 0,
      ParentSnapshotId: 0,
      WorkerProcess: 1 + (cg.id % Math.max(1, system.nodes.length)),
      SnapshotScheduler: [...cg.schedulers],
      IsVssBasedSnapshotScheduler: cg.vss,
      IsDirectVssMapping: false,
      IsAvailable: cg.available,
      VssInitiators: [],
      Volumes: o.vols ? vols.filter((v) => v.cgid === cg.id).map((v) => volumeView(site, system, app, v, nowMs)) : [],
      Snapshots: cg.snapshots.map((s) => ({ Id: s.id, Date: isoSeconds(s.dateMs), Owner: s.owner })),
    }));
  }
  return out;
}

function templateVolumeView(t: TemplateState, v: TemplateVolumeState): TemplateVolume {
  const out: TemplateVolume = {
    Application: t.name,
    Volume: v.name,
    Id: v.id,
    CapacityInBytes: v.capacityBytes,
    SnapshotCapacityInBytes: v.snapshotCapacityBytes,
    Pool: v.pool,
    StripedPools: [...v.stripedPools],
    Log2StrideSectors: v.log2Stride,
    MetadataPool: v.metadataPool,
    StripedMetadataPools: [...v.stripedMetadataPools],
    N: v.n,
    K: v.k,
    MetadataN: v.metadataN,
    MetadataK: v.metadataK,
    SectorSize: v.sectorSize,
    GroupedVolume: v.groupedVolume,
  };
  if (v.cgid !== undefined) out.Cgid = v.cgid;
  if (v.tiers) out.Tiers = v.tiers;
  return out;
}

export function templateView(t: TemplateState, o: { desc: boolean; cg: boolean; vols: boolean }): Template {
  const out: Template = { Application: t.name };
  if (o.desc) out.Description = t.description;
  if (o.vols) out.Volumes = t.volumes.map((v) => templateVolumeView(t, v));
  if (o.cg) {
    out.ConsistencyGroups = t.cgs.map((cg) => ({
      Id: cg.id,
      SnapshotScheduler: cg.frequency.map((f, i) => (cg.retention[i] ? `${f} (keep ${cg.retention[i]})` : f)),
      VolumeShadowCopySupport: cg.vss,
      Volumes: t.volumes.filter((v) => v.cgid === cg.id).map((v) => templateVolumeView(t, v)),
    }));
  }
  return out;
}

export interface HostViewOptions {
  wwn: boolean;
  iqn: boolean;
  nqn: boolean;
  mapping: boolean;
  ip: boolean;
}

export function hostView(site: SiteState, system: SystemState, h: HostState, o: HostViewOptions, index?: ReturnType<typeof volumeIndex>): Host {
  const out: Host = { Name: h.name };
  if (o.ip) out.Ip = h.ip;
  if (o.wwn) out.Wwns = [...h.wwns];
  if (o.iqn) out.Iqn = h.iqn;
  // Secrets are write-only: a set CHAP secret is listed masked, which tells that it is set.
  if (o.iqn && h.chapSecret) out.ChapSecret = '********';
  if (o.nqn) out.Nqn = h.nqn;
  if (o.mapping) {
    const vols = index ?? volumeIndex(system);
    out.Mappings = system.mappings
      .filter((m) => m.host === h.name)
      .map((m) => ({ Application: vols.get(m.volumeId)?.app.name ?? '', Volume: vols.get(m.volumeId)?.vol.name ?? '', LunId: m.lun }));
  }
  out.Pairs = h.pairs.map((p) => ({ RemoteSystem: systemById(site, p.systemId)?.name ?? '', RemoteHost: p.host }));
  return out;
}

export function floatingIpView(site: SiteState, system: SystemState, f: FloatingIpState, nowMs: number): FloatingIp {
  const nodes = system.nodes.filter((n) => f.nodeIds.includes(n.id));
  const owner = nodes.find((n) => n.state === 'Running') ?? nodes[0];
  return {
    Name: f.name,
    Address: f.address,
    Mask: f.mask,
    Gateway: f.gateway,
    OwnerNode: owner?.name ?? '',
    Dummy: f.dummy,
    Nodes: nodes.map((n) => n.name),
    Interfaces: [...f.interfaces],
    NodeInterfaces: nodes.map((n) => ({
      ...nodeSummary(system, n, nowMs),
      NetworkInterfaceCards: n.nics.filter((nic) => f.interfaces.includes(nic.name)).map((nic) => ({ Name: nic.name, Interface: nic.name, Id: nic.id })),
    })),
    PairedFloatingIps: f.pairs.map((p) => {
      const remote = systemById(site, p.systemId);
      return { Name: p.name, RemoteSystemId: p.systemId, RemoteSystemName: remote?.name ?? '', Address: remote?.floatingIps.find((x) => x.name === p.name)?.address ?? '' };
    }),
  };
}

export function nasView(n: NasServerState): NasServer {
  return {
    Name: n.name,
    Workgroup: n.workgroup,
    NisServer: n.nisServer,
    NisDomain: n.nisDomain,
    DirectoryService: n.directoryService,
    Username: n.username,
    FloatingIps: [...n.floatingIps],
    OverwriteExistingServer: false,
  };
}

export function userView(site: SiteState, u: UserState): User {
  return { Name: u.name, Email: u.email, Role: u.role, TwoStepAuthenticationEnabled: site.multifactor };
}

export function targetView(t: TargetState): NotificationTarget {
  return { Name: t.name, Type: TARGET_TYPES[t.kind], MinEventLevel: t.minLevel, ModulesListenedTo: [...t.modules], VisibleToCustomers: t.visible, IsEnabled: t.enabled };
}

export function systemView(site: SiteState, system: SystemState, session: Session | undefined, nowMs: number, showNodes: boolean): System {
  const targets = new Set<string>();
  for (const l of site.links) {
    if (l.primary.systemId === system.id) targets.add(systemById(site, l.secondary.systemId)?.name ?? '');
  }
  const mgmt = managementNode(system);
  const out: System = {
    Id: system.id,
    Name: system.name,
    IsCurrentlyConnectedSystem: session?.systemId === system.id,
    Connectivity: system.index === 0 ? 'Direct' : 'Relay',
    ConnectedNodeAddress: mgmt.nics.find((n) => n.role === 'management')?.ips[0]?.ip ?? '',
    RefreshedCachedQueryCount: 0,
    ReplicationTargetSystems: [...targets].filter((t) => t !== ''),
  };
  if (showNodes) out.Nodes = system.nodes.map((n) => nodeSummary(system, n, nowMs));
  return out;
}

/** True when a volume takes part in any replication pair. */
export function isReplicated(site: SiteState, system: SystemState, vol: VolumeState): boolean {
  return linksOfVolume(site, system.id, vol.id).length > 0;
}
