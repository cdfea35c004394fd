// The secret store against a real Secret Service (gnome-keyring over D-Bus). These tests only mean
// something under scripts/with-keyring, which provides a throwaway unlocked keyring and sets
// FLEETDECK_TEST_KEYRING=1; without it they are not run, and under CI that is a failure.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordAccount, sitePrefix, tokenAccount } from '../../../main/secrets/accounts.js';
import { KeychainSecretStore, openSecretStore, type KeytarLike } from '../../../main/secrets/secret-store.js';

const haveKeyring = process.env.FLEETDECK_TEST_KEYRING === '1';
const underCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WITH_KEYRING = fileURLToPath(new URL('../../../scripts/with-keyring', import.meta.url));
const STORE_MODULE = new URL('../../../main/secrets/secret-store.ts', import.meta.url).href;
const ACCOUNTS_MODULE = new URL('../../../main/secrets/accounts.ts', import.meta.url).href;
const RUN_HINT = 'run: bash scripts/with-keyring npx vitest run test/integration/secrets';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Only a bound for a child that hangs (a locked keyring), below the test's own timeout.
    const killer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe('keychain test environment', () => {
  it('has a real Secret Service whenever CI runs these tests', () => {
    if (!haveKeyring && !underCi) console.warn(`Real-keychain tests NOT run: FLEETDECK_TEST_KEYRING is not set (${RUN_HINT}).`);
    expect(haveKeyring || !underCi, `CI must run the keychain tests with a real keyring: FLEETDECK_TEST_KEYRING=1 is missing (${RUN_HINT})`).toBe(true);
  });
});

describe.runIf(haveKeyring)('KeychainSecretStore against the Secret Service', () => {
  // A service of its own, so nothing else in the shared test keyring is read or deleted.
  const service = `Fleetdeck test ${randomUUID()}`;
  let keytar: KeytarLike;

  beforeAll(async () => {
    keytar = ((await import('keytar')) as unknown as { default: KeytarLike }).default;
  });

  afterAll(async () => {
    for (const { account } of await keytar.findCredentials(service)) await keytar.deletePassword(service, account);
  });

  it('opens the keychain, not the memory fallback', async () => {
    const fallbacks: string[] = [];
    const store = await openSecretStore({ service, onFallback: (reason) => fallbacks.push(reason) });
    expect(fallbacks).toEqual([]);
    expect(store.kind).toBe('keychain');
  });

  it('stores, replaces, reads and deletes a secret in the keyring itself', async () => {
    const store = new KeychainSecretStore({ service });
    const account = passwordAccount('lab');
    await store.set(account, 'first');
    await store.set(account, 'pässwörd ✓ with spaces');
    expect(await keytar.getPassword(service, account)).toBe('pässwörd ✓ with spaces');
    expect(await store.get(account)).toBe('pässwörd ✓ with spaces');
    expect(await store.delete(account)).toBe(true);
    expect(await store.delete(account)).toBe(false);
    expect(await store.get(account)).toBeNull();
    expect(await keytar.getPassword(service, account)).toBeNull();
  });

  it('keeps secrets for a new store instance', async () => {
    const account = tokenAccount('lab', 'east/2 a');
    await new KeychainSecretStore({ service }).set(account, 'token-1');
    const reopened = await openSecretStore({ service });
    expect(reopened.kind).toBe('keychain');
    expect(await reopened.get(account)).toBe('token-1');
  });

  it('lists accounts by prefix, and deleteAll of one site leaves site a-b alone', async () => {
    const store = new KeychainSecretStore({ service });
    const siteA = [passwordAccount('a'), tokenAccount('a', 'sys1'), tokenAccount('a', 'sys/2')];
    const siteAB = [passwordAccount('a-b'), tokenAccount('a-b', 'sys1')];
    for (const account of [...siteA, ...siteAB]) await store.set(account, `secret of ${account}`);

    expect(await store.accounts(sitePrefix('a'))).toEqual([...siteA].sort());
    expect(await store.deleteAll(sitePrefix('a'))).toBe(3);
    expect(await store.accounts(sitePrefix('a'))).toEqual([]);
    expect(await store.accounts(sitePrefix('a-b'))).toEqual([...siteAB].sort());
    expect(await store.get(passwordAccount('a-b'))).toBe(`secret of ${passwordAccount('a-b')}`);
  });

  it('keeps services apart', async () => {
    const other = `${service} other`;
    try {
      await new KeychainSecretStore({ service: other }).set(passwordAccount('x'), 'elsewhere');
      expect(await new KeychainSecretStore({ service }).get(passwordAccount('x'))).toBeNull();
    } finally {
      for (const { account } of await keytar.findCredentials(other)) await keytar.deletePassword(other, account);
    }
  });
});

describe.runIf(haveKeyring)('a locked keyring whose unlock prompt cannot be shown', () => {
  // Runs in a keyring of its own (a nested scripts/with-keyring): locking the shared test keyring
  // would break every other keychain test running alongside.
  it('gives "locked" errors instead of empty answers or a crash, and openSecretStore falls back to memory', async () => {
    const script = `
      import { execFileSync } from 'node:child_process';
      const { openSecretStore } = await import(${JSON.stringify(STORE_MODULE)});
      const { passwordAccount, sitePrefix } = await import(${JSON.stringify(ACCOUNTS_MODULE)});
      const settle = (p) => p.then((value) => ({ value }), (error) => ({ failure: error.failure, message: error.message }));
      const store = await openSecretStore();
      await store.set(passwordAccount('a'), 'locked-away');
      execFileSync('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.secrets', '/org/freedesktop/secrets',
        'org.freedesktop.Secret.Service.Lock', 'array:objpath:/org/freedesktop/secrets/collection/login'], { stdio: 'ignore' });
      const fallbacks = [];
      const reopened = await openSecretStore({ onFallback: (reason) => fallbacks.push(reason) });
      console.log(JSON.stringify({
        kind: store.kind,
        get: await settle(store.get(passwordAccount('a'))),
        accounts: await settle(store.accounts()),
        deleteAll: await settle(store.deleteAll(sitePrefix('a'))),
        reopened: reopened.kind,
        fallbacks,
      }));
    `;
    const child = await run('bash', [WITH_KEYRING, process.execPath, '--import', 'tsx', '--input-type=module', '-e', script]);
    expect({ code: child.code, signal: child.signal }, child.stderr).toEqual({ code: 0, signal: null });
    const result = JSON.parse(child.stdout) as Record<string, unknown>;
    const locked = { failure: 'locked', message: expect.stringMatching(/^keychain is locked or refuses writes/) as unknown };
    expect(result).toEqual({
      kind: 'keychain',
      get: locked,
      accounts: locked,
      deleteAll: locked,
      reopened: 'memory',
      fallbacks: [expect.stringMatching(/^keychain is locked or refuses writes/)],
    });
    expect(child.stdout).not.toContain('locked-away');
  });
});

describe('scripts/with-keyring', () => {
  it.runIf(haveKeyring)('runs the command in a throwaway HOME with an unlocked keyring and no display, then removes it', async () => {
    const child = await run('bash', [WITH_KEYRING, 'sh', '-c', 'echo "$HOME"; echo "${FLEETDECK_TEST_KEYRING-unset}"; echo "${DISPLAY-unset}"; exit 7'], {
      ...process.env,
      DISPLAY: ':99',
    });
    const [home, keyring, display] = child.stdout.trim().split('\n');
    expect(child.code).toBe(7);
    expect(home).not.toBe(process.env.HOME);
    expect(home && existsSync(home)).toBe(false);
    expect(keyring).toBe('1');
    expect(display).toBe('unset');
  });

  it('without dbus-run-session, says so in one line and runs the command without a keyring', async () => {
    const bash = spawnSync('sh', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim();
    const child = await run(bash, [WITH_KEYRING, '/bin/sh', '-c', 'echo "${FLEETDECK_TEST_KEYRING-unset}"; exit 3'], {
      PATH: '/nonexistent',
      FLEETDECK_TEST_KEYRING: '1',
    });
    expect(child.code).toBe(3);
    expect(child.stdout.trim()).toBe('unset');
    expect(child.stderr.trim().split('\n')).toEqual([expect.stringMatching(/dbus-run-session.*not found.*running without a keyring/)]);
  });
});
