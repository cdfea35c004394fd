import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_POLL_INTERVAL_SECONDS } from '../../app/domain/polling.js';
import { newSiteSchema, siteIdFromName, siteNameProblem, sitePatchSchema, sitePollingSchema, siteSchema, siteTlsSchema, type NewSite, type Site, type SiteAuth, type SiteImportNotice, type SitePatch, type SitePolling, type SiteTls } from '../../app/domain/site.js';
import { InputError } from '../../app/errors.js';
import { normalizeFingerprint } from '../../app/fingerprint.js';
import { isSecretField } from '../../app/redact.js';
import { hasUnsafeChars } from '../../app/safe-text.js';
import { isLoopbackHost } from '../net.js';
import { SITES_DATABASE, SITES_DB_FILE, createDatabaseFile, openSqlite, type Database } from './database.js';
import { ensureDataDir } from './data-dir.js';
import { StoreError, errorCodeOf, remedy, storeError } from './store-error.js';

/** The site list of earlier Fleetdecks, imported once into {@link SITES_DB_FILE} and then renamed aside. */
export const SITES_FILE = 'sites.json';
/** Format version of `sites.json`. */
export const SITES_FILE_VERSION = 1;
/** What `sites.json` is renamed to once imported (followed by the UTC time). */
export const IMPORTED_SUFFIX = '.imported';

/** Polling of a new site unless given: every {@link DEFAULT_POLL_INTERVAL_SECONDS}, not paused, 4 requests in flight. */
export const DEFAULT_POLLING: Readonly<SitePolling> = Object.freeze({ intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS, paused: false, maxInFlight: 4 });

/** Most requests in flight a site may be configured for: its controllers also serve production I/O. */
const MAX_IN_FLIGHT = 64;

export type { NewSite, SitePatch } from '../../app/domain/site.js';

export interface SiteStoreOptions {
  /** Data directory; created (mode 0700) on first write. */
  dataDir: string;
  /** Source of `createdAt`/`updatedAt`; injected so tests control times. */
  clock?: () => Date;
}

const NEW_SITE_FIELDS = new Set(Object.keys(newSiteSchema.shape));
const PATCH_FIELDS = new Set(Object.keys(sitePatchSchema.shape));
const TLS_FIELDS = new Set(Object.keys(siteTlsSchema.shape));
const POLLING_FIELDS = new Set(Object.keys(sitePollingSchema.shape));
const fileSchema = z.object({ version: z.literal(SITES_FILE_VERSION), sites: z.array(siteSchema) });

/** The `site_meta` key naming the sites.json a site list was imported from (and, once renamed aside, its new name). */
const IMPORTED_FROM = 'imported-from';
/** The `site_meta` key set when the admin dismissed the notice of the import (ISO time). */
const IMPORT_NOTICE_DISMISSED = 'import-notice-dismissed';

interface ImportRecord {
  file: string;
  sites: number;
  sha256: string;
  /** What the file was renamed to (its name, in the data directory). */
  renamedTo?: string;
}

/**
 * The configured sites, in `<dataDir>/sites.db` (SQLite, WAL, 0600). Holds no secret: saving an
 * object with a secret-named field is refused. Several app instances (one per site) share the file;
 * every change is one IMMEDIATE transaction that re-reads the list, so two instances never lose
 * each other's changes and readers never see half of one.
 *
 * A `sites.json` of an earlier Fleetdeck is imported once, every field as it was (the learned
 * token scheme included), when the database is created, and then renamed aside
 * (`sites.json.imported-<time>`), never deleted. A damaged `sites.json` is reported, and nothing
 * is created until it is fixed or moved away: the list reads as empty, adding a site is refused,
 * and {@link SiteStore.importNotice} says what is wrong.
 */
export class SiteStore {
  /** The site list's file, `<dataDir>/sites.db`. */
  readonly file: string;
  private readonly legacyFile: string;
  private readonly dataDir: string;
  private readonly clock: () => Date;
  private db: Database | undefined;
  /**
   * The list as last read, with SQLite's `data_version` then: a background poll asks for the site
   * list several times per site and minute (to follow edits made by another process), and only a
   * commit changes it — another connection's (the version moves) or this store's (it forgets it).
   */
  private memo: { version: unknown; sites: Site[] } | undefined;
  private dataVersion: { get(): { data_version: number } | undefined } | undefined;
  /** Each stored row's text as last read, with the site it validated to: the rows of the list now, no more. */
  private validated = new Map<string, Site>();
  /** Why a sites.json found with no site list yet was not imported (it is left as it was). */
  private legacyProblem: StoreError | undefined;
  /** The not-imported notice the admin dismissed in this run (nothing is stored while the file is unusable). */
  private dismissedProblem: string | undefined;

  constructor(options: SiteStoreOptions) {
    this.dataDir = options.dataDir;
    this.file = path.join(options.dataDir, SITES_DB_FILE);
    this.legacyFile = path.join(options.dataDir, SITES_FILE);
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * Every site, in the order added (copies: changing them changes nothing stored). Reads nothing
   * from disk and creates nothing when the data directory has no site list yet.
   * @throws StoreError when the site list (or a sites.json to import) cannot be read.
   */
  list(): Site[] {
    return structuredClone(this.current());
  }

  /**
   * The list as {@link list} gives it, without copying it: the same array until a commit changes
   * the list, for readers that only look (the search index asks for it after every poll). Never
   * change what it holds.
   */
  shared(): ReadonlyArray<Readonly<Site>> {
    return this.current();
  }

  /** The memo of the list, read again when a commit moved SQLite's `data_version` (not a copy: never handed out). */
  private current(): Site[] {
    const db = this.open(false);
    if (!db) return [];
    let version: unknown;
    try {
      this.dataVersion ??= db.prepare<[], { data_version: number }>('PRAGMA data_version');
      version = this.dataVersion.get()?.data_version;
    } catch (err) {
      throw storeError(err, this.file, 'read', SITES_DATABASE.label);
    }
    if (this.memo === undefined || this.memo.version !== version) this.memo = { version, sites: this.read(db) };
    return this.memo.sites;
  }

  /**
   * The site with this id or name (case-insensitive), or `undefined`.
   * @throws StoreError as {@link list}.
   */
  get(nameOrId: string): Site | undefined {
    // A copy of the one site found: a poll asks for its site each time, and copying them all was O(fleet).
    const found = find(this.current(), nameOrId);
    return found && structuredClone(found);
  }

  /**
   * Adds a site and returns it as stored, with defaults filled in (polling on demand, no tags).
   * @throws InputError naming the problem: a secret-named field, an invalid or duplicate name or
   *   id, a URL that is not http(s), plain http to a non-loopback host without `allowHttp`, invalid
   *   polling or TLS settings. StoreError when the site list cannot be written.
   */
  async add(input: NewSite): Promise<Site> {
    assertNoSecrets(input, 'site');
    assertKnownFields(input, NEW_SITE_FIELDS, 'site');
    return this.modify((sites) => {
      const site = this.build(input, sites);
      return { sites: [...sites, site], result: site };
    });
  }

  /**
   * Checks a site as {@link add} would, without saving it: lets a caller refuse a bad name or URL
   * before contacting anything. Returns the site as it would be stored.
   * @throws InputError for the same problems as {@link add}.
   */
  check(input: NewSite): Site {
    assertNoSecrets(input, 'site');
    assertKnownFields(input, NEW_SITE_FIELDS, 'site');
    return this.build(input, this.list());
  }

  private build(input: NewSite, sites: readonly Site[]): Site {
    const now = this.clock().toISOString();
    let id: string;
    if (input.id !== undefined) {
      id = input.id;
      if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) throw new InputError(`"${id}" is not a valid site id: use lowercase letters, digits and dashes`);
    } else {
      // A derived id that is taken gets a suffix: the admin chose a distinct name, not the id.
      const base = siteIdFromName(String(input.name));
      id = base;
      for (let n = 2; sites.some((s) => sameKey(s.id, id) || sameKey(s.name, id)); n++) id = `${base}-${n}`;
    }
    const site = normalise(
      {
        id,
        name: input.name,
        baseUrl: input.baseUrl,
        username: input.username,
        group: input.group,
        tags: input.tags ?? [],
        tls: input.tls ?? {},
        allowHttp: input.allowHttp ?? false,
        polling: { ...DEFAULT_POLLING, ...input.polling },
        createdAt: now,
        updatedAt: now,
      },
      sites,
    );
    return site;
  }

  /**
   * Changes a site and returns it as stored; its id and creation time never change.
   * @throws InputError when no site has this name or id, or for the same problems as {@link add}.
   */
  async update(nameOrId: string, patch: SitePatch): Promise<Site> {
    assertNoSecrets(patch, 'site');
    for (const k of ['id', 'createdAt', 'updatedAt']) if (k in patch) throw new InputError(`the ${k} of a site cannot be changed`);
    assertKnownFields(patch, PATCH_FIELDS, 'site');
    return this.modify((sites) => {
      const current = mustFind(sites, nameOrId);
      const others = sites.filter((s) => s !== current);
      const group = patch.group === null ? undefined : (patch.group ?? current.group);
      // A pin names the certificate of one endpoint: it never carries over to another URL.
      const moved = patch.baseUrl !== undefined && !sameBaseUrl(patch.baseUrl, current.baseUrl);
      const tls = patch.tls ?? (moved ? withoutPin(current.tls) : current.tls);
      // What one endpoint's login taught says nothing about another's.
      const auth = patch.auth === null ? undefined : (patch.auth ?? (moved ? undefined : current.auth));
      const site = normalise(
        {
          ...current,
          name: patch.name ?? current.name,
          baseUrl: patch.baseUrl ?? current.baseUrl,
          username: patch.username ?? current.username,
          group,
          tags: patch.tags ?? current.tags,
          tls,
          allowHttp: patch.allowHttp ?? current.allowHttp,
          polling: { ...current.polling, ...patch.polling },
          auth,
          updatedAt: this.clock().toISOString(),
        },
        others,
      );
      return { sites: sites.map((s) => (s === current ? site : s)), result: site };
    });
  }

  /**
   * Removes a site and returns what was stored. Its secrets and cache are the caller's to delete.
   * @throws InputError when no site has this name or id.
   */
  async remove(nameOrId: string): Promise<Site> {
    return this.modify((sites) => {
      const current = mustFind(sites, nameOrId);
      return { sites: sites.filter((s) => s !== current), result: current };
    });
  }

  /** Closes the connection (reopened by the next use). */
  close(): void {
    this.db?.close();
    this.db = undefined;
    this.memo = undefined;
    this.dataVersion = undefined;
  }

  /**
   * The open site list; when the file does not exist yet, imports sites.json into a new one, or
   * (with `create`) creates it empty, or answers undefined.
   */
  private open(create: boolean): Database | undefined {
    if (this.db?.open) return this.db;
    const exists = fs.existsSync(this.file);
    let legacy: ReturnType<typeof readLegacyFile>;
    this.legacyProblem = undefined;
    try {
      legacy = exists ? undefined : readLegacyFile(this.legacyFile);
    } catch (err) {
      // Read as no sites (the window opens and says why); created, never, until it is fixed or moved away.
      if (create || !(err instanceof StoreError)) throw err;
      this.legacyProblem = err;
      return undefined;
    }
    if (!exists && !legacy && !create) return undefined;
    try {
      ensureDataDir(this.dataDir);
    } catch (err) {
      throw storeError(err, this.dataDir, 'create the data directory', 'Fleetdeck data');
    }
    if (legacy) {
      try {
        // Complete or not at all; a process importing at the same moment keeps its own, equal copy.
        createDatabaseFile(this.file, SITES_DATABASE, (db) => {
          writeSites(db, legacy.sites);
          db.prepare('INSERT INTO site_meta (key, value) VALUES (?, ?)').run(IMPORTED_FROM, JSON.stringify({ file: SITES_FILE, sites: legacy.sites.length, sha256: legacy.sha256 }));
        });
      } catch (err) {
        throw storeError(err, this.file, `import ${this.legacyFile} into`, SITES_DATABASE.label);
      }
    }
    const db = openSqlite(this.file, SITES_DATABASE);
    this.db = db;
    this.setImportedFileAside(db);
    return db;
  }

  /** Renames an imported sites.json aside (it stays, for the admin to keep or delete). */
  private setImportedFileAside(db: Database): void {
    const imported = this.importRecord(db);
    if (!imported || !fs.existsSync(this.legacyFile)) return;
    // Only the very file that was imported: a sites.json put back later is left alone (and not read).
    if (imported.sha256 !== sha256(fs.readFileSync(this.legacyFile))) return;
    const stamp = this.clock().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    let aside = `${this.legacyFile}${IMPORTED_SUFFIX}-${stamp}`;
    for (let n = 2; fs.existsSync(aside); n++) aside = `${this.legacyFile}${IMPORTED_SUFFIX}-${stamp}-${n}`;
    try {
      fs.renameSync(this.legacyFile, aside);
    } catch {
      // Another instance renamed it first (and records its name); anything else leaves it for the next start.
      return;
    }
    try {
      db.prepare('UPDATE site_meta SET value = ? WHERE key = ?').run(JSON.stringify({ ...imported, renamedTo: path.basename(aside) }), IMPORTED_FROM);
    } catch {
      // The notice then names the file without its new name; the import itself is complete.
    }
  }

  /**
   * What became of an earlier Fleetdeck's sites.json, until the admin dismisses it: how many sites
   * were imported from where, and what the file was renamed to; or why it was not imported (it is
   * left as it was). Undefined when there was none, or once dismissed.
   * @throws StoreError as {@link list}.
   */
  importNotice(): SiteImportNotice | undefined {
    const db = this.open(false);
    if (!db) {
      const problem = this.legacyProblem;
      if (!problem || problem.message === this.dismissedProblem) return undefined;
      return {
        kind: 'not-imported',
        file: this.legacyFile,
        message: `The sites of an earlier Fleetdeck were not imported: ${problem.message}. The file is left as it was (nothing is lost); sites cannot be added until it is fixed or moved away.`,
      };
    }
    const imported = this.importRecord(db);
    if (!imported || this.meta(db, IMPORT_NOTICE_DISMISSED) !== undefined) return undefined;
    const file = path.join(this.dataDir, imported.file);
    const sites = `${imported.sites} ${imported.sites === 1 ? 'site was' : 'sites were'}`;
    return {
      kind: 'imported',
      file,
      sites: imported.sites,
      ...(imported.renamedTo ? { renamedTo: imported.renamedTo } : {}),
      message: `${sites} imported from ${file}${imported.renamedTo ? ` (renamed to ${imported.renamedTo})` : ''}.`,
    };
  }

  /**
   * The admin has read the import notice: it is not told again (remembered in the site list, so
   * in every window and after a restart; a file still unusable is told again at the next start).
   * @throws StoreError when the site list cannot be written.
   */
  dismissImportNotice(): void {
    const db = this.open(false);
    if (!db) {
      this.dismissedProblem = this.legacyProblem?.message;
      return;
    }
    if (!this.importRecord(db)) return;
    try {
      db.prepare('INSERT OR REPLACE INTO site_meta (key, value) VALUES (?, ?)').run(IMPORT_NOTICE_DISMISSED, this.clock().toISOString());
    } catch (err) {
      throw storeError(err, this.file, 'save the site list in', SITES_DATABASE.label);
    }
  }

  private meta(db: Database, key: string): string | undefined {
    try {
      return db.prepare<[string], { value: string }>('SELECT value FROM site_meta WHERE key = ?').get(key)?.value;
    } catch (err) {
      throw storeError(err, this.file, 'read', SITES_DATABASE.label);
    }
  }

  private importRecord(db: Database): ImportRecord | undefined {
    const value = this.meta(db, IMPORTED_FROM);
    return value === undefined ? undefined : (JSON.parse(value) as ImportRecord);
  }

  private read(db: Database): Site[] {
    let rows: Array<{ id: string; site: string }>;
    try {
      rows = db.prepare<[], { id: string; site: string }>('SELECT id, site FROM sites ORDER BY position').all();
    } catch (err) {
      throw storeError(err, this.file, 'read', SITES_DATABASE.label);
    }
    const validated = new Map<string, Site>();
    const sites = rows.map((row) => {
      // A row as read and validated before (a start reads the list once per site): a copy, not parsed again.
      const known = this.validated.get(row.site);
      if (known) {
        validated.set(row.site, known);
        return structuredClone(known);
      }
      let parsed: ReturnType<typeof siteSchema.safeParse>;
      try {
        parsed = siteSchema.safeParse(JSON.parse(row.site));
      } catch {
        parsed = siteSchema.safeParse(undefined);
      }
      if (!parsed.success) {
        throw new StoreError(`${this.file} (${SITES_DATABASE.label}): site "${row.id}" is damaged (${issueText(parsed.error.issues[0])}); ${remedy('damaged', this.file)}`, this.file, 'damaged');
      }
      validated.set(row.site, parsed.data);
      return structuredClone(parsed.data);
    });
    this.validated = validated;
    return sites;
  }

  private modify<T>(change: (sites: Site[]) => { sites: Site[]; result: T }): Promise<T> {
    const db = this.open(true) as Database;
    // Whatever happens, the list is read again: a commit of this connection does not move data_version.
    this.memo = undefined;
    try {
      const result = db.transaction(() => {
        const { sites, result } = change(this.read(db));
        for (const s of sites) assertNoSecrets(s, `site "${s.name}"`);
        writeSites(db, sites);
        return result;
      }).immediate();
      return Promise.resolve(structuredClone(result));
    } catch (err) {
      if (err instanceof InputError || err instanceof StoreError) return Promise.reject(err);
      return Promise.reject(storeError(err, this.file, 'save the site list in', SITES_DATABASE.label));
    }
  }
}

/** Replaces the stored list by `sites`, in this order. Runs inside the caller's transaction. */
function writeSites(db: Database, sites: readonly Site[]): void {
  db.exec('DELETE FROM sites');
  const insert = db.prepare('INSERT INTO sites (id, position, name_key, site) VALUES (?, ?, ?, ?)');
  sites.forEach((s, i) => insert.run(s.id, i, s.name.toLowerCase(), JSON.stringify(s)));
}

/**
 * A sites.json to import, or undefined when there is none.
 * @throws StoreError (`damaged`, `newer`, `read-only`…) naming the file and what to do: nothing is
 *   imported, and nothing created, until it is fixed or moved away.
 */
function readLegacyFile(file: string): { sites: Site[]; sha256: string } | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if (errorCodeOf(err) === 'ENOENT') return undefined;
    throw storeError(err, file, 'read', 'the site list of an earlier Fleetdeck');
  }
  return { sites: parseSitesFile(file, bytes.toString('utf8')), sha256: sha256(bytes) };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function issueText(issue: { path: PropertyKey[]; message: string } | undefined): string {
  return issue ? `${issue.path.map(String).join('.') || 'top level'}: ${issue.message}` : 'unknown problem';
}

function parseSitesFile(file: string, text: string): Site[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new StoreError(`${file} is not valid JSON (${errorMessage(err)}); nothing was imported from it: fix it, or move it away to start with no sites`, file, 'damaged');
  }
  const version = typeof data === 'object' && data !== null && 'version' in data ? data.version : undefined;
  if (typeof version === 'number' && version > SITES_FILE_VERSION) {
    throw new StoreError(`${file} has format version ${version}, written by a newer Fleetdeck; update Fleetdeck`, file, 'newer');
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    throw new StoreError(`${file} is not a valid site list (${issueText(parsed.error.issues[0])}); nothing was imported from it: fix it, or move it away to start with no sites`, file, 'damaged');
  }
  return parsed.data.sites;
}

function sameKey(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function find(sites: readonly Site[], nameOrId: string): Site | undefined {
  return sites.find((s) => sameKey(s.id, nameOrId)) ?? sites.find((s) => sameKey(s.name, nameOrId));
}

function mustFind(sites: readonly Site[], nameOrId: string): Site {
  const site = find(sites, nameOrId);
  if (!site) throw new InputError(`there is no site named "${nameOrId}" (or with that id)`, 'not-found');
  return site;
}

/** Validates a complete site against the others and returns it cleaned (trimmed, normalised pin). */
function normalise(site: Site, others: readonly Site[]): Site {
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

function withoutPin(tls: SiteTls): SiteTls {
  return tls.caBundlePem ? { caBundlePem: tls.caBundlePem } : {};
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
function assertNoSecrets(value: unknown, what: string, at = ''): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [k, v] of Object.entries(value)) {
    const where = at ? `${at}.${k}` : k;
    if (isSecretField(k) && v !== undefined && v !== null && v !== '') {
      throw new InputError(`refusing to save ${what}: field "${where}" is a secret, and secrets are kept in the system keychain, never in the site list`);
    }
    assertNoSecrets(v, what, where);
  }
}

function assertKnownFields(value: object, known: ReadonlySet<string>, what: string): void {
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined && !known.has(k)) throw new InputError(`unknown ${what} field "${k}" (known: ${[...known].join(', ')})`);
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
