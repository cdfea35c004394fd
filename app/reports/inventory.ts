import type { Chassis, Cpu, Drive, Hba, MemoryModule, Nic, Node, VersionRecord } from '../catalog/resources.js';
import { formatBytes } from './format.js';
import type { Cell, ReportSection } from './model.js';
import { answer, dataList, type ReportInput, type SystemSnapshot } from './snapshot.js';
import { SITE_SYSTEM, arr, dataAgesFor, list, makeTable, num, text, where } from './table.js';

const OPS = ['GET /nodes/list', 'GET /resources/list', 'GET /resources/network/list', 'GET /Version'] as const;

/** Fleet inventory: systems, nodes, hardware with serials and firmware, component versions. */
export function inventorySection(input: ReportInput): ReportSection {
  const systems: Cell[][] = [];
  const nodes: Cell[][] = [];
  const hardware: Cell[][] = [];
  const versions: Cell[][] = [];
  for (const s of input.systems) {
    const nodeList = dataList<Node>(s, 'GET /nodes/list');
    const version = answer<VersionRecord>(s, 'GET /Version');
    const mgmt = arr(version?.Versions).find((v) => v.Component === 'Management');
    const info = s.info;
    systems.push([
      ...where(s),
      num(info?.Id),
      text(info?.Connectivity),
      nodeList.length || null,
      text(mgmt?.Version),
      list(info?.ReplicationTargetSystems),
      s.state,
    ]);
    for (const n of nodeList) {
      nodes.push([
        ...where(s),
        text(n.Name),
        num(n.Id),
        text(n.State),
        text(n.HAState),
        text(n.Iqn),
        list(n.Wwn),
        list(n.IpAddresses),
        list(n.Services),
        num(n.Vols),
      ]);
    }
    hardware.push(...hardwareRows(s));
    for (const v of arr(version?.Versions)) versions.push([...where(s), text(v.Component), text(v.Version), text(v.BuildNumber)]);
  }
  return {
    id: 'inventory',
    kind: 'inventory',
    title: 'Fleet inventory',
    description: 'Systems, nodes, every hardware component with its serial number and firmware, and the software component versions each system reports (GET /Version).',
    tables: [
      makeTable(
        'inventory.systems',
        'Systems',
        [...SITE_SYSTEM, ['id', 'Id', 'number'], ['connectivity', 'Connectivity'], ['nodes', 'Nodes', 'number'], ['managementVersion', 'Management version'], ['replicationTargets', 'Replication targets'], ['state', 'State when reported']],
        ['site', 'system'],
        systems,
      ),
      makeTable(
        'inventory.nodes',
        'Nodes',
        [...SITE_SYSTEM, ['node', 'Node'], ['id', 'Id', 'number'], ['state', 'State'], ['haState', 'HA state'], ['iqn', 'IQN'], ['wwns', 'WWNs'], ['ips', 'IP addresses'], ['services', 'Services'], ['volumes', 'Volumes', 'number']],
        ['site', 'system', 'node'],
        nodes,
        'No node list cached.',
      ),
      makeTable(
        'inventory.hardware',
        'Hardware',
        [
          ...SITE_SYSTEM,
          ['node', 'Node'],
          ['component', 'Component'],
          ['name', 'Name'],
          ['vendor', 'Vendor'],
          ['model', 'Model'],
          ['serial', 'Serial'],
          ['firmware', 'Firmware / version'],
          ['capacity', 'Capacity'],
          ['status', 'Status'],
          ['error', 'Error'],
        ],
        ['site', 'system', 'node', 'component', 'name'],
        hardware,
        'No hardware list cached.',
      ),
      makeTable(
        'inventory.versions',
        'Component versions',
        [...SITE_SYSTEM, ['component', 'Component'], ['version', 'Version'], ['build', 'Build']],
        ['site', 'system', 'component'],
        versions,
        'No version record cached.',
      ),
    ],
    dataAges: dataAgesFor(input, OPS),
  };
}

/** One row per hardware component: the resource list, with NICs from the network list. */
function hardwareRows(s: SystemSnapshot): Cell[][] {
  const rows: Cell[][] = [];
  const push = (node: string | null, component: string, name: unknown, vendor: unknown, model: unknown, serial: unknown, firmware: unknown, capacity: Cell, c: { ResourceStatus?: string; ErrMsg?: string }): void => {
    rows.push([...where(s), node, component, text(name), text(vendor), text(model), text(serial), text(firmware), capacity, text(c.ResourceStatus), text(c.ErrMsg)]);
  };
  const resources = dataList<Node>(s, 'GET /resources/list');
  for (const n of resources) {
    const node = text(n.Name);
    for (const c of arr<Chassis>(n.Chassis)) {
      push(node, 'Chassis', c.Name, c.ProductVendor ?? c.ChassisVendor, c.ProductName, c.ProductSerial ?? c.ChassisSerial ?? c.ResourceSerial, c.BiosVersion ? `BIOS ${c.BiosVersion}` : undefined, null, c);
    }
    for (const c of arr<Cpu>(n.CPU)) push(node, 'CPU', c.Name, c.Vendor, c.Brand ?? c.Model, c.ResourceSerial ?? c.ProcessorID, undefined, text(c.CoreCount) ? `${c.CoreCount} cores` : null, c);
    for (const m of arr<MemoryModule>(n.Memory)) push(node, 'Memory', m.Name, m.Manufacturer, m.MemoryType, m.Serial ?? m.ResourceSerial, undefined, text(m.Capacity), m);
    for (const d of arr<Drive>(n.Drives)) push(node, `Drive (${d.Type ?? 'unknown'})`, d.Name, d.Vendor, d.Model, d.ResourceSerial, d.Version, typeof d.CapacityInBytes === 'number' ? formatBytes(d.CapacityInBytes) : null, d);
    for (const h of arr<Hba>(n.FibreChannelHostBusAdapters)) push(node, 'FC HBA', h.Name, undefined, h.Model, h.ResourceSerial, h.FirmwareVersion, null, h);
    // The resource list may or may not carry NICs; the network list always does. Prefer it.
    if (!dataList<Node>(s, 'GET /resources/network/list').length) {
      for (const c of arr<Nic>(n.NetworkInterfaceCards)) push(node, 'NIC', c.Name, c.Vendor, c.Device, c.ResourceSerial, undefined, num(c.SpeedGbs) === null ? null : `${c.SpeedGbs} Gb/s`, c);
    }
  }
  for (const n of dataList<Node>(s, 'GET /resources/network/list')) {
    for (const c of arr<Nic>(n.NetworkInterfaceCards)) push(text(n.Name), 'NIC', c.Name, c.Vendor, c.Device, c.ResourceSerial, undefined, num(c.SpeedGbs) === null ? null : `${c.SpeedGbs} Gb/s`, c);
  }
  return rows;
}
