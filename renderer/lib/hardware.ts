import type { Chassis, Cpu, Drive, Hba, MemoryModule, Nic, Node, Sensor } from '../../app/catalog/index.js';
import { statusTone } from './hardware-status.js';

export { shortNode, statusTone } from './hardware-status.js';

/** A hardware component with the node it sits in. */
export interface OnNode<T> {
  node: string;
  item: T;
}

export type ComponentKind = 'drives' | 'nics' | 'cpus' | 'memory' | 'hbas' | 'chassis' | 'sensors';

function flat<T>(nodes: readonly Node[], pick: (n: Node) => readonly T[] | undefined): OnNode<T>[] {
  return nodes.flatMap((n) => (pick(n) ?? []).map((item) => ({ node: n.Name ?? '', item })));
}

export const drivesOf = (nodes: readonly Node[]): OnNode<Drive>[] => flat(nodes, (n) => n.Drives);
export const nicsOf = (nodes: readonly Node[]): OnNode<Nic>[] => flat(nodes, (n) => n.NetworkInterfaceCards);
export const cpusOf = (nodes: readonly Node[]): OnNode<Cpu>[] => flat(nodes, (n) => n.CPU);
export const memoryOf = (nodes: readonly Node[]): OnNode<MemoryModule>[] => flat(nodes, (n) => n.Memory);
export const hbasOf = (nodes: readonly Node[]): OnNode<Hba>[] => flat(nodes, (n) => n.FibreChannelHostBusAdapters);
export const chassisOf = (nodes: readonly Node[]): OnNode<Chassis>[] => flat(nodes, (n) => n.Chassis);

/** A component the system reports as missing: what `DELETE /resources/delete` removes. */
export interface MissingComponent {
  node: string;
  kind: string;
  name: string;
  id: number;
}

/** Every missing component of the nodes, with an id to remove it by. */
export function missingOf(nodes: readonly Node[]): MissingComponent[] {
  const kinds: Array<[string, (n: Node) => ReadonlyArray<{ Id?: number | null; Name?: string | null; ResourceStatus?: string | null }> | null | undefined]> = [
    ['drive', (n) => n.Drives],
    ['NIC', (n) => n.NetworkInterfaceCards],
    ['CPU', (n) => n.CPU],
    ['memory', (n) => n.Memory],
    ['HBA', (n) => n.FibreChannelHostBusAdapters],
    ['chassis', (n) => n.Chassis],
  ];
  return kinds.flatMap(([kind, pick]) =>
    flat(nodes, (n) => pick(n) ?? undefined)
      .filter((c) => /^missing$/i.test(c.item.ResourceStatus ?? '') && typeof c.item.Id === 'number')
      .map((c) => ({ node: c.node, kind, name: c.item.Name ?? `#${c.item.Id}`, id: c.item.Id as number })),
  );
}

/** A sensor with what it measures: the node itself or one of its components. */
export interface SensorRow {
  node: string;
  /** `node` or the component's name. */
  owner: string;
  sensor: Sensor;
}

/** Every sensor of the nodes: their own and their components'. */
export function sensorsOf(nodes: readonly Node[]): SensorRow[] {
  const out: SensorRow[] = [];
  for (const n of nodes) {
    const node = n.Name ?? '';
    for (const s of n.Sensors ?? []) out.push({ node, owner: 'node', sensor: s });
    const parts: Array<{ Name?: string; Sensors?: Sensor[] }> = [...(n.Drives ?? []), ...(n.CPU ?? []), ...(n.Memory ?? []), ...(n.NetworkInterfaceCards ?? []), ...(n.FibreChannelHostBusAdapters ?? []), ...(n.Chassis ?? [])];
    for (const p of parts) for (const s of p.Sensors ?? []) out.push({ node, owner: p.Name ?? '', sensor: s });
  }
  return out;
}


/** Row tone for tables: only problems are marked. */
export function rowToneOf(status: string | undefined): 'warning' | 'critical' | undefined {
  const t = statusTone(status);
  return t === 'warning' || t === 'critical' ? t : undefined;
}

export function findDrive(nodes: readonly Node[], node: string, id: number): Drive | undefined {
  return nodes.find((n) => n.Name === node)?.Drives?.find((d) => d.Id === id);
}

export function findNic(nodes: readonly Node[], node: string, name: string): Nic | undefined {
  return nodes.find((n) => n.Name === node)?.NetworkInterfaceCards?.find((c) => c.Name === name);
}
