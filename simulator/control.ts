import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ComponentVersion } from '../app/catalog/resources.js';
import type { SimClock } from './clock.js';
import { DIALECTS, DIALECT_NAMES, parseDialects, type Dialect } from './dialects.js';
import type { FaultSettings, ProxyErrors, SiteFaults } from './faults.js';
import type { SiteServer } from './http-site.js';
import { findPool, poolFreeBytes, poolUsableBytes } from './state/capacity.js';
import { allDrives, findSystem, systemById, volumeById } from './state/lookup.js';
import type { DriveState, FleetState, NodeState, SiteState, SystemState, TemplateVolumeState } from './state/model.js';
import { createApplication } from './state/provision.js';
import { LEVEL, notify } from './state/notifications.js';
import { isMisconfiguration, misconfigure, MISCONFIGURATIONS, secure, type Misconfiguration } from './misconfigure.js';
import { generateCertificate } from './tls.js';
import { base32Encode, totp } from './totp.js';

/** A site by index (0-based) or name. */
export type SiteRef = number | string;

export interface SiteRuntime {
  readonly state: SiteState;
  readonly server: SiteServer;
  readonly faults: SiteFaults;
}

export interface SetVersionRequest {
  site: SiteRef;
  /** System name or id; the site's first system when omitted. */
  system?: string;
  /** `Management`, `StorageEngine`, `Replication`, `Firmware`, or a new component. */
  component: string;
  version: string;
  /** Default `<version>.0`. */
  buildNumber?: string;
}

export interface FailDriveRequest {
  site: SiteRef;
  /** System name or id; the site's first system when omitted. */
  system?: string;
  /** Drive id; the first healthy approved pool member when omitted. */
  driveId?: number;
  /** Report the drive as pulled (Missing, removable with resources/delete) rather than Failed. */
  missing?: boolean;
}

export interface WearDriveRequest {
  site: SiteRef;
  /** System name or id; the site's first system when omitted. */
  system?: string;
  /** Drive id; the first healthy approved pool member when omitted. */
  driveId?: number;
  /** How far SMART has gone: `warning` (a few reallocated and pending sectors), `critical` (past the limits). Default `warning`. */
  risk?: 'warning' | 'critical';
}

export interface FillPoolRequest {
  site: SiteRef;
  /** System name or id; the site's first system when omitted. */
  system?: string;
  /** Pool name; the pool with the most free space when omitted. */
  pool?: string;
}

export interface LagReplicationRequest {
  site: SiteRef;
  /** System name or id, primary or secondary of the pair; any pair of the site when omitted. */
  system?: string;
}

export interface FailedDrive {
  system: string;
  node: string;
  driveId: number;
  name: string;
  pool: string;
}

export interface SiteStatus {
  index: number;
  name: string;
  baseUrl: string;
  up: boolean;
  certSha256: string | undefined;
  faults: FaultSettings;
  pendingResets: number;
  /** Requests still to be answered by a proxy's error page. */
  pendingProxyErrors: number;
  sessions: number;
  /** Requests received since start. */
  requests: number;
  /** Requests being handled now, and the most at once since the last `resetPeak`. */
  inFlight: number;
  peakInFlight: number;
}

/**
 * Fault injection and test hooks, apart from the storage interface. Used in-process through
 * `handle.control` and over HTTP through the control server (see README).
 */
export class SimulatorControl {
  constructor(
    private readonly fleet: FleetState,
    private readonly sites: readonly SiteRuntime[],
    private readonly clock: SimClock,
  ) {}

  site(ref: SiteRef): SiteRuntime {
    const found =
      typeof ref === 'number' || /^\d+$/.test(ref)
        ? this.sites[Number(ref)]
        : this.sites.find((s) => s.state.name.toLowerCase() === ref.toLowerCase());
    if (!found) throw new RangeError(`no site ${JSON.stringify(ref)}`);
    return found;
  }

  status(): SiteStatus[] {
    return this.sites.map((s) => ({
      index: s.state.index,
      name: s.state.name,
      baseUrl: s.server.baseUrl,
      up: s.server.running,
      certSha256: s.server.certificateSha256,
      faults: s.faults.settings,
      pendingResets: s.faults.pendingResets,
      pendingProxyErrors: s.faults.pendingProxyErrors,
      sessions: s.state.sessions.size,
      ...s.server.load,
    }));
  }

  /** Starts a new peak-in-flight measurement on a site. */
  resetPeak(ref: SiteRef): void {
    this.site(ref).server.resetPeak();
  }

  /** Sets latency, jitter, error rate and error mode of a site. */
  setFaults(ref: SiteRef, change: Partial<FaultSettings>): FaultSettings {
    const s = this.site(ref);
    const next = s.faults.configure(change);
    const hang = [...(next.hangReads ? ['reads'] : []), ...next.hangPaths].join(', ');
    this.#notifyFirst(
      s.state,
      LEVEL.warning,
      'Management',
      `Simulated faults set: latency ${next.latencyMs} ms, jitter ${next.jitterMs} ms, error rate ${next.errorRate} (${next.errorMode})${hang ? `, no answer to ${hang}` : ''}${next.padBytes ? `, answers padded by ${next.padBytes} bytes` : ''}${next.redirectTo ? `, every request redirected to ${next.redirectTo}` : ''}${next.throttleReads ? ', reads refused with 429' : ''}.`,
    );
    return next;
  }

  /**
   * The next `count` requests to the site are answered by a proxy in front of it: an HTML error page
   * with `status` (502 by default) and, when given, Retry-After in seconds or as an HTTP-date.
   */
  proxyErrors(ref: SiteRef, count: number, page: Partial<ProxyErrors> = {}): void {
    const s = this.site(ref);
    s.faults.proxyErrors(count, { status: page.status ?? 502, retryAfterSeconds: page.retryAfterSeconds, date: page.date });
    this.#notifyFirst(s.state, LEVEL.warning, 'Management', `The next ${count} request(s) get a proxy's HTTP ${page.status ?? 502} page (simulated).`);
  }

  /** Drops every open connection of the site now, and resets the next `nextRequests` requests. */
  resetConnections(ref: SiteRef, nextRequests = 0): void {
    const s = this.site(ref);
    s.faults.resetNext(nextRequests);
    s.server.dropConnections();
    this.#notifyFirst(s.state, LEVEL.warning, 'Management', `Connections reset (simulated); the next ${nextRequests} request(s) will be reset too.`);
  }

  /** Takes the site down: its listening socket closes and clients get connection refused. */
  async siteDown(ref: SiteRef): Promise<void> {
    const s = this.site(ref);
    await s.server.stop();
    this.#notifyFirst(s.state, LEVEL.critical, 'Management', 'Management endpoint went down (simulated).');
  }

  /** Brings the site back on the same port. */
  async siteUp(ref: SiteRef): Promise<void> {
    const s = this.site(ref);
    await s.server.start();
    this.#notifyFirst(s.state, LEVEL.info, 'Management', 'Management endpoint is up again (simulated).');
  }

  /** Expires every session token of one site, or of all sites; returns how many were dropped. */
  expireTokens(ref?: SiteRef): number {
    const targets = ref === undefined ? this.sites : [this.site(ref)];
    let n = 0;
    for (const s of targets) {
      n += s.state.sessions.size;
      s.state.sessions.clear();
      this.#notifyFirst(s.state, LEVEL.warning, 'Authentication', 'All session tokens expired (simulated).');
    }
    return n;
  }

  /** Fails (or pulls) a drive: status Failed (or Missing), SMART FAILED, its pool and volumes Degraded, a Critical notification. */
  failDrive(req: FailDriveRequest): FailedDrive {
    const { s, system } = this.#system(req.site, req.system);
    const drives = allDrives(system);
    let found: { node: NodeState; drive: DriveState } | undefined;
    if (req.driveId !== undefined) {
      found = drives.find((d) => d.drive.id === req.driveId);
      if (!found) throw new RangeError(`no drive ${req.driveId} on system ${system.name}`);
    } else {
      found = drives.find((d) => d.drive.approved === 'Approved' && d.drive.status === 'OK' && d.drive.pool !== '');
      if (!found) throw new RangeError(`no healthy pool drive left on system ${system.name}`);
    }
    const { node, drive } = found;
    const now = this.clock.now();
    drive.status = req.missing ? 'Missing' : 'Failed';
    drive.failedAtMs = now;
    drive.errMsg = req.missing
      ? 'Drive not detected since the last scan.'
      : `Drive failed: unrecoverable media errors${drive.pool ? `; pool ${drive.pool} is degraded` : ''}.`;
    const what = req.missing ? `is missing from slot ${drive.slot}` : 'failed';
    notify(system, s.state.customer, now, { level: LEVEL.critical, module: 'Hardware', message: `Drive ${drive.name} (${drive.serial}) on node ${node.name} ${what}.`, node: node.name });
    return { system: system.name, node: node.name, driveId: drive.id, name: drive.name, pool: drive.pool };
  }

  /**
   * Wears a drive's SMART counters while the system keeps its status `OK` (as systems that rate
   * drives by their own checks do): reallocated and pending sectors (NVMe: spare and media errors),
   * past the critical limits with `risk: 'critical'`. No notification: the system has not noticed.
   */
  wearDrive(req: WearDriveRequest): FailedDrive {
    const { system } = this.#system(req.site, req.system);
    const drives = allDrives(system);
    const found = req.driveId !== undefined ? drives.find((d) => d.drive.id === req.driveId) : drives.find((d) => d.drive.approved === 'Approved' && d.drive.status === 'OK' && d.drive.pool !== '');
    if (!found) throw new RangeError(req.driveId !== undefined ? `no drive ${req.driveId} on system ${system.name}` : `no healthy pool drive left on system ${system.name}`);
    const { node, drive } = found;
    const critical = req.risk === 'critical';
    const w = drive.wear;
    w.degradePerHour = 0;
    w.reallocated = critical ? 640 : 48;
    w.pending = critical ? 40 : 6;
    if (drive.type === 'NVMe') {
      w.availableSpare = critical ? 4 : 70;
      w.mediaErrors = critical ? 250 : 12;
    }
    return { system: system.name, node: node.name, driveId: drive.id, name: drive.name, pool: drive.pool };
  }

  /**
   * Drives a system into a failing configuration state, named by the check of the shipped
   * compliance baseline it fails (`MISCONFIGURATIONS`); returns what changed.
   */
  misconfigure(req: { site: SiteRef; system?: string; what: Misconfiguration }): { system: string; changed: string } {
    const { s, system } = this.#system(req.site, req.system);
    return { system: system.name, changed: misconfigure(s.state, system, req.what, this.clock.now()) };
  }

  /** Drives a system into the passing state of every misconfiguration but two-step authentication and pool free space. */
  secure(req: { site: SiteRef; system?: string }): { system: string } {
    const { s, system } = this.#system(req.site, req.system);
    secure(s.state, system);
    return { system: system.name };
  }

  /** The site and its system by name or id (the site's first when none is named). */
  #system(ref: SiteRef, name: string | undefined): { s: SiteRuntime; system: SystemState } {
    const s = this.site(ref);
    const system: SystemState | undefined = name ? findSystem(s.state, name) : s.state.systems[0];
    if (!system) throw new RangeError(`no system ${JSON.stringify(name)} at site ${s.state.name}`);
    return { s, system };
  }

  /**
   * Fills a pool to 99.5 % allocated with a new application (`what-if-fill-N`, one volume), as a
   * runaway provisioning would: the system reports the pool Full; a Warning notification.
   */
  fillPool(req: FillPoolRequest): { system: string; pool: string; application: string; bytes: number } {
    const { s, system } = this.#system(req.site, req.system);
    const pool = req.pool ? findPool(system, req.pool) : [...system.pools].sort((a, b) => poolFreeBytes(system, b) - poolFreeBytes(system, a))[0];
    if (!pool) throw new RangeError(`no pool ${JSON.stringify(req.pool ?? '')} on system ${system.name}`);
    const gib = 1024 ** 3;
    const bytes = Math.floor((poolFreeBytes(system, pool) - poolUsableBytes(system, pool) * 0.005) / gib) * gib;
    if (bytes < gib) throw new RangeError(`pool ${pool.name} on system ${system.name} is full already`);
    const layout = system.templates.flatMap((t) => t.volumes)[0] ?? system.apps.flatMap((a) => a.volumes)[0];
    if (!layout) throw new RangeError(`system ${system.name} has no volume layout to copy`);
    const volume: TemplateVolumeState = { ...layout, id: 1, name: 'fill', pool: pool.name, metadataPool: pool.name, stripedPools: [], stripedMetadataPools: [], capacityBytes: bytes, snapshotCapacityBytes: 0, cgid: undefined, groupedVolume: '' };
    let n = 1;
    while (system.apps.some((a) => a.name === `what-if-fill-${n}`)) n++;
    const name = `what-if-fill-${n}`;
    const now = this.clock.now();
    createApplication(system, name, { name, description: '', cgs: [], volumes: [volume] }, 'simulated: a pool filled on purpose', now);
    notify(system, s.state.customer, now, { level: LEVEL.warning, module: 'Capacity', message: `Pool ${pool.name} is almost fully allocated (simulated).` });
    return { system: system.name, pool: pool.name, application: name, bytes };
  }

  /**
   * Puts a replication pair back to a full resynchronisation of 2 TiB (Initializing, then Syncing
   * for over an hour at the simulated rate), as after a long link outage; a Warning notification.
   */
  lagReplication(req: LagReplicationRequest): { system: string; volume: string; remoteSystem: string } {
    const s = this.site(req.site);
    const system = req.system ? this.#system(req.site, req.system).system : undefined;
    const link = s.state.links.find((l) => !system || l.primary.systemId === system.id || l.secondary.systemId === system.id);
    if (!link) throw new RangeError(`no replication pair ${system ? `of system ${system.name}` : `at site ${s.state.name}`}`);
    const primary = systemById(s.state, link.primary.systemId);
    const secondary = systemById(s.state, link.secondary.systemId);
    const vol = primary ? volumeById(primary, link.primary.volumeId) : undefined;
    if (!primary || !secondary || !vol) throw new RangeError('the replication pair names a system or volume that is gone');
    const now = this.clock.now();
    link.syncStartMs = now;
    link.syncBytes = 2 * 1024 ** 4;
    link.announcedInSync = false;
    const volume = `${vol.app.name}/${vol.vol.name}`;
    notify(primary, s.state.customer, now, { level: LEVEL.warning, module: 'Replication', message: `Replication of ${volume} to ${secondary.name} restarted a full resynchronisation (simulated).` });
    return { system: primary.name, volume, remoteSystem: secondary.name };
  }

  /**
   * Sets the version a system reports for one component in `GET /Version` (added when the system
   * has no such component), as an upgrade or a stuck system would; returns the system's versions.
   */
  setVersion(req: SetVersionRequest): { system: string; versions: ComponentVersion[] } {
    const { system } = this.#system(req.site, req.system);
    if (!req.component.trim() || !req.version.trim()) throw new RangeError('component and version must not be empty');
    const found = system.versions.find((v) => v.Component === req.component);
    const build = req.buildNumber ?? `${req.version}.0`;
    if (found) {
      found.Version = req.version;
      found.BuildNumber = build;
    } else system.versions.push({ Component: req.component, Version: req.version, BuildNumber: build });
    return { system: system.name, versions: system.versions.map((v) => ({ ...v })) };
  }

  /**
   * Serves a new self-signed certificate on the same port (an expired one while dialect
   * `expired-cert` is on); returns its SHA-256 (lowercase hex).
   */
  async rotateCertificate(ref: SiteRef): Promise<string> {
    const s = this.site(ref);
    const cert = await generateCertificate(new Date(), { expired: this.fleet.dialects.has('expired-cert') });
    s.server.setCertificate(cert);
    this.#notifyFirst(s.state, LEVEL.warning, 'Management', `Management certificate replaced (simulated); new SHA-256 ${cert.sha256}.`);
    return cert.sha256;
  }

  /** The dialects switched on, in the order they are listed in `DIALECTS`. */
  dialects(): Dialect[] {
    return DIALECT_NAMES.filter((d) => this.fleet.dialects.has(d));
  }

  /**
   * Switches exactly these dialects on (the others off); throws on an unknown name. Returns the set
   * now on. Turning `expired-cert` on or off gives every TLS site a new certificate (await
   * `certificatesReady` before connecting).
   */
  setDialects(names: string | readonly unknown[]): Dialect[] {
    const expiredBefore = this.fleet.dialects.has('expired-cert');
    this.fleet.dialects = new Set(parseDialects(names));
    if (this.fleet.dialects.has('expired-cert') !== expiredBefore) {
      this.certificatesReady = Promise.all(this.sites.filter((s) => s.server.certificateSha256 !== undefined).map((s) => this.rotateCertificate(s.state.index))).then(() => undefined);
    }
    return this.dialects();
  }

  /** Settles once the certificates a dialect change asked for are served. */
  certificatesReady: Promise<void> = Promise.resolve();

  /** Moves simulated time forward; returns the new time in milliseconds. */
  advanceClock(seconds: number): number {
    this.clock.advance(seconds);
    return this.clock.now();
  }

  /** A user's TOTP secret (base32) and the code valid now. The only place the secret is exposed. */
  totpSecret(ref: SiteRef, user: string): { secret: string; code: string } {
    const s = this.site(ref);
    const u = s.state.users.find((x) => x.name.toLowerCase() === user.toLowerCase());
    if (!u) throw new RangeError(`no user ${JSON.stringify(user)} at site ${s.state.name}`);
    return { secret: base32Encode(u.totpSecret), code: totp(u.totpSecret, this.clock.now()) };
  }

  get seed(): string {
    return this.fleet.seed;
  }

  #notifyFirst(site: SiteState, level: number, module: string, message: string): void {
    const first = site.systems[0];
    if (first) notify(first, site.customer, this.clock.now(), { level, module, message });
  }
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 65_536) reject(new RangeError('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').trim();
      if (text === '') return resolve({});
      try {
        const v: unknown = JSON.parse(text);
        if (typeof v !== 'object' || v === null || Array.isArray(v)) reject(new RangeError('body must be a JSON object'));
        else resolve(v as Record<string, unknown>);
      } catch {
        reject(new RangeError('body is not valid JSON'));
      }
    });
    req.on('error', reject);
  });
}

function num(v: unknown, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`${name} must be a number`);
  return v;
}

/**
 * The control server: JSON over HTTP on loopback only, apart from the storage interface.
 * Routes are documented in simulator/README.md.
 */
export async function startControlServer(control: SimulatorControl, port: number, manifest: () => unknown): Promise<{ url: string; close(): Promise<void> }> {
  const route = async (method: string, parts: string[], body: Record<string, unknown>): Promise<unknown> => {
    const [a, b, c, d, e] = parts;
    if (method === 'GET' && a === 'status' && parts.length === 1) return control.status();
    if (method === 'GET' && a === 'manifest' && parts.length === 1) return manifest();
    if (method === 'POST' && a === 'clock' && b === 'advance') return { nowMs: control.advanceClock(num(body['seconds'], 'seconds') ?? 0) };
    if (method === 'POST' && a === 'expire-tokens' && parts.length === 1) return { expired: control.expireTokens() };
    if (a === 'dialects' && parts.length === 1) {
      if (method === 'PUT') {
        const list = body['dialects'];
        if (!Array.isArray(list)) throw new RangeError('dialects must be an array of names');
        control.setDialects(list);
        await control.certificatesReady;
      } else if (method !== 'GET') return undefined;
      return { dialects: control.dialects(), known: DIALECTS };
    }
    if (a !== 'sites' || b === undefined) return undefined;
    const site = decodeURIComponent(b);
    if (method === 'POST' && c === 'faults') {
      const change: Partial<FaultSettings> = {};
      const latency = num(body['latencyMs'], 'latencyMs');
      const jitter = num(body['jitterMs'], 'jitterMs');
      const rate = num(body['errorRate'], 'errorRate');
      if (latency !== undefined) change.latencyMs = latency;
      if (jitter !== undefined) change.jitterMs = jitter;
      if (rate !== undefined) change.errorRate = rate;
      if (body['errorMode'] !== undefined) change.errorMode = body['errorMode'] as FaultSettings['errorMode'];
      if (body['hangReads'] !== undefined) change.hangReads = body['hangReads'] as boolean;
      if (body['hangPaths'] !== undefined) change.hangPaths = body['hangPaths'] as string[];
      const pad = num(body['padBytes'], 'padBytes');
      if (pad !== undefined) change.padBytes = pad;
      if (body['redirectTo'] !== undefined) change.redirectTo = body['redirectTo'] as string;
      if (body['throttleReads'] !== undefined) change.throttleReads = body['throttleReads'] as boolean;
      const throttleAfter = num(body['throttleRetryAfterSeconds'], 'throttleRetryAfterSeconds');
      if (throttleAfter !== undefined) change.throttleRetryAfterSeconds = throttleAfter;
      if (body['throttleRetryAfterDate'] !== undefined) change.throttleRetryAfterDate = body['throttleRetryAfterDate'] as boolean;
      return control.setFaults(site, change);
    }
    if (method === 'POST' && c === 'proxy-errors') {
      const status = num(body['status'], 'status') ?? 502;
      const retryAfterSeconds = num(body['retryAfterSeconds'], 'retryAfterSeconds');
      control.proxyErrors(site, num(body['count'], 'count') ?? 1, { status, retryAfterSeconds, date: body['date'] === true });
      return { ok: true };
    }
    if (method === 'POST' && c === 'reset-connections') {
      control.resetConnections(site, num(body['nextRequests'], 'nextRequests') ?? 0);
      return { ok: true };
    }
    if (method === 'POST' && c === 'down') return control.siteDown(site).then(() => ({ up: false }));
    if (method === 'POST' && c === 'up') return control.siteUp(site).then(() => ({ up: true }));
    if (method === 'POST' && c === 'expire-tokens') return { expired: control.expireTokens(site) };
    if (method === 'POST' && c === 'fail-drive') {
      const systemName = body['system'];
      const req: FailDriveRequest = { site };
      if (typeof systemName === 'string') req.system = systemName;
      const driveId = num(body['driveId'], 'driveId');
      if (driveId !== undefined) req.driveId = driveId;
      if (body['missing'] === true) req.missing = true;
      return control.failDrive(req);
    }
    if (method === 'POST' && c === 'wear-drive') {
      const req: WearDriveRequest = { site };
      if (typeof body['system'] === 'string') req.system = body['system'];
      const driveId = num(body['driveId'], 'driveId');
      if (driveId !== undefined) req.driveId = driveId;
      if (body['risk'] === 'warning' || body['risk'] === 'critical') req.risk = body['risk'];
      else if (body['risk'] !== undefined) throw new RangeError('risk is "warning" or "critical"');
      return control.wearDrive(req);
    }
    if (method === 'POST' && c === 'fill-pool') {
      const req: FillPoolRequest = { site };
      if (typeof body['system'] === 'string') req.system = body['system'];
      if (typeof body['pool'] === 'string') req.pool = body['pool'];
      return control.fillPool(req);
    }
    if (method === 'POST' && c === 'lag-replication') {
      const req: LagReplicationRequest = { site };
      if (typeof body['system'] === 'string') req.system = body['system'];
      return control.lagReplication(req);
    }
    if (method === 'POST' && c === 'versions') {
      const str = (k: string): string | undefined => (typeof body[k] === 'string' ? (body[k] as string) : undefined);
      const component = str('component');
      const version = str('version');
      if (component === undefined || version === undefined) throw new RangeError('component and version are required strings');
      const req: SetVersionRequest = { site, component, version };
      const systemName = str('system');
      if (systemName !== undefined) req.system = systemName;
      const build = str('buildNumber');
      if (build !== undefined) req.buildNumber = build;
      return control.setVersion(req);
    }
    if (method === 'POST' && (c === 'misconfigure' || c === 'secure')) {
      const systemName = typeof body['system'] === 'string' ? body['system'] : undefined;
      if (c === 'secure') return control.secure({ site, ...(systemName !== undefined ? { system: systemName } : {}) });
      const what = String(body['check'] ?? '');
      if (!isMisconfiguration(what)) throw new RangeError(`check must be one of ${MISCONFIGURATIONS.join(', ')}`);
      return control.misconfigure({ site, what, ...(systemName !== undefined ? { system: systemName } : {}) });
    }
    if (method === 'POST' && c === 'rotate-certificate') return control.rotateCertificate(site).then((sha) => ({ certSha256: sha }));
    if (method === 'GET' && c === 'users' && d !== undefined && e === 'totp') return control.totpSecret(site, decodeURIComponent(d));
    return undefined;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const reply = (status: number, value: unknown): void => {
      const text = JSON.stringify(value);
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    };
    const parts = (req.url ?? '/').split('?')[0]?.split('/').filter((p) => p !== '') ?? [];
    readJson(req)
      .then((body) => route(req.method ?? 'GET', parts, body))
      .then((out) => (out === undefined ? reply(404, { error: `no control route ${req.method} ${req.url}` }) : reply(200, out)))
      .catch((err: unknown) => reply(400, { error: err instanceof Error ? err.message : String(err) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actual = address && typeof address === 'object' ? address.port : port;
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
