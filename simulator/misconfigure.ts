import { poolAllocatedBytes, poolUsableBytes } from './state/capacity.js';
import type { FleetState, HostState, SiteState, SystemState } from './state/model.js';
import { INIT_MS } from './state/replication.js';

/**
 * Configuration states a compliance baseline looks for, each named by the check of Fleetdeck's
 * shipped baseline it fails, so a test can drive a system into every failing state. `secure`
 * undoes all but two-step authentication (switching it on makes every login ask for a code) and
 * pool free space (the simulator does not shrink volumes).
 */
export const MISCONFIGURATIONS = [
  'users-two-step',
  'support-tunnel-off',
  'target-chap',
  'host-chap',
  'isns-access-control',
  'email-validates-certificate',
  'notification-target-warning',
  'anomaly-detection-on',
  'volumes-encrypted',
  'sed-password-supplied',
  'snapshot-schedules',
  'replication-in-sync',
  'pool-free-space',
] as const;
export type Misconfiguration = (typeof MISCONFIGURATIONS)[number];

export function isMisconfiguration(name: string): name is Misconfiguration {
  return (MISCONFIGURATIONS as readonly string[]).includes(name);
}

const ISNS_ADDRESS = '10.250.0.10';

/** Puts one system into the failing state `what`; what it changed, in a sentence. */
export function misconfigure(site: SiteState, system: SystemState, what: Misconfiguration, nowMs: number): string {
  switch (what) {
    case 'users-two-step':
      site.multifactor = false;
      return 'two-step authentication off for the site';
    case 'support-tunnel-off': {
      const node = first(system.nodes, 'node');
      node.tunnel = true;
      node.tunnelSession = 'sim-support-case';
      return `support tunnel open on ${node.name}`;
    }
    case 'target-chap': {
      system.chap = { name: '', secret: undefined };
      return `target CHAP cleared; iSCSI host ${iscsiHost(system).name}`;
    }
    case 'host-chap': {
      const host = iscsiHost(system);
      host.chapSecret = undefined;
      return `host ${host.name} has no CHAP secret`;
    }
    case 'isns-access-control':
      system.isns = { address: system.isns.address || ISNS_ADDRESS, accessControl: false };
      return 'iSNS without access control';
    case 'email-validates-certificate':
      system.email.server ||= 'mail.example.test';
      system.email.validateCertificate = false;
      return 'e-mail certificate validation off';
    case 'notification-target-warning':
      for (const t of system.targets) t.enabled = false;
      return 'every notification target disabled';
    case 'anomaly-detection-on':
      system.anomaly = { days: 0, percent: 0 };
      return 'anomaly detection off';
    case 'volumes-encrypted': {
      const vol = first(system.apps.flatMap((a) => a.volumes), 'volume');
      vol.encrypted = false;
      return `volume ${vol.name} not encrypted`;
    }
    case 'sed-password-supplied': {
      const drive = first(system.nodes.flatMap((n) => n.drives), 'drive');
      drive.sed = 'Unlocked';
      system.sedPassword = undefined;
      return `drive ${drive.name} self-encrypting, no SED password`;
    }
    case 'snapshot-schedules': {
      const cg = first(system.apps.flatMap((a) => a.cgs), 'consistency group');
      cg.schedulers = [];
      return `consistency group ${cg.id} without a snapshot schedule`;
    }
    case 'replication-in-sync': {
      const link = first(site.links.filter((l) => l.primary.systemId === system.id || l.secondary.systemId === system.id), 'replicated volume');
      // Past initialisation, with more to copy than the link moves in years: Syncing until secured.
      link.syncStartMs = nowMs - INIT_MS - 1;
      link.syncBytes = Number.MAX_SAFE_INTEGER;
      link.announcedInSync = false;
      return `replication link ${link.id} out of sync`;
    }
    case 'pool-free-space': {
      const pool = first(system.pools, 'pool');
      const vol = first(system.apps.flatMap((a) => a.volumes).filter((v) => v.pool === pool.name), `volume in pool ${pool.name}`);
      const usable = poolUsableBytes(system, pool);
      // Allocate 95 % of the pool: below every free-space limit a baseline would set.
      vol.capacityBytes += Math.max(0, Math.ceil(usable * 0.95 - poolAllocatedBytes(system, pool)));
      return `pool ${pool.name} 95 % allocated`;
    }
  }
}

/** Puts the system into the passing state of every misconfiguration but two-step authentication and free space. */
export function secure(site: SiteState, system: SystemState): void {
  for (const n of system.nodes) n.tunnel = false;
  system.chap = { name: 'fleetdeck-target', secret: 'target-secret-16' };
  for (const h of system.hosts) if (h.iqn) h.chapSecret ??= 'host-secret-0012';
  system.isns = { address: system.isns.address || ISNS_ADDRESS, accessControl: true };
  system.email.validateCertificate = true;
  const target = system.targets[0];
  if (target) {
    target.enabled = true;
    target.minLevel = Math.min(target.minLevel, 3);
  }
  if (system.anomaly.days < 1 || system.anomaly.percent < 1) system.anomaly = { days: 7, percent: 30 };
  for (const a of system.apps) {
    for (const v of a.volumes) v.encrypted = true;
    for (const cg of a.cgs) if (!cg.schedulers.length) cg.schedulers = ['daily'];
  }
  system.sedPassword ??= 'sed-password-0001';
  for (const l of site.links) {
    if (l.primary.systemId !== system.id && l.secondary.systemId !== system.id) continue;
    l.syncBytes = 0;
    l.syncStartMs = 0;
    delete l.reconnectedAtMs;
  }
}

function first<T>(items: readonly T[], what: string): T {
  const item = items[0];
  if (item === undefined) throw new RangeError(`the system has no ${what}`);
  return item;
}

/** A host with an IQN, made from the first host (or a new one) when none has. */
function iscsiHost(system: SystemState): HostState {
  const found = system.hosts.find((h) => h.iqn);
  if (found) return found;
  const host = system.hosts[0] ?? { name: 'iscsi-host', ip: '', wwns: [], iqn: '', nqn: '', chapSecret: undefined, pairs: [] };
  if (!system.hosts.includes(host)) system.hosts.push(host);
  host.iqn = `iqn.2026-01.test.simulator:${host.name.toLowerCase()}`;
  return host;
}

/**
 * The demo fleet's drift from the secure baseline that a Fix… can end: a support tunnel a vendor
 * case left open on the second site's first system, and e-mail certificate validation turned off
 * on the third site's last system. Without it every failing check of the demo would need a change
 * Fleetdeck cannot preview (two-step authentication, CHAP secrets, encryption).
 */
export function demoDrift(fleet: FleetState, nowMs: number): void {
  const [, second, third] = fleet.sites;
  const tunnel = second?.systems[0];
  if (second && tunnel) misconfigure(second, tunnel, 'support-tunnel-off', nowMs);
  const mail = third?.systems.at(-1);
  if (third && mail) misconfigure(third, mail, 'email-validates-certificate', nowMs);
}
