import type { Site } from '../../app/domain/site.js';
import { terminalField } from '../../app/safe-text.js';
import type { Runtime } from '../runtime.js';
import type { CliIo } from './io.js';

/**
 * The saved sites in scope (all when `siteIds` is empty) of which no system has a cached answer:
 * never refreshed, or never past their login or system list. A command that reads the cache can
 * tell nothing about them, and an empty result must not read as "all is well" there.
 */
export function unreadSites(rt: Runtime, siteIds?: ReadonlySet<string>): Site[] {
  // The empty system name holds a site's own answers (its system list), not a system's.
  const read = new Set(rt.cache.systems().filter((s) => s.system !== '').map((s) => s.siteId));
  return rt.sites.list().filter((s) => (!siteIds?.size || siteIds.has(s.id)) && !read.has(s.id));
}

/** One line on stderr per site {@link unreadSites} found, saying what is unknown of it and what to do. */
export function noteUnread(io: CliIo, sites: readonly Site[], unknown: string): void {
  for (const s of sites) {
    io.stderr(`not read: site ${terminalField(s.name)}: no system of it has been read yet (never refreshed, or its login failed): its ${unknown} are unknown; run \`fleetdeck refresh\`\n`);
  }
}
