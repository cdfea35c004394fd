import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { SiteInput } from '../../../app/domain/site.js';
import { Fleet } from '../../../main/core/fleet.js';
import type { FleetOptions } from '../../../main/core/fleet-context.js';
import { openRuntime, type Runtime, type RuntimeOptions } from '../../../main/runtime.js';
import { openSecretStore } from '../../../main/secrets/secret-store.js';
import { SiteStore, openStores, type DataStores } from '../../../main/store/index.js';
import { startSimulator, type ManifestSite, type SimulatorHandle, type SimulatorOptions } from '../../../simulator/index.js';

/**
 * The world of an integration test, set up one way for all of them: the real simulator on port 0,
 * a fresh temporary data directory, the app's runtime (or a bare {@link Fleet}) on it with the
 * simulator's sites added, and everything closed and removed afterwards.
 */

/** A fresh temporary directory and its removal. */
export function tempDataDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not set up here (read it inside a test or hook)`);
  return value;
}

/** Starts the simulator (on port 0, no control server unless asked) before the suite and closes it after. */
export function useSimulator(options: SimulatorOptions): { readonly sim: SimulatorHandle } {
  let sim: SimulatorHandle | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ controlServer: false, ...options });
  });
  afterAll(async () => {
    await sim?.close();
  });
  return {
    get sim() {
      return need(sim, 'the simulator');
    },
  };
}

/** A simulated site as the admin adds it: its own credentials, its certificate pinned when it speaks TLS. */
export function siteInput(s: ManifestSite, password = s.password): SiteInput {
  return { name: s.name, baseUrl: s.baseUrl, username: s.username, password, ...(s.certSha256 ? { trustSha256: s.certSha256 } : {}) };
}

/** Adds `sites` to a fleet in order; returns their ids. */
export async function addSites(fleet: Pick<Fleet, 'addSite'>, sites: readonly ManifestSite[], password?: string): Promise<string[]> {
  const ids: string[] = [];
  for (const s of sites) ids.push((await fleet.addSite(siteInput(s, password))).id);
  return ids;
}

export interface SimulatedFleetOptions {
  simulator: SimulatorOptions;
  /** Options of the runtime besides its data directory; memory secrets always. */
  runtime?: Omit<RuntimeOptions, 'dataDir' | 'memorySecrets'>;
  /** Which of the simulator's sites are added when the runtime opens: all (default), the first N, or none. */
  sites?: 'all' | number;
  /** The password the sites are added with, when not the simulator's own (a wrong one, say). */
  password?: string;
  /** A new data directory and runtime for the whole suite (default) or for each test. */
  fresh?: 'suite' | 'test';
  /** Prefix of the temporary data directory's name. */
  prefix?: string;
}

/** What {@link useSimulatedFleet} sets up, read inside tests and hooks (it exists once its hooks ran). */
export interface SimulatedFleet {
  readonly sim: SimulatorHandle;
  readonly rt: Runtime;
  readonly dir: string;
  /** Ids of the sites added when the runtime opened, in the simulator's order. */
  readonly siteIds: string[];
  /** The simulator's site `i` (its name, URL, credentials, systems). */
  site(i?: number): ManifestSite;
  /** Closes the runtime (its stores and sessions); the data directory stays. */
  closeRuntime(): Promise<void>;
  /** Opens a runtime again on the same data directory (the app restarted), with `options` added. */
  reopen(options?: Omit<RuntimeOptions, 'dataDir' | 'memorySecrets'>): Promise<Runtime>;
}

/**
 * Registers the hooks of a suite against the simulator: the simulator starts once for the suite;
 * the data directory and the runtime (with the sites added) once or for each test (`fresh`).
 */
export function useSimulatedFleet(options: SimulatedFleetOptions): SimulatedFleet {
  let rt: Runtime | undefined;
  let data: { dir: string; remove: () => void } | undefined;
  let siteIds: string[] = [];
  const runtimeOptions = (extra?: Omit<RuntimeOptions, 'dataDir' | 'memorySecrets'>): RuntimeOptions => ({ timeoutMs: 10_000, ...options.runtime, ...extra, dataDir: data!.dir, memorySecrets: true });
  const closeRuntime = async (): Promise<void> => {
    const open = rt;
    rt = undefined;
    await open?.close();
  };

  const open = async (): Promise<void> => {
    data = tempDataDir(options.prefix ?? 'fd-it-');
    rt = await openRuntime(runtimeOptions());
    const sites = sim().manifest.sites;
    siteIds = await addSites(rt.fleet, options.sites === undefined || options.sites === 'all' ? sites : sites.slice(0, options.sites), options.password);
  };
  const close = async (): Promise<void> => {
    await closeRuntime();
    data?.remove();
    data = undefined;
  };

  const simulator = useSimulator(options.simulator);
  const sim = (): SimulatorHandle => simulator.sim;
  if (options.fresh === 'test') {
    beforeEach(open);
    afterEach(close);
  } else {
    beforeAll(open);
    afterAll(close);
  }

  return {
    get sim() {
      return sim();
    },
    get rt() {
      return need(rt, 'the runtime');
    },
    get dir() {
      return need(data, 'the data directory').dir;
    },
    get siteIds() {
      return siteIds;
    },
    site: (i = 0) => sim().manifest.sites[i]!,
    closeRuntime,
    reopen: async (extra) => {
      await closeRuntime();
      rt = await openRuntime(runtimeOptions(extra));
      return rt;
    },
  };
}

/** A bare {@link Fleet} on its own stores in a temporary directory: for tests that set its options (clock, limits). */
export interface FleetOnDisk {
  fleet: Fleet;
  stores: DataStores;
  sites: SiteStore;
  dir: string;
  siteIds: string[];
  close(): Promise<void>;
}

/**
 * Opens bare fleets for a suite, each on a fresh directory with `sites` added (no keychain: the
 * secrets stay in memory); those left open are closed after each test, the directories removed
 * after the suite. `options` may be made from the fleet's stores (an option on its databases).
 */
export function useFleetsOnDisk(
  prefix: string,
): (options: Partial<FleetOptions> | ((stores: DataStores) => Partial<FleetOptions>), sites: readonly ManifestSite[], password?: string) => Promise<FleetOnDisk> {
  const dirs: Array<() => void> = [];
  const open: FleetOnDisk[] = [];
  afterEach(async () => {
    for (const f of open.splice(0)) await f.close();
  });
  afterAll(() => {
    for (const remove of dirs.splice(0)) remove();
  });
  return async (options, sites, password) => {
    const data = tempDataDir(prefix);
    dirs.push(data.remove);
    const stores = openStores(data.dir);
    const siteStore = new SiteStore({ dataDir: data.dir });
    const own = typeof options === 'function' ? options(stores) : options;
    const fleet = new Fleet({ sites: siteStore, secrets: await openSecretStore({ disable: true }), cache: stores.cache, actionLog: stores.actionLog, user: 'tester', ...own });
    let closed = false;
    const f: FleetOnDisk = {
      fleet,
      stores,
      sites: siteStore,
      dir: data.dir,
      siteIds: [],
      close: async () => {
        if (closed) return;
        closed = true;
        await fleet.close();
        stores.close();
        siteStore.close();
      },
    };
    // Registered before the sites are added, so a failing add still has its fleet closed.
    open.push(f);
    f.siteIds.push(...(await addSites(fleet, sites, password)));
    return f;
  };
}
