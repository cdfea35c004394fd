import type { Replication, ReplicationPair } from '../../app/catalog/resources.js';
import { fail } from '../errors.js';
import { findPool, poolFreeBytes } from './capacity.js';
import { findApp, systemById, volumeById } from './lookup.js';
import type { AppState, ReplicationLink, ReplicationMode, SiteState, SystemState, VolumeState } from './model.js';
import { naaFor } from './provision.js';

/**
 * Replication progression (the document shows only Initializing): a pair is Initializing for
 * INIT_MS after a start, reconnect or promotion with resync, then Syncing while SyncInPercentage
 * rises linearly at SYNC_BYTES_PER_SECOND (at least MIN_SYNC_MS in all), then InSync at 100.
 */
export const INIT_MS = 5_000;
export const SYNC_BYTES_PER_SECOND = 512 * 1024 * 1024;
export const MIN_SYNC_MS = 60_000;
export const REPLICATION_PORT = 8701;

export type ConnectionStatus = 'Initializing' | 'Syncing' | 'InSync';

export interface LinkStatus {
  status: ConnectionStatus;
  percent: number;
}

export function linkStatus(link: ReplicationLink, nowMs: number): LinkStatus {
  const elapsed = nowMs - link.syncStartMs;
  if (elapsed < INIT_MS) return { status: 'Initializing', percent: 0 };
  const duration = Math.max(MIN_SYNC_MS, (link.syncBytes / SYNC_BYTES_PER_SECOND) * 1000);
  const percent = Math.min(100, Math.floor(((elapsed - INIT_MS) / duration) * 1000) / 10);
  if (link.reconnectedAtMs !== undefined && nowMs - link.reconnectedAtMs < INIT_MS) return { status: 'Initializing', percent };
  return percent >= 100 ? { status: 'InSync', percent: 100 } : { status: 'Syncing', percent };
}

export function linksOfVolume(site: SiteState, systemId: number, volumeId: number): ReplicationLink[] {
  return site.links.filter(
    (l) => (l.primary.systemId === systemId && l.primary.volumeId === volumeId) || (l.secondary.systemId === systemId && l.secondary.volumeId === volumeId),
  );
}

/** Replication address of a system: its first replication floating IP, else its first node's replication port. */
export function replicationAddress(system: SystemState): string {
  const fip = system.replicationFloatingIps[0]?.addresses[0];
  if (fip) return fip;
  const nic = system.nodes[0]?.nics.find((n) => n.role === 'replication');
  return nic?.ips[0]?.ip ?? '';
}

/** The volume's Replication object, from the perspective of its own system. */
export function replicationView(site: SiteState, system: SystemState, vol: VolumeState, nowMs: number): Replication {
  const links = linksOfVolume(site, system.id, vol.id);
  if (links.length === 0) {
    return { IpAddress: '', Port: 0, Role: 'None', InternalRole: 'None', LocalDataStatus: 'NotAvailable', ReplicationPairs: [] };
  }
  const isPrimary = links.some((l) => l.primary.systemId === system.id && l.primary.volumeId === vol.id);
  const pairs: ReplicationPair[] = [];
  let localInSync = true;
  for (const link of links) {
    const mine = isPrimary ? link.primary : link.secondary;
    if (mine.volumeId !== vol.id || mine.systemId !== system.id) continue;
    const remoteRef = isPrimary ? link.secondary : link.primary;
    const remote = systemById(site, remoteRef.systemId);
    const remoteVol = remote ? volumeById(remote, remoteRef.volumeId) : undefined;
    const st = linkStatus(link, nowMs);
    if (st.status !== 'InSync') localInSync = false;
    pairs.push({
      SyncInPercentage: st.percent,
      ReplicationId: link.id,
      RemoteSystemName: remote?.name ?? '',
      RemoteSystemId: remote?.id ?? 0,
      RemoteSystemRole: isPrimary ? 'Secondary' : 'Primary',
      IpAddress: remote ? replicationAddress(remote) : '',
      Port: REPLICATION_PORT,
      RemoteAppName: remoteVol?.app.name ?? '',
      RemoteVolName: remoteVol?.vol.name ?? '',
      ReplicationProtocol: link.mode,
      ConnectionStatus: st.status,
      RemoteDataStatus: isPrimary ? (st.status === 'InSync' ? 'UpToDate' : 'Inconsistent') : 'UpToDate',
      RemoteDiskStatus: 'Ok',
    });
  }
  const role = isPrimary ? 'Primary' : 'Secondary';
  return {
    IpAddress: replicationAddress(system),
    Port: REPLICATION_PORT,
    Role: role,
    InternalRole: role,
    LocalDataStatus: isPrimary || localInSync ? 'UpToDate' : 'Inconsistent',
    ReplicationPairs: pairs,
  };
}

export interface StartReplication {
  source: SystemState;
  app: AppState;
  vol: VolumeState;
  target: SystemState;
  targetApplication: string;
  targetVolume: string;
  mode: ReplicationMode;
  nowMs: number;
}

/** Creates the secondary volume on the target (same size, a pool of the same drive type) and the pair. */
export function startReplication(site: SiteState, r: StartReplication): ReplicationLink {
  if (linksOfVolume(site, r.source.id, r.vol.id).some((l) => l.secondary.systemId === r.source.id && l.secondary.volumeId === r.vol.id))
    fail(`Volume '${r.app.name}/${r.vol.name}' is a secondary volume; promote it before replicating it.`);
  if (linksOfVolume(site, r.source.id, r.vol.id).some((l) => l.secondary.systemId === r.target.id))
    fail(`Volume '${r.app.name}/${r.vol.name}' is already replicated to system '${r.target.name}'.`);
  const sourcePool = findPool(r.source, r.vol.pool);
  const bytes = r.vol.capacityBytes + r.vol.snapshotCapacityBytes;
  const candidates = [
    ...r.target.pools.filter((p) => p.type === sourcePool?.type),
    ...r.target.pools.filter((p) => p.type !== sourcePool?.type),
  ];
  const pool = candidates.find((p) => poolFreeBytes(r.target, p) >= bytes);
  if (!pool) fail(`Not enough free capacity on system '${r.target.name}' for a ${bytes}-byte secondary volume.`);
  let targetApp = findApp(r.target, r.targetApplication);
  if (targetApp?.volumes.some((v) => v.name.toLowerCase() === r.targetVolume.toLowerCase()))
    fail(`Volume '${r.targetApplication}/${r.targetVolume}' already exists on system '${r.target.name}'.`);
  if (!targetApp) {
    targetApp = { name: r.targetApplication, template: undefined, description: `Replica of ${r.source.name}/${r.app.name}`, volumes: [], cgs: [], vms: [] };
    r.target.apps.push(targetApp);
  }
  const id = ++r.target.counters.volume;
  targetApp.volumes.push({
    ...r.vol,
    id,
    entityId: ++r.target.counters.entity,
    metadataEntityId: ++r.target.counters.entity,
    name: r.targetVolume,
    pool: pool.name,
    metadataPool: pool.name,
    stripedPools: [],
    stripedMetadataPools: [],
    n: pool.n,
    k: pool.k,
    cgid: undefined,
    tiers: undefined,
    readOnly: true,
    naa: naaFor(r.target, id),
    createdAtMs: r.nowMs,
    ownerNodeId: r.target.nodes[id % r.target.nodes.length]?.id ?? 0,
    fs: r.vol.fs ? { ...r.vol.fs, mounted: false } : undefined,
    encryptionKey: undefined,
  });
  const link: ReplicationLink = {
    id: site.nextLinkId++,
    primary: { systemId: r.source.id, volumeId: r.vol.id },
    secondary: { systemId: r.target.id, volumeId: id },
    mode: r.mode,
    syncStartMs: r.nowMs,
    syncBytes: Math.floor(r.vol.capacityBytes * Math.max(r.vol.consumed, 0.05)),
    announcedInSync: false,
  };
  site.links.push(link);
  return link;
}

export function removeLink(site: SiteState, link: ReplicationLink): void {
  site.links = site.links.filter((l) => l !== link);
  for (const ref of [link.primary, link.secondary]) {
    const sys = systemById(site, ref.systemId);
    const entry = sys ? volumeById(sys, ref.volumeId) : undefined;
    if (entry && linksOfVolume(site, ref.systemId, ref.volumeId).length === 0) entry.vol.readOnly = false;
  }
}
