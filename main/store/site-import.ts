import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import { siteInputSchema, siteSchema, type Site } from '../../app/domain/site.js';
import { InputError } from '../../app/errors.js';
import { assertKnownFields, assertNoSecrets, checkSite, checkSiteId } from './site-checks.js';
import { StoreError, errorCodeOf, storeError } from './store-error.js';

/*
 * The site list of earlier Fleetdecks, `sites.json`, read once when a data directory has no
 * `sites.db` yet. The rule: an entry is imported only if `site add` would accept it, and the file
 * is imported whole or not at all. A refused file is left as it was and every refused entry is
 * named, so the admin can fix it; until then the site list reads as empty.
 */

/** The site list of earlier Fleetdecks, imported once into `sites.db` and then renamed aside. */
export const SITES_FILE = 'sites.json';
/** Format version of `sites.json`. */
export const SITES_FILE_VERSION = 1;
/** What `sites.json` is renamed to once imported (followed by the UTC time). */
export const IMPORTED_SUFFIX = '.imported';

/**
 * One entry as stored, with the bounds a site given by an admin has (`siteInputSchema`): what
 * `sites:add` parses at the IPC boundary, applied to a file that crosses another one.
 */
const entrySchema = siteSchema.extend({
  name: siteInputSchema.shape.name,
  baseUrl: siteInputSchema.shape.baseUrl,
  username: siteInputSchema.shape.username,
  group: siteInputSchema.shape.group,
  tags: siteInputSchema.shape.tags.unwrap(),
});
const fileSchema = z.object({ version: z.literal(SITES_FILE_VERSION), sites: z.array(z.unknown()) });
const SITE_FIELDS = new Set(Object.keys(siteSchema.shape));

/** A sites.json ready to import: every site checked, and the file's hash (to rename that very file aside). */
export interface LegacySites {
  sites: Site[];
  sha256: string;
}

/**
 * The sites.json at `file`, checked, or undefined when there is none.
 * @throws StoreError (`damaged`, `newer`, `read-only`…) naming the file, each refused entry and what
 *   to do: nothing is imported until it is fixed or moved away.
 */
export function readLegacySites(file: string): LegacySites | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if (errorCodeOf(err) === 'ENOENT') return undefined;
    throw storeError(err, file, 'read', 'the site list of an earlier Fleetdeck');
  }
  return { sites: parseSitesFile(file, bytes.toString('utf8')), sha256: sha256(bytes) };
}

/** SHA-256 of a file's bytes, hex. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A zod issue as one phrase: where, and what. */
export function issueText(issue: { path: PropertyKey[]; message: string } | undefined): string {
  return issue ? `${issue.path.map(String).join('.') || 'top level'}: ${issue.message}` : 'unknown problem';
}

const UNFIXED = 'nothing was imported from it: fix it, or move it away to start with no sites';

function parseSitesFile(file: string, text: string): Site[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new StoreError(`${file} is not valid JSON (${err instanceof Error ? err.message : String(err)}); ${UNFIXED}`, file, 'damaged');
  }
  const version = typeof data === 'object' && data !== null && 'version' in data ? data.version : undefined;
  if (typeof version === 'number' && version > SITES_FILE_VERSION) {
    throw new StoreError(`${file} has format version ${version}, written by a newer Fleetdeck; update Fleetdeck`, file, 'newer');
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) throw new StoreError(`${file} is not a valid site list (${issueText(parsed.error.issues[0])}); ${UNFIXED}`, file, 'damaged');
  const sites: Site[] = [];
  const refused: string[] = [];
  parsed.data.sites.forEach((entry, i) => {
    try {
      sites.push(checkEntry(entry, sites));
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      refused.push(`${entryName(entry, i)}: ${visible(err.message)}${err.code === 'conflict' ? ' earlier in the file' : ''}`);
    }
  });
  if (refused.length > 0) {
    const list = refused.map((r) => `\n  - ${r}`).join('');
    throw new StoreError(`${file} is not a valid site list: ${refused.length} of its ${parsed.data.sites.length} sites would be refused by "site add"; ${UNFIXED}${list}`, file, 'damaged');
  }
  return sites;
}

/** An entry checked as `site add` checks a site, against the entries before it. */
function checkEntry(entry: unknown, before: readonly Site[]): Site {
  assertNoSecrets(entry, 'the site');
  if (typeof entry === 'object' && entry !== null) assertKnownFields(entry, SITE_FIELDS, 'site');
  const parsed = entrySchema.safeParse(entry);
  if (!parsed.success) throw new InputError(issueText(parsed.error.issues[0]));
  checkSiteId(parsed.data.id);
  return checkSite(parsed.data, before);
}

/** How a refused entry is named: its place in the file, and its id when it has a printable one. */
function entryName(entry: unknown, i: number): string {
  const id = typeof entry === 'object' && entry !== null && 'id' in entry ? entry.id : undefined;
  return typeof id === 'string' ? `site ${i + 1} (id "${visible(id.length > 40 ? `${id.slice(0, 40)}…` : id)}")` : `site ${i + 1}`;
}

/** Text from the file with its control and format characters escaped, so a refusal reads as what the file holds. */
function visible(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}
