import type { FleetSystem } from '../lib/fleet.svelte.js';

// The sites that need the admin, as the frame's attention bar shows them: apart from the login and
// refresh helpers (session.ts, which re-exports it), so the frame's script does not carry those.

/** A site with systems waiting for a login or for a decision about a changed certificate. */
export interface SiteNeed {
  siteId: string;
  siteName: string;
  login: number;
  certificate: number;
}

/** Per site, how many systems need a login and how many present a changed certificate. */
export function sitesNeedingYou(systems: readonly FleetSystem[]): SiteNeed[] {
  const bySite = new Map<string, SiteNeed>();
  for (const s of systems) {
    const state = s.status.state;
    if (state !== 'login-required' && state !== 'certificate-changed') continue;
    // Systems of a site main no longer lists (just removed) have no site to act on.
    if (!s.site) continue;
    const need = bySite.get(s.siteId) ?? { siteId: s.siteId, siteName: s.site.name, login: 0, certificate: 0 };
    if (state === 'login-required') need.login++;
    else need.certificate++;
    bySite.set(s.siteId, need);
  }
  return [...bySite.values()];
}
