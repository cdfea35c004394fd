import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type SimulatorHandle } from '../simulator/index.js';
import type { WhatIf } from './ipc/handlers.js';
import { InputError } from '../app/errors.js';
import { openRuntime, type Runtime, type RuntimeOptions } from './runtime.js';
import { SiteStore } from './store/site-store.js';

/**
 * Polling interval of the demo's sites, seconds. The simulated systems change by themselves (drives
 * degrade, notifications arrive), so the demo is set to poll like a monitored site rather than
 * "on demand"; real sites keep the store's default until the admin sets one.
 */
export const DEMO_POLLING_SECONDS = 60;

export interface DemoFleet {
  runtime: Runtime;
  simulator: SimulatorHandle;
  /** The demo site a `--site NAME` window serves. */
  scopedSiteId?: string | undefined;
  close(): Promise<void>;
}

/** Prefix of the demo fleet's throwaway data directories in the OS temp folder. */
export const DEMO_DIR_PREFIX = 'fleetdeck-demo-';
/** The file in a demo data directory naming the process that uses it. */
const OWNER_FILE = 'owner.pid';

/**
 * The embedded demo fleet: the simulator's demo state (3 sites × 3 systems, a degrading drive, a
 * replication pair) served on loopback, with its own throwaway data directory and in-memory
 * secrets, so nothing simulated mixes with the admin's real sites or keychain.
 * @throws Error when `scopedSite` names no demo site.
 */
export async function startDemoFleet(options: { scopedSite?: string | undefined; tmp?: string } & Pick<RuntimeOptions, 'saveFile'> = {}): Promise<DemoFleet> {
  const tmp = options.tmp ?? tmpdir();
  removeAbandonedDemoDirs(tmp);
  const simulator = await startSimulator({ demo: true, controlServer: false });
  // Its own throwaway data dir: apart from real sites and from other instances' demos.
  const dir = mkdtempSync(join(tmp, DEMO_DIR_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  const remove = (): void => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  try {
    // The sites are saved before the one runtime opens, so it knows which are simulated.
    const sites = new SiteStore({ dataDir: dir });
    const ids = new Set<string>();
    const simulatedIndex = new Map<string, number>();
    const passwords = new Map<string, string>();
    for (const s of simulator.manifest.sites) {
      const site = await sites.add({ name: s.name, baseUrl: s.baseUrl, username: s.username, tags: ['simulated'], group: 'Demo fleet', polling: { intervalSeconds: DEMO_POLLING_SECONDS } });
      ids.add(site.id);
      simulatedIndex.set(site.id, simulatedIndex.size);
      passwords.set(site.id, s.password);
    }
    const scopedSiteId = options.scopedSite !== undefined ? sites.get(options.scopedSite)?.id : undefined;
    sites.close();
    if (options.scopedSite !== undefined && !scopedSiteId) throw new Error(`the demo fleet has no site named "${options.scopedSite}"`);
    // Simulated passwords stay in memory by design: no keychain is asked, no warning given.
    const runtime = await openRuntime({
      dataDir: dir,
      memorySecrets: true,
      simulatedSiteIds: ids,
      scopedSite: scopedSiteId,
      ...(options.saveFile ? { saveFile: options.saveFile } : {}),
      whatIf: simulatorWhatIf(simulator, simulatedIndex),
    });
    // The sites are apart (each its own simulated endpoint): their logins run side by side.
    await Promise.all([...passwords].map(([id, password]) => runtime.fleet.login(id, { password }).catch(() => undefined)));
    return {
      runtime,
      simulator,
      scopedSiteId,
      close: async () => {
        await runtime.close();
        await simulator.close();
        remove();
      },
    };
  } catch (err) {
    await simulator.close();
    remove();
    throw err;
  }
}

/**
 * The demo's "what if" actions, through the embedded simulator's control API (in process: the demo
 * starts no control server). The simulator's own refusals (no such system, no pair, a pool full
 * already) reach the window as input errors.
 */
export function simulatorWhatIf(simulator: Pick<SimulatorHandle, 'control'>, indexOf: ReadonlyMap<string, number>): WhatIf {
  const control = simulator.control;
  return async ({ action, siteId, system }) => {
    const site = indexOf.get(siteId);
    if (site === undefined) throw new InputError('that site is not one of the simulator\'s');
    const siteName = control.site(site).state.name;
    try {
      switch (action) {
        case 'fail-drive': {
          const d = control.failDrive({ site, ...(system ? { system } : {}) });
          return `Drive ${d.name} of ${d.system} (node ${d.node}) failed${d.pool ? `; pool ${d.pool} runs degraded` : ''} (simulated).`;
        }
        case 'fill-pool': {
          const f = control.fillPool({ site, ...(system ? { system } : {}) });
          return `Pool ${f.pool} of ${f.system} is now 99.5 % allocated by a new application ${f.application} (simulated).`;
        }
        case 'lag-replication': {
          const l = control.lagReplication({ site, ...(system ? { system } : {}) });
          return `Replication of ${l.volume} from ${l.system} to ${l.remoteSystem} restarted a full resynchronisation (simulated).`;
        }
        case 'stop-site':
          await control.siteDown(site);
          return `Site ${siteName} stopped answering (simulated).`;
        case 'start-site':
          await control.siteUp(site);
          return `Site ${siteName} answers again (simulated).`;
      }
    } catch (err) {
      if (err instanceof RangeError) throw new InputError(err.message);
      throw err;
    }
  };
}

/**
 * Removes demo data directories whose process is gone: one killed mid-run, or on Windows one
 * whose database files were still open when it tried (libsql frees its handles at exit).
 */
export function removeAbandonedDemoDirs(tmp: string): void {
  let names: string[];
  try {
    names = readdirSync(tmp).filter((n) => n.startsWith(DEMO_DIR_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(tmp, name);
    let pid: number;
    try {
      pid = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue; // not ours, or being created right now
    }
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) rmSync(dir, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
