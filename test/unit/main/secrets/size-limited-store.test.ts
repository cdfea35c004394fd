import { describe, expect, it, vi } from 'vitest';
import { describeAccount, passwordAccount, tokenAccount } from '../../../../main/secrets/accounts.js';
import { MemorySecretStore } from '../../../../main/secrets/secret-store.js';
import { keychainSecretLimit, SizeLimitedSecretStore, WINDOWS_CREDENTIAL_MAX_BYTES } from '../../../../main/secrets/size-limited-store.js';

/** A keychain that refuses what Windows Credential Manager refuses: a secret over 2,560 UTF-8 bytes. */
class CappedKeychain extends MemorySecretStore {
  override async set(account: string, secret: string): Promise<void> {
    if (Buffer.byteLength(secret, 'utf8') > WINDOWS_CREDENTIAL_MAX_BYTES) throw new Error('The stub received bad data.');
    await super.set(account, secret);
  }
}

describe('secrets over the keychain cap', () => {
  it("is Windows Credential Manager's 2,560 bytes on Windows, none elsewhere", () => {
    expect(keychainSecretLimit('win32')).toBe(2560);
    expect(keychainSecretLimit('linux')).toBeUndefined();
    expect(keychainSecretLimit('darwin')).toBeUndefined();
  });

  it('keeps an oversize token in memory for the run (the keychain never sees it), tells once, and drops an older stored copy', async () => {
    const keychain = new CappedKeychain();
    const told = vi.fn();
    const store = new SizeLimitedSecretStore(keychain, WINDOWS_CREDENTIAL_MAX_BYTES, told);
    const account = tokenAccount('paris', 'tundra-01');
    await store.set(account, 'short token');
    expect(await keychain.get(account)).toBe('short token');
    // 1,281 two-byte characters: 2,562 UTF-8 bytes, over the cap though under it in characters.
    const long = 'é'.repeat(1281);
    await store.set(account, long);
    await store.set(account, long);
    expect(await store.get(account)).toBe(long);
    expect(await keychain.get(account)).toBeNull();
    expect(told).toHaveBeenCalledTimes(1);
    expect(told).toHaveBeenCalledWith(account, 2562);
    expect(await store.accounts('site/')).toEqual([account]);
    // Back within the cap: to the keychain again, and no stale copy left in memory.
    await store.set(account, 'renewed');
    expect(await keychain.get(account)).toBe('renewed');
    expect(await store.get(account)).toBe('renewed');
  });

  it('forgets in-memory secrets with the site', async () => {
    const store = new SizeLimitedSecretStore(new CappedKeychain(), 10, vi.fn());
    await store.set(passwordAccount('paris'), 'x'.repeat(11));
    await store.set(tokenAccount('paris', 'a'), 'short');
    expect(await store.deleteAll('site/paris/')).toBe(2);
    expect(await store.accounts()).toEqual([]);
  });

  it('names the account as the admin reads it', () => {
    expect(describeAccount(passwordAccount('paris'))).toBe('the password of site paris');
    expect(describeAccount(tokenAccount('paris', 'tundra 01'))).toBe('the session token of system tundra 01 (site paris)');
  });
});
