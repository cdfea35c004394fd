import { InputError } from '../../app/errors.js';

/**
 * Names of the secret store accounts that hold a site's password and per-system session tokens.
 * Every name of one site starts with `sitePrefix(siteId)`, so forgetting a site is one
 * `deleteAll(sitePrefix(siteId))`.
 */

/** An unpaired UTF-16 surrogate: text encodeURIComponent refuses. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Encodes one path segment of an account name. Site ids and system names may contain `/`, spaces
 * or anything else; encoding keeps `/` as the only separator so a prefix never matches a longer
 * name by accident (`site/a/` must not match site `a/b`).
 * @throws RangeError when the value is empty: `site//` would be a prefix of nothing meaningful.
 * @throws InputError when the value holds a lone surrogate (no account can be named after it).
 */
function segment(value: string, what: string): string {
  if (value === '') throw new RangeError(`${what} must not be empty`);
  // A lone surrogate cannot be percent-encoded, and replacing it would give two names one account.
  if (LONE_SURROGATE.test(value)) throw new InputError(`${what} is not well-formed text (a lone UTF-16 surrogate): no account can be named after it`);
  return encodeURIComponent(value);
}

/** Prefix of every account belonging to the site, ending in `/`: `site/<siteId>/`. */
export function sitePrefix(siteId: string): string {
  return `site/${segment(siteId, 'site id')}/`;
}

/** Account of the site's login password: `site/<siteId>/password`. */
export function passwordAccount(siteId: string): string {
  return `${sitePrefix(siteId)}password`;
}

/** Account of the session token for one system of the site: `site/<siteId>/system/<system>/token`. */
export function tokenAccount(siteId: string, system: string): string {
  return `${sitePrefix(siteId)}system/${segment(system, 'system name')}/token`;
}

/**
 * Account of the site's discovery session (the one that lists its systems before any is
 * selected): `site/<siteId>/discovery/token`. Still under the site prefix, so it is forgotten with it.
 */
export function discoveryTokenAccount(siteId: string): string {
  return `${sitePrefix(siteId)}discovery/token`;
}

/** An account name as the admin reads it: "the password of site paris", "the session token of system tundra-01 (site paris)". */
export function describeAccount(account: string): string {
  const m = /^site\/([^/]+)\/(?:password|system\/([^/]+)\/token)$/.exec(account);
  if (!m) return `the secret ${account}`;
  const site = decodeURIComponent(m[1]!);
  return m[2] === undefined ? `the password of site ${site}` : `the session token of system ${decodeURIComponent(m[2])} (site ${site})`;
}
