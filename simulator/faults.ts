import { Rng } from './random.js';

/** Fault settings of one site's endpoint. */
export interface FaultSettings {
  /** Added to every response, in milliseconds. */
  latencyMs: number;
  /** Up to this many extra milliseconds, uniformly drawn per request. */
  jitterMs: number;
  /** Share of requests (0–1) that fail. */
  errorRate: number;
  /** How a failing request fails: `status` answers 400 with a string, `reset` drops the connection. */
  errorMode: 'status' | 'reset';
  /**
   * Every GET except `/systems/list` and `/systems/select` is handled but never answered: logins
   * and the system list work, reads hang until the client gives up.
   */
  hangReads: boolean;
  /** Catalog paths (any method, case-insensitive) handled but never answered: a write still takes effect. */
  hangPaths: string[];
  /** Spaces appended to every successful answer of a GET (still valid JSON), in bytes: answer-size limits. */
  padBytes: number;
  /** When set, every request is answered `307 Temporary Redirect` to this URL (a moved endpoint, a login portal). */
  redirectTo: string;
  /**
   * Every GET except `/systems/list` and `/systems/select` is refused by the service itself with
   * 429 and its JSON message (a rate-limited system: logins and the system list still work), with
   * `Retry-After` of `throttleRetryAfterSeconds` (none when 0), written as an HTTP date when
   * `throttleRetryAfterDate`.
   */
  throttleReads: boolean;
  throttleRetryAfterSeconds: number;
  throttleRetryAfterDate: boolean;
}

/** What a proxy in front of the site answers instead of it: an HTML error page. */
export interface ProxyErrors {
  /** 429, 500, 502, 503 or 504. */
  status: number;
  /** `Retry-After` in seconds, or as an HTTP-date that many seconds ahead (`date: true`); none when undefined. */
  retryAfterSeconds?: number | undefined;
  date?: boolean | undefined;
}

/** Statuses a proxy page may carry. */
export const PROXY_STATUSES = [429, 500, 502, 503, 504] as const;

/** Paths that still answer while `hangReads` or `throttleReads` is on: what a client needs to log in and list systems. */
const STILL_ANSWERED = new Set(['/systems/list', '/systems/select']);

export interface FaultDecision {
  action: 'pass' | 'error' | 'reset' | 'proxy' | 'redirect' | 'throttle';
  /** The proxy page to answer (action `proxy`). */
  proxy?: ProxyErrors | undefined;
  delayMs: number;
  /** Handle the request but never answer it. */
  hang: boolean;
  /** Spaces to append to a successful answer. */
  padBytes: number;
}

export const INJECTED_ERROR = 'Simulated fault: the service is temporarily unavailable.';

/**
 * Fault state of one site. Draws come from a seeded PRNG so a fault run is repeatable
 * for a given sequence of requests.
 */
export class SiteFaults {
  #settings: FaultSettings;
  #resetNext = 0;
  #proxyNext = 0;
  #proxy: ProxyErrors = { status: 502 };
  readonly #rng: Rng;

  constructor(seed: number, latencyMs = 0) {
    this.#rng = new Rng(seed);
    this.#settings = { latencyMs, jitterMs: 0, errorRate: 0, errorMode: 'status', hangReads: false, hangPaths: [], padBytes: 0, redirectTo: '', throttleReads: false, throttleRetryAfterSeconds: 0, throttleRetryAfterDate: false };
  }

  get settings(): Readonly<FaultSettings> {
    return { ...this.#settings, hangPaths: [...this.#settings.hangPaths] };
  }

  get pendingResets(): number {
    return this.#resetNext;
  }

  /** Requests still to be answered by the proxy's error page. */
  get pendingProxyErrors(): number {
    return this.#proxyNext;
  }

  /**
   * The next `count` requests never reach the service: a proxy in front of it answers its HTML
   * error page with `status` (and Retry-After when given). @throws RangeError on bad values.
   */
  proxyErrors(count: number, page: ProxyErrors): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
    if (!(PROXY_STATUSES as readonly number[]).includes(page.status)) throw new RangeError(`status must be one of ${PROXY_STATUSES.join(', ')}`);
    const after = page.retryAfterSeconds;
    if (after !== undefined && (!Number.isInteger(after) || after < 0 || after > 86_400)) throw new RangeError('retryAfterSeconds must be 0 to 86400');
    this.#proxyNext = count;
    this.#proxy = { ...page };
  }

  /** Changes some settings. @throws RangeError on out-of-range values. */
  configure(change: Partial<FaultSettings>): FaultSettings {
    const next = { ...this.#settings, ...change };
    if (!Number.isFinite(next.latencyMs) || next.latencyMs < 0 || next.latencyMs > 600_000) throw new RangeError('latencyMs must be 0 to 600000');
    if (!Number.isFinite(next.jitterMs) || next.jitterMs < 0 || next.jitterMs > 600_000) throw new RangeError('jitterMs must be 0 to 600000');
    if (!Number.isFinite(next.errorRate) || next.errorRate < 0 || next.errorRate > 1) throw new RangeError('errorRate must be 0 to 1');
    if (next.errorMode !== 'status' && next.errorMode !== 'reset') throw new RangeError('errorMode must be "status" or "reset"');
    if (typeof next.hangReads !== 'boolean') throw new RangeError('hangReads must be true or false');
    if (!Array.isArray(next.hangPaths) || next.hangPaths.some((p) => typeof p !== 'string' || !p.startsWith('/'))) throw new RangeError('hangPaths must be a list of paths starting with /');
    if (!Number.isInteger(next.padBytes) || next.padBytes < 0 || next.padBytes > 1024 ** 3) throw new RangeError('padBytes must be 0 to 1073741824');
    if (typeof next.redirectTo !== 'string' || (next.redirectTo !== '' && !/^https?:\/\/\S+$/i.test(next.redirectTo))) throw new RangeError('redirectTo must be an http(s) URL, or "" for none');
    if (typeof next.throttleReads !== 'boolean' || typeof next.throttleRetryAfterDate !== 'boolean') throw new RangeError('throttleReads and throttleRetryAfterDate must be true or false');
    if (!Number.isInteger(next.throttleRetryAfterSeconds) || next.throttleRetryAfterSeconds < 0 || next.throttleRetryAfterSeconds > 86_400) throw new RangeError('throttleRetryAfterSeconds must be 0 to 86400');
    this.#settings = { ...next, hangPaths: next.hangPaths.map(normalisePath) };
    return this.settings;
  }

  /** The next `count` requests have their connection reset. */
  resetNext(count: number): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
    this.#resetNext = count;
  }

  /** Decides the fate of one request (`method`, `url` as received). */
  next(method = 'GET', url = '/'): FaultDecision {
    const s = this.#settings;
    const delayMs = s.latencyMs + (s.jitterMs > 0 ? this.#rng.next() * s.jitterMs : 0);
    const path = normalisePath(url.split('?')[0] ?? '/');
    const isRead = method.toUpperCase() === 'GET';
    const hang = s.hangPaths.includes(path) || (s.hangReads && isRead && !STILL_ANSWERED.has(path));
    const padBytes = isRead ? s.padBytes : 0;
    if (this.#resetNext > 0) {
      this.#resetNext--;
      return { action: 'reset', delayMs: 0, hang: false, padBytes: 0 };
    }
    if (this.#proxyNext > 0) {
      this.#proxyNext--;
      return { action: 'proxy', proxy: { ...this.#proxy }, delayMs, hang: false, padBytes: 0 };
    }
    if (s.redirectTo) return { action: 'redirect', delayMs, hang: false, padBytes: 0 };
    if (s.throttleReads && isRead && !STILL_ANSWERED.has(path)) return { action: 'throttle', delayMs, hang: false, padBytes: 0 };
    if (s.errorRate > 0 && this.#rng.next() < s.errorRate) return { action: s.errorMode === 'reset' ? 'reset' : 'error', delayMs, hang: false, padBytes: 0 };
    return { action: 'pass', delayMs, hang, padBytes };
  }
}

/** Lower case, no trailing slash: how the service matches paths. */
function normalisePath(path: string): string {
  const p = path.toLowerCase().replace(/\/+$/, '');
  return p === '' ? '/' : p;
}
