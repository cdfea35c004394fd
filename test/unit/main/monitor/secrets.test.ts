import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Site } from '../../../../app/domain/site.js';
import { OverlaySecretStore, ProvidedPasswords, readSecretsFile, secretEnvName } from '../../../../main/monitor/secrets.js';
import { passwordAccount, tokenAccount } from '../../../../main/secrets/accounts.js';
import { MemorySecretStore } from '../../../../main/secrets/secret-store.js';

const SECRET = 'Tr0ub4dor&3-never-printed';

function site(id: string, name: string): Site {
  return { id, name } as Site;
}

const SITES = [site('paris', 'Paris'), site('dc-1', 'dc-1'), site('dc_1', 'dc_1')];
const lookup = { shared: (): readonly Site[] => SITES };

describe('service-account passwords: a file and the environment', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fd-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = (text: string, mode = 0o600): string => {
    const path = join(dir, 'secrets.json');
    writeFileSync(path, text);
    chmodSync(path, mode);
    return path;
  };

  it('names the variable after the site: capitals, every other character an underscore', () => {
    expect(secretEnvName('paris-1')).toBe('FLEETDECK_SECRET_PARIS_1');
    expect(secretEnvName('Lab A.b')).toBe('FLEETDECK_SECRET_LAB_A_B');
  });

  it('reads a file of site → password readable by its owner only', () => {
    expect([...readSecretsFile(file(JSON.stringify({ Paris: SECRET })))]).toEqual([['Paris', SECRET]]);
  });

  it('refuses a file others may read or write on POSIX, naming its mode', () => {
    for (const mode of [0o640, 0o604, 0o620, 0o644]) {
      expect(() => readSecretsFile(file('{}', mode), 'linux')).toThrow(new RegExp(`open to other users \\(mode ${mode.toString(8)}\\).*chmod 600`));
    }
  });

  it('refuses a file that is not JSON, or holds no passwords, without quoting a word of it', () => {
    for (const text of [`{"Paris": ${SECRET}}`, `["${SECRET}"]`, `{"Paris": ""}`, `{"Paris": 42}`]) {
      let message = '';
      try {
        readSecretsFile(file(text));
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/secrets file/);
      expect(message).not.toContain(SECRET);
    }
    expect(() => readSecretsFile(join(dir, 'missing.json'))).toThrow(/cannot read the secrets file .*ENOENT/);
  });

  it('answers a site password from the environment first, then the file, then the store behind; tokens always from the store', async () => {
    const inner = new MemorySecretStore();
    await inner.set(passwordAccount('dc_1'), 'from-keychain');
    await inner.set(tokenAccount('paris', 'prod-a'), 'token');
    const passwords = new ProvidedPasswords(new Map([['paris', 'from-file'], ['DC-1', 'dc1-from-file']]), { FLEETDECK_SECRET_DC_1: 'from-env' }, lookup);
    const store = new OverlaySecretStore(inner, passwords, lookup);
    expect(await store.get(passwordAccount('paris'))).toBe('from-file');
    // dc-1 and dc_1 share FLEETDECK_SECRET_DC_1: the environment answers both, which the monitor warns about.
    expect(await store.get(passwordAccount('dc-1'))).toBe('from-env');
    expect(passwords.envClashes(SITES)).toEqual([['dc-1', 'dc_1']]);
    expect(await store.get(tokenAccount('paris', 'prod-a'))).toBe('token');
    expect(passwords.lookup(site('paris', 'Paris'))?.source).toBe('file');
    expect(store.kind).toBe('memory');

    const noEnv = new OverlaySecretStore(inner, new ProvidedPasswords(new Map(), {}, lookup), lookup);
    expect(await noEnv.get(passwordAccount('dc_1'))).toBe('from-keychain');
    expect(await noEnv.get(passwordAccount('unknown'))).toBeNull();
  });

  it('follows the site list: a site renamed or added after the start gets its file entry', () => {
    let list: readonly Site[] = [site('s1', 'old-name')];
    const passwords = new ProvidedPasswords(new Map([['new-name', 'renamed'], ['S1', 'by-id'], ['later', 'added']]), {}, { shared: () => list });
    expect(passwords.lookup(site('s1', 'old-name'))?.password).toBe('by-id');
    expect(passwords.lookup(site('s2', 'later'))).toBeUndefined();
    list = [site('s1', 'new-name'), site('s2', 'later')];
    // The file's first entry naming the site wins.
    expect(passwords.lookup(site('s1', 'new-name'))?.password).toBe('renamed');
    expect(passwords.lookup(site('s2', 'later'))?.password).toBe('added');
    expect(passwords.unknownFileEntries()).toEqual([]);
  });

  it('reads the site list once per password asked (each read asks the list\'s file whether it changed)', async () => {
    let reads = 0;
    const counted = { shared: (): readonly Site[] => (reads++, SITES) };
    const store = new OverlaySecretStore(new MemorySecretStore(), new ProvidedPasswords(new Map([['paris', 'from-file']]), {}, counted), counted);
    expect(await store.get(passwordAccount('paris'))).toBe('from-file');
    expect(reads).toBe(1);
    expect(await store.get(tokenAccount('paris', 'prod-a'))).toBeNull();
    expect(reads).toBe(1);
  });

  it('names file entries that are no site', () => {
    const passwords = new ProvidedPasswords(new Map([['paris', 'x'], ['lyon', 'y']]), {}, lookup);
    expect(passwords.unknownFileEntries()).toEqual(['lyon']);
  });
});
