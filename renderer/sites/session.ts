import { asksForSecondFactor } from '../../app/auth/login-result.js';
import { pollingText } from '../../app/domain/polling.js';
import type { SiteView, SystemStatusView } from '../../app/ipc/contract.js';
import { api } from '../lib/api.js';
import type { FleetStore } from '../lib/fleet.svelte.js';

/**
 * Whether a login error asks for a two-factor code. Main raises `login-required` both for a missing
 * password and for a missing or wrong code, and only the message tells them apart (main says
 * "two-factor"; a system's own words may say MFA, OTP, verification code…).
 */
export function needsTwoFactor(message: string | undefined): boolean {
  return asksForSecondFactor(message);
}

/** The systems of a site in a state, with their last errors. */
export function systemsIn(fleet: FleetStore, siteId: string, state: SystemStatusView['state']): SystemStatusView[] {
  return fleet.systems.filter((s) => s.siteId === siteId && s.status.state === state).map((s) => s.status);
}

/** The login message to show for a site: one that asks for a code wins, since it changes the form. */
export function loginMessage(statuses: readonly SystemStatusView[]): string | undefined {
  const errors = statuses.map((s) => s.lastError).filter((m): m is string => Boolean(m));
  return errors.find(needsTwoFactor) ?? errors[0];
}

/** Reloads the site list (names, polling, pins change on edit, pause and trust). */
export async function reloadSites(fleet: FleetStore): Promise<void> {
  fleet.sites = await api().invoke('sites:list', {});
}

/**
 * Refreshes every system of one site and takes the statuses in. Used right after a login, a trust
 * or a resume, so the admin sees at once whether it worked instead of waiting for the next poll.
 */
export async function refreshSite(fleet: FleetStore, siteId: string): Promise<void> {
  const statuses = await api().invoke('fleet:refresh', { sites: [siteId] });
  fleet.applyAll(statuses);
  await reloadSites(fleet);
  // The site-level error (e.g. "no password stored") is only in fleet:status; without this read the
  // old one would stay on screen after the login that fixed it.
  const state = (await api().invoke('fleet:status', { site: siteId })).find((s) => s.siteId === siteId);
  if (state?.error) fleet.siteErrors.set(siteId, state.error);
  else fleet.siteErrors.delete(siteId);
}

/** A site's polling in words (app/domain/polling.ts): `paused`, `every 300 s`, `on demand (not polled)`. */
export function sitePollingText(site: SiteView): string {
  return pollingText(site.polling);
}

export { sitesNeedingYou, type SiteNeed } from './needs.js';
