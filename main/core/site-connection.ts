import { getOperation, type AuthenticationResult, type Operation, type SystemsList } from '../../app/catalog/index.js';
import type { Site } from '../../app/domain/site.js';
import { ApiClient, AuthError, CertificateError, type CallOptions, type PreparedRequest, type TlsTrust } from '../client/index.js';
import { isLoopbackUrl, urlProtocol } from '../net.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { discoveryTokenAccount, passwordAccount, tokenAccount } from '../secrets/accounts.js';
import { raceSignal, type Deadline } from './deadline.js';
import { LoginRequiredError, SitePausedError } from './errors.js';
import { Limiter, runLimited } from './limiter.js';
import { retryRead, type RetryPolicy, READ_RETRY } from './retry.js';

export interface ConnectionDeps {
  secrets: SecretStore;
  /** Shared by every site: caps requests in flight across the fleet. */
  globalLimiter: Limiter;
  timeoutMs: number;
  retry?: RetryPolicy;
  now?: () => number;
}

/** How long a typed two-factor code is reused for the other systems of the site (one TOTP step). */
const CODE_REUSE_MS = 30_000;

/**
 * Parameters of one call, as the catalog names them, and how it is bounded: `deadline` limits the
 * whole call (slot, login, every attempt); `timeoutMs` each request, never past the deadline.
 */
export type CallParams = Pick<CallOptions, 'query' | 'body' | 'headers' | 'timeoutMs' | 'signal' | 'onSend' | 'budget'> & { deadline?: Deadline | undefined };

/**
 * One site: its HTTP client, its in-flight cap, and one session per system (login, then
 * `/systems/select` with that session's own token, so work on two systems never races on the
 * selection). Tokens and the password live in the secret store; a 401 triggers one silent re-login.
 */
export class SiteConnection {
  readonly limiter: Limiter;
  private client: ApiClient;
  private readonly tokens = new Map<string, string>();
  private readonly logins = new Map<string, Promise<string>>();
  /** The password read in flight: sessions logging in together share one keychain lookup. */
  private passwordRead: Promise<string | null> | undefined;
  private recentCode: { code: string; at: number } | undefined;

  constructor(
    private site: Site,
    private readonly deps: ConnectionDeps,
  ) {
    this.limiter = new Limiter(site.polling.maxInFlight);
    this.client = this.makeClient();
  }

  get siteId(): string {
    return this.site.id;
  }

  /** Applies an edited site (URL, trust, cap); sessions are kept unless the endpoint changed. */
  async update(site: Site): Promise<void> {
    const endpointChanged = site.baseUrl !== this.site.baseUrl || site.username !== this.site.username;
    const trustChanged = JSON.stringify(site.tls) !== JSON.stringify(this.site.tls);
    this.site = site;
    this.limiter.setMax(site.polling.maxInFlight);
    if (endpointChanged || trustChanged) {
      const old = this.client;
      this.client = this.makeClient();
      await old.close();
    }
    if (endpointChanged) this.tokens.clear();
  }

  /** Lists the site's systems, logging in a discovery session when needed. */
  async listSystems(options: CallParams = {}): Promise<SystemsList> {
    return this.read(undefined, getOperation('GET /systems/list'), options) as Promise<SystemsList>;
  }

  /**
   * A read on one system (undefined: the site's discovery session). Retried with backoff when the
   * site does not answer; a 401 re-logs in once, then the system needs an interactive login.
   */
  async read(system: string | undefined, op: Operation, params: CallParams = {}): Promise<unknown> {
    const signal = signalOf(params);
    return this.withSession(system, signal, (token) => retryRead(() => this.send(op, token, params, signal), this.deps.retry ?? READ_RETRY, undefined, signal));
  }

  /** A write: never retried after a timeout (it may have happened); a 401 is safe to redo once. */
  async write(system: string | undefined, op: Operation, params: CallParams = {}): Promise<unknown> {
    const signal = signalOf(params);
    return this.withSession(system, signal, (token) => this.send(op, token, params, signal));
  }

  /**
   * Checks parameters against the catalog and builds the request, sending nothing.
   * @throws ValidationError naming every problem
   */
  validate(op: Operation, params: CallParams): PreparedRequest {
    return this.client.validate(op, params);
  }

  /**
   * Interactive login for every known system of the site (or one): stores a new password in the
   * secret store when given; a two-factor code is reused for the other systems within its step.
   */
  async login(systems: readonly string[], credentials: { password?: string; code?: string }): Promise<void> {
    if (credentials.password !== undefined) await this.deps.secrets.set(passwordAccount(this.site.id), credentials.password);
    if (credentials.code) this.recentCode = { code: credentials.code, at: this.now() };
    for (const system of [undefined, ...systems]) {
      this.tokens.delete(key(system));
      await this.sessionToken(system, true, undefined);
    }
  }

  /** Forgets the session tokens (memory and keychain); the password stays. */
  async logout(systems: readonly string[]): Promise<void> {
    for (const system of [undefined, ...systems]) {
      this.tokens.delete(key(system));
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
    return new ApiClient({ baseUrl: site.baseUrl, timeoutMs: this.deps.timeoutMs, tls, connections: site.polling.maxInFlight });
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

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private send(op: Operation, token: string, params: CallParams, signal: AbortSignal | undefined): Promise<unknown> {
    if (this.site.polling.paused) return Promise.reject(new SitePausedError(`${this.site.name} is paused`));
    const { deadline: _deadline, ...options } = params;
    return runLimited([this.limiter, this.deps.globalLimiter], () => this.client.call(op, { ...options, token, signal, timeoutMs: this.requestTimeout(params) }), signal);
  }

  /** The per-request timeout, cut to what is left of the call's deadline. */
  private requestTimeout(params: Pick<CallParams, 'timeoutMs' | 'deadline'>): number {
    const own = params.timeoutMs ?? this.deps.timeoutMs;
    return params.deadline ? Math.max(1, Math.min(own, params.deadline.remaining())) : own;
  }

  private async withSession<T>(system: string | undefined, signal: AbortSignal | undefined, task: (token: string) => Promise<T>): Promise<T> {
    if (this.site.polling.paused) throw new SitePausedError(`${this.site.name} is paused`);
    this.assertTrusted();
    const token = await this.sessionToken(system, false, signal);
    try {
      return await task(token);
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      // The token expired or was revoked: one silent re-login with the stored password.
      this.tokens.delete(key(system));
      await raceSignal(this.deps.secrets.delete(this.account(system)), signal);
      const fresh = await this.sessionToken(system, true, signal);
      try {
        return await task(fresh);
      } catch (again) {
        if (again instanceof AuthError) throw new LoginRequiredError(`${this.site.name}: the system refused the new session (${again.message})`);
        throw again;
      }
    }
  }

  /**
   * The token for a system: memory, then keychain, then a new login (deduplicated). A caller whose
   * signal aborts stops waiting at once (the shared login goes on for the others).
   */
  private async sessionToken(system: string | undefined, forceLogin: boolean, signal: AbortSignal | undefined): Promise<string> {
    const k = key(system);
    if (!forceLogin) {
      const known = this.tokens.get(k) ?? (await raceSignal(this.deps.secrets.get(this.account(system)), signal));
      if (known) {
        this.tokens.set(k, known);
        return known;
      }
    }
    let pending = this.logins.get(k);
    if (!pending) {
      pending = this.newSession(system).finally(() => this.logins.delete(k));
      this.logins.set(k, pending);
    }
    return raceSignal(pending, signal);
  }

  private readPassword(): Promise<string | null> {
    this.passwordRead ??= this.deps.secrets.get(passwordAccount(this.site.id)).finally(() => {
      this.passwordRead = undefined;
    });
    return this.passwordRead;
  }

  private async newSession(system: string | undefined): Promise<string> {
    this.assertTrusted();
    const password = await this.readPassword();
    if (password === null) throw new LoginRequiredError(`${this.site.name}: no password stored; log in to this site`);
    const code = this.recentCode && this.now() - this.recentCode.at < CODE_REUSE_MS ? this.recentCode.code : undefined;
    let result: AuthenticationResult;
    // Login and select are retried like reads when the site did not answer: a connection reset on
    // the first request of a refresh would otherwise mark every system of the site unreachable. A
    // repeated login at worst leaves an unused session on the system, which expires by inactivity.
    const retry = this.deps.retry ?? READ_RETRY;
    try {
      result = await retryRead(
        () =>
          runLimited([this.limiter, this.deps.globalLimiter], () =>
            this.client.login({ Username: this.site.username, Password: password, ...(code ? { TwoFactorAuthenticationToken: code } : {}) }),
          ),
        retry,
      );
    } catch (err) {
      if (err instanceof AuthError) {
        throw new LoginRequiredError(`${this.site.name}: login refused (${err.message})${code ? '; the two-factor code may be wrong or expired' : ''}`, Boolean(code));
      }
      throw err;
    }
    if (result.Status !== 'Ok' || !result.SessionToken) {
      const needsCode = /two|factor|2fa|mfa|otp|code/i.test(`${result.Status ?? ''} ${result.Details ?? ''}`);
      throw new LoginRequiredError(
        needsCode
          ? `${this.site.name}: two-factor authentication is on: a code is required`
          : `${this.site.name}: login did not complete (${result.Status ?? 'no status'})`,
        needsCode,
      );
    }
    const token = result.SessionToken;
    if (system !== undefined) {
      await retryRead(() => runLimited([this.limiter, this.deps.globalLimiter], () => this.client.selectSystem(token, system)), retry);
    }
    this.tokens.set(key(system), token);
    await this.deps.secrets.set(this.account(system), token);
    return token;
  }
}

/** The call's own signal and its deadline's, as one. */
function signalOf(params: CallParams): AbortSignal | undefined {
  const signals = [params.signal, params.deadline?.signal].filter((x): x is AbortSignal => x !== undefined);
  return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}

/** Session key: a system name, or '' for the site's discovery session. */
function key(system: string | undefined): string {
  return system ?? '';
}
