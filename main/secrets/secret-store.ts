/**
 * Where main keeps site passwords and session tokens: the OS keychain through keytar, or, when no
 * usable keychain answers, this process's memory only. Nothing here writes a secret to disk, logs
 * one, or puts one in an error message.
 */

import { CodedError } from '../../app/errors.js';
import { Limiter } from '../core/limiter.js';

/** A place for secrets, addressed by account name (see `accounts.ts`). */
export interface SecretStore {
  readonly kind: 'keychain' | 'memory';
  /** Why the keychain is not used (memory only), for one clear message. */
  readonly fallbackReason?: string;
  /**
   * The secret stored for the account, or null when there is none.
   * @throws KeychainError when the keychain fails, is locked or does not answer in time.
   */
  get(account: string): Promise<string | null>;
  /**
   * Stores the secret for the account, replacing any previous one.
   * @throws RangeError for an empty account or secret; KeychainError as for `get`.
   */
  set(account: string, secret: string): Promise<void>;
  /**
   * Forgets the account's secret; true when there was one.
   * @throws KeychainError as for `get`.
   */
  delete(account: string): Promise<boolean>;
  /**
   * Accounts whose name starts with prefix, sorted.
   * @throws KeychainError as for `get`.
   */
  accounts(prefix?: string): Promise<string[]>;
  /**
   * Deletes every account starting with prefix; returns how many.
   * @throws RangeError for an empty prefix (it would wipe every account); KeychainError as for `get`.
   */
  deleteAll(prefix: string): Promise<number>;
}

/** The part of keytar this store uses; tests hand in fakes (hanging, throwing, locked). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

/** keytar itself, or a function loading it on first use. */
export type KeytarSource = KeytarLike | (() => Promise<KeytarLike>);

/** Service name under which every Fleetdeck secret is filed in the OS keychain. */
export const DEFAULT_SERVICE = 'Fleetdeck';
/** How long one keychain call may take before it counts as hung, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 3000;
/**
 * Keychain calls running at once. keytar runs each on one of libuv's four worker threads (shared
 * with the file system and DNS): thousands of systems starting together would otherwise queue
 * thousands of calls there, each one's timeout running while it waits.
 */
export const DEFAULT_MAX_CONCURRENT = 2;

/**
 * Why a keychain call failed: `timeout` (no answer in time, typically a locked keyring waiting on
 * an unlock dialog), `locked` (unlock refused or impossible), `unavailable` (keytar cannot be
 * loaded), `failed` (the keychain answered with an error).
 */
export type KeychainFailure = 'timeout' | 'locked' | 'unavailable' | 'failed';

/** A keychain call failed. Messages name accounts but never contain a secret. */
export class KeychainError extends CodedError {
  override readonly name = 'KeychainError';
  declare readonly code: 'keychain';
  constructor(
    message: string,
    readonly failure: KeychainFailure,
    /** The keychain's own words, when it gave any (secret already scrubbed). */
    readonly detail?: string,
  ) {
    super('keychain', message);
  }
}

/**
 * An entry the store keeps in the keychain to tell "locked" from "not stored": libsecret answers a
 * read from a locked keyring whose unlock prompt was refused (or cannot be shown) with null, as if
 * nothing were stored. Named outside the `site/` space and never listed by `accounts()`.
 */
const CHECK_ACCOUNT = 'fleetdeck/keychain-check';
const CHECK_VALUE = 'Fleetdeck reads this entry to tell a locked keychain from an empty one';

function checkAccount(account: string): void {
  if (typeof account !== 'string' || account === '') throw new RangeError('account name must not be empty');
}

function checkSecret(secret: string): void {
  // keytar refuses empty passwords; the memory store does too so both behave alike.
  if (typeof secret !== 'string' || secret === '') throw new RangeError('secret must not be empty');
}

function checkPrefix(prefix: string): void {
  if (prefix === '') throw new RangeError('deleteAll needs a non-empty prefix; an empty one would delete every account');
}

/** The error's text with every occurrence of the secret masked. */
function messageOf(error: unknown, secret?: string): string {
  const text = error instanceof Error ? error.message : String(error);
  return secret ? text.split(secret).join('***') : text;
}

function isKeytarLike(value: unknown): value is KeytarLike {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ['getPassword', 'setPassword', 'deletePassword', 'findCredentials'].every((name) => typeof candidate[name] === 'function');
}

/**
 * Loads keytar on first use, so a missing native module or libsecret only matters when the
 * keychain is actually wanted (and becomes a fallback reason instead of a crash at startup).
 */
async function loadKeytar(): Promise<KeytarLike> {
  const loaded: unknown = await import('keytar');
  // keytar is CommonJS: its functions sit on `default`, and on the namespace only when Node's
  // export detection finds them.
  const candidates = [(loaded as { default?: unknown }).default, loaded];
  const keytar = candidates.find(isKeytarLike);
  if (!keytar) throw new Error('the keytar module does not have the expected functions');
  return keytar;
}

/** Options of `KeychainSecretStore`. */
export interface KeychainSecretStoreOptions {
  /** keytar, or a loader for it; default: the installed keytar, loaded on first use. */
  keytar?: KeytarSource;
  /** Keychain service name; default `Fleetdeck`. */
  service?: string;
  /** Milliseconds one keychain call may take; default 3000. */
  timeoutMs?: number;
  /** Keychain calls running at once; the others wait their turn (default {@link DEFAULT_MAX_CONCURRENT}). */
  maxConcurrent?: number;
}

/**
 * Secrets in the OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux)
 * through keytar. Every call is raced against a timeout because a locked keyring with a display
 * waits on an unlock dialog forever.
 */
export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  /** Keychain service name the secrets are filed under. */
  readonly service: string;
  /** Milliseconds one keychain call may take. */
  readonly timeoutMs: number;
  readonly #load: () => Promise<KeytarLike>;
  #keytar: Promise<KeytarLike> | undefined;
  /**
   * Calls that timed out and have not settled yet. keytar runs each call on a libuv worker thread
   * that stays blocked while the keychain waits for an unlock; while one is stuck, new calls fail
   * at once instead of blocking more of the four threads Node's file system and DNS also need.
   */
  #unanswered = 0;
  /** Calls running at once; a call's timeout starts when it gets its turn, not while it waits for it. */
  readonly #slots: Limiter;

  /** @throws RangeError for a non-positive timeout or an empty service name. */
  constructor(options: KeychainSecretStoreOptions = {}) {
    this.service = options.service ?? DEFAULT_SERVICE;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (this.service === '') throw new RangeError('keychain service name must not be empty');
    if (!Number.isFinite(this.timeoutMs) || this.timeoutMs <= 0) throw new RangeError(`keychain timeout must be a positive number of milliseconds, not ${this.timeoutMs}`);
    this.#slots = new Limiter(options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
    const source = options.keytar;
    this.#load = typeof source === 'function' ? source : source ? () => Promise.resolve(source) : loadKeytar;
  }

  /** See `SecretStore.get`; a null answer is trusted only once the keychain is known unlocked. */
  async get(account: string): Promise<string | null> {
    checkAccount(account);
    const secret = await this.#call(`read ${account}`, (k) => k.getPassword(this.service, account));
    if (secret !== null) return secret;
    await this.check();
    return null;
  }

  /** See `SecretStore.set`. */
  async set(account: string, secret: string): Promise<void> {
    checkAccount(account);
    checkSecret(secret);
    await this.#call(`store ${account}`, (k) => k.setPassword(this.service, account, secret), secret);
  }

  /** See `SecretStore.delete`; like `get`, false is trusted only once the keychain is known unlocked. */
  async delete(account: string): Promise<boolean> {
    checkAccount(account);
    const deleted = await this.#call(`delete ${account}`, (k) => k.deletePassword(this.service, account));
    if (!deleted) await this.check();
    return deleted;
  }

  /** See `SecretStore.accounts`. */
  async accounts(prefix = ''): Promise<string[]> {
    // keytar's findCredentials crashes the whole process (it copies a NULL secret) when matching
    // items stay locked because the unlock was refused or no prompt can be shown: search only a
    // keychain just seen unlocked.
    await this.check();
    const found = await this.#call('list accounts', (k) => k.findCredentials(this.service));
    // The passwords findCredentials returns are dropped here, unread.
    return found
      .map((credential) => credential.account)
      .filter((account) => account !== CHECK_ACCOUNT && account.startsWith(prefix))
      .sort();
  }

  /** See `SecretStore.deleteAll`. */
  async deleteAll(prefix: string): Promise<number> {
    checkPrefix(prefix);
    let deleted = 0;
    for (const account of await this.accounts(prefix)) {
      if (await this.delete(account)) deleted += 1;
    }
    return deleted;
  }

  /**
   * Proves the keychain answers, is unlocked and accepts writes, by reading (and on first use
   * writing) one internal entry. May show the OS unlock dialog.
   * @throws KeychainError: `timeout`, `unavailable`, `failed`, or `locked` when the write is refused.
   */
  async check(): Promise<void> {
    const seen = await this.#call('read the keychain check entry', (k) => k.getPassword(this.service, CHECK_ACCOUNT));
    if (seen === CHECK_VALUE) return;
    try {
      // A locked collection refuses new items (after offering to unlock), so a successful write
      // proves the null above meant "not there yet" rather than "locked".
      await this.#call('write the keychain check entry', (k) => k.setPassword(this.service, CHECK_ACCOUNT, CHECK_VALUE));
    } catch (error) {
      if (error instanceof KeychainError && error.failure === 'failed') {
        throw new KeychainError(`keychain is locked or refuses writes: ${error.detail ?? error.message}`, 'locked', error.detail);
      }
      throw error;
    }
  }

  /** keytar, loaded once; a load failure stays the answer for this store. */
  #keytarModule(): Promise<KeytarLike> {
    this.#keytar ??= this.#load().catch((error: unknown) => {
      const detail = messageOf(error);
      throw new KeychainError(`keytar could not be loaded: ${detail}`, 'unavailable', detail);
    });
    return this.#keytar;
  }

  /**
   * Runs one keychain operation against the timeout. The timer is cleared as soon as the call
   * settles and is gone once it fires, so it never keeps the process alive on its own; a call
   * that never answers is abandoned.
   */
  #call<T>(what: string, operation: (keytar: KeytarLike) => Promise<T>, secret?: string): Promise<T> {
    return this.#slots.run(() => this.#attempt(what, operation, secret));
  }

  #attempt<T>(what: string, operation: (keytar: KeytarLike) => Promise<T>, secret?: string): Promise<T> {
    if (this.#unanswered > 0) {
      return Promise.reject(
        new KeychainError(`keychain has not answered an earlier request within ${this.timeoutMs} ms (it may be locked, waiting for an unlock prompt, or busy), so it was not asked to ${what}; unlock it, then try again`, 'timeout'),
      );
    }
    // Inside `then`, a fake or keytar throwing synchronously becomes a rejection like any other.
    const attempt = this.#keytarModule().then((keytar) => operation(keytar));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#unanswered += 1;
        const settled = (): void => {
          this.#unanswered -= 1;
        };
        attempt.then(settled, settled);
        reject(new KeychainError(`keychain did not answer within ${this.timeoutMs} ms: it may be locked (waiting for an unlock prompt) or busy; unlock it, then try again`, 'timeout'));
      }, this.timeoutMs);
      attempt.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (error instanceof KeychainError) return reject(error);
          const detail = messageOf(error, secret);
          reject(new KeychainError(`keychain could not ${what}: ${detail}`, 'failed', detail));
        },
      );
    });
  }
}

/** Secrets kept only in this process's memory: never on disk, gone when the process ends. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  // A private field, so inspecting or serializing the store never shows a secret.
  readonly #secrets = new Map<string, string>();

  /** @param fallbackReason why the keychain is not used, when this store stands in for it. */
  constructor(readonly fallbackReason?: string) {}

  /** See `SecretStore.get`. */
  async get(account: string): Promise<string | null> {
    checkAccount(account);
    return this.#secrets.get(account) ?? null;
  }

  /** See `SecretStore.set`. */
  async set(account: string, secret: string): Promise<void> {
    checkAccount(account);
    checkSecret(secret);
    this.#secrets.set(account, secret);
  }

  /** See `SecretStore.delete`. */
  async delete(account: string): Promise<boolean> {
    checkAccount(account);
    return this.#secrets.delete(account);
  }

  /** See `SecretStore.accounts`. */
  async accounts(prefix = ''): Promise<string[]> {
    return [...this.#secrets.keys()].filter((account) => account.startsWith(prefix)).sort();
  }

  /** See `SecretStore.deleteAll`. */
  async deleteAll(prefix: string): Promise<number> {
    checkPrefix(prefix);
    const doomed = await this.accounts(prefix);
    for (const account of doomed) this.#secrets.delete(account);
    return doomed.length;
  }
}

/** Options of `openSecretStore`. */
export interface OpenSecretStoreOptions {
  /** Keychain service name; default `Fleetdeck`. */
  service?: string;
  /** Milliseconds each keychain call (the probe included) may take; default 3000. */
  timeoutMs?: number;
  /** keytar or a loader for it; default: the installed keytar, imported only here. */
  keytar?: KeytarSource;
  /**
   * Called exactly once with the reason when the result is a memory store (including when memory
   * was asked for), so the caller can print one message. Never called for a keychain store.
   */
  onFallback?: (reason: string) => void;
  /** Use memory without touching the keychain (as does env `FLEETDECK_KEYCHAIN=memory`). */
  disable?: boolean;
}

function fallbackReasonOf(error: unknown): string {
  if (error instanceof KeychainError) {
    // For plain failures the keychain's own words ("Cannot autolaunch D-Bus without X11 $DISPLAY")
    // say more than which internal entry was being read.
    return error.failure === 'failed' && error.detail ? error.detail : error.message;
  }
  return messageOf(error);
}

/**
 * The secret store for this run: the OS keychain when it answers, is unlocked and accepts a write
 * within the timeout; otherwise memory, with `fallbackReason` set and `onFallback` called once.
 * Resolves within about one timeout even when the keychain hangs (the hung call is abandoned).
 */
export async function openSecretStore(options: OpenSecretStoreOptions = {}): Promise<SecretStore> {
  const memory = (reason: string): SecretStore => {
    options.onFallback?.(reason);
    return new MemorySecretStore(reason);
  };
  if (options.disable) return memory('keychain turned off by the caller');
  if (process.env.FLEETDECK_KEYCHAIN?.trim().toLowerCase() === 'memory') return memory('keychain turned off by FLEETDECK_KEYCHAIN=memory');

  const store = new KeychainSecretStore({ service: options.service, timeoutMs: options.timeoutMs, keytar: options.keytar });
  try {
    await store.check();
  } catch (error) {
    return memory(fallbackReasonOf(error));
  }
  return store;
}
