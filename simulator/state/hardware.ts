import type { Rng } from '../random.js';
import { CHASSIS_MODELS, CPU_MODELS, DRIVE_MODELS, HBA_MODELS, MEMORY_VENDORS, NIC_MODELS } from './catalogs.js';
import type { ChassisModel, CpuModel, DriveModel } from './catalogs.js';
import type { DriveState, DriveType, DriveWear, NicState, NodeState, SensorState } from './model.js';

/** Per-system choices shared by all nodes, so a system's nodes are alike as real HA pairs are. */
export interface SystemHardwareProfile {
  readonly cpu: CpuModel;
  readonly chassis: ChassisModel;
  readonly drives: Record<DriveType, DriveModel>;
  readonly counts: Record<DriveType, number>;
  readonly fc: boolean;
  readonly memoryVendor: string;
}

export function chooseProfile(rng: Rng): SystemHardwareProfile {
  const byType = (t: DriveType): DriveModel => rng.pick(DRIVE_MODELS.filter((m) => m.type === t));
  return {
    cpu: rng.pick(CPU_MODELS),
    chassis: rng.pick(CHASSIS_MODELS),
    drives: { HDD: byType('HDD'), SSD: byType('SSD'), NVMe: byType('NVMe') },
    counts: { HDD: rng.int(5, 8), SSD: rng.int(2, 4), NVMe: rng.int(2, 3) },
    fc: rng.chance(0.6),
    memoryVendor: rng.pick(MEMORY_VENDORS),
  };
}

export interface NodeContext {
  readonly systemName: string;
  readonly siteNo: number;
  readonly systemNo: number;
  readonly nodeIndex: number;
  readonly nowMs: number;
  nextId(): number;
}

function sensor(name: string, type: SensorState['type'], base: number, unit: string): SensorState {
  return { name, type, base, unit, status: 'OK' };
}

function healthyWear(rng: Rng, type: DriveType): DriveWear {
  const hours = rng.int(4_000, 30_000);
  return {
    powerOnHours: hours,
    powerCycles: rng.int(8, 60),
    temperatureC: type === 'HDD' ? rng.int(31, 39) : rng.int(29, 42),
    reallocated: 0,
    pending: 0,
    uncorrectable: 0,
    reportedUncorrect: 0,
    commandTimeout: 0,
    crcErrors: rng.chance(0.1) ? rng.int(1, 3) : 0,
    degradePerHour: 0,
    availableSpare: 100,
    percentageUsed: Math.min(40, Math.floor(hours / 2000)),
    mediaErrors: 0,
    dataUnitsRead: hours * rng.int(9_000, 40_000),
    dataUnitsWritten: hours * rng.int(5_000, 30_000),
    unsafeShutdowns: rng.int(0, 9),
  };
}

/** Turns a healthy drive into one whose error counters grow with simulated time. */
export function makeDegrading(rng: Rng, drive: DriveState): void {
  const w = drive.wear;
  w.degradePerHour = rng.int(3, 8);
  w.reallocated = rng.int(24, 96);
  w.pending = rng.int(4, 24);
  w.uncorrectable = rng.int(1, 6);
  w.reportedUncorrect = rng.int(2, 12);
  w.commandTimeout = rng.int(0, 3);
  if (drive.type === 'NVMe') {
    w.availableSpare = rng.int(62, 80);
    w.mediaErrors = rng.int(3, 20);
  }
  drive.status = 'Warning';
}

function driveSerial(rng: Rng, model: DriveModel): string {
  return `${model.serialPrefix}${rng.alnum(12 - model.serialPrefix.length)}`;
}

function makeDrive(rng: Rng, ctx: NodeContext, model: DriveModel, slot: number, osIndex: number): DriveState {
  const id = ctx.nextId();
  const isNvme = model.type === 'NVMe';
  const os = isNvme ? `nvme${osIndex}n1` : `sd${String.fromCharCode(97 + osIndex)}`;
  const serial = driveSerial(rng, model);
  return {
    id,
    serial,
    status: 'OK',
    errMsg: '',
    sensors: [sensor(`${os} Temp`, 'Temperture', 0, 'C')],
    name: os,
    device: `/dev/${os}`,
    slot,
    type: model.type,
    vendor: model.vendor,
    model: model.model,
    firmware: model.firmware,
    capacityBytes: model.capacityBytes,
    rotationRate: model.rotationRate,
    physicalSector: model.physicalSector,
    logicalSector: 512,
    enclosureIndex: 0,
    pool: '',
    approved: 'Approved',
    sed: isNvme ? 'Locked' : 'NotSupported',
    ledOn: false,
    wear: healthyWear(rng, model.type),
    wearEpochMs: ctx.nowMs,
  };
}

/** Generates one node with its hardware. Drive pool membership is assigned by the caller. */
export function generateNode(rng: Rng, ctx: NodeContext, profile: SystemHardwareProfile): NodeState {
  const n = ctx.nodeIndex;
  const name = `${ctx.systemName}-n${n + 1}`;
  const drives: DriveState[] = [];
  let slot = 0;
  let sdIndex = 0;
  let nvmeIndex = 0;
  for (const type of ['HDD', 'SSD', 'NVMe'] as const) {
    for (let i = 0; i < profile.counts[type]; i++) {
      const osIndex = type === 'NVMe' ? nvmeIndex++ : sdIndex++;
      drives.push(makeDrive(rng, ctx, profile.drives[type], slot++, osIndex));
    }
  }
  for (const d of drives) d.sensors[0]!.base = d.wear.temperatureC;

  const cpus = [0, 1].map((i) => {
    const c = profile.cpu;
    return {
      id: ctx.nextId(),
      serial: rng.hex(16).toUpperCase(),
      status: 'OK' as const,
      errMsg: '',
      sensors: [sensor(`CPU${i} Temp`, 'Temperture', rng.int(44, 58), 'C')],
      name: `CPU${i}`,
      vendor: c.vendor,
      brand: c.brand,
      model: c.model,
      family: c.family,
      stepping: c.stepping,
      cores: c.cores,
      threads: c.cores * 2,
      processorId: c.processorId,
    };
  });

  const memory = ['A1', 'A2', 'B1', 'B2', 'C1', 'C2', 'D1', 'D2'].map((slotName) => ({
    id: ctx.nextId(),
    serial: rng.hex(8).toUpperCase(),
    status: 'OK' as const,
    errMsg: '',
    sensors: [],
    name: `DIMM_${slotName}`,
    manufacturer: profile.memoryVendor,
    capacityGiB: 32,
    memoryType: 'DDR4-3200',
  }));

  const s = ctx.siteNo;
  const y = ctx.systemNo;
  const mac = (): string => `0c:c4:7a:${rng.hex(2)}:${rng.hex(2)}:${rng.hex(2)}`;
  const nic = (nicName: string, role: NicState['role'], ip: string, pci: string): NicState => {
    const model = NIC_MODELS[role];
    return {
      id: ctx.nextId(),
      serial: mac(),
      status: 'OK',
      errMsg: '',
      sensors: [],
      name: nicName,
      device: pci,
      vendor: model.vendor,
      speedGbs: model.speed,
      slaves: [],
      ips: [{ ip, prefix: 24, iscsi: role === 'data', tcpNvmeof: false, rdmaNvmeof: false, tcpPorts: [], rdmaPorts: [] }],
      role,
      mac: '',
    };
  };
  const nics = [
    nic('eth0', 'management', `10.${s}.${y}.${11 + n}`, '0000:03:00.0'),
    nic('eth2', 'data', `10.${100 + s}.${y}.${11 + n}`, '0000:5e:00.0'),
    nic('eth3', 'data', `10.${100 + s}.${y}.${31 + n}`, '0000:5e:00.1'),
    nic('eth4', 'replication', `10.${200 + s}.${y}.${11 + n}`, '0000:af:00.0'),
  ];
  for (const x of nics) x.mac = x.serial;
  // One data port also serves NVMe over TCP on most systems, so the flag is visible in seeded state.
  if (rng.chance(0.5)) {
    const ip = nics[2]!.ips[0]!;
    ip.tcpNvmeof = true;
    ip.tcpPorts = ['4420'];
  }

  const hbas = profile.fc
    ? [0, 1].map((i) => {
        const m = HBA_MODELS[rng.int(0, HBA_MODELS.length - 1)]!;
        const wwpn = `${m.wwnPrefix}:${rng.hex(2)}:${rng.hex(2)}:${rng.hex(2)}`;
        return {
          id: ctx.nextId(),
          serial: rng.alnum(10),
          status: 'OK' as const,
          errMsg: '',
          sensors: [],
          name: `host${i + 1}`,
          model: m.model,
          firmware: m.firmware,
          driver: m.driver,
          linkState: 'Online' as const,
          wwpn,
        };
      })
    : [];

  const ch = profile.chassis;
  const chassis = [
    {
      id: ctx.nextId(),
      serial: rng.alnum(10),
      status: 'OK' as const,
      errMsg: '',
      sensors: [
        sensor('Inlet Temp', 'Temperture', rng.int(21, 27), 'C'),
        sensor('FAN1', 'Fan', rng.int(5400, 7800), 'RPM'),
        sensor('FAN2', 'Fan', rng.int(5400, 7800), 'RPM'),
        sensor('PSU1 Power', 'Power', rng.int(180, 320), 'W'),
        sensor('PSU2 Power', 'Power', rng.int(180, 320), 'W'),
        sensor('12V', 'Voltage', 12.1, 'V'),
      ],
      name: 'Chassis',
      vendor: ch.vendor,
      product: ch.product,
      productVersion: rng.pick(['0123456789', '1.01', 'A00']),
      uuid: `${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}`,
      boardName: ch.board,
      boardSerial: rng.alnum(14),
      biosVersion: ch.bios,
      virtual: ch.virtual,
    },
  ];

  const services = n % 2 === 0 ? ['Block', 'NAS', 'Management'] : ['Block', 'Object', 'Replication'];
  return {
    id: ctx.nextId(),
    name,
    state: 'Running',
    ha: 'Normal',
    ownServices: [...services],
    services: [...services],
    tunnel: false,
    tunnelSession: '',
    iqn: `iqn.2012-06.com.fleetdeck:${ctx.systemName}.n${n + 1}`,
    drives,
    cpus,
    memory,
    nics,
    hbas,
    chassis,
    sensors: [...chassis[0]!.sensors, ...cpus.flatMap((c) => c.sensors)],
  };
}

/** A new, not yet approved drive in the next free slot of a node. */
export function addUnapprovedDrive(rng: Rng, ctx: NodeContext, node: NodeState, model: DriveModel): DriveState {
  const slot = node.drives.reduce((m, d) => Math.max(m, d.slot), -1) + 1;
  const osIndex = model.type === 'NVMe' ? node.drives.filter((d) => d.type === 'NVMe').length : node.drives.filter((d) => d.type !== 'NVMe').length;
  const drive = makeDrive(rng, ctx, model, slot, osIndex);
  drive.sensors[0]!.base = drive.wear.temperatureC;
  drive.approved = 'NotApproved';
  drive.wear.powerOnHours = rng.int(0, 20);
  drive.wear.percentageUsed = 0;
  node.drives.push(drive);
  return drive;
}
