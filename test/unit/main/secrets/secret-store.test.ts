import { spawn } from 'node:child_process';
import { inspect } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { passwordAccount, sitePrefix, tokenAccount } from '../../../../main/secrets/accounts.js';
import { KeychainError, KeychainSecretStore, MemorySecretStore, openSecretStore, type KeytarLike, type SecretStore } from '../../../../main/secrets/secret-store.js';

const SECRET = 'hunter2-correct-horse';
const STORE_MODULE = new URL('../../../../main/secrets/secret-store.ts', import.meta.url).href;
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const LOCKED_WRITE = 'Cannot create an item in a locked collection';

/**
 * A keytar that behaves like libsecret: `locked` mimics a locked keyring whose unlock prompt cannot
 * be shown (reads answer null, writes fail, and findCredentials over locked items would crash).
 */
function fakeKeytar(): { keytar: KeytarLike; items: Map<string, string>; calls: string[]; locked: boolean } {
  const state = { items: new Map<string, string>(), calls: [] as string[], locked: false };
  const key = (service: string, account: string): string => `${service}\n${account}`;
  const keytar: KeytarLike = {
    async getPassword(service, account) {
      state.calls.push('getPassword');
      return state.locked ? null : (state.items.get(key(service, account)) ?? null);
    },
    async setPassword(service, account, password) {
      state.calls.push('setPassword');
      if (state.locked) throw new Error(LOCKED_WRITE);
      state.items.set(key(service, account), password);
    },
    async deletePassword(service, account) {
      state.calls.push('deletePassword');
      return state.locked ? false : state.items.delete(key(service, account));
    },
    async findCredentials(service) {
      state.calls.push('findCredentials');
      const mine = [...state.items].filter(([k]) => k.startsWith(`${service}\n`));
      if (state.locked && mine.length > 0) throw new Error('keytar would have crashed the process here');
      return mine.map(([k, password]) => ({ account: k.slice(service.length + 1), password }));
    },
  };
  return Object.assign(state, { keytar });
}

const never = <T>(): Promise<T> => new Promise<T>(() => {});
const hangingKeytar: KeytarLike = { getPassword: never, setPassword: never, deletePassword: never, findCredentials: never };

/** A keytar whose calls wait until `unlock()`, then answer at once; a keyring unlocked later. */
function heldKeytar(): { keytar: KeytarLike; unlock: () => void } {
  const waiting: Array<() => void> = [];
  let unlocked = false;
  const held =
    <T>(value: T) =>
    (): Promise<T> =>
      unlocked ? Promise.resolve(value) : new Promise<T>((resolve) => waiting.push(() => resolve(value)));
  return {
    keytar: { getPassword: held(null), setPassword: held(undefined), deletePassword: held(false), findCredentials: held([]) },
    unlock: () => {
      unlocked = true;
      waiting.splice(0).forEach((resolve) => resolve());
    },
  };
}

/** How `work` settled (real timers: for calls that settle without any timeout). */
async function settle<T>(work: () => Promise<T>): Promise<PromiseSettledResult<T>> {
  const [result] = await Promise.allSettled([work()]);
  return result!;
}

/**
 * Starts `work` on fake timers and moves the clock `ms` forward: the result when it settled by then
 * (`undefined` when still pending). Time is the fake clock's, so a busy machine changes nothing.
 */
async function settledWithin<T>(ms: number, work: () => Promise<T>): Promise<PromiseSettledResult<T> | undefined> {
  let result: PromiseSettledResult<T> | undefined;
  void Promise.allSettled([work()]).then(([r]) => (result = r));
  await vi.advanceTimersByTimeAsync(ms);
  return result;
}

function rejection(result: PromiseSettledResult<unknown>): KeychainError {
  expect(result.status).toBe('rejected');
  const reason: unknown = (result as PromiseRejectedResult).reason;
  expect(reason).toBeInstanceOf(KeychainError);
  return reason as KeychainError;
}

const stores: Array<[string, () => SecretStore]> = [
  ['MemorySecretStore', () => new MemorySecretStore()],
  ['KeychainSecretStore (working keychain)', () => new KeychainSecretStore({ keytar: fakeKeytar().keytar, service: 'Test' })],
];

describe.each(stores)('%s', (_name, create) => {
  it('returns what was set, the latest value wins, and null for unknown accounts', async () => {
    const store = create();
    await store.set(passwordAccount('a'), 'first');
    await store.set(passwordAccount('a'), SECRET);
    expect(await store.get(passwordAccount('a'))).toBe(SECRET);
    expect(await store.get(passwordAccount('b'))).toBeNull();
  });

  it('deletes once: true when there was a secret, then false and null', async () => {
    const store = create();
    await store.set(passwordAccount('a'), SECRET);
    expect(await store.delete(passwordAccount('a'))).toBe(true);
    expect(await store.delete(passwordAccount('a'))).toBe(false);
    expect(await store.get(passwordAccount('a'))).toBeNull();
  });

  it('lists accounts by prefix, sorted, and deleteAll of one site leaves sites with similar ids alone', async () => {
    const store = create();
    const mine = [tokenAccount('a', 'sys/2 east'), passwordAccount('a'), tokenAccount('a', 'sys1')];
    const others = [passwordAccount('a-b'), passwordAccount('a/b'), tokenAccount('ab', 'sys1')];
    for (const account of [...mine, ...others]) await store.set(account, SECRET);

    expect(await store.accounts(sitePrefix('a'))).toEqual([...mine].sort());
    expect(await store.accounts()).toEqual([...mine, ...others].sort());
    expect(await store.deleteAll(sitePrefix('a'))).toBe(3);
    expect(await store.accounts()).toEqual([...others].sort());
    expect(await store.deleteAll(sitePrefix('a'))).toBe(0);
  });

  it('refuses an empty prefix for deleteAll, and empty accounts or secrets', async () => {
    const store = create();
    await store.set(passwordAccount('a'), SECRET);
    await expect(store.deleteAll('')).rejects.toThrow(RangeError);
    await expect(store.set('', SECRET)).rejects.toThrow(RangeError);
    await expect(store.set(passwordAccount('a'), '')).rejects.toThrow(RangeError);
    expect(await store.get(passwordAccount('a'))).toBe(SECRET);
  });
});

describe('MemorySecretStore', () => {
  it('is a memory store carrying the reason it stands in for the keychain', () => {
    const store = new MemorySecretStore('no D-Bus');
    expect(store.kind).toBe('memory');
    expect(store.fallbackReason).toBe('no D-Bus');
  });

  it('never shows a secret when inspected, logged or serialized', async () => {
    const store = new MemorySecretStore();
    await store.set(passwordAccount('a'), SECRET);
    expect(inspect(store, { showHidden: true, depth: Infinity })).not.toContain(SECRET);
    expect(JSON.stringify(store)).not.toContain(SECRET);
  });

  it('keeps each instance to itself', async () => {
    const first = new MemorySecretStore();
    await first.set(passwordAccount('a'), SECRET);
    expect(await new MemorySecretStore().get(passwordAccount('a'))).toBeNull();
  });
});

describe('KeychainSecretStore', () => {
  it('files secrets under its service name, Fleetdeck by default', async () => {
    const fake = fakeKeytar();
    await new KeychainSecretStore({ keytar: fake.keytar }).set(passwordAccount('a'), SECRET);
    await new KeychainSecretStore({ keytar: fake.keytar, service: 'Other' }).set(passwordAccount('a'), 'other');
    expect(fake.items.get(`Fleetdeck\n${passwordAccount('a')}`)).toBe(SECRET);
    expect(await new KeychainSecretStore({ keytar: fake.keytar }).get(passwordAccount('a'))).toBe(SECRET);
  });

  it('does not list its internal check entry', async () => {
    const fake = fakeKeytar();
    const store = new KeychainSecretStore({ keytar: fake.keytar });
    await store.check();
    await store.set(passwordAccount('a'), SECRET);
    expect(fake.items.size).toBe(2);
    expect(await store.accounts()).toEqual([passwordAccount('a')]);
  });

  describe('with a locked keychain whose unlock prompt cannot be shown', () => {
    async function lockedStore(): Promise<{ store: KeychainSecretStore; fake: ReturnType<typeof fakeKeytar> }> {
      const fake = fakeKeytar();
      const store = new KeychainSecretStore({ keytar: fake.keytar });
      await store.set(passwordAccount('a'), SECRET);
      fake.locked = true;
      fake.calls.length = 0;
      return { store, fake };
    }

    it('reports "locked" instead of claiming nothing is stored', async () => {
      const { store } = await lockedStore();
      const error = rejection((await settle(() => store.get(passwordAccount('a')))));
      expect(error.failure).toBe('locked');
      expect(error.message).toContain(LOCKED_WRITE);
      expect(rejection((await settle(() => store.delete(passwordAccount('a'))))).failure).toBe('locked');
    });

    it('never searches it (keytar crashes the process on locked items)', async () => {
      const { store, fake } = await lockedStore();
      expect(rejection((await settle(() => store.accounts()))).failure).toBe('locked');
      expect(rejection((await settle(() => store.deleteAll(sitePrefix('a'))))).failure).toBe('locked');
      expect(fake.calls).not.toContain('findCredentials');
    });
  });

  it('wraps keychain errors with the account name but never the secret', async () => {
    const fake = fakeKeytar();
    fake.keytar.setPassword = async (_service, _account, password) => {
      throw new Error(`refused to store "${password}"`);
    };
    const store = new KeychainSecretStore({ keytar: fake.keytar });
    const error = rejection((await settle(() => store.set(passwordAccount('a'), SECRET))));
    expect(error.failure).toBe('failed');
    expect(error.code).toBe('keychain');
    expect(error.message).toContain(passwordAccount('a'));
    expect(`${error.message} ${error.detail} ${inspect(error)}`).not.toContain(SECRET);
  });

  it('turns keytar throwing synchronously into a KeychainError', async () => {
    const fake = fakeKeytar();
    fake.keytar.getPassword = () => {
      throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
    };
    const error = rejection((await settle(() => new KeychainSecretStore({ keytar: fake.keytar }).get('x'))));
    expect(error.detail).toBe('Cannot autolaunch D-Bus without X11 $DISPLAY');
  });

  it('fails every call as "unavailable" when keytar cannot be loaded', async () => {
    const load = vi.fn(() => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file')));
    const store = new KeychainSecretStore({ keytar: load });
    for (const call of [() => store.get('x'), () => store.accounts()] as Array<() => Promise<unknown>>) {
      const error = rejection((await settle(call)));
      expect(error.failure).toBe('unavailable');
      expect(error.message).toContain('libsecret-1.so.0');
    }
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('refuses a timeout that is not a positive number', () => {
    expect(() => new KeychainSecretStore({ keytar: hangingKeytar, timeoutMs: 0 })).toThrow(RangeError);
  });

  describe('when the keychain never answers', () => {
    const calls: Array<[string, (store: SecretStore) => Promise<unknown>]> = [
      ['get', (store) => store.get(passwordAccount('a'))],
      ['set', (store) => store.set(passwordAccount('a'), SECRET)],
      ['delete', (store) => store.delete(passwordAccount('a'))],
      ['accounts', (store) => store.accounts(sitePrefix('a'))],
      ['deleteAll', (store) => store.deleteAll(sitePrefix('a'))],
    ];

    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it.each(calls)('%s rejects after the timeout, naming it and not the secret', async (_name, call) => {
      const store = new KeychainSecretStore({ keytar: hangingKeytar, timeoutMs: 100 });
      let result: PromiseSettledResult<unknown> | undefined;
      void Promise.allSettled([call(store)]).then(([r]) => (result = r));
      await vi.advanceTimersByTimeAsync(99);
      expect(result, 'still waiting 1 ms before the timeout').toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      const error = rejection(result as PromiseSettledResult<unknown>);
      expect(error.failure).toBe('timeout');
      expect(error.message).toBe('keychain did not answer within 100 ms: it may be locked (waiting for an unlock prompt) or busy; unlock it, then try again');
      expect(error.message).not.toContain(SECRET);
    });

    it('fails later calls at once while the earlier one is stuck, and recovers once it answers', async () => {
      const held = heldKeytar();
      const store = new KeychainSecretStore({ keytar: held.keytar, timeoutMs: 100 });
      expect(rejection((await settledWithin(100, () => store.delete('x'))) as PromiseSettledResult<unknown>).failure).toBe('timeout');

      // At once: no time passes on the clock before it is refused.
      const result = await settledWithin(0, () => store.set('x', SECRET));
      expect(result, 'refused without waiting').toBeDefined();
      expect(rejection(result as PromiseSettledResult<unknown>).message).toMatch(/has not answered an earlier request/);

      held.unlock();
      await vi.advanceTimersByTimeAsync(0);
      await expect(store.set('x', SECRET)).resolves.toBeUndefined();
    });
  });
});

describe('KeychainSecretStore: many lookups at once', () => {
  /** A keytar counting the calls running at once; each answers when `release` is called. */
  function countingKeytar(): { keytar: KeytarLike; running: () => number; peak: () => number; release: () => void; started: () => number } {
    let running = 0;
    let peak = 0;
    let started = 0;
    const waiting: Array<() => void> = [];
    const call = <T>(value: T) => (): Promise<T> => {
      running++;
      started++;
      peak = Math.max(peak, running);
      return new Promise<T>((resolve) =>
        waiting.push(() => {
          running--;
          resolve(value);
        }),
      );
    };
    return {
      keytar: { getPassword: call('token'), setPassword: call(undefined), deletePassword: call(true), findCredentials: call([]) },
      running: () => running,
      peak: () => peak,
      started: () => started,
      release: () => waiting.splice(0).forEach((answer) => answer()),
    };
  }

  it('runs at most a few keychain calls at once, however many are asked for, and answers them all', async () => {
    const fake = countingKeytar();
    const store = new KeychainSecretStore({ keytar: fake.keytar, timeoutMs: 60_000 });
    // 3,000 systems of one site looking up their session tokens together.
    const lookups = Array.from({ length: 3000 }, (_, i) => store.get(tokenAccount('big-site', `sys-${i}`)));
    while (fake.started() < 3000) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(fake.running()).toBeLessThanOrEqual(2);
      fake.release();
    }
    await expect(Promise.all(lookups)).resolves.toEqual(Array.from({ length: 3000 }, () => 'token'));
    expect(fake.peak()).toBe(2);
  });

  it('says what happened when the keychain stops answering: the calls running time out, the waiting ones are not started', async () => {
    vi.useFakeTimers();
    try {
      const fake = countingKeytar();
      const store = new KeychainSecretStore({ keytar: fake.keytar, timeoutMs: 3000 });
      const lookups = Array.from({ length: 50 }, (_, i) => store.get(tokenAccount('big-site', `sys-${i}`)).catch((e: unknown) => e));
      await vi.advanceTimersByTimeAsync(3000);
      const errors = (await Promise.all(lookups)) as KeychainError[];
      expect(fake.started()).toBe(2);
      expect(errors.every((e) => e instanceof KeychainError && e.failure === 'timeout')).toBe(true);
      expect(errors.slice(0, 2).map((e) => e.message)).toEqual(Array.from({ length: 2 }, () => 'keychain did not answer within 3000 ms: it may be locked (waiting for an unlock prompt) or busy; unlock it, then try again'));
      expect(errors[2]?.message).toBe(
        'keychain has not answered an earlier request within 3000 ms (it may be locked, waiting for an unlock prompt, or busy), so it was not asked to read site/big-site/system/sys-2/token; unlock it, then try again',
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('openSecretStore', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('uses the keychain when it answers, without calling onFallback', async () => {
    vi.stubEnv('FLEETDECK_KEYCHAIN', '');
    const onFallback = vi.fn();
    const fake = fakeKeytar();
    const store = await openSecretStore({ keytar: fake.keytar, service: 'Probe', onFallback });
    expect(store.kind).toBe('keychain');
    expect(store.fallbackReason).toBeUndefined();
    expect(onFallback).not.toHaveBeenCalled();
    await store.set(passwordAccount('a'), SECRET);
    expect(fake.items.get(`Probe\n${passwordAccount('a')}`)).toBe(SECRET);
  });

  const broken: Array<[string, KeytarLike | (() => Promise<KeytarLike>), RegExp]> = [
    ['keytar hangs', hangingKeytar, /^keychain did not answer within 150 ms: it may be locked \(waiting for an unlock prompt\) or busy; unlock it, then try again$/],
    ['loading keytar hangs', () => never<KeytarLike>(), /^keychain did not answer within 150 ms/],
    ['keytar cannot be loaded', () => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file')), /^keytar could not be loaded: libsecret-1\.so\.0/],
    [
      'keytar throws',
      {
        ...hangingKeytar,
        getPassword: () => {
          throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
        },
      },
      /^Cannot autolaunch D-Bus without X11 \$DISPLAY$/,
    ],
    [
      'the keychain is locked',
      (() => {
        const fake = fakeKeytar();
        fake.locked = true;
        return fake.keytar;
      })(),
      /^keychain is locked or refuses writes: Cannot create an item in a locked collection$/,
    ],
  ];

  it.each(broken)('falls back to memory within the timeout when %s, calling onFallback once', async (_name, keytar, reason) => {
    vi.stubEnv('FLEETDECK_KEYCHAIN', '');
    const onFallback = vi.fn();
    vi.useFakeTimers();
    let result: PromiseSettledResult<SecretStore> | undefined;
    try {
      result = await settledWithin(150, () => openSecretStore({ keytar, timeoutMs: 150, onFallback }));
    } finally {
      vi.useRealTimers();
    }
    expect(result?.status, 'settled within the timeout').toBe('fulfilled');
    const store = (result as PromiseFulfilledResult<SecretStore>).value;
    expect(store.kind).toBe('memory');
    expect(store.fallbackReason).toMatch(reason);
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(onFallback).toHaveBeenCalledWith(store.fallbackReason);

    await store.set(passwordAccount('a'), SECRET);
    expect(await store.get(passwordAccount('a'))).toBe(SECRET);
  });

  it('uses memory without loading keytar when FLEETDECK_KEYCHAIN=memory', async () => {
    vi.stubEnv('FLEETDECK_KEYCHAIN', 'memory');
    const load = vi.fn(() => Promise.resolve(fakeKeytar().keytar));
    const onFallback = vi.fn();
    const store = await openSecretStore({ keytar: load, onFallback });
    expect(store.kind).toBe('memory');
    expect(store.fallbackReason).toMatch(/FLEETDECK_KEYCHAIN=memory/);
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(load).not.toHaveBeenCalled();
  });

  it('uses memory without loading keytar when disabled', async () => {
    vi.stubEnv('FLEETDECK_KEYCHAIN', '');
    const load = vi.fn(() => Promise.resolve(fakeKeytar().keytar));
    const onFallback = vi.fn();
    const store = await openSecretStore({ keytar: load, onFallback, disable: true });
    expect(store.kind).toBe('memory');
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(load).not.toHaveBeenCalled();
  });

  /** Runs a script that opens a store in a fresh Node process; resolves with its exit, or kills it (`killed`) after 30 s. */
  function runChild(source: string): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
    const env = { ...process.env };
    delete env.FLEETDECK_KEYCHAIN;
    const script = `const { openSecretStore } = await import(${JSON.stringify(STORE_MODULE)});\n${source}`;
    let killed = false;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // Only a backstop for a child that would never exit: far beyond any probe timeout below.
      const killer = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, 30_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(killer);
        resolve({ code, stdout, stderr, killed });
      });
    });
  }

  it('lets the process exit by itself after a probe that never answers', async () => {
    const child = await runChild(`
      const never = () => new Promise(() => {});
      const store = await openSecretStore({ timeoutMs: 300, keytar: { getPassword: never, setPassword: never, deletePassword: never, findCredentials: never } });
      console.log(store.kind);
    `);
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('memory');
    expect(child.code).toBe(0);
    expect(child.killed, 'the process ended by itself').toBe(false);
  });

  it('lets the process exit by itself right after a probe that answered, despite a long timeout', async () => {
    const child = await runChild(`
      const items = new Map();
      const keytar = {
        getPassword: async (s, a) => items.get(a) ?? null,
        setPassword: async (s, a, p) => void items.set(a, p),
        deletePassword: async (s, a) => items.delete(a),
        findCredentials: async () => [...items].map(([account, password]) => ({ account, password })),
      };
      const store = await openSecretStore({ timeoutMs: 60000, keytar });
      await store.set('site/a/password', 'x');
      console.log(store.kind);
    `);
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('keychain');
    expect(child.code).toBe(0);
    expect(child.killed, 'the process ended by itself').toBe(false);
  });
});
