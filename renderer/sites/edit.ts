import { DEFAULT_SMART_MAX_AGE_HOURS, siteNameProblem } from '../../app/domain/site-rules.js';
import type { Request, SiteView } from '../../app/ipc/contract.js';

export type SitePatch = Request<'sites:edit'>['patch'];

/** The edit form's fields. Numbers are null while their input is empty. */
export interface SiteForm {
  name: string;
  baseUrl: string;
  username: string;
  group: string;
  /** Comma-separated. */
  tags: string;
  maxInFlight: number | null;
  intervalSeconds: number | null;
  /** Hours a drive's SMART reading stays current between background polls. */
  smartMaxAgeHours: number | null;
}

export function siteForm(site: SiteView): SiteForm {
  return {
    name: site.name,
    baseUrl: site.baseUrl,
    username: site.username,
    group: site.group ?? '',
    tags: site.tags.join(', '),
    maxInFlight: site.polling.maxInFlight,
    intervalSeconds: site.polling.intervalSeconds,
    smartMaxAgeHours: site.polling.smartMaxAgeHours ?? DEFAULT_SMART_MAX_AGE_HOURS,
  };
}

/** Tags from `a, b ,c`: trimmed, empty ones and repeats dropped, order kept. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];
}

const intIn = (v: number | null, min: number, max: number): v is number => v !== null && Number.isInteger(v) && v >= min && v <= max;

/**
 * The patch for `sites:edit`: only the fields that changed, so an edit cannot overwrite a value
 * another window changed meanwhile. Checked here with the same limits as the contract, so the
 * admin reads a sentence instead of a schema path.
 */
export function sitePatch(site: SiteView, f: SiteForm): { patch: SitePatch } | { problem: string } {
  const name = f.name.trim();
  const nameProblem = siteNameProblem(name);
  if (nameProblem) return { problem: nameProblem };
  const baseUrl = f.baseUrl.trim();
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { problem: 'the URL must be absolute, e.g. https://storage.example:8443' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'the URL must start with https:// (or http:// for loopback)' };
  const username = f.username.trim();
  if (!username) return { problem: 'a user name is required' };
  const group = f.group.trim();
  if (group.length > 100) return { problem: 'a group name has at most 100 characters' };
  const tags = parseTags(f.tags);
  if (tags.length > 50 || tags.some((t) => t.length > 50)) return { problem: 'at most 50 tags of at most 50 characters each' };
  if (!intIn(f.maxInFlight, 1, 64)) return { problem: 'requests in flight must be a whole number from 1 to 64' };
  if (!intIn(f.intervalSeconds, 0, 86_400)) return { problem: 'the polling interval must be a whole number of seconds from 0 (on demand) to 86400' };
  if (!intIn(f.smartMaxAgeHours, 1, 8760)) return { problem: 'the SMART age must be a whole number of hours from 1 to 8760' };

  const patch: SitePatch = {};
  if (name !== site.name) patch.name = name;
  if (baseUrl !== site.baseUrl) patch.baseUrl = baseUrl;
  if (username !== site.username) patch.username = username;
  // An empty group clears it (main stores a blank group as none).
  if (group !== (site.group ?? '')) patch.group = group;
  if (tags.join('\n') !== site.tags.join('\n')) patch.tags = tags;
  if (f.maxInFlight !== site.polling.maxInFlight) patch.maxInFlight = f.maxInFlight;
  if (f.intervalSeconds !== site.polling.intervalSeconds) patch.intervalSeconds = f.intervalSeconds;
  if (f.smartMaxAgeHours !== (site.polling.smartMaxAgeHours ?? DEFAULT_SMART_MAX_AGE_HOURS)) patch.smartMaxAgeHours = f.smartMaxAgeHours;
  return { patch };
}
