import type { AnswerContext } from '../../app/answers/normalise.js';
import { learnScale, type PercentScale, type ScaleEvidence } from '../../app/answers/percent-scale.js';
import { clockOffsetOf, dateHeaderOffset, formatSystemTime, slashedOrderOf, timeMs } from '../../app/answers/time.js';
import { asksForSecondFactor, interpretLogin, saysSessionEnded } from '../../app/auth/login-result.js';
import { getOperation, type Operation, type SystemsList } from '../../app/catalog/index.js';
import type { Site, SystemStatus } from '../../app/domain/site.js';
import { ApiClient, ApiError, AuthError, CertificateError, ProtocolError, type CallOptions, type PreparedRequest, type TlsTrust, type TokenScheme } from '../client/index.js';
import { isLoopbackUrl, urlProtocol } from '../net.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { discoveryTokenAccount, passwordAccount, tokenAccount } from '../secrets/accounts.js';
import { raceSignal, SYSTEM_TIMERS, type Deadline, type Timers } from './deadline.js';
import type { LearnedSelection } from '../store/selection-scopes.js';
import { LoginRequiredError, SelectionMovedError, SitePausedError } from './errors.js';
import { Limiter, runLimited } from './limiter.js';
import { retryRead, sleepOn, type RetryPolicy, type Sleep } from './retry.js';

export interface ConnectionDeps {
  secrets: SecretStore;
  /** Shared by every site: caps requests in flight across the fleet. */
  globalLimiter: Limiter;
  timeoutMs: number;
  retry?: RetryPolicy;
  /** Clock and timers of the waits between retries (a fake clock in tests). */
  timers?: Timers;
  /** The fleet's clock: what a system's clock is compared with (default: the process's). */
  clock?: () => Date;
  /** Systems of the site as last listed: whose stored sessions may list the site when its own has none. */
  knownSystems?: () => readonly string[];
  /** Called when the site turned out to want its token another way than it was sent; persists it (no secret). */
  onTokenScheme?: (scheme: TokenScheme) => Promise<void>;
  /** What an earlier process learned of the site's selection (kept by the data dir), and where to keep what this one learns. */
  selection?: { learned: LearnedSelection | undefined; onLearned: (learned: LearnedSelection) => void } | undefined;
}

/**
 * Parameters of one call, as the catalog names them, and how it is bounded: `deadline` limits the
 * whole call (slot, login, every attempt); `timeoutMs` each request, never past the deadline.
 * `onReselected` hears when a write's session had to be pointed at its system again first.
 */
export type CallParams = Pick<CallOptions, 'query' | 'body' | 'headers' | 'timeoutMs' | 'signal' | 'onSend' | 'budget'> & {
  deadline?: Deadline | undefined;
  onReselected?: ((note: string) => void) | undefined;
  /** Reads only: a "slow down" answer is thrown at once instead of retried (see {@link RetryOptions.failWhenThrottled}). */
  failWhenThrottled?: boolean | undefined;
  /** Hears each notification record of the answer whose stamp has no zone, read as UTC (see {@link SiteConnection.learnFromRecords}). */
  onRecordStamp?: AnswerContext['onRecordStamp'];
};

/** What told a system's clock offset ({@link SiteConnection.clockSource}). */
export type ClockSource = NonNullable<SystemStatus['clockSource']>;

/** What an interactive login did: the systems now logged in, and those waiting for a code of their own. */
export interface LoginProgress {
  loggedIn: string[];
  needCode: string[];
}

/**
 * What a site's answers have shown of its selection: each session's own (`session`), one selection
 * moved by all of the user's sessions (`shared`), or not known yet.
 */
export type SelectionScope = 'unknown' | 'session' | 'shared';

/** A system's reads under its site's selection rule ({@link SiteConnection.beginReads}). */
export interface ReadScope {
  /**
   * After the reads: the session must still work on the system (while the site is not known to
   * keep each session's own selection).
   * @throws SelectionMovedError when it does not: the answers read must be discarded.
   */
  check(): Promise<void>;
  /** Ends the scope (releases the site's selection lock if it was held); called however the reads ended. */
  end(): void;
}

const SELECT = getOperation('GET /systems/select');
const LIST = getOperation('GET /systems/list');

/**
 * One site: its HTTP client, its in-flight cap, and one session per system (login, then
 * `/systems/select` with that session's own token, so work on two systems never races on the
 * selection). Tokens and the password live in the secret store; a 401 triggers one silent re-login.
 * The selection belongs to this class alone: before a write, and around a system's reads
 * ({@link readScope}), the session is confirmed to work on that system; whether one session's
 * select moves the others is learned per site ({@link learnSelection}). How the token is sent
 * (Bearer or bare) is learned once per site.
 */
export class SiteConnection {
  readonly limiter: Limiter;
  /** The site's limiter, then the fleet's: every request holds a slot of both. */
  private readonly limiters: readonly Limiter[];
  private client: ApiClient;
  private readonly tokens = new Map<string, string>();
  private readonly logins = new Map<string, Promise<string>>();
  /** Tokens whose first authenticated request has not been answered yet: a 401 then may be the scheme. */
  private readonly fresh = new Set<string>();
  /** Tokens whose selected system a `/systems/list` answer confirmed for a write since their last select. */
  private readonly confirmed = new Set<string>();
  /** The same for reads: a write's confirmation stays its own, so a read's never spares a write one. */
  private readonly confirmedForReads = new Set<string>();
  /** Tokens the site refused (401): never read back from the keychain, where a concurrent call may not have deleted them yet. */
  private readonly refused = new Set<string>();
  /** The password read in flight: sessions logging in together share one keychain lookup. */
  private passwordRead: Promise<string | null> | undefined;
  /** The site's password as last read, masked in every answer (empty: none stored); undefined until read. */
  private passwordMask: readonly string[] | undefined;
  private scheme: TokenScheme;
  /** Per system: its clock offset ({@link clockOffset}) from its nodes' `Time`. */
  private readonly clockOffsets = new Map<string, number>();
  /** Per system: whether it writes slashed dates day first, learned from its answers (`slashedOrderOf`). */
  private readonly dayFirst = new Map<string, boolean>();
  /** Per system: the scale of its percentages and how surely it is known (`percent-scale.ts`). */
  private readonly percentScales = new Map<string, ScaleEvidence>();
  /** Per system: its clock offset from the stamps of records a poll saw first (`freshRecordOffset`). */
  private readonly recordOffsets = new Map<string, number>();
  /** Per system: its host's clock offset from the HTTP `Date` of its last answer (`dateHeaderOffset`). */
  private readonly dateOffsets = new Map<string, number>();
  private readonly sleep: Sleep;
  private selection: SelectionScope = 'unknown';
  /** The site's list flags no system: a selection cannot be confirmed, only made again. */
  private unflagged = false;
  /** Held by one system's reads or write at a time where the selection is not the session's own. */
  private readonly selectionLock = new Limiter(1);

  constructor(
    private site: Site,
    private readonly deps: ConnectionDeps,
  ) {
    this.limiter = new Limiter(site.polling.maxInFlight);
    this.limiters = [this.limiter, deps.globalLimiter];
    this.client = this.makeClient();
    this.scheme = site.auth?.tokenScheme ?? 'bearer';
    this.sleep = sleepOn(deps.timers ?? SYSTEM_TIMERS);
    const learned = deps.selection?.learned;
    if (learned) {
      this.selection = learned.scope;
      this.unflagged = learned.unflagged;
    }
  }

  /** Keeps what the site showed of its selection for later processes, when it changed. */
  private remember(before: { selection: SelectionScope; unflagged: boolean }): void {
    if (this.selection === before.selection && this.unflagged === before.unflagged) return;
    // Known either way once a list flags no system: its systems are worked one at a time.
    const scope = this.selection === 'unknown' ? (this.unflagged ? 'shared' : undefined) : this.selection;
    if (scope) this.deps.selection?.onLearned({ scope, unflagged: this.unflagged });
  }

  get siteId(): string {
    return this.site.id;
  }

  /** What the site's answers have shown of its selection so far. */
  get selectionScope(): SelectionScope {
    return this.selection;
  }

  /**
   * Whether the site's systems are worked on one at a time: its selection is shared between
   * sessions, or its list flags no system, so one system's select moves (or may move) the others'.
   */
  get oneSystemAtATime(): boolean {
    return this.selection === 'shared' || this.unflagged;
  }

  /**
   * Whether a system's answers must wait for the check after its reads ({@link readScope}) before
   * anyone may keep them: unless the site is known to keep each session's own selection, or lists
   * one system only.
   */
  get readsNeedCheck(): boolean {
    // A site that flags no system cannot be checked: it is selected again before each system's reads.
    return this.selection !== 'session' && !this.unflagged && (this.deps.knownSystems?.().length ?? 0) !== 1;
  }

  /**
   * Learns whether the site keeps each session's own selection: `first`'s session is confirmed on
   * `first`, `second`'s selects `second`, then `first`'s list must still flag `first`. Two sessions,
   * two systems, one select between: a site that moves every session of the user with it flags
   * `second`. Done once per connection, under the selection lock; answers what it learned.
   */
  async learnSelection(first: string, second: string, params: CallParams = {}): Promise<SelectionScope> {
    const signal = signalOf(params);
    if (this.selection !== 'unknown') return this.selection;
    await this.locked(true, signal, async () => {
      if (this.selection !== 'unknown') return;
      await this.withSession(first, signal, (token) => this.confirmSelection(first, token, params, signal, this.confirmedForReads));
      // Found elsewhere already: that says enough.
      if (this.selection !== 'unknown') return;
      await this.withSession(second, signal, (token) => this.select(token, second, { deadline: params.deadline }, signal));
      await this.withSession(first, signal, async (token) => {
        const current = await this.currentSystem(token, { deadline: params.deadline }, signal);
        const before = { selection: this.selection, unflagged: this.unflagged };
        if (current === null) this.unflagged = true;
        else if (sameName(current, first)) this.selection = 'session';
        else this.selection = 'shared';
        this.remember(before);
      });
    });
    return this.selection;
  }

  /**
   * Opens a system's reads where their answers can be trusted to be that system's: its session's
   * selection is confirmed before them (as a write's is); where {@link oneSystemAtATime}, no other
   * system's reads or writes run until {@link ReadScope.end}. The caller keeps no answer before
   * {@link ReadScope.check} has passed, and calls `end` however the reads ended.
   */
  async beginReads(system: string, params: CallParams): Promise<ReadScope> {
    const signal = signalOf(params);
    const exclusive = this.oneSystemAtATime;
    if (exclusive) await this.selectionLock.acquire(signal);
    let open = exclusive;
    const end = (): void => {
      if (open) this.selectionLock.release();
      open = false;
    };
    try {
      const needed = this.readsNeedCheck;
      await this.withSession(system, signal, (token) => this.confirmSelection(system, token, params, signal, this.confirmedForReads));
      const check = async (): Promise<void> => {
        if (needed) await this.withSession(system, signal, (token) => this.checkSelection(system, token, params, signal));
      };
      return { check, end };
    } catch (err) {
      end();
      throw err;
    }
  }

  /**
   * A system's reads in one {@link beginReads} scope, answered once checked.
   * @throws SelectionMovedError when the check after finds the session on another system: what
   *   `reads` answered must then be discarded.
   */
  async readScope<T>(system: string, params: CallParams, reads: () => Promise<T>): Promise<T> {
    const scope = await this.beginReads(system, params);
    try {
      const out = await reads();
      await scope.check();
      return out;
    } finally {
      scope.end();
    }
  }

  /** How the site's session token is sent now. */
  get tokenScheme(): TokenScheme {
    return this.scheme;
  }

  /** Applies an edited site (URL, trust, cap); sessions are kept unless the endpoint changed. */
  async update(site: Site): Promise<void> {
    const endpointChanged = site.baseUrl !== this.site.baseUrl || site.username !== this.site.username;
    const trustChanged = JSON.stringify(site.tls) !== JSON.stringify(this.site.tls);
    this.site = site;
    this.scheme = site.auth?.tokenScheme ?? this.scheme;
    this.limiter.setMax(site.polling.maxInFlight);
    if (endpointChanged || trustChanged) {
      const old = this.client;
      this.client = this.makeClient();
      await old.close();
    }
    if (endpointChanged) {
      this.tokens.clear();
      this.scheme = site.auth?.tokenScheme ?? 'bearer';
    }
  }

  /**
   * Lists the site's systems on the first session that can: a system's session in memory, the
   * site's discovery session (logging it in when it has no token), then sessions stored for the
   * first systems last listed. The list does not depend on the selection, so a site whose logins
   * each take a one-time code needs no extra code for listing, and a discovery session that expired
   * does not hide systems whose own sessions still work.
   */
  async listSystems(options: CallParams = {}): Promise<SystemsList> {
    const signal = signalOf(options);
    const inMemory = [...this.tokens.keys()].filter((k) => k !== key(undefined)).slice(0, 3);
    const stored = (this.deps.knownSystems?.() ?? []).filter((s) => !inMemory.includes(s)).slice(0, 3);
    let failure: unknown;
    for (const session of [...inMemory, undefined, ...stored]) {
      if (session !== undefined && !this.tokens.has(key(session)) && !(await this.storedToken(session, signal))) continue;
      try {
        return (await this.read(session, LIST, options)) as SystemsList;
      } catch (err) {
        // A session that cannot log in again (it wants a code) leaves the others to try.
        if (!(err instanceof LoginRequiredError)) throw err;
        if (session === undefined || failure === undefined) failure = err;
      }
    }
    throw failure;
  }

  /**
   * A read on one system (undefined: the site's discovery session). Retried with backoff when the
   * site does not answer or a proxy says "not now"; a 401 re-logs in once, then the system needs
   * an interactive login.
   */
  async read(system: string | undefined, op: Operation, params: CallParams = {}): Promise<unknown> {
    const signal = signalOf(params);
    return this.withSession(system, signal, (token) =>
      this.retrying(() => this.send(op, token, params, signal, this.answerClock(system, params.onRecordStamp)), signal, params.deadline, params.failWhenThrottled),
    );
  }

  /**
   * A write: never retried after a timeout (it may have happened); a 401 is safe to redo once. On a
   * system's session, the selected system is confirmed first (and selected again if it moved): a
   * write never lands on another system.
   */
  async write(system: string | undefined, op: Operation, params: CallParams = {}): Promise<unknown> {
    const signal = signalOf(params);
    const write = (): Promise<unknown> =>
      this.withSession(system, signal, async (token) => {
        if (system !== undefined) {
          const note = await this.confirmSelection(system, token, params, signal);
          if (note) params.onReselected?.(note);
        }
        return this.send(op, token, params, signal, this.answerClock(system));
      });
    return system === undefined ? write() : this.locked(this.oneSystemAtATime, signal, write);
  }

  /**
   * A system's clock minus true time (ms): learned from the zone-less `Time` its nodes last
   * reported (what its zone-less times mean, a local-time zone included); before any was read, or
   * for a system whose nodes send none, from the HTTP `Date` of its answers (a host clock that is
   * wrong, to within a few seconds). 0 when it agrees within `CLOCK_TOLERANCE_MS`, undefined before
   * either was read. Zone-less times of its answers are moved back by it.
   */
  clockOffset(system: string): number | undefined {
    return this.clockOffsets.get(system) ?? this.recordOffsets.get(system) ?? this.dateOffsets.get(system);
  }

  /**
   * Where a system's clock offset comes from: its nodes' `Time`, the stamps of its fresh records,
   * or the HTTP `Date` of its answers (in that order of trust); undefined before any was read.
   */
  clockSource(system: string): ClockSource | undefined {
    return this.clockOffsets.has(system) ? 'node-time' : this.recordOffsets.has(system) ? 'records' : this.dateOffsets.has(system) ? 'date-header' : undefined;
  }

  /**
   * Learns a system's clock from records a poll saw for the first time (`freshRecordOffset`: their
   * zone-less stamps as UTC, the previous read's time, this read's): what the system's zone-less
   * times mean when its nodes send no `Time`, trusted over the `Date` header (which shows the host's
   * clock, never the zone it stamps in). A record offset remembered from an earlier process
   * (`remembered`) seeds it until fresh records tell otherwise. Returns the offset now in force.
   */
  learnFromRecords(system: string, offset: number | undefined, remembered = false): number | undefined {
    if (offset !== undefined && (!remembered || !this.recordOffsets.has(system))) this.recordOffsets.set(system, offset);
    return this.clockOffset(system);
  }

  /**
   * A system's percentage scale as learned from its answers (`percent-scale.ts`); undefined before
   * any told it. `remembered` (strong evidence kept by an earlier process) seeds it when nothing is
   * known yet.
   */
  percentScale(system: string, remembered?: PercentScale): ScaleEvidence | undefined {
    if (remembered && !this.percentScales.has(system)) this.percentScales.set(system, { scale: remembered, strong: true });
    return this.percentScales.get(system);
  }

  /**
   * Whether a system writes slashed dates day first, as its answers showed; undefined while not
   * known. `remembered` (kept by an earlier process) seeds it when nothing is known yet.
   */
  dateOrder(system: string, remembered?: boolean): boolean | undefined {
    if (remembered !== undefined && !this.dayFirst.has(system)) this.dayFirst.set(system, remembered);
    return this.dayFirst.get(system);
  }

  /** What the normaliser applies to, and learns from, one answer of a system. */
  private answerClock(system: string | undefined, onRecordStamp?: AnswerContext['onRecordStamp']): AnswerContext | undefined {
    if (system === undefined) return undefined;
    return {
      clockOffsetMs: this.clockOffset(system),
      onRecordStamp,
      // Read as UTC when the answer arrives: the node stamped it moments before.
      onNodeTime: (ms) => void this.clockOffsets.set(system, clockOffsetOf(ms, (this.deps.clock?.() ?? new Date()).getTime())),
      percentScaleKnown: this.percentScales.get(system)?.strong ? this.percentScales.get(system)?.scale : undefined,
      learnPercentScale: (evidence) => {
        const known = learnScale(this.percentScales.get(system), evidence);
        if (known) this.percentScales.set(system, known);
        return known?.scale;
      },
      dayFirst: this.dayFirst.get(system),
      learnDateOrder: (raw, kind) => {
        // The system's now: a record of its own cannot be stamped after it.
        const order = slashedOrderOf(raw, kind, (this.deps.clock?.() ?? new Date()).getTime() + (this.clockOffset(system) ?? 0));
        if (order !== undefined) this.dayFirst.set(system, order);
        return this.dayFirst.get(system);
      },
      onServerDate: (date, sentMs, receivedMs) => {
        // The client times requests on the timers' clock; true time is the fleet's clock.
        const shift = (this.deps.clock?.() ?? new Date()).getTime() - (this.deps.timers ?? SYSTEM_TIMERS).now();
        const offset = dateHeaderOffset(date, sentMs + shift, receivedMs + shift);
        if (offset !== undefined) this.dateOffsets.set(system, offset);
      },
    };
  }

  /**
   * Checks parameters against the catalog and builds the request, sending nothing.
   * @throws ValidationError naming every problem
   */
  validate(op: Operation, params: CallParams): PreparedRequest {
    return this.client.validate(op, params);
  }

  /**
   * Interactive login of these systems (undefined: the site's discovery session), in order, storing
   * a new password when given. A code is sent with one login only: one-time codes are accepted
   * once, so every further system that asks for a second factor waits for a code of its own and is
   * returned in `needCode`.
   * @throws LoginRequiredError when a password or the code given is refused.
   */
  async login(systems: readonly (string | undefined)[], credentials: { password?: string; code?: string }): Promise<LoginProgress> {
    if (credentials.password !== undefined) await this.deps.secrets.set(passwordAccount(this.site.id), credentials.password);
    let code = credentials.code;
    const progress: LoginProgress = { loggedIn: [], needCode: [] };
    for (const [i, system] of systems.entries()) {
      this.forgetToken(system);
      try {
        await this.startLogin(system, code);
      } catch (err) {
        // No code left for this one: it, and the others after it (same user, same policy), wait for theirs.
        if (err instanceof LoginRequiredError && err.needsCode && code === undefined) {
          progress.needCode = systems.slice(i).filter((s): s is string => s !== undefined);
          if (system === undefined) throw err;
          return progress;
        }
        throw err;
      }
      code = undefined;
      if (system !== undefined) progress.loggedIn.push(system);
    }
    return progress;
  }

  /** Forgets the session tokens (memory and keychain); the password stays. */
  async logout(systems: readonly string[]): Promise<void> {
    for (const system of [undefined, ...systems]) {
      this.forgetToken(system);
      await this.deps.secrets.delete(this.account(system));
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private makeClient(): ApiClient {
    const site = this.site;
    const protocol = urlProtocol(site.baseUrl);
    if (protocol === 'http:' && !isLoopbackUrl(site.baseUrl) && !site.allowHttp) {
      throw new Error(`${site.name}: plain http is only used for loopback unless the site opts in`);
    }
    // The pin alone decides (tls.ts); the CA bundle is the trust of a site without one.
    const tls: TlsTrust | undefined = protocol === 'https:' ? { ca: site.tls.caBundlePem, pinSha256: site.tls.pinSha256 } : undefined;
    return new ApiClient({ baseUrl: site.baseUrl, siteId: site.id, timeoutMs: this.deps.timeoutMs, tls, connections: site.polling.maxInFlight, now: () => (this.deps.timers ?? SYSTEM_TIMERS).now() });
  }

  /**
   * Refuses to send anything to an https site whose certificate nobody confirmed: neither pinned
   * nor covered by the site's own CA bundle (a site just moved to another URL). The system's roots
   * alone are not trust here: the admin confirms each endpoint once, as when adding it.
   */
  private assertTrusted(): void {
    const { baseUrl, tls, name } = this.site;
    if (urlProtocol(baseUrl) !== 'https:' || tls.pinSha256 || tls.caBundlePem) return;
    throw new CertificateError(`${name}: the certificate of ${baseUrl} is not confirmed yet; compare its fingerprint with the system's and trust it`);
  }

  /** Keychain account of a system's session token, or of the discovery session. */
  private account(system: string | undefined): string {
    return system === undefined ? discoveryTokenAccount(this.site.id) : tokenAccount(this.site.id, system);
  }

  private forgetToken(system: string | undefined): void {
    const token = this.tokens.get(key(system));
    if (token) {
      this.confirmed.delete(token);
      this.confirmedForReads.delete(token);
    }
    this.tokens.delete(key(system));
  }

  private retrying<T>(task: () => Promise<T>, signal: AbortSignal | undefined, deadline: Deadline | undefined, failWhenThrottled?: boolean): Promise<T> {
    return retryRead(task, { policy: this.deps.retry, sleep: this.sleep, signal, deadline, failWhenThrottled });
  }

  private send(op: Operation, token: string, params: CallParams, signal: AbortSignal | undefined, clock?: AnswerContext): Promise<unknown> {
    if (this.site.polling.paused) return Promise.reject(new SitePausedError(`${this.site.name} is paused`));
    // The call's options named one by one: a rest pattern and a spread per request cost more than the fields.
    const { body, headers, onSend, budget } = params;
    const query = inSystemClock(op, params.query, clock?.clockOffsetMs);
    const mask = this.passwordMask;
    return this.authed(token, (tokenScheme) =>
      runLimited(this.limiters, () => this.client.call(op, { query, body, headers, onSend, budget, token, tokenScheme, mask, signal, clock, timeoutMs: this.requestTimeout(params) }), signal),
    );
  }

  /**
   * Sends an authenticated request with the site's token scheme. When a token fresh from a login is
   * refused (401) on its very first request, the credentials are fine, so the way the token was sent
   * is what the site did not take: the request is tried once the other way (bare token instead of
   * `Bearer <token>`, or back), and a success is remembered for the site. A 401 on a token that
   * already worked is an expired session, handled by a re-login instead.
   */
  private async authed<T>(token: string, request: (scheme: TokenScheme) => Promise<T>): Promise<T> {
    const scheme = this.scheme;
    let out: T;
    try {
      out = await request(scheme);
    } catch (err) {
      if (!(err instanceof AuthError) || !this.fresh.delete(token)) throw err;
      const other: TokenScheme = scheme === 'bearer' ? 'raw' : 'bearer';
      try {
        out = await request(other);
      } catch (again) {
        if (again instanceof AuthError) again.message += ` (a new session's token was refused both as "Bearer <token>" and as the bare token)`;
        throw again;
      }
      if (this.scheme === scheme) {
        this.scheme = other;
        // Persisting is a convenience for the next start; the call itself has worked.
        await this.deps.onTokenScheme?.(other).catch(() => undefined);
      }
      return out;
    }
    this.fresh.delete(token);
    return out;
  }

  /** The per-request timeout, cut to what is left of the call's deadline. */
  private requestTimeout(params: Pick<CallParams, 'timeoutMs' | 'deadline'>): number {
    const own = params.timeoutMs ?? this.deps.timeoutMs;
    return params.deadline ? Math.max(1, Math.min(own, params.deadline.remaining())) : own;
  }

  /**
   * Makes sure the session works on `system` before a write or a system's reads: its
   * `/systems/list` answer must flag `system` as IsCurrentlyConnectedSystem. Confirmed once per
   * session and selection (in `confirmed`: writes and reads keep theirs apart), or every time where
   * {@link oneSystemAtATime}. When another system is flagged, `system` is selected again and checked,
   * and the site counts as sharing its selection; when the site flags none, it is selected again
   * (cheap and harmless). Returns what was corrected, if anything.
   * @throws ProtocolError when the session stays on another system: the write (or the reads) is then not sent.
   */
  private async confirmSelection(system: string, token: string, params: CallParams, signal: AbortSignal | undefined, confirmed = this.confirmed): Promise<string | undefined> {
    // Where one session's select moves the others, a confirmation lasts only as long as the lock.
    if (confirmed.has(token) && !this.oneSystemAtATime) return undefined;
    const bounds: CallParams = { deadline: params.deadline };
    const current = await this.currentSystem(token, bounds, signal);
    if (current !== null && sameName(current, system)) {
      confirmed.add(token);
      return undefined;
    }
    await this.select(token, system, bounds, signal);
    const before = { selection: this.selection, unflagged: this.unflagged };
    if (current === null) {
      this.unflagged = true;
      this.remember(before);
      confirmed.add(token);
      return `${this.site.name} does not say which system a session works on; ${system} was selected again before the write`;
    }
    // Nothing of Fleetdeck selects another system on this session: the selection is not the session's alone.
    const wasKnown = this.selection === 'shared';
    this.selection = 'shared';
    this.remember(before);
    const after = await this.currentSystem(token, bounds, signal);
    if (after !== null && !sameName(after, system)) {
      throw new ProtocolError(`${this.site.name}: the session of ${system} still works on ${after} after selecting ${system} again; the write was not sent`);
    }
    confirmed.add(token);
    return wasKnown
      ? `${this.site.name} shares its selection between sessions; ${system} was selected again before the write`
      : `the session of ${system} had been switched to ${current} (not by Fleetdeck); ${system} was selected again before the write`;
  }

  /**
   * The check after a system's reads: its session must still flag `system`. A site that flags
   * none cannot be checked (it is worked on one system at a time, selected again before each).
   * @throws SelectionMovedError when another system is flagged.
   */
  private async checkSelection(system: string, token: string, params: CallParams, signal: AbortSignal | undefined): Promise<void> {
    const current = await this.currentSystem(token, { deadline: params.deadline }, signal);
    const before = { selection: this.selection, unflagged: this.unflagged };
    if (current === null) {
      this.unflagged = true;
      this.remember(before);
      return;
    }
    if (sameName(current, system)) return;
    this.selection = 'shared';
    this.remember(before);
    this.confirmedForReads.delete(token);
    throw new SelectionMovedError(
      `${this.site.name}: while ${system} was read, its session's selection moved to ${current} (the site shares its selection between sessions); what was read may be ${current}'s and was discarded`,
    );
  }

  /** Runs `task` holding the selection lock when `exclusive`, else at once. */
  private async locked<T>(exclusive: boolean, signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
    if (!exclusive) return task();
    await this.selectionLock.acquire(signal);
    try {
      return await task();
    } finally {
      this.selectionLock.release();
    }
  }

  /** The system a session works on, from `/systems/list`; null when the site does not say. */
  private async currentSystem(token: string, params: CallParams, signal: AbortSignal | undefined): Promise<string | null> {
    const list = await this.retrying(() => this.send(LIST, token, params, signal), signal, params.deadline);
    const systems = fieldOf(list, 'Systems');
    if (!Array.isArray(systems)) return null;
    const flagged = systems.find((s) => {
      const f = fieldOf(s, 'IsCurrentlyConnectedSystem');
      return f === true || (typeof f === 'string' && f.toLowerCase() === 'true');
    });
    const name = fieldOf(flagged, 'Name');
    return typeof name === 'string' ? name : null;
  }

  /** Points a session at a system; any earlier confirmation of that session is void. */
  private async select(token: string, system: string, params: CallParams, signal: AbortSignal | undefined): Promise<void> {
    this.confirmed.delete(token);
    this.confirmedForReads.delete(token);
    await this.retrying(() => this.send(SELECT, token, { ...params, query: { name: system } }, signal), signal, params.deadline);
  }

  private async withSession<T>(system: string | undefined, signal: AbortSignal | undefined, task: (token: string) => Promise<T>): Promise<T> {
    if (this.site.polling.paused) throw new SitePausedError(`${this.site.name} is paused`);
    this.assertTrusted();
    // A session in memory (nearly every call) is taken without another promise.
    const token = this.tokens.get(key(system)) ?? (await this.sessionToken(system, false, signal));
    // A session restored from the keychain made no login here: the password it masks is read once.
    if (this.passwordMask === undefined) await this.learnPassword(signal);
    try {
      return await task(token);
    } catch (err) {
      if (!sessionEnded(err)) throw err;
      // The token expired or was revoked: one silent re-login with the stored password.
      if (this.refused.size > 1000) this.refused.clear();
      this.refused.add(token);
      this.forgetToken(system);
      await raceSignal(this.deps.secrets.delete(this.account(system)), signal);
      const fresh = await this.sessionToken(system, true, signal);
      try {
        return await task(fresh);
      } catch (again) {
        if (sessionEnded(again)) throw new LoginRequiredError(`${this.site.name}: the system refused the new session (${again.message})`);
        throw again;
      }
    }
  }

  /**
   * The token for a system: memory, then keychain, then a new login (deduplicated). A caller whose
   * signal aborts stops waiting at once (the shared login goes on for the others).
   */
  private async sessionToken(system: string | undefined, forceLogin: boolean, signal: AbortSignal | undefined): Promise<string> {
    if (!forceLogin) {
      const known = this.tokens.get(key(system)) ?? (await this.storedToken(system, signal));
      if (known) return known;
    }
    return raceSignal(this.loginOnce(system, undefined), signal);
  }

  /** A token from the keychain, kept in memory once read. */
  private async storedToken(system: string | undefined, signal: AbortSignal | undefined): Promise<string | null> {
    const stored = await raceSignal(this.deps.secrets.get(this.account(system)), signal);
    if (!stored || this.refused.has(stored)) return null;
    this.tokens.set(key(system), stored);
    return stored;
  }

  /** One login of a session at a time: a caller arriving during one waits for it. */
  private loginOnce(system: string | undefined, code: string | undefined): Promise<string> {
    return this.logins.get(key(system)) ?? this.startLogin(system, code);
  }

  /** A new login of a session, whatever is in flight: callers arriving from now on wait for this one. */
  private startLogin(system: string | undefined, code: string | undefined): Promise<string> {
    const k = key(system);
    const pending: Promise<string> = this.newSession(system, code).finally(() => {
      if (this.logins.get(k) === pending) this.logins.delete(k);
    });
    this.logins.set(k, pending);
    return pending;
  }

  private readPassword(): Promise<string | null> {
    this.passwordRead ??= this.deps.secrets.get(passwordAccount(this.site.id))
      .then((password) => {
        this.passwordMask = password ? [password] : [];
        return password;
      })
      .finally(() => {
        this.passwordRead = undefined;
      });
    return this.passwordRead;
  }

  /** Reads the password to mask; a keychain that cannot answer leaves none (the call's own error, if any, says why). */
  private async learnPassword(signal: AbortSignal | undefined): Promise<void> {
    try {
      await raceSignal(this.readPassword(), signal);
    } catch {
      this.passwordMask ??= [];
    }
  }

  private async newSession(system: string | undefined, code: string | undefined): Promise<string> {
    this.assertTrusted();
    const password = await this.readPassword();
    if (password === null) throw new LoginRequiredError(`${this.site.name}: no password stored; log in to this site`);
    const who = system === undefined ? this.site.name : `${this.site.name}/${system}`;
    let result: unknown;
    // Login and select are retried like reads when the site did not answer: a connection reset on
    // the first request of a refresh would otherwise mark every system of the site unreachable. A
    // repeated login at worst leaves an unused session on the system, which expires by inactivity.
    try {
      result = await this.retrying(
        () =>
          runLimited(this.limiters, () =>
            this.client.login({ Username: this.site.username, Password: password, ...(code ? { TwoFactorAuthenticationToken: code } : {}) }),
          ),
        undefined,
        undefined,
      );
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      if (code) throw new LoginRequiredError(`${who}: the two-factor code was refused (${err.message}); a code is accepted once: use the next one your authenticator shows`, true);
      if (asksForSecondFactor(err.message)) throw new LoginRequiredError(`${who}: two-factor authentication is on: a code is required (${err.message})`, true);
      throw new LoginRequiredError(`${who}: login refused (${err.message})`);
    }
    const outcome = interpretLogin(result);
    if (outcome.kind === 'second-factor') throw new LoginRequiredError(`${who}: two-factor authentication is on: a code is required (${outcome.message})`, true);
    if (outcome.kind === 'incomplete') throw new LoginRequiredError(`${who}: login did not complete (${outcome.message})`);
    const token = outcome.token;
    this.fresh.add(token);
    if (system !== undefined) await this.select(token, system, {}, undefined);
    this.tokens.set(key(system), token);
    await this.deps.secrets.set(this.account(system), token);
    return token;
  }
}

/**
 * Whether a refusal ended the session: a 401, or the service's refusal of another status (a 400, a
 * JSON 403/409/422) whose message says the session or token ended. Such a call is safe to send again
 * after a login: the system refused it.
 */
function sessionEnded(err: unknown): err is Error {
  return err instanceof AuthError || (err instanceof ApiError && saysSessionEnded(err.message));
}

/** The call's own signal and its deadline's, as one. */
function signalOf(params: CallParams): AbortSignal | undefined {
  const own = params.signal;
  const deadline = params.deadline?.signal;
  if (!own) return deadline;
  return deadline ? AbortSignal.any([own, deadline]) : own;
}

/** Session key: a system name, or '' for the site's discovery session. */
/**
 * A call's query with its date-time parameters in the system's own clock: the app keeps true UTC,
 * a system whose clock differs reads zone-less times in its own (see `clockOffset`).
 */
function inSystemClock(op: Operation, query: CallParams['query'], offsetMs: number | undefined): CallParams['query'] {
  if (!offsetMs || !query) return query;
  let out: Record<string, unknown> | undefined;
  for (const f of op.query) {
    if (f.type !== 'date-time') continue;
    const name = Object.keys(query).find((k) => k.toLowerCase() === f.name.toLowerCase());
    const v = name === undefined ? undefined : query[name];
    const t = v instanceof Date ? v.getTime() : timeMs(v);
    if (name === undefined || t === undefined) continue;
    out ??= { ...query };
    out[name] = formatSystemTime(t + offsetMs);
  }
  return out ?? query;
}

function key(system: string | undefined): string {
  return system ?? '';
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** A field of an answer object by name, in any case. */
function fieldOf(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const lower = name.toLowerCase();
  return Object.entries(value).find(([k]) => k.toLowerCase() === lower)?.[1];
}
