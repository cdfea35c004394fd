import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { launchCore, parseLaunchArgs, subscribeEvents, type Launched } from '../../../main/shells/launch.js';
import { startBrowserShell, type BrowserShell } from '../../../main/shells/browser-shell.js';
import { startSimulator, type SimulatorHandle, type SimulatorOptions } from '../../../simulator/index.js';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A simulated fleet served to a browser: the simulator, a runtime on a fresh data dir, the browser shell. */
export interface E2EFleet {
  /** The shell's URL with its access token. */
  url: string;
  simulator: SimulatorHandle;
  runtime: Runtime;
  shell: BrowserShell;
  /** Site ids in manifest order (empty when the sites were not added). */
  siteIds: string[];
  close(): Promise<void>;
}

export interface FleetOptions {
  simulator?: SimulatorOptions;
  /** Add the simulator's sites before the window opens (default true); false starts with no site. */
  addSites?: boolean;
  /** Request timeout of the runtime, ms (main's default otherwise). */
  timeoutMs?: number;
  /**
   * Launch as `--site NAME` does, NAME being the simulator's site at this index: through the
   * shells' own launch code, scoped to that saved site (its refresh, events and handlers),
   * instead of a runtime for the whole fleet.
   */
  scopeToSite?: number;
  /** Sets every site's polling interval (seconds) and starts background polling, as the shells do. */
  pollEverySeconds?: number;
}

/** The built renderer's folder; fails naming what to do when it is not built. */
function builtRenderer(): string {
  const rendererDir = join(ROOT, 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error(`${rendererDir} has no index.html: build the renderer first (npx vite build)`);
  return rendererDir;
}

/**
 * Launches the core through the shells' own launch code (`args` as on their command line), with
 * `env` set only while it starts. Secrets stay in memory where an installed app asks the keychain.
 */
export async function launchAsShell(args: string[], env: Record<string, string> = {}): Promise<Launched> {
  const set: Record<string, string> = { FLEETDECK_KEYCHAIN: 'memory', ...env };
  const saved = Object.keys(set).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, set);
  try {
    return await launchCore(parseLaunchArgs(args, {}), () => undefined);
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** A window on a core launched as the shells launch it: the browser shell's URL, and a close for both. */
export interface LaunchedWindow {
  url: string;
  close(): Promise<void>;
}

/** {@link launchAsShell}, served by the browser shell. */
export async function launchWindow(args: string[], env: Record<string, string> = {}): Promise<LaunchedWindow> {
  const rendererDir = builtRenderer();
  const core = await launchAsShell(args, env);
  const shell = await startBrowserShell({ handlers: core.runtime.handlers, rendererDir, subscribe: (emit) => core.subscribe(emit) });
  return {
    url: shell.url,
    close: async () => {
      await shell.close();
      await core.close();
    },
  };
}

/**
 * Starts everything in this process with in-memory secrets (what FLEETDECK_KEYCHAIN=memory gives),
 * adds the sites, logs in and refreshes once, so the window opens on cached data like a real one.
 * Builds nothing: the renderer must already be in out/renderer.
 */
export async function startFleet(options: FleetOptions = {}): Promise<E2EFleet> {
  const rendererDir = builtRenderer();
  const simulator = await startSimulator({ controlServer: false, ...options.simulator });
  const dataDir = mkdtempSync(join(tmpdir(), 'fleetdeck-e2e-'));
  const passwords = new Map<string, string>();
  const siteIds: string[] = [];
  if (options.addSites ?? true) {
    // Sites are added first, then the runtime is reopened knowing they are simulated (as the demo does).
    const setup = await openRuntime({ dataDir, memorySecrets: true });
    for (const s of simulator.manifest.sites) {
      const site = await setup.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, ...(s.certSha256 ? { trustSha256: s.certSha256 } : {}) });
      if (options.pollEverySeconds) await setup.fleet.editSite(site.id, { polling: { ...site.polling, intervalSeconds: options.pollEverySeconds } });
      siteIds.push(site.id);
      passwords.set(site.id, s.password);
    }
    await setup.close();
  }
  let core: Pick<Launched, 'runtime' | 'subscribe' | 'close'>;
  if (options.scopeToSite !== undefined) {
    const name = simulator.manifest.sites[options.scopeToSite]?.name ?? '';
    const launched = await launchAsShell(['--site', name, '--data-dir', dataDir]);
    for (const [id, password] of passwords) if (id === launched.scopedSiteId) await launched.runtime.fleet.login(id, { password });
    await launched.refresh();
    core = launched;
  } else {
    const runtime = await openRuntime({ dataDir, memorySecrets: true, simulatedSiteIds: new Set(siteIds), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
    for (const [id, password] of passwords) await runtime.fleet.login(id, { password });
    if (siteIds.length) await runtime.fleet.refresh({ force: true });
    if (options.pollEverySeconds) runtime.fleet.startPolling();
    core = {
      runtime,
      subscribe: (emit) => subscribeEvents(runtime, undefined, emit),
      close: () => runtime.close(),
    };
  }
  const shell = await startBrowserShell({ handlers: core.runtime.handlers, rendererDir, subscribe: (emit) => core.subscribe(emit) });
  return {
    url: shell.url,
    simulator,
    runtime: core.runtime,
    shell,
    siteIds,
    close: async () => {
      await shell.close();
      await core.close();
      await simulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
