import { announcedRunTime, getOperation, timeoutForRun, type Operation, type SystemsList } from '../../app/catalog/index.js';
import type { Site, SystemState, SystemStatus } from '../../app/domain/site.js';
import { InputError } from '../../app/errors.js';
import { redact, secretValues } from '../../app/redact.js';
import { AnswerTooLargeError, ApiError, AuthError, CancelledError, CertificateError, ProtocolError, UnrecognisedAnswerError, UnreachableError, probeCertificate, type ByteBudget } from '../client/index.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { passwordAccount, sitePrefix } from '../secrets/accounts.js';
import type { ActionLog, PendingWrite, WriteResult } from '../store/action-log.js';
import { cacheKey, type OfflineCache } from '../store/offline-cache.js';
import { sameBaseUrl, type SitePatch, type SiteStore } from '../store/site-store.js';
import { isLoopbackUrl, urlProtocol } from '../net.js';
import { Deadline, SYSTEM_TIMERS, formatMs, type Timers } from './deadline.js';
import { errorCode, LoginRequiredError, OutcomeUnknownError, SitePausedError } from './errors.js';
import { Limiter } from './limiter.js';
import { drivesOf, newestTimestamp, refreshPlan, smartDrivesToRead } from '../../app/fleet/refresh-plan.js';
import { SiteConnection, type CallParams, type LoginProgress } from './site-connection.js';
import type { RetryPolicy } from './retry.js';

export interface FleetOptions {
  sites: SiteStore;
  secrets: SecretStore;
  cache: OfflineCache;
  actionLog: ActionLog;
  /** Who performs writes, for the action log (OS user). */
  user: string;
  /** Per-request timeout, ms (default 15 s). */
  timeoutMs?: number;
  /** Limit of one call, whatever its retries (default twice the request timeout, so a read can retry once after a timeout). */
  callDeadlineMs?: number;
  /** Limit of one system's refresh, all its reads and retries included (default 60 s). */
  refreshDeadlineMs?: number;
  /** Drives whose SMART is read per system and refresh (default 256); failing drives first. */
  maxSmartDrives?: number;
  /** Bytes of answers one system's refresh may read (default 32 MiB); a larger answer is dropped. */
  maxSystemBytes?: number;
  /** Requests in flight across the whole fleet. */
  globalMaxInFlight?: number;
  retry?: RetryPolicy;
  clock?: () => Date;
  /** Clock and timers of deadlines; injected so tests use a fake clock. */
  timers?: Timers;
}

/** Defaults of the bounds above. */
export const FLEET_LIMITS = { timeoutMs: 15_000, refreshDeadlineMs: 60_000, maxSmartDrives: 256, maxSystemBytes: 32 * 1024 * 1024 } as const;

/** Connection failures that happen before a request leaves: the write was not sent. */
const NOT_DELIVERED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
/** Answers that say the request was turned away before any work (429 Too Many Requests). */
const NOT_APPLIED = new Set(['http-429']);
/** Selecting a system is the session manager's alone (SiteConnection). */
const SELECT_OP = 'GET /systems/select';
const ANALYZER_OP = 'GET /resources/drives/performance_analyzer';
/** The cached hardware list, whose drives bound the analyzer's run when it tests "all". */
const RESOURCES_READ = { op: 'GET /resources/list', query: { details: true, sensors: true } } as const;

/** What an admin gives to add a site. */
export interface SiteInput {
  name: string;
  baseUrl: string;
  username: string;
  password?: string | undefined;
  group?: string | undefined;
  tags?: string[] | undefined;
  allowHttp?: boolean | undefined;
  /** The certificate fingerprint the admin confirmed (trust on first use). */
  trustSha256?: string | undefined;
  caBundlePem?: string | undefined;
}

export type FleetEvent =
  | { type: 'status'; status: SystemStatus }
  | { type: 'notifications'; siteId: string; system: string; count: number };

/** Cache key of the site's system list (kept under the pseudo-system ''). */
const SYSTEMS_KEY = cacheKey('GET /systems/list', {});
const NOTIFICATIONS_OP = 'GET /notifications/query';
const MAX_BACKOFF_MS = 10 * 60_000;

/**
 * The fleet: every site's connection, every system's state, refreshes under per-endpoint and
 * global caps, the offline cache and the action log. Used by the CLI and by both app shells.
 */
export class Fleet {
  private readonly connections = new Map<string, SiteConnection>();
  private readonly statuses = new Map<string, SystemStatus>();
  private readonly backoff = new Map<string, { failures: number; until: number }>();
  private readonly siteErrors = new Map<string, { message: string; code: string }>();
  private readonly listeners = new Set<(e: FleetEvent) => void>();
  private readonly globalLimiter: Limiter;
  private readonly clock: () => Date;
  private readonly timers: Timers;
  private readonly timeoutMs: number;

  constructor(private readonly o: FleetOptions) {
    this.globalLimiter = new Limiter(o.globalMaxInFlight ?? 32);
    this.clock = o.clock ?? (() => new Date());
    this.timers = o.timers ?? SYSTEM_TIMERS;
    this.timeoutMs = o.timeoutMs ?? FLEET_LIMITS.timeoutMs;
    // Systems known from the cache start as stale until refreshed.
    for (const s of o.cache.systems()) {
      if (s.system === '') continue;
      this.statuses.set(statusKey(s.siteId, s.system), { siteId: s.siteId, system: s.system, state: 'stale', lastSuccessAt: s.at });
    }
    for (const site of o.sites.list()) if (site.polling.paused) this.markSite(site.id, 'paused', undefined);
  }

  /** Subscribes to status changes and new notifications; returns the unsubscribe function. */
  on(listener: (e: FleetEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every known system's status, sorted by site then system. */
  status(siteId?: string): SystemStatus[] {
    return [...this.statuses.values()]
      .filter((s) => !siteId || s.siteId === siteId)
      .sort((a, b) => a.siteId.localeCompare(b.siteId) || a.system.localeCompare(b.system));
  }

  /** Systems of a site as last listed (from the cache when offline). */
  systemsOf(siteId: string): string[] {
    const cached = this.o.cache.get(siteId, '', SYSTEMS_KEY)?.value as SystemsList | undefined;
    return (cached?.Systems ?? []).map((s) => s.Name).filter((n): n is string => typeof n === 'string');
  }

  /**
   * Refreshes sites (all by default): lists each site's systems, then reads everything the views
   * need for each system. Unreachable sites back off unless `force`; paused sites are skipped.
   * @returns the statuses afterwards.
   */
  async refresh(options: { siteIds?: readonly string[]; systems?: readonly string[]; force?: boolean } = {}): Promise<SystemStatus[]> {
    const sites = this.o.sites.list().filter((s) => !options.siteIds || options.siteIds.includes(s.id));
    await Promise.all(sites.map((site) => this.refreshSite(site, options.systems, options.force ?? false)));
    return this.status().filter((s) => sites.some((site) => site.id === s.siteId));
  }

  /**
   * Calls one catalog operation on a system, within one deadline (`callDeadlineMs`, or twice the
   * call's own `timeoutMs`) covering the wait for a slot, the login and every retry. Reads are
   * cached. A write is validated, then recorded in the action log as intended (redacted) before
   * it is sent, and its outcome after: `ok`, `refused` (the system said no, or it was never
   * sent) or `unknown`. It is never resent after a timeout (a list checks the outcome instead,
   * under its own deadline).
   * @throws StoreError when the intent cannot be recorded: the write is then not sent.
   */
  async call(siteId: string, system: string | undefined, opKey: string | Operation, callParams: CallParams = {}): Promise<unknown> {
    const op = typeof opKey === 'string' ? getOperation(opKey) : opKey;
    const site = this.site(siteId);
    if (op.key === SELECT_OP) {
      throw new InputError(
        `${op.key} is Fleetdeck's own: each system of ${site.name} has a session of its own, selected when it logs in, and a call cannot point it at another system (its reads would be cached, and its writes land, under the wrong system). Choose the system instead (in the fleet tree, or with --system).`,
      );
    }
    const conn = this.connection(site);
    const params = { ...callParams, timeoutMs: callParams.timeoutMs ?? this.derivedTimeout(site.id, system, op, callParams.query) };
    const deadline = this.callDeadline(site, system, op, params.timeoutMs);
    try {
      if (!op.writes) {
        const result = await conn.read(system, op, { ...params, deadline });
        if (system !== undefined) this.o.cache.put(site.id, system, cacheKey(op.key, params.query ?? {}), result, this.clock());
        return result;
      }
      return await this.write(site, conn, system, op, { ...params, deadline });
    } finally {
      deadline.dispose();
    }
  }

  private callDeadline(site: Site, system: string | undefined, op: Operation, timeoutMs: number | undefined): Deadline {
    const own = timeoutMs ?? this.timeoutMs;
    // A long run's deadline is its own timeout plus one ordinary call's worth (slot, login, select).
    const ms = this.o.callDeadlineMs ?? (own > this.timeoutMs ? own + 2 * this.timeoutMs : 2 * own);
    return new Deadline(ms, `${op.key} on ${site.name}${system ? `/${system}` : ''}`, this.timers);
  }

  /**
   * The request timeout an operation's parameters call for (a node utility's timeoutSeconds, the
   * analyzer's iterations), or undefined for the ordinary one. The analyzer's drives, when its
   * parameters do not list them, are counted from the system's cached hardware list.
   */
  derivedTimeout(siteId: string, system: string | undefined, op: Operation, query: Readonly<Record<string, unknown>> = {}): number | undefined {
    const drives = op.key === ANALYZER_OP && system !== undefined ? this.cachedDriveCount(siteId, system) : undefined;
    const run = announcedRunTime(op.key, query, drives);
    if (!run) return undefined;
    return Math.max(this.timeoutMs, timeoutForRun(run));
  }

  private cachedDriveCount(siteId: string, system: string): number | undefined {
    const hit = this.o.cache.get(siteId, system, cacheKey(RESOURCES_READ.op, RESOURCES_READ.query));
    const n = hit ? drivesOf(hit.value).length : 0;
    return n > 0 ? n : undefined;
  }

  private async write(site: Site, conn: SiteConnection, system: string | undefined, op: Operation, params: CallParams): Promise<unknown> {
    // Invalid parameters are refused before anything is recorded or sent.
    conn.validate(op, params);
    // Masked by value too, wherever an echo of them could land in the record.
    const secrets = [...secretValues(params.body), ...secretValues(params.query), ...secretValues(params.headers)];
    const pending = this.o.actionLog.begin({
      user: `${this.o.user} as ${site.username}`,
      siteId: site.id,
      system: system ?? '',
      operation: op.key,
      params: { query: params.query ?? {}, body: params.body ?? null },
      at: this.clock(),
      extraSecrets: secrets,
    });
    let sent = false;
    let result: unknown;
    const notes: string[] = [];
    const noted = (message: string): string => [...notes, message].filter(Boolean).join('; ');
    try {
      result = await conn.write(system, op, { ...params, onSend: () => (sent = true), onReselected: (note) => notes.push(note) });
    } catch (err) {
      const outcome = await this.failedWrite(conn, system, op, params, err, sent);
      this.recordOutcome(pending, outcome.result, noted(outcome.message), secrets);
      throw outcome.error;
    }
    this.recordOutcome(pending, 'ok', noted(typeof result === 'string' ? result : ''), secrets);
    return result;
  }

  /** How a write that threw ended, and the error the caller gets. */
  private async failedWrite(
    conn: SiteConnection,
    system: string | undefined,
    op: Operation,
    params: CallParams,
    err: unknown,
    sent: boolean,
  ): Promise<{ result: WriteResult; message: string; error: unknown }> {
    const message = err instanceof Error ? err.message : String(err);
    const notDelivered = !sent || err instanceof CertificateError || (err instanceof UnreachableError && NOT_DELIVERED.has(err.reason));
    if (notDelivered) return { result: 'refused', message: `not sent: ${message}`, error: err };
    if (err instanceof ApiError || err instanceof AuthError || err instanceof LoginRequiredError) return { result: 'refused', message, error: err };
    if (err instanceof UnreachableError && NOT_APPLIED.has(err.reason)) return { result: 'refused', message: `not applied: ${message}`, error: err };
    if (err instanceof CancelledError) {
      const error = new OutcomeUnknownError(`${op.key} was cancelled after it was sent; it may or may not have happened (or may still be running on the system) and was not resent: check before retrying`);
      return { result: 'unknown', message: error.message, error };
    }
    if (!(err instanceof UnreachableError)) return { result: 'unknown', message: `sent, but its answer could not be used: ${message}`, error: err };
    const what = err.reason === 'timeout' ? 'timed out' : 'lost its connection after it was sent';
    const check = new Deadline(this.timeoutMs, `checking the outcome of ${op.key}`, this.timers);
    const outcome = await this.checkOutcome(conn, system, op, params, check)
      .catch(() => 'unknown' as const)
      .finally(() => check.dispose());
    const error = new OutcomeUnknownError(
      outcome === 'applied'
        ? `${op.key} ${what} but a list shows it was applied`
        : outcome === 'absent'
          ? `${op.key} ${what} and a list shows it was not applied; it was not resent`
          : `${op.key} ${what}; it may or may not have happened and was not resent: check before retrying`,
    );
    return { result: 'unknown', message: error.message, error };
  }

  /** Records a write's outcome. The write already happened: a log that fails now leaves it listed as unknown. */
  private recordOutcome(pending: PendingWrite, result: WriteResult, message: string, secrets: readonly string[]): void {
    try {
      this.o.actionLog.complete(pending, { at: this.clock(), result, message, extraSecrets: secrets });
    } catch {
      // The intent stays in the log with no outcome, which lists it as "outcome unknown"; the
      // next write will be refused with the log's error if the file is the problem.
    }
  }

  /** The cached answer of a read, with its time; `stale` when the system is not currently ok. */
  cached(siteId: string, system: string, opKey: string, query: Record<string, unknown> = {}): { value: unknown; at: string; stale: boolean } | undefined {
    const hit = this.o.cache.get(siteId, system, cacheKey(getOperation(opKey).key, query));
    return hit ? { value: hit.value, at: hit.at, stale: this.isStale(siteId, system) } : undefined;
  }

  /** Like {@link cached}, with the value as its stored JSON text (sent on to the renderer unparsed). */
  cachedText(siteId: string, system: string, opKey: string, query: Record<string, unknown> = {}): { json: string; at: string; stale: boolean } | undefined {
    const hit = this.o.cache.getText(siteId, system, cacheKey(getOperation(opKey).key, query));
    return hit ? { json: hit.json, at: hit.at, stale: this.isStale(siteId, system) } : undefined;
  }

  private isStale(siteId: string, system: string): boolean {
    return this.statuses.get(statusKey(siteId, system))?.state !== 'ok';
  }

  /**
   * Interactive login for a site: every known system (or only `system`), storing the password when
   * given. A two-factor code goes with one login only (codes are accepted once): the systems that
   * then ask for a code of their own are returned in `needCode`, to be logged in one by one with
   * the next codes. A site whose systems are not known yet logs in its own session first, lists
   * them, then goes on with them.
   * @throws LoginRequiredError when the password or the code is refused.
   */
  async login(siteId: string, credentials: { password?: string; code?: string; system?: string }): Promise<LoginProgress> {
    const site = this.site(siteId);
    const conn = this.connection(site);
    const { system, ...creds } = credentials;
    let progress: LoginProgress;
    if (system !== undefined) progress = await conn.login([system], creds);
    else if (this.systemsOf(site.id).length) progress = await conn.login(this.systemsOf(site.id), creds);
    else {
      await conn.login([undefined], creds);
      const deadline = this.callDeadline(site, undefined, getOperation('GET /systems/list'), undefined);
      try {
        this.o.cache.put(site.id, '', SYSTEMS_KEY, await conn.listSystems({ deadline }), this.clock());
      } finally {
        deadline.dispose();
      }
      progress = await conn.login(this.systemsOf(site.id), {});
    }
    const waiting = new Set(progress.needCode);
    for (const s of this.status(site.id)) {
      if (waiting.has(s.system)) {
        this.setStatus({ ...s, state: 'login-required', lastError: `${site.name}/${s.system}: two-factor authentication is on: this system needs a code of its own (a code is accepted once: use the next one)` });
      } else if (s.state === 'login-required' && (system === undefined || s.system === system)) {
        this.setStatus({ ...s, state: 'stale', lastError: undefined });
      }
    }
    return progress;
  }

  async logout(siteId: string): Promise<void> {
    const site = this.site(siteId);
    await this.connection(site).logout(this.systemsOf(site.id));
    this.markSite(site.id, 'login-required', 'logged out');
  }

  /** Pauses or resumes a site: a paused site is never contacted. */
  async setPaused(siteId: string, paused: boolean): Promise<void> {
    const site = await this.o.sites.update(siteId, { polling: { ...this.site(siteId).polling, paused } });
    await this.connections.get(site.id)?.update(site);
    if (paused) this.markSite(site.id, 'paused', undefined);
    else for (const s of this.status(site.id)) this.setStatus({ ...s, state: 'stale' });
  }

  /**
   * Pins the certificate a site presents now, after the admin compared its fingerprint.
   * @throws when `expectedSha256` is given and differs from what the site presents.
   */
  async trust(siteId: string, expectedSha256?: string): Promise<{ sha256: string }> {
    const site = this.site(siteId);
    const presented = await probeCertificate(site.baseUrl, this.o.timeoutMs);
    if (expectedSha256 && expectedSha256.replace(/[:\s]/g, '').toLowerCase() !== presented.sha256) {
      throw new CertificateError(`${site.name} presents ${presented.sha256}, not the fingerprint given`, presented.sha256);
    }
    const updated = await this.o.sites.update(site.id, { tls: { ...site.tls, pinSha256: presented.sha256, pinnedCertPem: presented.pem } });
    await this.connections.get(site.id)?.update(updated);
    for (const s of this.status(site.id)) if (s.state === 'certificate-changed') this.setStatus({ ...s, state: 'stale', lastError: undefined });
    this.backoff.delete(site.id);
    return { sha256: presented.sha256 };
  }

  /**
   * Adds a site. For https the certificate is read first: without a CA bundle, the admin must have
   * confirmed its fingerprint (`trustSha256`), which is then pinned. The password goes to the
   * secret store only.
   * @throws CertificateError carrying the presented fingerprint when it is unconfirmed or differs.
   */
  async addSite(input: SiteInput): Promise<Site> {
    const tls: Site['tls'] = {};
    if (input.caBundlePem) tls.caBundlePem = input.caBundlePem;
    const draft = { name: input.name, baseUrl: input.baseUrl, username: input.username, group: input.group, tags: input.tags ?? [], allowHttp: input.allowHttp ?? false, tls };
    // A bad name or URL is refused before anything is contacted.
    this.o.sites.check(draft);
    if (urlProtocol(input.baseUrl) === 'https:') {
      if (input.trustSha256 || !input.caBundlePem) {
        const presented = await probeCertificate(input.baseUrl, this.o.timeoutMs ?? 15_000);
        const expected = input.trustSha256?.replace(/[:\s]/g, '').toLowerCase();
        if (!expected) {
          throw new CertificateError(
            `${input.baseUrl} presents a certificate with SHA-256 ${presented.sha256} (${presented.subject.replace(/\n/g, ', ')}); confirm this fingerprint to trust it`,
            presented.sha256,
          );
        }
        if (expected !== presented.sha256) {
          throw new CertificateError(`${input.baseUrl} presents ${presented.sha256}, not the fingerprint given`, presented.sha256);
        }
        tls.pinSha256 = presented.sha256;
        tls.pinnedCertPem = presented.pem;
      }
    }
    const site = await this.o.sites.add(draft);
    if (input.password !== undefined) {
      try {
        await this.o.secrets.set(passwordAccount(site.id), input.password);
      } catch (err) {
        await this.o.sites.remove(site.id);
        throw err;
      }
    }
    return site;
  }

  /** Removes a site with every secret, cached answer and state of it. The action log keeps its history. */
  async forgetSite(siteId: string): Promise<void> {
    const site = this.site(siteId);
    await this.connections.get(site.id)?.close();
    this.connections.delete(site.id);
    await this.o.secrets.deleteAll(sitePrefix(site.id));
    this.o.cache.deleteSite(site.id);
    await this.o.sites.remove(site.id);
    for (const k of [...this.statuses.keys()]) if (k.startsWith(`${site.id}\u0000`)) this.statuses.delete(k);
    this.backoff.delete(site.id);
  }

  /**
   * Edits a site. Its password and session tokens belong to the endpoint they were given for, and
   * its pin to that endpoint's certificate: moving the site to another URL (scheme, host, port or
   * path) or dropping or changing its pin forgets all of them, so the next contact asks for the
   * password and, for https, for the certificate to be confirmed again. Nothing stored is ever
   * sent to the new endpoint.
   * @throws InputError for an invalid change, and for https → plain http to a non-loopback host
   *   (remove the site and add it again to mean that).
   */
  async editSite(siteId: string, patch: SitePatch): Promise<Site> {
    const before = this.site(siteId);
    const moved = patch.baseUrl !== undefined && !sameBaseUrl(patch.baseUrl, before.baseUrl);
    if (moved && urlProtocol(before.baseUrl) === 'https:' && urlProtocol(patch.baseUrl ?? '') === 'http:' && !isLoopbackUrl(patch.baseUrl ?? '')) {
      throw new InputError(
        `${before.name}: moving from https to plain http would send the password unencrypted; remove the site and add it again if plain http is really meant`,
      );
    }
    const repinned = patch.tls !== undefined && patch.tls.pinSha256 !== before.tls.pinSha256;
    const after = await this.o.sites.update(before.id, patch);
    if (moved || repinned) {
      await this.connections.get(after.id)?.close();
      this.connections.delete(after.id);
      await this.o.secrets.deleteAll(sitePrefix(after.id));
      this.backoff.delete(after.id);
      const why = moved ? `moved to ${after.baseUrl}` : 'its certificate trust changed';
      const needsTrust = urlProtocol(after.baseUrl) === 'https:' && !after.tls.pinSha256 && !after.tls.caBundlePem;
      if (!after.polling.paused) this.markSite(after.id, needsTrust ? 'certificate-changed' : 'login-required', `${after.name} ${why}: ${needsTrust ? 'confirm its certificate, then log in again' : 'log in again'}`);
    } else {
      await this.connections.get(after.id)?.update(after);
    }
    return after;
  }

  /** Applies an edited site to its live connection. */
  async siteChanged(siteId: string): Promise<void> {
    const site = this.site(siteId);
    await this.connections.get(site.id)?.update(site);
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
    this.connections.clear();
  }

  private site(idOrName: string): Site {
    const site = this.o.sites.get(idOrName);
    if (!site) throw new InputError(`no site named "${idOrName}"`, 'not-found');
    return site;
  }

  private connection(site: Site): SiteConnection {
    let conn = this.connections.get(site.id);
    if (!conn) {
      conn = new SiteConnection(site, {
        secrets: this.o.secrets,
        globalLimiter: this.globalLimiter,
        timeoutMs: this.timeoutMs,
        timers: this.timers,
        knownSystems: () => this.systemsOf(site.id),
        onTokenScheme: async (tokenScheme) => {
          await this.o.sites.update(site.id, { auth: { tokenScheme, learnedAt: this.clock().toISOString() } });
        },
        ...(this.o.retry ? { retry: this.o.retry } : {}),
      });
      this.connections.set(site.id, conn);
    }
    return conn;
  }

  private async refreshSite(site: Site, onlySystems: readonly string[] | undefined, force: boolean): Promise<void> {
    if (site.polling.paused) return this.markSite(site.id, 'paused', undefined);
    const wait = this.backoff.get(site.id);
    if (wait && !force && wait.until > this.clock().getTime()) return;
    const conn = this.connection(site);
    let systems: string[];
    const deadline = this.callDeadline(site, undefined, getOperation('GET /systems/list'), undefined);
    try {
      const list = await conn.listSystems({ deadline });
      this.o.cache.put(site.id, '', SYSTEMS_KEY, list, this.clock());
      systems = (list.Systems ?? []).map((s) => s.Name).filter((n): n is string => typeof n === 'string' && n.length > 0);
      this.backoff.delete(site.id);
      this.siteErrors.delete(site.id);
    } catch (err) {
      this.siteFailed(site, err);
      return;
    } finally {
      deadline.dispose();
    }
    for (const k of [...this.statuses.keys()]) {
      const s = this.statuses.get(k);
      if (s && s.siteId === site.id && !systems.includes(s.system)) this.statuses.delete(k);
    }
    const targets = systems.filter((s) => !onlySystems || onlySystems.includes(s));
    // A few systems at a time (enough to keep the site's request slots busy): a system's deadline,
    // and its keychain lookups, start when its own refresh does, not while thousands queue behind.
    const slots = new Limiter(2 * Math.max(1, site.polling.maxInFlight));
    await Promise.all(targets.map((system) => slots.run(() => this.refreshSystem(site, conn, system))));
  }

  /**
   * Reads everything the views need for one system, within one deadline (`refreshDeadlineMs`) for
   * all its reads, logins and retries, and a byte budget (`maxSystemBytes`) for all its answers.
   * SMART is read for at most `maxSmartDrives` drives (failing ones first). What was left out
   * shows as `truncated` in the system's status.
   */
  private async refreshSystem(site: Site, conn: SiteConnection, system: string): Promise<void> {
    const previous = this.statuses.get(statusKey(site.id, system));
    const sinceHit = this.o.cache.get(site.id, system, cacheKey(NOTIFICATIONS_OP, {}));
    const since = newestTimestamp(sinceHit?.value);
    const plan = refreshPlan(this.clock(), since);
    let done = 0;
    let answered = 0;
    let total = plan.length;
    const deadline = new Deadline(this.o.refreshDeadlineMs ?? FLEET_LIMITS.refreshDeadlineMs, `refresh of ${site.name}/${system}`, this.timers);
    // Once the system has failed, its other reads are cancelled and their late answers ignored: they
    // must neither flip its state back to 'refreshing' nor overwrite the cache after the verdict.
    const abandon = new AbortController();
    const signal = AbortSignal.any([abandon.signal, deadline.signal]);
    const maxBytes = this.o.maxSystemBytes ?? FLEET_LIMITS.maxSystemBytes;
    const budget: ByteBudget = { remaining: maxBytes, total: maxBytes };
    const progress = (): void => {
      if (signal.aborted) return;
      this.setStatus({ ...(previous ?? { siteId: site.id, system }), siteId: site.id, system, state: 'refreshing', progress: { done, total } });
    };
    progress();
    const failures: string[] = [];
    // Answers in a shape the client does not recognise: the system answers, we cannot read it.
    const notUnderstood: string[] = [];
    const truncated: string[] = [];
    const read = async (opKey: string, query: Record<string, unknown>, storeKey = cacheKey(opKey, query)): Promise<unknown> => {
      try {
        const value = await conn.read(system, getOperation(opKey), { query, signal, deadline, budget });
        if (signal.aborted) return undefined;
        answered++;
        this.o.cache.put(site.id, system, storeKey, value, this.clock());
        return value;
      } catch (err) {
        if (err instanceof UnreachableError || err instanceof CertificateError || err instanceof LoginRequiredError || err instanceof SitePausedError) throw err;
        if (err instanceof AnswerTooLargeError) truncated.push(`${opKey} (answer over the limit, not read)`);
        else if (err instanceof ProtocolError) {
          notUnderstood.push(err instanceof UnrecognisedAnswerError ? err.summary : `${opKey}: ${err.message}`);
          return undefined;
        }
        failures.push(`${opKey}: ${(err as Error).message}`);
        return undefined;
      } finally {
        done++;
        progress();
      }
    };
    try {
      const results = await Promise.all(
        plan.map((p) =>
          p.op === NOTIFICATIONS_OP
            ? this.readNotifications(site, system, read, p.query, sinceHit?.value)
            : read(p.op, p.query, cacheKey(p.op, p.cacheQuery ?? p.query)),
        ),
      );
      const resources = results[plan.findIndex((p) => p.op === 'GET /resources/list')];
      // No drive list, no SMART reads: said, so that zero reads are not taken for zero drives.
      const smartSkipped = resources === undefined ? 'SMART not read: the drive list (GET /resources/list) could not be read' : undefined;
      const smart = smartDrivesToRead(resources, this.o.maxSmartDrives ?? FLEET_LIMITS.maxSmartDrives);
      if (smart.drives.length < smart.total) truncated.push(`SMART read for ${smart.drives.length} of ${smart.total} drives (failing drives first)`);
      total += smart.drives.length;
      // A drive that cannot report SMART is a fact about that drive, not a failed refresh.
      const before = failures.length;
      await Promise.all(smart.drives.map((d) => read('GET /resources/drives/smart', d)));
      failures.splice(before);
      const now = this.clock().toISOString();
      const cut = truncated.length ? truncated.join('; ') : undefined;
      const problems = [
        ...(notUnderstood.length ? [`protocol error: ${notUnderstood[0]}${notUnderstood.length > 1 ? ` (and ${notUnderstood.length - 1} more answer(s) not understood)` : ''}`] : []),
        ...(failures.length ? [`${failures.length} read(s) failed: ${failures.slice(0, 3).join('; ')}`] : []),
        ...(smartSkipped ? [smartSkipped] : []),
      ];
      this.setStatus(
        problems.length
          ? {
              siteId: site.id,
              system,
              state: notUnderstood.length ? 'protocol-error' : 'stale',
              lastSuccessAt: previous?.lastSuccessAt,
              lastErrorAt: now,
              lastError: redact(problems.join('; ')),
              truncated: cut,
            }
          : { siteId: site.id, system, state: 'ok', lastSuccessAt: now, truncated: cut },
      );
    } catch (err) {
      abandon.abort();
      const why = deadline.expired
        ? new UnreachableError(
            `refresh of ${site.name}/${system} did not finish within ${formatMs(deadline.ms)} (${answered} of ${total} reads answered); stopped there, it is tried again at the next refresh`,
            'timeout',
          )
        : err;
      this.systemFailed(site, system, why, previous);
    } finally {
      deadline.dispose();
    }
  }

  private async readNotifications(
    site: Site,
    system: string,
    read: (op: string, q: Record<string, unknown>, key?: string) => Promise<unknown>,
    query: Record<string, unknown>,
    previous: unknown,
  ): Promise<unknown> {
    // Incremental: read what is new since the newest record we hold, merge, keep the latest 1000.
    const fresh = await read(NOTIFICATIONS_OP, query, `${cacheKey(NOTIFICATIONS_OP, {})}#new`);
    if (fresh === undefined) return previous;
    const old = ((previous as { Data?: unknown[] } | undefined)?.Data ?? []) as Array<{ Id?: unknown }>;
    const add = ((fresh as { Data?: unknown[] } | undefined)?.Data ?? []) as Array<{ Id?: unknown }>;
    const seen = new Set(old.map((r) => r.Id));
    const newOnes = add.filter((r) => !seen.has(r.Id));
    const merged = { Data: [...newOnes, ...old].slice(0, 1000) };
    this.o.cache.put(site.id, system, cacheKey(NOTIFICATIONS_OP, {}), merged, this.clock());
    if (newOnes.length) this.emit({ type: 'notifications', siteId: site.id, system, count: newOnes.length });
    return merged;
  }

  private siteFailed(site: Site, err: unknown): void {
    const systems = this.systemsOf(site.id);
    if (err instanceof UnreachableError) {
      const failures = (this.backoff.get(site.id)?.failures ?? 0) + 1;
      const delay = Math.min(MAX_BACKOFF_MS, 15_000 * 2 ** (failures - 1));
      this.backoff.set(site.id, { failures, until: this.clock().getTime() + delay });
    }
    this.siteErrors.set(site.id, { message: redact((err as Error).message), code: errorCode(err) });
    for (const system of systems) this.systemFailed(site, system, err, this.statuses.get(statusKey(site.id, system)));
  }

  /** The last error reaching the site itself (listing its systems), if the last attempt failed. */
  siteError(siteId: string): string | undefined {
    return this.siteErrors.get(siteId)?.message;
  }

  /** The error code (`unreachable`, `protocol`, `certificate`…) of {@link siteError}, if any. */
  siteErrorCode(siteId: string): string | undefined {
    return this.siteErrors.get(siteId)?.code;
  }

  private systemFailed(site: Site, system: string, err: unknown, previous: SystemStatus | undefined): void {
    const state: SystemState =
      err instanceof CertificateError
        ? 'certificate-changed'
        : err instanceof LoginRequiredError
          ? 'login-required'
          : err instanceof SitePausedError
            ? 'paused'
            : err instanceof UnreachableError
              ? 'unreachable'
              : err instanceof ProtocolError && !(err instanceof AnswerTooLargeError)
                ? 'protocol-error'
                : 'stale';
    const message =
      err instanceof CertificateError && site.tls.pinSha256
        ? `${err.message}${err.presentedSha256 ? '' : ': the certificate no longer matches the pinned fingerprint'}; confirm the new fingerprint to continue`
        : err instanceof UnrecognisedAnswerError
          ? `protocol error: ${err.summary}`
          : (err as Error).message;
    this.setStatus({
      siteId: site.id,
      system,
      state,
      lastSuccessAt: previous?.lastSuccessAt,
      lastErrorAt: this.clock().toISOString(),
      lastError: redact(message),
    });
  }

  private markSite(siteId: string, state: SystemState, message: string | undefined): void {
    const systems = new Set([...this.systemsOf(siteId), ...this.status(siteId).map((s) => s.system)]);
    for (const system of systems) {
      const prev = this.statuses.get(statusKey(siteId, system));
      this.setStatus({ siteId, system, state, lastSuccessAt: prev?.lastSuccessAt, lastErrorAt: prev?.lastErrorAt, lastError: message ?? prev?.lastError });
    }
  }

  private setStatus(status: SystemStatus): void {
    this.statuses.set(statusKey(status.siteId, status.system), status);
    this.emit({ type: 'status', status });
  }

  private emit(e: FleetEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** After a write timed out: list to see whether a create/add happened, without resending it. */
  private async checkOutcome(conn: SiteConnection, system: string | undefined, op: Operation, params: CallParams, deadline: Deadline): Promise<'applied' | 'absent' | 'unknown'> {
    if (!/\/(create|add)$/.test(op.path)) return 'unknown';
    const body = (params.body ?? {}) as Record<string, unknown>;
    const name = body.Name ?? body.Application;
    if (typeof name !== 'string') return 'unknown';
    const listPath = op.path.replace(/\/(create|add)$/, '/list');
    let listOp: Operation;
    try {
      listOp = getOperation(`GET ${listPath}`);
    } catch {
      return 'unknown';
    }
    const result = (await conn.read(system, listOp, { deadline })) as { Data?: Array<Record<string, unknown>> };
    const found = (result.Data ?? []).some((item) => item.Name === name || item.Application === name);
    return found ? 'applied' : 'absent';
  }
}

function statusKey(siteId: string, system: string): string {
  return `${siteId}\u0000${system}`;
}
