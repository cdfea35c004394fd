import { allDrives, systemById, volumeById } from './lookup.js';
import type { SiteState } from './model.js';
import { LEVEL, notify } from './notifications.js';
import { linkStatus } from './replication.js';
import { degradingMessage, degradingStatus } from './smart.js';

/**
 * Applies time-driven transitions up to `nowMs` and writes their notifications once:
 * replication pairs reaching InSync, degrading drives crossing from Warning to Degraded.
 * Values themselves are derived from the clock on read; this only records the events.
 */
export function tick(site: SiteState, nowMs: number): void {
  if (nowMs - site.lastTickMs < 1000) return;
  site.lastTickMs = nowMs;
  for (const link of site.links) {
    if (link.announcedInSync || linkStatus(link, nowMs).status !== 'InSync') continue;
    link.announcedInSync = true;
    const primary = systemById(site, link.primary.systemId);
    const secondary = systemById(site, link.secondary.systemId);
    const vol = primary ? volumeById(primary, link.primary.volumeId) : undefined;
    const text = `Replication ${link.id} of ${primary?.name}/${vol?.app.name}/${vol?.vol.name} to ${secondary?.name} is in sync.`;
    for (const sys of [primary, secondary]) if (sys) notify(sys, site.customer, nowMs, { level: LEVEL.info, module: 'Replication', message: text });
  }
  for (const system of site.systems) {
    for (const { node, drive } of allDrives(system)) {
      if (drive.wear.degradePerHour === 0 || (drive.status !== 'Warning' && drive.status !== 'Degraded')) continue;
      drive.errMsg = degradingMessage(drive, nowMs);
      const status = degradingStatus(drive, nowMs);
      if (status === drive.status) continue;
      drive.status = status;
      notify(system, site.customer, nowMs, {
        level: LEVEL.error,
        module: 'Hardware',
        message: `Drive ${drive.name} (${drive.serial}) on node ${node.name} is degraded: ${drive.errMsg}`,
        node: node.name,
      });
    }
  }
}
