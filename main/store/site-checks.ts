import { sitePollingSchema, siteNameProblem, siteTlsSchema, type Site, type SiteAuth, type SitePolling, type SiteTls } from '../../app/domain/site.js';
import { InputError } from '../../app/errors.js';
import { normalizeFingerprint } from '../../app/fingerprint.js';
import { isSecretField } from '../../app/redact.js';
import { hasUnsafeChars } from '../../app/safe-text.js';
import { isLoopbackHost } from '../net.js';

/*
 * The rules a site must meet to be stored. `SiteStore` applies them to every add and edit, and the
 * sites.json import (site-import.ts) to every entry, so a site refused by `site add` is refused
 * however it reaches the list.
 */

/** Most requests in flight a site may be configured for: its controllers also serve production I/O. */
export const MAX_IN_FLIGHT = 64;

const TLS_FIELDS = new Set(Object.keys(siteTlsSchema.shape));
const POLLING_FIELDS = new Set(Object.keys(sitePollingSchema.shape));

/** The longest site id: a name's (64 characters) with a suffix that makes it unique. */
export const MAX_SITE_ID = 80;

/**
 * Refuses a site id that is not lowercase letters, digits and dashes, or longer than
 * {@link MAX_SITE_ID}. Ids name keychain accounts and per-site profile folders, so a `/` or `..`
 * would reach outside the data directory, and a folder name past what a file system takes (255
 * bytes) would keep the site's window from starting.
 * @throws InputError
 */
export function checkSiteId(id: string): void {
  if (id.length > MAX_SITE_ID) throw new InputError(`"${id.slice(0, 24)}…" is not a valid site id: at most ${MAX_SITE_ID} characters (it has ${id.length})`);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) throw new InputError(`"${id}" is not a valid site id: use lowercase letters, digits and dashes`);
}

/** Names and ids compare without case: `--site X` finds a site whatever the case. */
export function sameKey(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * Validates a complete site against the others and returns it cleaned (trimmed, normalised pin).
 * The one set of rules for a site, however it arrives: added, edited, or imported from sites.json.
 * @throws InputError naming the site and the problem; code `conflict` when a name or id is taken.
 */
export function checkSite(site: Site, others: readonly Site[]): Site {
  const name = String(site.name);
  const nameProblem = siteNameProblem(name);
  if (nameProblem) throw new InputError(`"${name}": ${nameProblem}`);
  // Names and ids share one namespace, so `--site X` can never mean two sites.
  for (const o of others) {
    if (sameKey(o.name, name)) throw new InputError(`a site named "${o.name}" already exists`, 'conflict');
    if (sameKey(o.id, name)) throw new InputError(`"${name}" is already the id of site "${o.name}"; choose another name`, 'conflict');
    if (sameKey(o.id, site.id)) throw new InputError(`a site with id "${o.id}" already exists ("${o.name}")`, 'conflict');
    if (sameKey(o.name, site.id)) throw new InputError(`id "${site.id}" is already the name of another site; choose another id`, 'conflict');
  }

  const allowHttp = site.allowHttp;
  if (typeof allowHttp !== 'boolean') throw new InputError(`${name}: allowHttp must be true or false`);
  const baseUrl = checkBaseUrl(name, String(site.baseUrl).trim(), allowHttp);

  const username = String(site.username).trim();
  if (!username) throw new InputError(`${name}: a user name is required`);
  if (hasUnsafeChars(username)) throw new InputError(`${name}: the user name cannot contain control or text-direction characters`);

  const group = site.group === undefined ? undefined : String(site.group).trim() || undefined;
  if (!Array.isArray(site.tags) || site.tags.some((t) => typeof t !== 'string')) throw new InputError(`${name}: tags must be a list of words`);
  const tags = [...new Set(site.tags.map((t) => t.trim()).filter((t) => t.length > 0))];
  // Shown in every list and report, like the name.
  if ([group ?? '', ...tags].some(hasUnsafeChars)) throw new InputError(`${name}: groups and tags cannot contain control or text-direction characters`);

  const polling = checkPolling(name, site.polling);
  const tls = checkTls(name, site.tls);
  const out: Site = { id: site.id, name, baseUrl, username, tags, tls, allowHttp, polling, createdAt: site.createdAt, updatedAt: site.updatedAt };
  if (group !== undefined) out.group = group;
  if (site.auth !== undefined) out.auth = checkAuth(name, site.auth);
  return out;
}

function checkAuth(name: string, auth: SiteAuth): SiteAuth {
  if (auth.tokenScheme !== 'bearer' && auth.tokenScheme !== 'raw') throw new InputError(`${name}: the token scheme must be bearer or raw`);
  if (typeof auth.learnedAt !== 'string' || Number.isNaN(Date.parse(auth.learnedAt))) throw new InputError(`${name}: auth.learnedAt must be a time`);
  return { tokenScheme: auth.tokenScheme, learnedAt: auth.learnedAt };
}

function checkBaseUrl(name: string, baseUrl: string, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InputError(`${name}: "${baseUrl}" is not a URL (expected e.g. https://mgmt.example.com)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InputError(`${name}: the URL must start with https:// (got ${url.protocol}//)`);
  // A password in the URL would be a secret on disk.
  if (url.username || url.password) throw new InputError(`${name}: the URL cannot contain a user name or password; give the user name separately`);
  if (url.search || url.hash) throw new InputError(`${name}: the URL cannot contain a query (?…) or fragment (#…)`);
  if (url.protocol === 'http:' && !allowHttp && !isLoopbackHost(url.hostname)) {
    throw new InputError(`${name}: plain http to ${url.hostname} would send the password unencrypted; use https, or allow http explicitly for this site`);
  }
  return normaliseBaseUrl(url);
}

/**
 * The stored form of a base URL: scheme and host as `new URL` writes them (lowercase, default port
 * dropped), path prefix without trailing slash. `HTTPS://Mgmt.Example:443/api/` is
 * `https://mgmt.example/api`, so every later check reads one spelling.
 */
export function normaliseBaseUrl(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** True when two base URLs name the same endpoint once normalised (an unparsable one never does). */
export function sameBaseUrl(a: string, b: string): boolean {
  try {
    return normaliseBaseUrl(new URL(a.trim())) === normaliseBaseUrl(new URL(b.trim()));
  } catch {
    return false;
  }
}

function checkPolling(name: string, polling: unknown): SitePolling {
  if (typeof polling !== 'object' || polling === null) throw new InputError(`${name}: polling settings are missing`);
  assertKnownFields(polling, POLLING_FIELDS, 'polling');
  const p = polling as Partial<SitePolling>;
  const { intervalSeconds, paused, maxInFlight, smartMaxAgeHours } = p;
  if (typeof intervalSeconds !== 'number' || !Number.isInteger(intervalSeconds) || intervalSeconds < 0) {
    throw new InputError(`${name}: the polling interval must be a whole number of seconds, 0 or more (0 = on demand)`);
  }
  if (typeof paused !== 'boolean') throw new InputError(`${name}: paused must be true or false`);
  if (typeof maxInFlight !== 'number' || !Number.isInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
    throw new InputError(`${name}: requests in flight must be a whole number from 1 to ${MAX_IN_FLIGHT}`);
  }
  if (smartMaxAgeHours !== undefined && (typeof smartMaxAgeHours !== 'number' || !Number.isInteger(smartMaxAgeHours) || smartMaxAgeHours < 1 || smartMaxAgeHours > 8760)) {
    throw new InputError(`${name}: the SMART age must be a whole number of hours from 1 to 8760`);
  }
  return { intervalSeconds, paused, maxInFlight, ...(smartMaxAgeHours !== undefined ? { smartMaxAgeHours } : {}) };
}

function checkTls(name: string, tls: unknown): SiteTls {
  if (typeof tls !== 'object' || tls === null) throw new InputError(`${name}: TLS settings must be an object`);
  assertKnownFields(tls, TLS_FIELDS, 'tls');
  const t = tls as Record<string, unknown>;
  const out: SiteTls = {};
  if (t.pinSha256 !== undefined) {
    const pin = normalizeFingerprint(String(t.pinSha256));
    if (!pin) throw new InputError(`${name}: the pinned fingerprint must be a SHA-256 (64 hex digits)`);
    out.pinSha256 = pin;
  }
  for (const k of ['pinnedCertPem', 'caBundlePem'] as const) {
    const pem = t[k];
    if (pem === undefined) continue;
    if (typeof pem !== 'string' || !pem.includes('-----BEGIN CERTIFICATE-----')) throw new InputError(`${name}: ${k} must be PEM certificate text`);
    // Certificates are public; a private key pasted along with them is not.
    if (/PRIVATE KEY/.test(pem)) throw new InputError(`${name}: ${k} contains a private key; give only certificates`);
    out[k] = pem;
  }
  return out;
}

/** Refuses an object that carries a non-empty value under a secret field name, at any depth. */
export function assertNoSecrets(value: unknown, what: string, at = ''): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [k, v] of Object.entries(value)) {
    const where = at ? `${at}.${k}` : k;
    if (isSecretField(k) && v !== undefined && v !== null && v !== '') {
      throw new InputError(`refusing to save ${what}: field "${where}" is a secret, and secrets are kept in the system keychain, never in the site list`);
    }
    assertNoSecrets(v, what, where);
  }
}

export function assertKnownFields(value: object, known: ReadonlySet<string>, what: string): void {
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined && !known.has(k)) throw new InputError(`unknown ${what} field "${k}" (known: ${[...known].join(', ')})`);
  }
}

