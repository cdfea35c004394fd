import { announcedRunTime, getOperation, keyOf, timeoutForRun, type BodyOf, type HeadersOf, type Operation, type OperationKey, type QueryOf, type ResultOf } from '../../app/catalog/index.js';
import type { Site, SystemStatus } from '../../app/domain/site.js';
import type { ImportPlan } from '../../app/domain/site-transfer.js';
import { effectiveInterval } from '../../app/domain/polling.js';
import { importSiteList } from '../store/site-transfer.js';
import { InputError } from '../../app/errors.js';
import { redact, secretValues } from '../../app/redact.js';
import type { SitePatch } from '../store/site-store.js';
import { cacheKey } from '../store/offline-cache.js';
import { Deadline, SYSTEM_TIMERS, type Timers } from './deadline.js';
import { FLEET_LIMITS, type FleetContext, type FleetOptions } from './fleet-context.js';
import { FleetState, SYSTEMS_KEY, type FleetEvent, type StatusOrder } from './fleet-state.js';
import { Limiter } from './limiter.js';
import { NOTIFICATIONS_OP, readQueryToEnd } from './notifications.js';
import { drivesOf, refreshRead } from '../../app/fleet/refresh-plan.js';
import { FleetRefresh, type RefreshOptions } from './refresh.js';
import { PollScheduler } from './scheduler.js';
import { SiteAdmin, type SiteInput } from './site-admin.js';
import { SiteConnection, type CallParams, type ConnectionDeps, type LoginProgress, type SelectionScope } from './site-connection.js';
import type { LearnedSelection, SelectionScopes } from '../store/selection-scopes.js';
import { failedWrite, recordOutcome } from './write-outcome.js';
import type { WriteResult } from '../store/action-log.js';

export { FLEET_LIMITS, type FleetOptions } from './fleet-context.js';
export type { FleetEvent } from './fleet-state.js';
export type { SiteInput } from './site-admin.js';

/** Told how a write ended, as the action log records it (a bulk job classifies its targets by it). */
export type OutcomeListener = (result: WriteResult, message: string) => void;
/** A call's parameters, plus, for a write, who to tell its recorded outcome. */
export type FleetCallParams = CallParams & { onOutcome?: OutcomeListener | undefined };
/** A call's parameters for an operation named by its key: its query, body and headers typed from the catalog. */
export type TypedFleetCallParams<K extends OperationKey> = Omit<FleetCallParams, 'query' | 'body' | 'headers'> & {
  query?: QueryOf<K>;
  body?: BodyOf<K>;
  headers?: HeadersOf<K>;
};

/** How long {@link Fleet.close} waits for abandoned refreshes to settle (they end on their signal, normally at once). */
const CLOSE_WAIT_MS = 5_000;
/** Selecting a system is the session manager's alone (SiteConnection). */
const SELECT_OP = 'GET /systems/select';
const ANALYZER_OP = 'GET /resources/drives/performance_analyzer';
/** The cached hardware list, whose drives bound the analyzer's run when it tests "all". */
const RESOURCES_READ = refreshRead('GET /resources/list');

/**
 * The fleet: every site's connection, every system's state, refreshes under per-endpoint and
 * global caps, the offline cache and the action log. Used by the CLI and by both app shells.
 * Its jobs live beside it: refresh with backoff (`refresh.ts`), notification merging
 * (`notifications.ts`), site administration (`site-admin.ts`), timed-out-write checks
 * (`write-outcome.ts`); what they share is `FleetState` and the {@link FleetContext}.
 */
export class Fleet {
  private readonly connections = new Map<string, SiteConnection>();
  private readonly state: FleetState;
  private readonly globalLimiter: Limiter;
  private readonly clock: () => Date;
  private readonly timers: Timers;
  private readonly timeoutMs: number;
  private readonly refresher: FleetRefresh;
  private readonly admin: SiteAdmin;
  private readonly scheduler: PollScheduler;
  private writing = 0;
  /** Versions read while the listeners of one event run (see {@link cachedVersions}). */
  private versionsMemo: { sending: number; byKey: Map<string, ReadonlyMap<string, number>> } | undefined;

  constructor(private readonly o: FleetOptions) {
    this.globalLimiter = new Limiter(o.globalMaxInFlight ?? FLEET_LIMITS.globalMaxInFlight);
    this.clock = o.clock ?? (() => new Date());
    this.timers = o.timers ?? SYSTEM_TIMERS;
    this.timeoutMs = o.timeoutMs ?? FLEET_LIMITS.timeoutMs;
    this.state = new FleetState(o.cache, o.outcomes, this.clock());
    const context: FleetContext = {
      o,
      systemSlots: new Limiter(o.maxSystemsAtOnce ?? FLEET_LIMITS.systemsAtOnce),
      state: this.state,
      clock: this.clock,
      timers: this.timers,
      timeoutMs: this.timeoutMs,
      site: (idOrName) => this.site(idOrName),
      connection: (site) => this.connection(site),
      liveConnection: (siteId) => this.connections.get(siteId),
      dropConnection: async (siteId) => {
        await this.connections.get(siteId)?.close();
        this.connections.delete(siteId);
      },
      callDeadline: (site, system, op, timeoutMs) => this.callDeadline(site, system, op, timeoutMs),
    };
    this.refresher = new FleetRefresh(context);
    this.admin = new SiteAdmin(context);
    this.scheduler = new PollScheduler({
      sites: () => withMinInterval(o.sites.list(), o.sites.policy.minPollIntervalSeconds),
      poll: async (siteId) => {
        if (await this.polledElsewhere()) return this.state.adoptRecorded(siteId, this.clock());
        return this.refresher.refresh({ siteIds: [siteId], mode: 'steady' });
      },
      backoffUntil: (siteId) => this.state.backoff.get(siteId)?.until,
      timers: this.timers,
      ...(o.random ? { random: o.random } : {}),
      coalesce: o.coalescePolls !== false,
    });
    for (const site of o.sites.list()) if (site.polling.paused) this.state.markSite(site.id, 'paused', undefined);
  }

  /** Writes sent or being sent now (from any caller: a window, a bulk change's step); the updater installs only at zero. */
  get writesInFlight(): number {
    return this.writing;
  }

  /** Subscribes to status changes and new notifications; returns the unsubscribe function. */
  on(listener: (e: FleetEvent) => void): () => void {
    return this.state.on(listener);
  }

  /** Every known system's status, sorted by site then system (or in `'any'` order: {@link FleetState.status}). */
  status(siteId?: string, order?: StatusOrder): SystemStatus[] {
    return this.state.status(siteId, order);
  }

  /** Systems of a site as last listed (from the cache when offline). */
  systemsOf(siteId: string): string[] {
    return this.state.systemsOf(siteId);
  }

  /**
   * Refreshes sites (all by default): lists each site's systems, then reads everything the views
   * need for each system. Unreachable sites back off unless `force`; paused sites are skipped.
   * @returns the statuses afterwards.
   */
  refresh(options: RefreshOptions = {}): Promise<SystemStatus[]> {
    return this.refresher.refresh(options);
  }

  /**
   * Starts background polling: each site (or each of `siteIds`) at its polling interval, with
   * steady-state polls (see `PollScheduler`). For the app shells; the CLI's commands never call it.
   * Stopped by {@link close}.
   */
  startPolling(siteIds?: readonly string[]): void {
    this.scheduler.start(siteIds);
  }

  /** Whether another process polls the data dir now (see `FleetOptions.polledElsewhere`); an answer that fails is "no". */
  private async polledElsewhere(): Promise<boolean> {
    try {
      return (await this.o.polledElsewhere?.()) === true;
    } catch {
      return false;
    }
  }

  /** When the site's next background poll is due (ms since the epoch); undefined when none is scheduled. */
  nextPollAt(siteId: string): number | undefined {
    return this.scheduler.nextPollAt(siteId);
  }

  /**
   * Calls one catalog operation on a system, within one deadline (`callDeadlineMs`, or twice the
   * call's own `timeoutMs`) covering the wait for a slot, the login and every retry. Reads are
   * cached. A write is validated, then recorded in the action log as intended (redacted) before
   * it is sent, and its outcome after: `ok`, `refused` (the system said no, or it was never
   * sent) or `unknown`. It is never resent after a timeout (a list checks the outcome instead,
   * under its own deadline).
   * Named by key, its parameters and answer (normalised, as the client returns it) are typed from
   * the catalog; an operation resolved at run time (the CLI's argument, a window's request, a bulk
   * job's step) answers `unknown`.
   * @throws StoreError when the intent cannot be recorded: the write is then not sent.
   */
  async call<K extends OperationKey>(siteId: string, system: string | undefined, opKey: K, callParams?: TypedFleetCallParams<K>): Promise<ResultOf<K>>;
  async call(siteId: string, system: string | undefined, op: Operation, callParams?: FleetCallParams): Promise<unknown>;
  async call(siteId: string, system: string | undefined, opKey: OperationKey | Operation, callParams: FleetCallParams = {}): Promise<unknown> {
    const op = typeof opKey === 'string' ? getOperation(opKey) : opKey;
    const site = this.site(siteId);
    if (op.key === SELECT_OP) {
      throw new InputError(
        `${op.key} is Fleetdeck's own: each system of ${site.name} has a session of its own, selected when it logs in, and a call cannot point it at another system (its reads would be cached, and its writes land, under the wrong system). Choose the system instead (in the fleet tree, or with --system).`,
      );
    }
    const conn = this.connection(site);
    const { onOutcome, ...rest } = callParams;
    const params = { ...rest, timeoutMs: callParams.timeoutMs ?? this.derivedTimeout(site.id, system, op, callParams.query) };
    const deadline = this.callDeadline(site, system, op, params.timeoutMs);
    try {
      if (!op.writes) {
        const read = { ...params, deadline };
        if (system === undefined) return await conn.read(undefined, op, read);
        // Kept only once the system's selection is confirmed around it: never another system's answer.
        // A notification query the system says is incomplete is read on by time (its only paging).
        const result = await conn.readScope(system, read, async () => {
          const first = await conn.read(system, op, read);
          return op.key === NOTIFICATIONS_OP ? readQueryToEnd((query) => conn.read(system, op, { ...read, query }), read.query ?? {}, first) : first;
        });
        this.o.cache.put(site.id, system, cacheKey(op.key, params.query ?? {}), result, this.clock());
        return result;
      }
      // A read-only workstation (machine policy) sends no write and records none.
      this.o.sites.policy.assertWritable(op.key);
      this.writing += 1;
      try {
        return await this.write(site, conn, system, op, { ...params, deadline }, onOutcome);
      } finally {
        this.writing -= 1;
      }
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
    const run = announcedRunTime(keyOf(op), query, drives);
    if (!run) return undefined;
    return Math.max(this.timeoutMs, timeoutForRun(run));
  }

  private cachedDriveCount(siteId: string, system: string): number | undefined {
    const hit = this.o.cache.get(siteId, system, cacheKey(RESOURCES_READ.op, RESOURCES_READ.query));
    const n = hit ? drivesOf(hit.value).length : 0;
    return n > 0 ? n : undefined;
  }

  private async write(site: Site, conn: SiteConnection, system: string | undefined, op: Operation, params: CallParams, onOutcome?: OutcomeListener): Promise<unknown> {
    // Invalid parameters are refused before anything is recorded or sent.
    conn.validate(op, params);
    // Masked by value too, wherever an echo of them could land in the record.
    const secrets = [...secretValues(params.body), ...secretValues(params.query), ...secretValues(params.headers)];
    const pending = this.o.actionLog.begin({
      user: `${this.o.user} as ${site.username}`,
      siteId: site.id,
      system: system ?? '',
      operation: op.key,
      params: redact({ query: params.query ?? {}, body: params.body ?? null }, secrets),
      at: this.clock(),
    });
    let sent = false;
    let result: unknown;
    const notes: string[] = [];
    const noted = (message: string): string => [...notes, message].filter(Boolean).join('; ');
    try {
      result = await conn.write(system, op, { ...params, onSend: () => (sent = true), onReselected: (note) => notes.push(note) });
    } catch (err) {
      const outcome = await failedWrite(conn, system, op, params, err, sent, { timeoutMs: this.timeoutMs, timers: this.timers });
      recordOutcome(this.o.actionLog, this.clock(), pending, outcome.result, noted(outcome.message), secrets);
      onOutcome?.(outcome.result, noted(outcome.message));
      throw outcome.error;
    }
    recordOutcome(this.o.actionLog, this.clock(), pending, 'ok', noted(typeof result === 'string' ? result : ''), secrets);
    onOutcome?.('ok', noted(typeof result === 'string' ? result : ''));
    return result;
  }

  /** The cached answer of a read, with its time; `stale` when the system is not currently ok. */
  cached(siteId: string, system: string, opKey: string, query: Record<string, unknown> = {}, options: { recordUse?: boolean } = {}): { value: unknown; at: string; stale: boolean } | undefined {
    const hit = this.o.cache.get(siteId, system, cacheKey(getOperation(opKey).key, query), options);
    return hit ? { value: hit.value, at: hit.at, stale: this.state.isStale(siteId, system) } : undefined;
  }

  /**
   * Every cached answer of one system in one read, looked up as {@link cached} looks one up (each
   * parsed when asked for): for a reader of most of them, such as a report. Counts as no use.
   */
  cachedSystem(siteId: string, system: string): (opKey: string, query?: Record<string, unknown>) => { value: unknown; at: string } | undefined {
    const entries = this.o.cache.systemEntries(siteId, system);
    return (opKey, query = {}) => {
      const hit = entries.get(cacheKey(getOperation(opKey).key, query));
      return hit ? { value: JSON.parse(hit.json) as unknown, at: hit.at } : undefined;
    };
  }

  /** The content version of each cached answer of a system, by cache key (one index read; reads no answer). */
  cachedVersions(siteId: string, system: string): ReadonlyMap<string, number> {
    // The listeners of one status event (summaries, alert engine, metrics) each ask for the system's
    // versions: read once for all of them, as nothing writes the cache while they run.
    const sending = this.state.sendingId;
    if (sending === undefined) return this.o.cache.versions(siteId, system);
    const k = `${siteId}\u0000${system}`;
    if (this.versionsMemo?.sending !== sending) this.versionsMemo = { sending, byKey: new Map() };
    let versions = this.versionsMemo.byKey.get(k);
    if (!versions) this.versionsMemo.byKey.set(k, (versions = this.o.cache.versions(siteId, system)));
    return versions;
  }

  /** When each cached answer of a system was read (ms since the epoch), by cache key (one index read; reads no answer). */
  cachedReadTimes(siteId: string, system: string): ReadonlyMap<string, number> {
    return this.o.cache.readTimes(siteId, system);
  }

  /** Like {@link cached}, with the value as its stored JSON text (sent on to the renderer unparsed). */
  cachedText(siteId: string, system: string, opKey: string, query: Record<string, unknown> = {}, options: { recordUse?: boolean } = {}): { json: string; at: string; stale: boolean } | undefined {
    const hit = this.o.cache.getText(siteId, system, cacheKey(getOperation(opKey).key, query), options);
    return hit ? { json: hit.json, at: hit.at, stale: this.state.isStale(siteId, system) } : undefined;
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
    this.loggedIn(site, system, progress);
    return progress;
  }

  /**
   * A login made for this fleet's data directory in another process (the monitor that polls it,
   * asked by this window): its systems no longer wait for one, and the site is polled now, which
   * takes what that process records.
   */
  loggedInElsewhere(siteId: string, system: string | undefined, progress: LoginProgress): void {
    this.loggedIn(this.site(siteId), system, progress);
  }

  private loggedIn(site: Site, system: string | undefined, progress: LoginProgress): void {
    const waiting = new Set(progress.needCode);
    for (const s of this.status(site.id)) {
      if (waiting.has(s.system)) {
        this.state.setStatus({ ...s, state: 'login-required', lastError: `${site.name}/${s.system}: two-factor authentication is on: this system needs a code of its own (a code is accepted once: use the next one)` });
      } else if (s.state === 'login-required' && (system === undefined || s.system === system)) {
        this.state.setStatus({ ...s, state: 'stale', lastError: undefined });
      }
    }
    this.resumeAfterLogin(site.id);
  }

  /**
   * A site that waited for a login (no password stored, or one refused) no longer waits: its error
   * and backoff are dropped, so its status says so at once, and it is polled now rather than at
   * the next interval (steady polls skip a site that waits for its admin).
   */
  private resumeAfterLogin(siteId: string): void {
    if (this.state.siteErrors.get(siteId)?.code === 'login-required') this.state.siteErrors.delete(siteId);
    this.state.backoff.delete(siteId);
    this.scheduler.pollNow(siteId);
  }

  async logout(siteId: string): Promise<void> {
    const site = this.site(siteId);
    await this.connection(site).logout(this.systemsOf(site.id));
    this.state.markSite(site.id, 'login-required', 'logged out');
  }

  /** Pauses or resumes a site: a paused site is never contacted. */
  setPaused(siteId: string, paused: boolean): Promise<void> {
    return this.rescheduled(this.admin.setPaused(siteId, paused));
  }

  /** {@inheritDoc SiteAdmin.trust} */
  trust(siteId: string, expectedSha256?: string): Promise<{ sha256: string }> {
    return this.admin.trust(siteId, expectedSha256);
  }

  /** {@inheritDoc SiteAdmin.addSite} */
  addSite(input: SiteInput): Promise<Site> {
    return this.rescheduled(this.admin.addSite(input));
  }

  /** Removes a site with every secret, cached answer and state of it. The action log keeps its history. */
  forgetSite(siteId: string): Promise<void> {
    return this.rescheduled(this.admin.forgetSite(siteId));
  }

  /** {@inheritDoc SiteAdmin.editSite} */
  editSite(siteId: string, patch: SitePatch): Promise<Site> {
    return this.rescheduled(this.admin.editSite(siteId, patch));
  }

  /**
   * Imports a site-list file (store/site-transfer.ts): all or nothing, conflicts skipped unless
   * `replace`; a replaced site whose URL or trust changed forgets its password and sessions.
   * @throws InputError for a malformed file; ManagedError on a read-only workstation.
   */
  importSites(fileName: string, text: string, o: { replace: boolean; dryRun: boolean }): Promise<ImportPlan> {
    const run = importSiteList(this.o.sites, fileName, text, { ...o, now: this.clock(), forget: (id) => this.admin.endpointReplaced(id) });
    return o.dryRun ? run : this.rescheduled(run);
  }

  /** Applies an edited site to its live connection. */
  siteChanged(siteId: string): Promise<void> {
    return this.rescheduled(this.admin.siteChanged(siteId));
  }

  /** A site change's result, once the poll schedule follows it (whether the change succeeded or not). */
  private async rescheduled<T>(change: Promise<T>): Promise<T> {
    try {
      return await change;
    } finally {
      this.scheduler.resync();
    }
  }

  /** The last error reaching the site itself (listing its systems), if the last attempt failed. */
  siteError(siteId: string): string | undefined {
    return this.state.siteErrors.get(siteId)?.message;
  }

  /** The error code (`unreachable`, `protocol`, `certificate`…) of {@link siteError}, if any. */
  siteErrorCode(siteId: string): string | undefined {
    return this.state.siteErrors.get(siteId)?.code;
  }

  /**
   * Stops polling, abandons the refreshes running (they write nothing more and raise nothing) and
   * waits for them to settle, at most `CLOSE_WAIT_MS`, before the connections close: the caller
   * closes the databases after this.
   */
  async close(): Promise<void> {
    this.scheduler.stop();
    await this.refresher.close(CLOSE_WAIT_MS);
    await Promise.all([...this.connections.values()].map((c) => c.close()));
    this.connections.clear();
  }

  private site(idOrName: string): Site {
    const site = this.o.sites.get(idOrName);
    if (!site) throw new InputError(`no site named "${idOrName}"`, 'not-found');
    return site;
  }

  /**
   * What is known of a site's selection in this process: learned here, or kept by the data dir from
   * an earlier process within a day (`unknown` until either).
   */
  selectionScope(siteId: string): SelectionScope {
    return this.connection(this.site(siteId)).selectionScope;
  }

  /** What an earlier process learned of a site's selection, and where this one keeps what it learns (a failure to keep it only costs learning it again). */
  private selectionOf(site: Site, scopes: SelectionScopes): NonNullable<ConnectionDeps['selection']> {
    let learned: LearnedSelection | undefined;
    try {
      learned = scopes.get(site.id, site.baseUrl, this.clock().getTime());
    } catch {
      learned = undefined;
    }
    return {
      learned,
      onLearned: (l) => {
        try {
          scopes.put(site.id, site.baseUrl, l, this.clock());
        } catch {
          // Learned again by the next process.
        }
      },
    };
  }

  private connection(site: Site): SiteConnection {
    let conn = this.connections.get(site.id);
    if (!conn) {
      conn = new SiteConnection(site, {
        secrets: this.o.secrets,
        globalLimiter: this.globalLimiter,
        timeoutMs: this.timeoutMs,
        timers: this.timers,
        clock: this.clock,
        knownSystems: () => this.systemsOf(site.id),
        onTokenScheme: async (tokenScheme) => {
          await this.o.sites.update(site.id, { auth: { tokenScheme, learnedAt: this.clock().toISOString() } });
        },
        ...(this.o.selectionScopes ? { selection: this.selectionOf(site, this.o.selectionScopes) } : {}),
        ...(this.o.retry ? { retry: this.o.retry } : {}),
      });
      this.connections.set(site.id, conn);
    }
    return conn;
  }
}

/** Sites with the machine policy's minimum poll interval applied (on demand stays on demand). */
function withMinInterval(sites: Site[], min: number | undefined): Site[] {
  if (min === undefined) return sites;
  for (const s of sites) s.polling.intervalSeconds = effectiveInterval(s.polling.intervalSeconds, min);
  return sites;
}
