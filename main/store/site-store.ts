import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { newSiteSchema, siteIdFromName, siteNameProblem, sitePatchSchema, sitePollingSchema, siteSchema, siteTlsSchema, type NewSite, type Site, type SiteAuth, type SitePatch, type SitePolling, type SiteTls } from '../../app/domain/site.js';
import { InputError } from '../../app/errors.js';
import { isSecretField } from '../../app/redact.js';
import { hasUnsafeChars } from '../../app/safe-text.js';
import { isLoopbackHost } from '../net.js';
import { ensureDataDir } from './data-dir.js';

/** File name of the site list inside the data directory. */
export const SITES_FILE = 'sites.json';
/** Format version written to `sites.json`. */
export const SITES_FILE_VERSION = 1;

/** Polling of a new site unless given: on demand only, not paused, 4 requests in flight. */
export const DEFAULT_POLLING: Readonly<SitePolling> = Object.freeze({ intervalSeconds: 0, paused: false, maxInFlight: 4 });

/** Most requests in flight a site may be configured for: its controllers also serve production I/O. */
const MAX_IN_FLIGHT = 64;

export type { NewSite, SitePatch } from '../../app/domain/site.js';

export interface SiteStoreOptions {
  /** Data directory; created (mode 0700) on first write. */
  dataDir: string;
  /** Source of `createdAt`/`updatedAt`; injected so tests control times. */
  clock?: () => Date;
  /** A lock file older than this (ms) is left over from a crashed process and is broken. Default 10 s. */
  lockStaleMs?: number;
  /** How long a modification waits for the lock (ms) before failing. Default 20 s. */
  lockTimeoutMs?: number;
}

const NEW_SITE_FIELDS = new Set(Object.keys(newSiteSchema.shape));
const PATCH_FIELDS = new Set(Object.keys(sitePatchSchema.shape));
const TLS_FIELDS = new Set(Object.keys(siteTlsSchema.shape));
const POLLING_FIELDS = new Set(Object.keys(sitePollingSchema.shape));
const fileSchema = z.object({ version: z.literal(SITES_FILE_VERSION), sites: z.array(siteSchema) });

/**
 * The configured sites, in `<dataDir>/sites.json` (`{ "version": 1, "sites": [...] }`, pretty
 * JSON). Holds no secret: saving an object with a secret-named field is refused. Several app
 * instances (one per site) share the file, so every modification re-reads it under an exclusive
 * lock file (`sites.json.lock`) and replaces it atomically (temp file, fsync, rename); readers
 * never see a half-written file and need no lock.
 */
export class SiteStore {
  readonly file: string;
  private readonly lockFile: string;
  private readonly dataDir: string;
  private readonly clock: () => Date;
  private readonly lockStaleMs: number;
  private readonly lockTimeoutMs: number;
  /** Last parsed file and the identity it was read from, so list/get do not re-parse an unchanged file. */
  private snapshot: { stamp: string; sites: Site[] } | undefined;
  /** Serialises this instance's own modifications; the lock file serialises them across processes. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: SiteStoreOptions) {
    this.dataDir = options.dataDir;
    this.file = path.join(options.dataDir, SITES_FILE);
    this.lockFile = `${this.file}.lock`;
    this.clock = options.clock ?? (() => new Date());
    this.lockStaleMs = options.lockStaleMs ?? 10_000;
    this.lockTimeoutMs = options.lockTimeoutMs ?? 20_000;
  }

  /**
   * Every site, in the order added (copies: changing them changes nothing stored).
   * @throws Error when sites.json exists but cannot be read or is not a valid site list.
   */
  list(): Site[] {
    return structuredClone(this.read());
  }

  /**
   * The site with this id or name (case-insensitive), or `undefined`.
   * @throws Error when sites.json cannot be read, as {@link list}.
   */
  get(nameOrId: string): Site | undefined {
    const site = find(this.read(), nameOrId);
    return site && structuredClone(site);
  }

  /**
   * Adds a site and returns it as stored, with defaults filled in (polling on demand, no tags).
   * @throws Error naming the problem: a secret-named field, an invalid or duplicate name or id, a
   *   URL that is not http(s), plain http to a non-loopback host without `allowHttp`, invalid
   *   polling or TLS settings, or the lock held by another process past `lockTimeoutMs`.
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
    return this.build(input, this.read());
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
   * @throws Error when no site has this name or id, or for the same problems as {@link add}.
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
   * @throws Error when no site has this name or id.
   */
  async remove(nameOrId: string): Promise<Site> {
    return this.modify((sites) => {
      const current = mustFind(sites, nameOrId);
      return { sites: sites.filter((s) => s !== current), result: current };
    });
  }

  private read(): Site[] {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return [];
      throw new Error(`cannot read ${this.file}: ${errorMessage(err)}`);
    }
    // Every write replaces the file by rename, so a new inode means new content.
    const stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    if (this.snapshot?.stamp === stamp) return this.snapshot.sites;
    const sites = parseSitesFile(this.file, fs.readFileSync(this.file, 'utf8'));
    this.snapshot = { stamp, sites };
    return sites;
  }

  private modify<T>(change: (sites: Site[]) => { sites: Site[]; result: T }): Promise<T> {
    const run = async (): Promise<T> => {
      ensureDataDir(this.dataDir);
      const token = await this.lock();
      try {
        this.snapshot = undefined;
        const { sites, result } = change(this.read());
        for (const s of sites) assertNoSecrets(s, `site "${s.name}"`);
        await this.write(sites);
        return structuredClone(result);
      } finally {
        await this.unlock(token);
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async write(sites: Site[]): Promise<void> {
    const text = `${JSON.stringify({ version: SITES_FILE_VERSION, sites }, null, 2)}\n`;
    // Same directory as the target, so the rename is atomic (never across file systems).
    const tmp = path.join(this.dataDir, `.${SITES_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const fh = await fsp.open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(text, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await renameReplacing(tmp, this.file);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw new Error(`cannot save ${this.file}: ${errorMessage(err)}`);
    }
    await fsyncDir(this.dataDir);
  }

  /** Takes the lock file; returns the token written into it (checked again on release). */
  private async lock(): Promise<string> {
    const token = `${process.pid} ${new Date().toISOString()} ${randomBytes(8).toString('hex')}`;
    const deadline = Date.now() + this.lockTimeoutMs;
    for (;;) {
      try {
        const fh = await fsp.open(this.lockFile, 'wx', 0o600);
        try {
          await fh.writeFile(token, 'utf8');
        } finally {
          await fh.close();
        }
        return token;
      } catch (err) {
        if (errorCode(err) !== 'EEXIST') throw new Error(`cannot create the lock file ${this.lockFile}: ${errorMessage(err)}`);
      }
      if (await this.breakIfStale()) continue;
      if (Date.now() > deadline) {
        const holder = await fsp.readFile(this.lockFile, 'utf8').catch(() => '');
        const pid = holder.split(' ')[0];
        throw new Error(
          `${this.file} is locked by another Fleetdeck process${pid ? ` (pid ${pid})` : ''}; try again, or delete ${this.lockFile} if no Fleetdeck is running`,
        );
      }
      // Randomised so processes that collided do not retry in lockstep.
      await sleep(5 + Math.random() * 20);
    }
  }

  /**
   * Breaks a lock left by a crashed process. Renamed away first, then re-checked: if another
   * process replaced the stale lock with a live one in between, that one is put back.
   */
  private async breakIfStale(): Promise<boolean> {
    const stale = async (file: string): Promise<boolean> => Date.now() - (await fsp.stat(file)).mtimeMs > this.lockStaleMs;
    try {
      if (!(await stale(this.lockFile))) return false;
      const aside = `${this.lockFile}.stale-${randomBytes(6).toString('hex')}`;
      await fsp.rename(this.lockFile, aside);
      if (!(await stale(aside))) await fsp.link(aside, this.lockFile).catch(() => undefined);
      await fsp.rm(aside, { force: true });
      return true;
    } catch (err) {
      // Released or broken by someone else meanwhile: just retry.
      if (errorCode(err) === 'ENOENT') return true;
      throw err;
    }
  }

  private async unlock(token: string): Promise<void> {
    // Only our own lock: if it was broken as stale, it may belong to another process now.
    const holder = await fsp.readFile(this.lockFile, 'utf8').catch(() => undefined);
    if (holder === token) await fsp.rm(this.lockFile, { force: true });
  }
}

function parseSitesFile(file: string, text: string): Site[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${errorMessage(err)}); fix it or move it away to start with no sites`);
  }
  const version = typeof data === 'object' && data !== null && 'version' in data ? data.version : undefined;
  if (typeof version === 'number' && version > SITES_FILE_VERSION) {
    throw new Error(`${file} has format version ${version}, written by a newer Fleetdeck; update Fleetdeck`);
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file} is not a valid site list (${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'unknown problem'})`);
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
  const { intervalSeconds, paused, maxInFlight } = p;
  if (typeof intervalSeconds !== 'number' || !Number.isInteger(intervalSeconds) || intervalSeconds < 0) {
    throw new InputError(`${name}: the polling interval must be a whole number of seconds, 0 or more (0 = on demand)`);
  }
  if (typeof paused !== 'boolean') throw new InputError(`${name}: paused must be true or false`);
  if (typeof maxInFlight !== 'number' || !Number.isInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
    throw new InputError(`${name}: requests in flight must be a whole number from 1 to ${MAX_IN_FLIGHT}`);
  }
  return { intervalSeconds, paused, maxInFlight };
}

function checkTls(name: string, tls: unknown): SiteTls {
  if (typeof tls !== 'object' || tls === null) throw new InputError(`${name}: TLS settings must be an object`);
  assertKnownFields(tls, TLS_FIELDS, 'tls');
  const t = tls as Record<string, unknown>;
  const out: SiteTls = {};
  if (t.pinSha256 !== undefined) {
    const pin = String(t.pinSha256).replace(/[:\s]/g, '').toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(pin)) throw new InputError(`${name}: the pinned fingerprint must be a SHA-256 (64 hex digits)`);
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
      throw new InputError(`refusing to save ${what}: field "${where}" is a secret, and secrets are kept in the system keychain, never in ${SITES_FILE}`);
    }
    assertNoSecrets(v, what, where);
  }
}

function assertKnownFields(value: object, known: ReadonlySet<string>, what: string): void {
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined && !known.has(k)) throw new InputError(`unknown ${what} field "${k}" (known: ${[...known].join(', ')})`);
  }
}

async function renameReplacing(from: string, to: string): Promise<void> {
  // Windows refuses to replace a file another process has open for a moment (a reader, a virus
  // scanner); retry briefly instead of failing the admin's change.
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp.rename(from, to);
      return;
    } catch (err) {
      const code = errorCode(err);
      if (attempt >= 20 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw err;
      await sleep(10);
    }
  }
}

/** Makes the rename itself durable. Directories cannot be opened for fsync on Windows; skipped there. */
async function fsyncDir(dir: string): Promise<void> {
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(dir, 'r');
    await fh.sync();
  } catch {
    // Best effort: the file content itself was fsynced before the rename.
  } finally {
    await fh?.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
