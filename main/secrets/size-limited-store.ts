import { MemorySecretStore, type SecretStore } from './secret-store.js';

/**
 * Windows Credential Manager's cap on one credential (CRED_MAX_CREDENTIAL_BLOB_SIZE, 5 × 512
 * bytes); keytar stores a secret as its UTF-8 bytes. A longer session token or password would be
 * refused with an error the admin cannot act on. The other keychains have no cap a secret reaches.
 */
export const WINDOWS_CREDENTIAL_MAX_BYTES = 2560;

/** The cap on one secret of the OS keychain on this platform, or undefined when there is none to mind. */
export function keychainSecretLimit(platform: NodeJS.Platform): number | undefined {
  return platform === 'win32' ? WINDOWS_CREDENTIAL_MAX_BYTES : undefined;
}

/**
 * A keychain store that keeps a secret over the keychain's cap in this process's memory for the
 * run instead (never on disk), removes any older copy from the keychain so a later start does not
 * read a stale one, and tells `onKeptInMemory` once per account so the admin sees why the password
 * will be asked again next time. Secrets within the cap go to the keychain as before.
 */
export class SizeLimitedSecretStore implements SecretStore {
  readonly kind: SecretStore['kind'];
  readonly fallbackReason: string | undefined;
  readonly #memory = new MemorySecretStore();
  readonly #told = new Set<string>();

  constructor(
    private readonly inner: SecretStore,
    /** Largest secret the keychain takes, in UTF-8 bytes. */
    readonly maxBytes: number,
    private readonly onKeptInMemory: (account: string, bytes: number) => void,
  ) {
    this.kind = inner.kind;
    this.fallbackReason = inner.fallbackReason;
  }

  /** See `SecretStore.get`: this run's in-memory secret first. */
  async get(account: string): Promise<string | null> {
    return (await this.#memory.get(account)) ?? this.inner.get(account);
  }

  /** See `SecretStore.set`. */
  async set(account: string, secret: string): Promise<void> {
    const bytes = Buffer.byteLength(secret, 'utf8');
    if (bytes <= this.maxBytes) {
      await this.inner.set(account, secret);
      await this.#memory.delete(account);
      return;
    }
    await this.#memory.set(account, secret);
    await this.inner.delete(account);
    if (!this.#told.has(account)) {
      this.#told.add(account);
      this.onKeptInMemory(account, bytes);
    }
  }

  /** See `SecretStore.delete`. */
  async delete(account: string): Promise<boolean> {
    const inMemory = await this.#memory.delete(account);
    return (await this.inner.delete(account)) || inMemory;
  }

  /** See `SecretStore.accounts`. */
  async accounts(prefix = ''): Promise<string[]> {
    return [...new Set([...(await this.inner.accounts(prefix)), ...(await this.#memory.accounts(prefix))])].sort();
  }

  /** See `SecretStore.deleteAll`. */
  async deleteAll(prefix: string): Promise<number> {
    const inMemory = await this.#memory.accounts(prefix);
    const stored = await this.inner.deleteAll(prefix);
    await this.#memory.deleteAll(prefix);
    return stored + inMemory.length;
  }
}
