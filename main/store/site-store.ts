import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_POLL_INTERVAL_SECONDS } from '../../app/domain/polling.js';
import { newSiteSchema, siteIdFromName, sitePatchSchema, siteSchema, type NewSite, type Site, type SiteImportNotice, type SitePatch, type SitePolling, type SiteTls } from '../../app/domain/site.js';
import { InputError, ManagedError } from '../../app/errors.js';
import { PolicyGuard } from '../policy/policy-guard.js';
import { DataVersionMemo } from './data-version-memo.js';
import type { Database } from './driver.js';
import { SITES_DATABASE, SITES_DB_FILE, createDatabaseFile, openSqlite } from './open.js';
import { ensureDataDir } from './data-dir.js';
import { assertKnownFields, assertNoSecrets, checkSite, checkSiteId, sameBaseUrl, sameKey } from './site-checks.js';
import { IMPORTED_SUFFIX, SITES_FILE, issueText, readLegacySites, sha256 } from './site-import.js';
import { StoreError, remedy, storeError } from './store-error.js';

export { normaliseBaseUrl, sameBaseUrl } from './site-checks.js';
export { IMPORTED_SUFFIX, SITES_FILE, SITES_FILE_VERSION } from './site-import.js';

/** Polling of a new site unless given: every {@link DEFAULT_POLL_INTERVAL_SECONDS}, not paused, 4 requests in flight. */
export const DEFAULT_POLLING: Readonly<SitePolling> = Object.freeze({ intervalSeconds: DEFAULT_POLL_INTERVAL_SECONDS, paused: false, maxInFlight: 4 });

export type { NewSite, SitePatch } from '../../app/domain/site.js';

export interface SiteStoreOptions {
  /** Data directory; created (mode 0700) on first write. */
  dataDir: string;
  /** Source of `createdAt`/`updatedAt`; injected so tests control times. */
  clock?: () => Date;
  /** The machine policy: a read-only workstation refuses every change, a managed site its edits and removal. */
  policy?: PolicyGuard;
}

const NEW_SITE_FIELDS = new Set(Object.keys(newSiteSchema.shape));
const PATCH_FIELDS = new Set(Object.keys(sitePatchSchema.shape));

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
 * A `sites.json` of an earlier Fleetdeck is imported once, when the database is created, under
 * the rules of site-import.ts, and then renamed aside (`sites.json.imported-<time>`), never
 * deleted. A refused `sites.json` is reported, and nothing is created until it is fixed or moved
 * away: the list reads as empty, adding a site is refused, and {@link SiteStore.importNotice} says
 * what is wrong.
 */
export class SiteStore {
  /** The site list's file, `<dataDir>/sites.db`. */
  readonly file: string;
  private readonly legacyFile: string;
  private readonly dataDir: string;
  private readonly clock: () => Date;
  /** The machine policy this store enforces. */
  readonly policy: PolicyGuard;
  private db: Database | undefined;
  /**
   * The list as last read, on the connection open then: a background poll asks for the site list
   * several times per site and minute (to follow edits made by another process), and only a commit
   * changes it — another connection's (the memo drops it) or this store's (it forgets it).
   */
  private memo: DataVersionMemo<Site[]> | undefined;
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
    this.policy = options.policy ?? new PolicyGuard();
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
    try {
      this.memo ??= new DataVersionMemo(db);
      return this.memo.get(() => this.read(db));
    } catch (err) {
      throw storeError(err, this.file, 'read', SITES_DATABASE.label);
    }
  }

  /**
   * The site with this id or name (case-insensitive), or `undefined`.
   * @throws StoreError as {@link list}.
   */
  get(nameOrId: string): Site | undefined {
    // A copy of the one site found: a poll asks for its site each time, and copying them all was O(fleet).
    const found = findSite(this.current(), nameOrId);
    return found && structuredClone(found);
  }

  /**
   * Adds a site and returns it as stored, with defaults filled in (polling on demand, no tags).
   * @throws InputError naming the problem: a secret-named field, an invalid or duplicate name or
   *   id, a URL that is not http(s), plain http to a non-loopback host without `allowHttp`, invalid
   *   polling or TLS settings. StoreError when the site list cannot be written.
   */
  async add(input: NewSite): Promise<Site> {
    this.policy.assertWritable('adding a site');
    assertNoSecrets(input, 'site');
    assertKnownFields(input, NEW_SITE_FIELDS, 'site');
    return this.modify((sites) => {
      const site = this.build(input, sites);
      this.policy.assertInterval(site.name, site.polling.intervalSeconds);
      return { sites: [...sites, site], result: site };
    });
  }

  /**
   * Checks a site as {@link add} would, without saving it: lets a caller refuse a bad name or URL
   * before contacting anything. Returns the site as it would be stored.
   * @throws InputError for the same problems as {@link add}.
   */
  check(input: NewSite): Site {
    this.policy.assertWritable('adding a site');
    assertNoSecrets(input, 'site');
    assertKnownFields(input, NEW_SITE_FIELDS, 'site');
    return this.build(input, this.list());
  }

  private build(input: NewSite, sites: readonly Site[]): Site {
    const now = this.clock().toISOString();
    let id: string;
    if (input.id !== undefined) {
      id = input.id;
      checkSiteId(id);
    } else {
      // A derived id that is taken gets a suffix: the admin chose a distinct name, not the id.
      const base = siteIdFromName(String(input.name));
      id = base;
      for (let n = 2; sites.some((s) => sameKey(s.id, id) || sameKey(s.name, id)); n++) id = `${base}-${n}`;
    }
    const site = checkSite(
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
    this.policy.assertWritable('changing a site');
    assertNoSecrets(patch, 'site');
    for (const k of ['id', 'createdAt', 'updatedAt']) if (k in patch) throw new InputError(`the ${k} of a site cannot be changed`);
    assertKnownFields(patch, PATCH_FIELDS, 'site');
    return this.modify((sites) => {
      const current = mustFind(sites, nameOrId);
      // A managed site may be paused and resumed on this workstation; nothing else of it changes here.
      if (!onlyPauses(patch, current.polling)) this.policy.assertSiteEditable(current, 'changing a site');
      if (patch.polling?.intervalSeconds !== undefined && patch.polling.intervalSeconds !== current.polling.intervalSeconds) {
        this.policy.assertInterval(current.name, patch.polling.intervalSeconds);
      }
      const others = sites.filter((s) => s !== current);
      const group = patch.group === null ? undefined : (patch.group ?? current.group);
      // A pin names the certificate of one endpoint: it never carries over to another URL.
      const moved = patch.baseUrl !== undefined && !sameBaseUrl(patch.baseUrl, current.baseUrl);
      const tls = patch.tls ?? (moved ? withoutPin(current.tls) : current.tls);
      // What one endpoint's login taught says nothing about another's.
      const auth = patch.auth === null ? undefined : (patch.auth ?? (moved ? undefined : current.auth));
      const site = checkSite(
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
    this.policy.assertWritable('removing a site');
    return this.modify((sites) => {
      const current = mustFind(sites, nameOrId);
      this.policy.assertSiteEditable(current, 'removing a site');
      return { sites: sites.filter((s) => s !== current), result: current };
    });
  }

  /**
   * Brings the machine policy's preset sites into the list, in one transaction: a site the policy
   * presets is added, or replaces the stored site with its id (keeping its creation time, its
   * pause, and what its login taught when the URL is unchanged). A preset whose name or id is taken
   * by another stored site is not added; the returned sentences name each. The policy's own change,
   * made whatever the read-only mode. A site the policy no longer presets stays, unmanaged.
   * @throws StoreError when the site list cannot be written.
   */
  async applyPresets(presets: readonly Site[]): Promise<string[]> {
    if (presets.length === 0) return [];
    const current = this.list();
    const same = presets.every((p) => {
      const s = current.find((c) => c.id === p.id);
      return s !== undefined && samePreset(s, p);
    });
    if (same) return [];
    return this.modify((sites) => {
      const warnings: string[] = [];
      let out = [...sites];
      for (const p of presets) {
        const stored = out.find((s) => s.id === p.id);
        const others = out.filter((s) => s !== stored);
        const preset: Site = stored
          ? { ...p, createdAt: stored.createdAt, updatedAt: samePreset(stored, p) ? stored.updatedAt : this.clock().toISOString(), polling: { ...p.polling, paused: stored.polling.paused } }
          : { ...p, createdAt: this.clock().toISOString(), updatedAt: this.clock().toISOString() };
        if (stored?.auth && sameBaseUrl(stored.baseUrl, p.baseUrl)) preset.auth = stored.auth;
        let checked: Site;
        try {
          checked = checkSite(preset, others);
        } catch (err) {
          if (!(err instanceof InputError)) throw err;
          warnings.push(`the machine policy's site "${p.name}" is not added: ${err.message}; remove or rename that site to receive the managed one`);
          continue;
        }
        out = stored ? out.map((s) => (s === stored ? checked : s)) : [...out, checked];
      }
      return { sites: out, result: warnings };
    });
  }

  /**
   * Replaces the list by what `change` makes of it, in one transaction: every site is checked
   * again (as `site add` would) against the ones before it, or nothing is saved. For an import.
   * @throws ManagedError on a read-only workstation; InputError from `change` or a check.
   */
  async replaceList<T>(what: string, change: (sites: Site[]) => { sites: Site[]; result: T }): Promise<T> {
    this.policy.assertWritable(what);
    return this.modify((sites) => {
      const { sites: next, result } = change(sites);
      const checked: Site[] = [];
      for (const s of next) checked.push(checkSite(s, checked));
      return { sites: checked, result };
    });
  }

  /** Closes the connection (reopened by the next use). */
  close(): void {
    this.db?.close();
    this.db = undefined;
    this.memo = undefined;
  }

  /**
   * The open site list; when the file does not exist yet, imports sites.json into a new one, or
   * (with `create`) creates it empty, or answers undefined.
   */
  private open(create: boolean): Database | undefined {
    if (this.db?.open) return this.db;
    const exists = fs.existsSync(this.file);
    let legacy: ReturnType<typeof readLegacySites>;
    this.legacyProblem = undefined;
    try {
      legacy = exists ? undefined : readLegacySites(this.legacyFile);
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
    // The memo follows one connection's commits: a new connection starts a new one.
    this.memo = undefined;
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
    this.memo?.clear();
    try {
      const result = db.transaction(() => {
        const { sites, result } = change(this.read(db));
        for (const s of sites) assertNoSecrets(s, `site "${s.name}"`);
        writeSites(db, sites);
        return result;
      }).immediate();
      return Promise.resolve(structuredClone(result));
    } catch (err) {
      if (err instanceof InputError || err instanceof StoreError || err instanceof ManagedError) return Promise.reject(err);
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

/** The site of a list with this id, else with this name (each case-insensitive), as {@link SiteStore.get} finds it. */
export function findSite(sites: readonly Site[], nameOrId: string): Site | undefined {
  return sites.find((s) => sameKey(s.id, nameOrId)) ?? sites.find((s) => sameKey(s.name, nameOrId));
}

function mustFind(sites: readonly Site[], nameOrId: string): Site {
  const site = findSite(sites, nameOrId);
  if (!site) throw new InputError(`there is no site named "${nameOrId}" (or with that id)`, 'not-found');
  return site;
}

/** A patch that pauses or resumes a site and changes nothing else of it. */
function onlyPauses(patch: SitePatch, polling: SitePolling): boolean {
  const keys = Object.entries(patch).filter(([, v]) => v !== undefined).map(([k]) => k);
  if (keys.length !== 1 || keys[0] !== 'polling' || !patch.polling) return false;
  const { paused: _paused, ...rest } = patch.polling;
  return Object.entries(rest).every(([k, v]) => v === undefined || v === polling[k as keyof SitePolling]);
}

/** Whether a stored site already is what the policy presets (its own state aside: pause, login, times). */
function samePreset(stored: Site, preset: Site): boolean {
  const strip = (s: Site): unknown => ({ ...s, createdAt: '', updatedAt: '', auth: undefined, polling: { ...s.polling, paused: false } });
  return JSON.stringify(strip(stored)) === JSON.stringify(strip(preset));
}

function withoutPin(tls: SiteTls): SiteTls {
  return tls.caBundlePem ? { caBundlePem: tls.caBundlePem } : {};
}
