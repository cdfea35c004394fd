import type { Args } from '../args.js';
import { fail } from '../errors.js';
import { findNode, requireTargetSystem, sameName, systemById } from '../state/lookup.js';
import type { FloatingIpState, NodeState, ReplicationFloatingIpState, SystemState } from '../state/model.js';
import { floatingIpView } from '../state/views.js';
import { requireIpv4, requireMask, requireName } from './checks.js';
import type { Ctx, HandlerMap } from './context.js';

/** Resolves node names (all nodes when none are given). */
export function resolveNodes(system: SystemState, names: readonly string[] | undefined): NodeState[] {
  if (!names || names.length === 0) return system.nodes;
  return names.map((n) => findNode(system, n) ?? fail(`Node '${n}' does not exist.`));
}

/** Interfaces must exist on every chosen node. */
export function checkInterfaces(nodes: readonly NodeState[], interfaces: readonly string[]): string[] {
  for (const i of interfaces) {
    for (const node of nodes) if (!node.nics.some((nic) => nic.name === i)) fail(`Interface '${i}' does not exist on node '${node.name}'.`);
  }
  return [...interfaces];
}

/** Addresses already in use on the system (NIC addresses, floating and replication floating IPs). */
function addressesInUse(system: SystemState, except?: string): Set<string> {
  const out = new Set<string>();
  for (const n of system.nodes) for (const nic of n.nics) for (const ip of nic.ips) out.add(ip.ip);
  for (const f of system.floatingIps) if (f.name !== except) out.add(f.address);
  for (const r of system.replicationFloatingIps) if (r.name !== except) for (const a of r.addresses) out.add(a);
  return out;
}

function findFip(system: SystemState, name: string | undefined): FloatingIpState {
  if (!name) fail('Floating IP name is required.');
  return system.floatingIps.find((f) => sameName(f.name, name)) ?? fail(`Floating IP '${name}' does not exist.`);
}

function applyFip(ctx: Ctx, b: Args, current: FloatingIpState | undefined): FloatingIpState {
  const system = ctx.system;
  const name = b.str('Name') ?? current?.name;
  requireName('Name', name);
  const clash = system.floatingIps.find((f) => sameName(f.name, name));
  if (clash && clash !== current) fail(`Floating IP '${name}' already exists.`);
  const address = b.has('Address') ? (requireIpv4('Address', b.str('Address')) as string) : (current?.address ?? (requireIpv4('Address', undefined) as string));
  if (addressesInUse(system, current?.name).has(address)) fail(`Address ${address} is already in use on system '${system.name}'.`);
  const mask = b.has('Mask') ? requireMask('Mask', b.str('Mask')) : (current?.mask ?? '255.255.255.0');
  const gateway = b.has('Gateway') ? (requireIpv4('Gateway', b.str('Gateway'), true) ?? '') : (current?.gateway ?? '');
  const nodes = b.has('Nodes') ? resolveNodes(system, b.strs('Nodes')) : current ? system.nodes.filter((n) => current.nodeIds.includes(n.id)) : system.nodes;
  const interfaces = checkInterfaces(nodes, b.has('Interfaces') ? (b.strs('Interfaces') ?? []) : (current?.interfaces ?? ['eth2']));
  if (interfaces.length === 0) fail('Interfaces must name at least one interface.');
  return {
    name: name as string,
    address,
    mask,
    gateway,
    dummy: b.bool('Dummy') ?? current?.dummy ?? false,
    nodeIds: nodes.map((n) => n.id),
    interfaces,
    pairs: current?.pairs ?? [],
  };
}

function replicationFipText(system: SystemState, list: readonly ReplicationFloatingIpState[]): string {
  if (list.length === 0) return 'No replication floating IPs.';
  const rows = list.map((r) => [
    r.name,
    r.addresses.join(', '),
    r.mask,
    r.gateway,
    system.nodes.filter((n) => r.nodeIds.includes(n.id)).map((n) => n.name).join(', '),
    r.interfaces.join(', '),
  ]);
  const header = ['Name', 'Addresses', 'Mask', 'Gateway', 'Nodes', 'Interfaces'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function findReplFip(system: SystemState, name: string | undefined): ReplicationFloatingIpState {
  if (!name) fail('Replication floating IP name is required.');
  return system.replicationFloatingIps.find((f) => sameName(f.name, name)) ?? fail(`Replication floating IP '${name}' does not exist.`);
}

function applyReplFip(ctx: Ctx, current: ReplicationFloatingIpState | undefined, newName: string | undefined): ReplicationFloatingIpState {
  const b = ctx.body;
  const system = ctx.system;
  const name = newName ?? current?.name;
  requireName(current ? 'Newname' : 'Name', name);
  const clash = system.replicationFloatingIps.find((f) => sameName(f.name, name));
  if (clash && clash !== current) fail(`Replication floating IP '${name}' already exists.`);
  const nodes = b.has('Nodes') ? resolveNodes(system, b.strs('Nodes')) : current ? system.nodes.filter((n) => current.nodeIds.includes(n.id)) : system.nodes;
  const addresses = b.has('Addresses') ? (b.strs('Addresses') ?? []).map((a) => requireIpv4('Addresses', a) as string) : (current?.addresses ?? []);
  if (addresses.length === 0) fail('Addresses is required: one address per node.');
  if (addresses.length !== nodes.length) fail(`Addresses has ${addresses.length} entries for ${nodes.length} nodes: send one address per node.`);
  const inUse = addressesInUse(system, current?.name);
  const used = addresses.find((a) => inUse.has(a));
  if (used) fail(`Address ${used} is already in use on system '${system.name}'.`);
  return {
    name: name as string,
    addresses,
    mask: b.has('Mask') ? requireMask('Mask', b.str('Mask')) : (current?.mask ?? '255.255.255.0'),
    gateway: b.has('Gateway') ? (requireIpv4('Gateway', b.str('Gateway'), true) ?? '') : (current?.gateway ?? ''),
    nodeIds: nodes.map((n) => n.id),
    interfaces: checkInterfaces(nodes, b.has('Interfaces') ? (b.strs('Interfaces') ?? []) : (current?.interfaces ?? ['eth4'])),
  };
}

export const floatingIpHandlers: HandlerMap = {
  'POST /floatingips/create': (ctx) => {
    const fip = applyFip(ctx, ctx.body, undefined);
    ctx.system.floatingIps.push(fip);
    return `Floating IP '${fip.name}' (${fip.address}) created.`;
  },

  'DELETE /floatingips/delete': (ctx) => {
    const fip = findFip(ctx.system, ctx.query.str('name'));
    const nas = ctx.system.nasServers.find((n) => n.floatingIps.includes(fip.name));
    if (nas) fail(`Floating IP '${fip.name}' is used by NAS server '${nas.name}'.`);
    for (const p of fip.pairs) {
      const remote = systemById(ctx.site, p.systemId)?.floatingIps.find((f) => f.name === p.name);
      if (remote) remote.pairs = remote.pairs.filter((b) => !(b.systemId === ctx.system.id && b.name === fip.name));
    }
    ctx.system.floatingIps = ctx.system.floatingIps.filter((f) => f !== fip);
    return `Floating IP '${fip.name}' deleted.`;
  },

  'PUT /floatingips/edit': (ctx) => {
    const fip = findFip(ctx.system, ctx.query.str('name'));
    const next = applyFip(ctx, ctx.body, fip);
    if (next.name !== fip.name) {
      for (const n of ctx.system.nasServers) n.floatingIps = n.floatingIps.map((f) => (f === fip.name ? next.name : f));
      for (const p of fip.pairs) {
        const remote = systemById(ctx.site, p.systemId)?.floatingIps.find((f) => f.name === p.name);
        for (const back of remote?.pairs ?? []) if (back.systemId === ctx.system.id && back.name === fip.name) back.name = next.name;
      }
    }
    Object.assign(fip, next);
    return `Floating IP '${fip.name}' updated.`;
  },

  'GET /floatingips/list': (ctx) => {
    const name = ctx.query.str('name');
    const ip = ctx.query.str('ip');
    const list = ctx.system.floatingIps.filter((f) => (!name || sameName(f.name, name)) && (!ip || f.address === ip.trim()));
    return { Data: list.map((f) => floatingIpView(ctx.site, ctx.system, f, ctx.nowMs)) };
  },

  'POST /floatingips/pair': (ctx) => {
    const fip = findFip(ctx.system, ctx.body.str('Name'));
    const target = requireTargetSystem(ctx.site, ctx.system, ctx.body.str('TargetSystem'));
    const remoteName = ctx.body.str('TargetFloatingIp');
    if (!remoteName) fail('TargetFloatingIp is required.');
    const remote = target.floatingIps.find((f) => sameName(f.name, remoteName));
    if (!remote) fail(`Floating IP '${remoteName}' does not exist on system '${target.name}'.`);
    if (fip.pairs.some((p) => p.systemId === target.id)) fail(`Floating IP '${fip.name}' is already paired with system '${target.name}'.`);
    fip.pairs.push({ systemId: target.id, name: remote.name });
    remote.pairs = remote.pairs.filter((p) => p.systemId !== ctx.system.id);
    remote.pairs.push({ systemId: ctx.system.id, name: fip.name });
    return `Floating IP '${fip.name}' paired with '${target.name}/${remote.name}'.`;
  },

  'DELETE /floatingips/unpair': (ctx) => {
    const fip = findFip(ctx.system, ctx.query.str('name'));
    const target = requireTargetSystem(ctx.site, ctx.system, ctx.query.str('targetSystem'));
    const pair = fip.pairs.find((p) => p.systemId === target.id);
    if (!pair) fail(`Floating IP '${fip.name}' is not paired with system '${target.name}'.`);
    fip.pairs = fip.pairs.filter((p) => p !== pair);
    const remote = target.floatingIps.find((f) => f.name === pair.name);
    if (remote) remote.pairs = remote.pairs.filter((p) => !(p.systemId === ctx.system.id && p.name === fip.name));
    return `Floating IP '${fip.name}' unpaired from system '${target.name}'.`;
  },

  'POST /replication/floatingips/create': (ctx) => {
    const fip = applyReplFip(ctx, undefined, ctx.body.str('Name'));
    ctx.system.replicationFloatingIps.push(fip);
    return `Replication floating IP '${fip.name}' created.`;
  },

  'DELETE /replication/floatingips/delete': (ctx) => {
    const fip = findReplFip(ctx.system, ctx.query.str('name'));
    ctx.system.replicationFloatingIps = ctx.system.replicationFloatingIps.filter((f) => f !== fip);
    return `Replication floating IP '${fip.name}' deleted.`;
  },

  'POST /replication/floatingips/edit': (ctx) => {
    const fip = findReplFip(ctx.system, ctx.body.str('Name'));
    Object.assign(fip, applyReplFip(ctx, fip, ctx.body.str('Newname')));
    return `Replication floating IP '${fip.name}' updated.`;
  },

  /** Returns a text table as a JSON string: the document gives this operation a string response. */
  'GET /replication/floatingips/list': (ctx) => {
    const name = ctx.query.str('name');
    const ip = ctx.query.str('ip');
    const list = ctx.system.replicationFloatingIps.filter((f) => (!name || sameName(f.name, name)) && (!ip || f.addresses.includes(ip.trim())));
    return replicationFipText(ctx.system, list);
  },
};
