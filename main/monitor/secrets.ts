import { readFileSync, statSync } from 'node:fs';
import { InputError } from '../../app/errors.js';
import type { Site } from '../../app/domain/site.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { findSite } from '../store/site-store.js';

/** The data directory's sites as they stand: the same array until the list changes (`SiteStore.shared`). */
export interface SiteList {
  shared(): readonly Site[];
}

/**
 * Site passwords for a monitor run by a service account, which has no keychain of its own: from a
 * file (`--secrets-file`, JSON `{ "<site name or id>": "<password>" }`, readable by its owner only)
 * and from the environment (`FLEETDECK_SECRET_<SITE>`, the site's name in capitals with every
 * other character as `_`: site `paris-1` reads `FLEETDECK_SECRET_PARIS_1`). The environment wins
 * over the file, both over the keychain. Only passwords come from here; session tokens stay where
 * the runtime keeps them (the keychain, or memory). No error or warning here ever holds a secret.
 */

/** The environment variable holding a site's password. */
export function secretEnvName(siteName: string): string {
  return `FLEETDECK_SECRET_${siteName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * Reads a secrets file: a JSON object of site (name or id) to password.
 * @throws InputError naming the file and what is wrong: missing, readable or writable by others
 *   (POSIX), not JSON, or a value that is not a non-empty string. The file's text is never quoted.
 */
export function readSecretsFile(file: string, platform: NodeJS.Platform = process.platform): Map<string, string> {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (err) {
    throw new InputError(`cannot read the secrets file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new InputError(`the secrets file ${file} is open to other users (mode ${(mode & 0o777).toString(8).padStart(3, '0')}): make it readable by its owner only (chmod 600) and check who read it`);
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // JSON.parse's message quotes the text around the fault, which may be a password.
    throw new InputError(`the secrets file ${file} is not JSON: it holds one object, { "site name": "password", … }`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`the secrets file ${file} must hold one object, { "site name": "password", … }`);
  }
  const out = new Map<string, string>();
  for (const [site, password] of Object.entries(value as Record<string, unknown>)) {
    if (typeof password !== 'string' || password === '') throw new InputError(`the secrets file ${file}: the password of "${site}" must be a non-empty string`);
    out.set(site, password);
  }
  return out;
}

/** Where a site's password came from, for the start-up line (never the password). */
export type PasswordSource = 'environment' | 'file' | 'keychain';

/** Site passwords from a file and the environment, looked up by site. */
export class ProvidedPasswords {
  /**
   * The file's passwords by site id, for the list they were resolved against: every session's
   * login asks, and resolving each file entry at each ask walked the whole list per entry.
   */
  #resolved: { list: readonly Site[]; byId: Map<string, string> } | undefined;

  constructor(
    private readonly file: ReadonlyMap<string, string>,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly sites: SiteList,
  ) {}

  /**
   * The password given for the site, and where it came from; undefined when none is. The file's
   * first entry naming the site wins. `list`: the site list as just read by the caller (each read
   * of it asks the site list's file whether it changed), else it is read here.
   */
  lookup(site: Site, list: readonly Site[] = this.sites.shared()): { password: string; source: Exclude<PasswordSource, 'keychain'> } | undefined {
    const fromEnv = this.env[secretEnvName(site.name)];
    if (fromEnv) return { password: fromEnv, source: 'environment' };
    const password = this.#byId(list).get(site.id);
    return password === undefined ? undefined : { password, source: 'file' };
  }

  #byId(list: readonly Site[]): Map<string, string> {
    if (this.#resolved?.list === list) return this.#resolved.byId;
    const byId = new Map<string, string>();
    for (const [key, password] of this.file) {
      const id = findSite(list, key)?.id;
      if (id !== undefined && !byId.has(id)) byId.set(id, password);
    }
    this.#resolved = { list, byId };
    return byId;
  }

  /** Names in the file that are no site of the data directory (a typo, a removed site). */
  unknownFileEntries(): string[] {
    const list = this.sites.shared();
    return [...this.file.keys()].filter((k) => !findSite(list, k));
  }

  /** Sites whose names map to one environment variable (only one of them could be given a password there). */
  envClashes(all: readonly Site[]): string[][] {
    const byVar = new Map<string, string[]>();
    for (const s of all) byVar.set(secretEnvName(s.name), [...(byVar.get(secretEnvName(s.name)) ?? []), s.name]);
    return [...byVar.values()].filter((names) => names.length > 1);
  }
}

const PASSWORD_ACCOUNT = /^site\/([^/]+)\/password$/;

/**
 * A secret store answering site passwords from {@link ProvidedPasswords} and everything else
 * (session tokens, sites without a provided password) from the store behind it.
 */
export class OverlaySecretStore implements SecretStore {
  constructor(
    private readonly inner: SecretStore,
    private readonly passwords: ProvidedPasswords,
    private readonly sites: SiteList,
  ) {}

  get kind(): SecretStore['kind'] {
    return this.inner.kind;
  }

  get fallbackReason(): string | undefined {
    return this.inner.fallbackReason;
  }

  /** See `SecretStore.get`: a provided password first. */
  async get(account: string): Promise<string | null> {
    const m = PASSWORD_ACCOUNT.exec(account);
    // One read of the list per ask: every session's login asks.
    const list = m ? this.sites.shared() : undefined;
    const site = m && list ? findSite(list, decodeURIComponent(m[1] as string)) : undefined;
    const provided = site && list ? this.passwords.lookup(site, list) : undefined;
    return provided ? provided.password : this.inner.get(account);
  }

  set(account: string, secret: string): Promise<void> {
    return this.inner.set(account, secret);
  }

  delete(account: string): Promise<boolean> {
    return this.inner.delete(account);
  }

  accounts(prefix?: string): Promise<string[]> {
    return this.inner.accounts(prefix);
  }

  deleteAll(prefix: string): Promise<number> {
    return this.inner.deleteAll(prefix);
  }
}
