import type { Host, Node } from '../../app/catalog/index.js';
import { partnerOf } from '../../app/health/ha.js';
import { unhealthyDrives } from '../../app/health/rollup.js';

/**
 * What the cache knows an I/O-cutting action touches, in words for its confirmation: the hosts
 * with mapped volumes that reach the system by a protocol, and for a takeover what the partner
 * carries. Pure; every list may be empty when nothing is cached.
 */

export type Protocol = 'iSCSI' | 'NVMe' | 'FC';

/** Hosts with at least one mapped volume that log in by `protocol`, as `name (identity)`. */
export function mappedHostsBy(hosts: readonly Host[], protocol: Protocol): string[] {
  return hosts
    .filter((h) => (h.Mappings?.length ?? 0) > 0)
    .flatMap((h) => {
      const id = protocol === 'iSCSI' ? h.Iqn : protocol === 'NVMe' ? h.Nqn : h.Wwns?.join(', ');
      return id ? [`${h.Name ?? '?'} (${id})`] : [];
    });
}

/** Every host with at least one mapped volume: the ones whose paths move in a takeover. */
export function mappedHosts(hosts: readonly Host[]): string[] {
  return hosts.filter((h) => (h.Mappings?.length ?? 0) > 0).map((h) => `${h.Name ?? '?'} (${h.Mappings?.length} volume${h.Mappings?.length === 1 ? '' : 's'})`);
}

export interface TakeoverImpact {
  partner: string | undefined;
  /** Lines naming what the app knows: the partner's drives not OK, services moving, hosts affected. */
  lines: string[];
}

/**
 * What taking `node` over puts at risk: its partner runs everything afterwards, so a drive the
 * partner already reports not OK, the services that move and the hosts whose paths move are named.
 */
export function takeoverImpact(nodes: readonly Node[], resources: readonly Node[], hosts: readonly Host[], node: string): TakeoverImpact {
  const self = nodes.find((n) => n.Name === node);
  const partner = partnerOf(nodes, node)?.Name;
  const lines: string[] = [];
  if (partner) {
    const bad = unhealthyDrives(resources.filter((n) => n.Name === partner));
    for (const d of bad) lines.push(`${partner} carries drive ${d.drive.Name ?? d.drive.Id} in state ${d.drive.ResourceStatus}${d.drive.ErrMsg ? ` (${d.drive.ErrMsg})` : ''}: after the takeover it serves everything with it.`);
  } else {
    lines.push('The app cannot tell which node is the partner of this one; check it on the system first.');
  }
  if (self?.Services?.length) lines.push(`Services that move to ${partner ?? 'the partner'}: ${self.Services.join(', ')}.`);
  if (self?.Vols) lines.push(`${self.Vols} volume${self.Vols === 1 ? '' : 's'} owned by ${node} change owner.`);
  const affected = mappedHosts(hosts);
  if (affected.length) lines.push(`Hosts with mapped volumes whose paths move: ${affected.join(', ')}.`);
  return { partner, lines };
}
