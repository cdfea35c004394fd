import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { bulkInScopeOf } from '../../app/domain/bulk.js';
import { siteIdFromName, type SystemStatus } from '../../app/domain/site.js';
import type { EventName, EventPayload } from '../../app/ipc/contract.js';
import type { DemoFleet } from '../demo.js';
import type { Runtime, RuntimeOptions } from '../runtime.js';
import { resolveDataDir } from '../store/data-dir.js';
import { SiteStore } from '../store/site-store.js';

export interface LaunchArgs {
  site?: string | undefined;
  demo: boolean;
  dataDir: string;
  port?: number | undefined;
}

/** Parses the flags both shells take: `--site NAME`, `--demo`, `--data-dir DIR`, `--port N`. */
export function parseLaunchArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): LaunchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: false,
    options: { site: { type: 'string' }, demo: { type: 'boolean', default: false }, 'data-dir': { type: 'string' }, port: { type: 'string' } },
  });
  const port = typeof values.port === 'string' ? Number(values.port) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) throw new Error('--port takes a port number');
  return {
    site: typeof values.site === 'string' ? values.site : undefined,
    demo: values.demo === true,
    dataDir: resolveDataDir({ flag: typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined, env }),
    port,
  };
}

/** What a launch serves, decided from the site list alone (not the cache, log or keychain). */
export interface LaunchScope {
  /** The embedded demo fleet: `--demo`, or no site saved yet (and no earlier sites.json left unimported). */
  demo: boolean;
  /** The saved site a `--site NAME` window serves (its id, whatever case or name was typed). */
  siteId?: string | undefined;
  /**
   * Names this launch's single-instance lock and Electron profile folder: one per site id (so
   * `--site Paris` and `--site paris` are one instance), one for the whole fleet, one per demo
   * site. Only lowercase letters, digits and dashes: a valid folder name on every platform.
   */
  instanceKey: string;
}

/**
 * Resolves `--site` against the saved sites without opening the database or the keychain.
 * @throws Error when `--site` names no saved site; StoreError when the site list cannot be read.
 */
export function resolveScope(args: LaunchArgs): LaunchScope {
  if (!args.demo) {
    const sites = new SiteStore({ dataDir: args.dataDir });
    try {
      if (sites.list().length > 0) {
        if (args.site === undefined) return { demo: false, instanceKey: 'fleet' };
        const site = sites.get(args.site);
        if (!site) throw new Error(`no site named "${args.site}" (see "fleetdeck site list")`);
        return { demo: false, siteId: site.id, instanceKey: `site-${site.id}` };
      }
      // An earlier Fleetdeck's sites.json that could not be imported: the admin's own (empty) fleet, whose window says why, not the demo.
      if (sites.importNotice()?.kind === 'not-imported') return { demo: false, instanceKey: 'fleet' };
    } finally {
      sites.close();
    }
  }
  return { demo: true, instanceKey: args.site === undefined ? 'demo' : `demo-${siteIdFromName(args.site)}` };
}

/** Sends an event to a window. */
export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** The core a window serves: the admin's sites, or the embedded demo fleet when there are none. */
export interface Launched {
  runtime: Runtime;
  demo?: DemoFleet | undefined;
  /** The one site a `--site` window serves; undefined for the whole fleet. */
  scopedSiteId?: string | undefined;
  /** Reads every system this window shows now: its own site alone when scoped, else the fleet. */
  refresh(): Promise<SystemStatus[]>;
  /** Forwards the fleet's events within this window's scope; returns the unsubscribe. */
  subscribe(emit: EventSink): () => void;
  close(): Promise<void>;
}

/**
 * Opens the admin's sites, or the demo fleet with `--demo` or when no site is saved yet. The
 * runtime is opened once; the keychain is not touched for the demo fleet.
 */
export async function launchCore(args: LaunchArgs, warn: (m: string) => void, extra: Pick<RuntimeOptions, 'saveFile' | 'onSecretInMemory'> = {}, scope: LaunchScope = resolveScope(args)): Promise<Launched> {
  let policy: RuntimeOptions['policy'];
  if (scope.demo && !args.demo && args.site === undefined) {
    // No site saved yet, but the machine policy presets some: the organisation's fleet, not the demo.
    const { nodePolicySources, readMachinePolicy } = await import('../policy/machine-policy-file.js');
    policy = await readMachinePolicy(nodePolicySources(process.platform));
    if (policy.policy?.sites?.length) scope = { demo: false, instanceKey: 'fleet' };
  }
  if (!scope.demo) {
    // The core's code (the fleet, its stores, the handlers) is loaded here rather than with this
    // module: a shell can serve its page (from the site list alone) while it loads.
    const { openRuntime } = await import('../runtime.js');
    // Requests that came in while it loaded (the page, its scripts) are answered before it opens.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const runtime = await openRuntime({ dataDir: args.dataDir, warn, scopedSite: scope.siteId, ...extra, ...(policy ? { policy } : {}) });
    return launched(runtime, scope.siteId, undefined, () => runtime.close());
  }
  // Only a demo launch loads the embedded simulator: a start from the admin's sites does not pay for it.
  const { startDemoFleet } = await import('../demo.js');
  const demo = await startDemoFleet({ scopedSite: args.site, ...extra });
  return launched(demo.runtime, demo.scopedSiteId, demo, () => demo.close());
}

function launched(runtime: Runtime, scopedSiteId: string | undefined, demo: DemoFleet | undefined, close: () => Promise<void>): Launched {
  // Both shells (Electron and the browser shell) come through here: a window polls its sites at
  // their intervals until the runtime closes. The CLI never launches, so it never polls.
  runtime.fleet.startPolling(scopedSiteId ? [scopedSiteId] : undefined);
  return {
    runtime,
    demo,
    scopedSiteId,
    refresh: () => runtime.fleet.refresh({ force: true, ...(scopedSiteId ? { siteIds: [scopedSiteId] } : {}) }),
    subscribe: (emit) => subscribeEvents(runtime, scopedSiteId, emit),
    close,
  };
}

/**
 * Forwards the runtime's events to a window within its scope (one site, or the whole fleet when
 * `scopedSiteId` is undefined): statuses, new notifications, alerts raised and cleared with the
 * window's own open count, bulk changes within the scope. Returns the unsubscribe.
 */
export function subscribeEvents(runtime: Pick<Runtime, 'fleet' | 'alerts' | 'bulk'>, scopedSiteId: string | undefined, emit: EventSink): () => void {
  const inScope = (siteId: string): boolean => scopedSiteId === undefined || siteId === scopedSiteId;
  const offFleet = runtime.fleet.on((e) => {
    if (e.type === 'status') {
      if (inScope(e.status.siteId)) emit('fleet:status', e.status);
    } else if (inScope(e.siteId)) emit('fleet:notifications', { siteId: e.siteId, system: e.system, count: e.count });
  });
  const offAlerts = runtime.alerts.on((c) => {
    if (!inScope(c.siteId)) return;
    const openCount = scopedSiteId === undefined ? c.openCount : runtime.alerts.list({ state: 'open', site: scopedSiteId }).length;
    emit('alerts:changed', { siteId: c.siteId, system: c.system, raised: c.raised, cleared: c.cleared, openCount });
  });
  const bulkInScope = bulkInScopeOf(scopedSiteId);
  const offBulk = runtime.bulk.on((job) => {
    if (bulkInScope(job)) emit('bulk:progress', job);
  });
  return () => {
    offFleet();
    offAlerts();
    offBulk();
  };
}

/** Where the built renderer is (out/renderer), next to the compiled main process. */
export function rendererDir(): string {
  return fileURLToPath(new URL('../../renderer/', import.meta.url));
}
