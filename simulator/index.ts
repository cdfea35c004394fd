import { SimClock } from './clock.js';
import { SimulatorControl, startControlServer } from './control.js';
import { parseDialects, type Dialect } from './dialects.js';
import type { SiteRuntime } from './control.js';
import { SiteFaults } from './faults.js';
import { buildHandlers } from './handlers/index.js';
import { SiteServer } from './http-site.js';
import { demoDrift } from './misconfigure.js';
import { hashString } from './random.js';
import { SiteService } from './service.js';
import { generateFleet } from './state/generate.js';
import type { FleetState } from './state/model.js';
import { generateCertificate } from './tls.js';

export { SimClock } from './clock.js';
export { SimulatorControl } from './control.js';
export type { FailDriveRequest, FailedDrive, SiteRef, SiteStatus } from './control.js';
export type { FaultSettings } from './faults.js';
export { DIALECTS, DIALECT_NAMES, parseDialects, type Dialect } from './dialects.js';
export { totp, verifyTotp, base32Encode, base32Decode } from './totp.js';

export interface SimulatorOptions {
  /** Interface to bind; loopback by default. */
  host?: string;
  /** First site port; 0 (default) picks free ports. Site i uses port + i when port > 0. */
  port?: number;
  sites?: number;
  systems?: number;
  /** Equal seeds give equal initial state. Default "fleetdeck". */
  seed?: string | number;
  tls?: boolean;
  /** Latency added to every response of every site, in ms. */
  latencyMs?: number;
  username?: string;
  password?: string;
  /** 3 sites × 3 systems, exactly one degrading drive, one replication pair and two fixable compliance drifts (sites/systems ignored). */
  demo?: boolean;
  /** Simulated time; tests pass SimClock.frozen(ms) for reproducible timestamps. */
  clock?: SimClock;
  /** Start the HTTP control server (default true); `handle.control` works either way. */
  controlServer?: boolean;
  /** Port of the control server; 0 (default) picks one. */
  controlPort?: number;
  /** Request bodies above this are refused with 400. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Dialects on from the start (`simulator/dialects.ts`); none by default. */
  dialects?: readonly Dialect[];
}

export interface ManifestSite {
  name: string;
  baseUrl: string;
  username: string;
  password: string;
  /** SHA-256 of the DER certificate, lowercase hex without colons (TLS only). */
  certSha256?: string;
  systems: string[];
}

export interface Manifest {
  sites: ManifestSite[];
  /** Control server base URL; empty when the control server is off. */
  control: string;
}

export interface SiteHandle {
  readonly index: number;
  readonly name: string;
  readonly baseUrl: string;
  readonly port: number;
  readonly running: boolean;
  readonly certSha256: string | undefined;
  /** Closes the listening socket and drops connections (the site is down). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

export interface SimulatorHandle {
  /** Current manifest (fingerprints and system names as they are now). */
  readonly manifest: Manifest;
  readonly sites: readonly SiteHandle[];
  readonly control: SimulatorControl;
  readonly clock: SimClock;
  /** The live state, for in-process tests that inspect it. */
  readonly fleet: FleetState;
  close(): Promise<void>;
}

export const DEFAULTS = { seed: 'fleetdeck', username: 'admin', password: 'fleetdeck-demo', sites: 1, systems: 3 } as const;

function checkCount(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`${name} must be an integer from 1 to ${max}`);
  return value;
}

/** Starts the simulated fleet: one HTTP(S) endpoint per site plus the control server. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<SimulatorHandle> {
  const demo = options.demo ?? false;
  // Up to 200 sites: the fleet-scale bench runs 100 sites × 10 systems (one listener per site).
  const sites = checkCount('sites', demo ? 3 : (options.sites ?? DEFAULTS.sites), 200);
  const systems = checkCount('systems', demo ? 3 : (options.systems ?? DEFAULTS.systems), 50);
  const host = options.host ?? '127.0.0.1';
  const basePort = options.port ?? 0;
  if (!Number.isInteger(basePort) || basePort < 0 || basePort + sites > 65536) throw new RangeError('port must be 0 or a port with room for every site');
  const seed = String(options.seed ?? DEFAULTS.seed);
  const username = options.username ?? DEFAULTS.username;
  const password = options.password ?? DEFAULTS.password;
  const clock = options.clock ?? new SimClock();
  const fleet = generateFleet({ seed, sites, systems, demo, username, password, nowMs: clock.now() });
  fleet.dialects = new Set(parseDialects(options.dialects ?? []));
  if (demo) demoDrift(fleet, clock.now());
  const handlers = buildHandlers();

  const runtimes: SiteRuntime[] = [];
  for (const site of fleet.sites) {
    // Certificates use wall-clock time: clients check validity against their own clock, not the simulated one.
    const certificate = options.tls ? await generateCertificate(new Date(), { expired: fleet.dialects.has('expired-cert') }) : undefined;
    const faults = new SiteFaults(hashString(`${seed}/faults/${site.index}`), options.latencyMs ?? 0);
    const server = new SiteServer({
      host,
      port: basePort === 0 ? 0 : basePort + site.index,
      certificate,
      service: new SiteService(fleet, site, clock, handlers),
      faults,
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      dialect: (name) => fleet.dialects.has(name),
      wait: (ms) => clock.wait(ms),
      now: () => clock.now(),
    });
    runtimes.push({ state: site, server, faults });
  }
  try {
    for (const r of runtimes) await r.server.start();
  } catch (e) {
    await Promise.all(runtimes.map((r) => r.server.stop()));
    throw e;
  }

  const control = new SimulatorControl(fleet, runtimes, clock);
  const buildManifest = (controlUrl: string): Manifest => ({
    sites: runtimes.map((r) => {
      const entry: ManifestSite = { name: r.state.name, baseUrl: r.server.baseUrl, username, password, systems: r.state.systems.map((s) => s.name) };
      if (r.server.certificateSha256) entry.certSha256 = r.server.certificateSha256;
      return entry;
    }),
    control: controlUrl,
  });
  let controlUrl = '';
  let closeControl = async (): Promise<void> => {};
  if (options.controlServer ?? true) {
    try {
      const started = await startControlServer(control, options.controlPort ?? 0, () => buildManifest(controlUrl));
      controlUrl = started.url;
      closeControl = started.close;
    } catch (e) {
      await Promise.all(runtimes.map((r) => r.server.stop()));
      throw e;
    }
  }

  const siteHandles: SiteHandle[] = runtimes.map((r) => ({
    index: r.state.index,
    name: r.state.name,
    get baseUrl() {
      return r.server.baseUrl;
    },
    get port() {
      return r.server.port;
    },
    get running() {
      return r.server.running;
    },
    get certSha256() {
      return r.server.certificateSha256;
    },
    stop: () => control.siteDown(r.state.index),
    start: () => control.siteUp(r.state.index),
  }));

  let closed = false;
  return {
    get manifest() {
      return buildManifest(controlUrl);
    },
    sites: siteHandles,
    control,
    clock,
    fleet,
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...runtimes.map((r) => r.server.stop()), closeControl()]);
    },
  };
}
