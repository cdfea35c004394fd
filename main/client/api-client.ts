import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { contentRangeTotal, headerPaging } from '../../app/answers/incomplete.js';
import type { AnswerContext } from '../../app/answers/normalise.js';
import {
  buildBody,
  buildQuery,
  coerceScalar,
  getOperation,
  ValidationError,
  type BodyOf,
  type HeadersOf,
  type OperationKey,
  type QueryOf,
  type ResultOf,
  type AuthenticationResult,
  type Operation,
} from '../../app/catalog/index.js';
import { readAnswerJson, type AnswerJson } from '../../app/answers/json-text.js';
import { maskAnswerSecrets, maskSecrets, secretValues } from '../../app/redact.js';
import { normalisedAnswer } from './answer.js';
import {
  AnswerTooLargeError,
  ApiError,
  AuthError,
  CancelledError,
  CertificateError,
  ClientError,
  ProtocolError,
  RedirectError,
  TransientHttpError,
  UnreachableError,
} from './errors.js';
import { tlsConnector, type TlsTrust } from './tls.js';
import { exchangeOnce, formatBytes, isExchangeTimeout, type ByteBudget, type WireAnswer } from './wire-answer.js';
import { bodyText, decodeContent, isJsonText, pageSummary, parseRetryAfter, serverMessage } from './wire-body.js';
import { outcomeOf, selfMetrics } from '../metrics/self-metrics.js';

/**
 * How the session token goes in the Authorization header: `bearer` is the document's
 * `Bearer <token>`; `raw` the token alone, as some systems want it.
 */
export type TokenScheme = 'bearer' | 'raw';

export type { ByteBudget } from './wire-answer.js';

/** Statuses that mean "not now" when their body is not the service's JSON: a proxy or an overloaded front end. */
/** Statuses that only ever mean a session that timed out: 440 (IIS, "Login Time-out"), 419 ("Authentication Timeout"). */
const SESSION_TIMEOUT_STATUSES: ReadonlySet<number> = new Set([419, 440]);
const TRANSIENT_STATUSES = new Set([429, 500, 502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Other refusals a service may answer with its own JSON instead of the document's 400. */
const REFUSAL_STATUSES = new Set([403, 409, 422]);
/** Statuses by which the service itself (in its JSON) asks the client to slow down. */
const THROTTLE_STATUSES = new Set([429, 503]);

export interface ApiClientOptions {
  /** Site base URL; may carry a path prefix (`https://mgmt.example/api`). */
  baseUrl: string;
  /** Default per-request timeout in ms (connect + headers + body). */
  timeoutMs?: number;
  /** Keep-alive connections per site. */
  connections?: number;
  tls?: TlsTrust;
  /** Injected dispatcher (tests); otherwise a keep-alive Pool for this site. */
  dispatcher?: Dispatcher;
  /** Upper bound on a response body, in bytes (after decompression). */
  maxResponseBytes?: number;
  /** Clock for Retry-After dates, ms since the epoch. */
  now?: () => number;
  /** The site's id: each request handed to the network is counted under it with its outcome (`selfMetrics`); unset, none is. */
  siteId?: string;
}

export interface CallOptions {
  /** Query parameters by catalog name (case-insensitive); arrays become repeated keys. */
  query?: Readonly<Record<string, unknown>>;
  /** JSON body, validated against the operation's body fields. */
  body?: unknown;
  /** Header parameters (the datastore's `async`). */
  headers?: Readonly<Record<string, unknown>>;
  /** Session token; required by every operation except login and password reset. */
  token?: string;
  /** How the token is sent (default `bearer`, the document's form). */
  tokenScheme?: TokenScheme;
  /**
   * Other secrets of the site, not sent in this call (its password): masked whole, in any spelling,
   * in the answer and in errors, since a system may repeat them in any text it returns (an event
   * log's "login failed with password …"). Not their prefixes: a password may begin like ordinary
   * text the answer holds.
   */
  mask?: readonly string[];
  timeoutMs?: number;
  /** Cancels the call; when its reason is a client error (a deadline), the call fails with that error. */
  signal?: AbortSignal;
  /** Called right before the request is handed to the network (after validation): from then on it may reach the system. */
  onSend?: () => void;
  /** Shared byte budget (a system's refresh): each answer's bytes are taken from it as they arrive; an answer that would overdraw it is cut off with AnswerTooLargeError and its bytes given back. */
  budget?: ByteBudget;
  /** The answering system's clock, for the times of a 200 answer (see `normaliseAnswer`). */
  clock?: AnswerContext | undefined;
}

/** Call options with the query, body and headers the operation `K` declares. */
export type TypedCallOptions<K extends OperationKey> = Omit<CallOptions, 'query' | 'body' | 'headers'> & {
  query?: QueryOf<K>;
  body?: BodyOf<K>;
  headers?: HeadersOf<K>;
};

/** A validated request, ready for the wire. */
export interface PreparedRequest {
  /** Path with the base URL's prefix and the query string. */
  path: string;
  headers: Record<string, string>;
  payload: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * Deepest nesting an answer may have. The interface's answers are a few levels deep; JSON.parse
 * reads any depth, but everything after it (redaction, the cache's JSON, structured clone) recurses
 * and would fail on a hostile 100,000 levels with "Maximum call stack size exceeded".
 */
export const MAX_ANSWER_DEPTH = 256;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/**
 * Typed client of one management endpoint (site). Validates every call against the catalog before
 * sending, applies the interface's wire rules, and maps failures to ApiError (400), AuthError (401),
 * UnreachableError, ProtocolError and CertificateError.
 */
export class ApiClient {
  readonly baseUrl: URL;
  /** The base URL's path without its trailing slashes, put before every operation's path. */
  private readonly pathPrefix: string;
  /** `baseUrl.origin` and `.host`, read once: URL getters build a new string each time. */
  private readonly origin: string;
  private readonly host: string;
  /** The injected dispatcher, or this site's pool once the first request opened it. */
  private dispatcher: Promise<Dispatcher> | undefined;
  private readonly ownsDispatcher: boolean;
  private closed = false;
  private readonly connections: number;
  private readonly tls: TlsTrust | undefined;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly now: () => number;
  private readonly siteId: string | undefined;

  constructor(options: ApiClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new Error(`"${options.baseUrl}" is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${options.baseUrl}: only http and https are supported`);
    if (url.username || url.password) throw new Error('put credentials in the login, not in the URL');
    this.baseUrl = url;
    this.pathPrefix = url.pathname.replace(/\/+$/, '');
    this.origin = url.origin;
    this.host = url.host;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
    this.now = options.now ?? Date.now;
    this.ownsDispatcher = !options.dispatcher;
    this.connections = options.connections ?? 8;
    this.tls = options.tls;
    this.siteId = options.siteId;
    if (options.dispatcher) this.dispatcher = Promise.resolve(options.dispatcher);
  }

  /**
   * The site's keep-alive pool, opened on the first request: undici is loaded only then, so a
   * start that sends nothing (every site paused, a window reading the cache) does not pay for it.
   */
  private connection(): Promise<Dispatcher> {
    this.dispatcher ??= import('undici').then(({ Pool, buildConnector, errors }) => {
      // Closed before anything was sent: answer as a closed pool does (a network error).
      if (this.closed) throw new errors.ClientClosedError();
      return new Pool(this.origin, {
        connections: this.connections,
        keepAliveTimeout: 10_000,
        connect: tlsConnector(this.tls, this.timeoutMs, buildConnector),
      });
    });
    return this.dispatcher;
  }

  /**
   * Calls one catalog operation and returns its normalised 200 body (`undefined` for empty
   * responses). Named by key, its parameters and answer are typed from the catalog; an operation
   * resolved at run time (the CLI's argument, a console form) answers `unknown`.
   * @throws ValidationError before sending when parameters do not match the catalog.
   */
  async call<K extends OperationKey>(operation: K, options?: TypedCallOptions<K>): Promise<ResultOf<K>>;
  async call(operation: Operation, options?: CallOptions): Promise<unknown>;
  async call(operation: Operation | OperationKey, options: CallOptions = {}): Promise<unknown> {
    const op = typeof operation === 'string' ? getOperation(operation) : operation;
    // Every secret this request carries: a system that echoes one (in its answer or an error)
    // must not get it written into the log, the cache, a terminal or an IPC error.
    const sent = sentSecrets(options);
    try {
      const prepared = this.validate(op, options);
      const headers: Record<string, string> = { accept: 'application/json' };
      for (const name in prepared.headers) headers[name] = prepared.headers[name] as string;
      if (op.authenticated) {
        if (!options.token) throw new AuthError(`${op.key} needs a session: log in first`);
        headers.authorization = options.tokenScheme === 'raw' ? options.token : `Bearer ${options.token}`;
      }
      if (prepared.payload !== undefined) headers['content-type'] = 'application/json-patch+json';
      return await this.send(op, prepared.path, headers, prepared.payload, options, sent);
    } catch (err) {
      if (err instanceof Error && sent.length) err.message = maskSecrets(err.message, sent);
      if (err instanceof Error && options.mask?.length) err.message = maskSecrets(err.message, options.mask, true);
      throw err;
    }
  }

  /**
   * Checks parameters against the catalog and builds the request path, headers and JSON payload.
   * @throws ValidationError naming every problem; nothing is sent.
   */
  validate(op: Operation, options: Pick<CallOptions, 'query' | 'body' | 'headers'>): PreparedRequest {
    const pairs = buildQuery(op, options.query ?? {});
    const body = buildBody(op, options.body);
    const headers: Record<string, string> = {};
    const problems: string[] = [];
    if (options.headers) for (const [name, value] of Object.entries(options.headers)) {
      const field = op.headers.find((h) => h.name.toLowerCase() === name.toLowerCase());
      if (!field || typeof field.type !== 'string') {
        problems.push(`unknown header parameter "${name}"`);
        continue;
      }
      const c = coerceScalar(field.type, value);
      if (c.ok) headers[field.name] = String(c.value);
      else problems.push(`header ${field.name}: ${c.error}`);
    }
    if (problems.length) throw new ValidationError(op.key, problems);
    const search = pairs.length ? new URLSearchParams(pairs).toString() : '';
    return {
      path: `${this.pathPrefix}${op.path}${search ? `?${search}` : ''}`,
      headers,
      payload: body === undefined ? undefined : JSON.stringify(body),
    };
  }

  /**
   * POST /login. Returns the AuthenticationResult (its Status may ask for a second factor).
   * @throws AuthError on 401 (wrong credentials or code).
   */
  async login(credentials: BodyOf<'POST /login'>, options: Pick<CallOptions, 'timeoutMs' | 'signal'> = {}): Promise<AuthenticationResult> {
    return this.call('POST /login', { ...options, body: credentials });
  }

  /** GET /systems/select for this session's token; returns the server's message. */
  async selectSystem(token: string, name: string, options: Pick<CallOptions, 'timeoutMs' | 'signal'> = {}): Promise<string> {
    return this.call('GET /systems/select', { ...options, token, query: { name } });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (!this.ownsDispatcher || !this.dispatcher) return;
    const pool = await this.dispatcher.catch(() => undefined);
    await pool?.close();
  }

  /** One request and its answer, bounded by its timeout, the caller's signal and the byte limits. */
  private async send(op: Operation, path: string, headers: Record<string, string>, payload: string | undefined, options: CallOptions, sent: readonly string[]): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const where = `${this.host} ${op.key}`;
    const signal = options.signal;
    if (signal?.aborted) throw this.mapNetworkError(signal.reason, where, timeoutMs, signal);
    let dispatcher: Dispatcher;
    try {
      dispatcher = await this.connection();
    } catch (err) {
      throw this.mapNetworkError(err, where, timeoutMs, signal);
    }
    options.onSend?.();
    if (this.siteId === undefined) return this.answer(dispatcher, op, path, headers, payload, options, sent, timeoutMs, where);
    try {
      const value = await this.answer(dispatcher, op, path, headers, payload, options, sent, timeoutMs, where);
      selfMetrics.request(this.siteId, 'success');
      return value;
    } catch (err) {
      selfMetrics.request(this.siteId, outcomeOf(err));
      throw err;
    }
  }

  /** The exchange of a request handed to the network, and its answer read. */
  private async answer(dispatcher: Dispatcher, op: Operation, path: string, headers: Record<string, string>, payload: string | undefined, options: CallOptions, sent: readonly string[], timeoutMs: number, where: string): Promise<unknown> {
    const signal = options.signal;
    const budget = options.budget;
    const sentMs = this.now();
    let answer: WireAnswer;
    try {
      answer = await exchangeOnce(
        dispatcher,
        { origin: this.origin, path, method: op.method, headers, body: payload, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
        { timeoutMs, signal, maxBytes: this.maxResponseBytes, budget, where },
      );
    } catch (err) {
      if (err instanceof ProtocolError) throw err;
      throw this.mapNetworkError(err, where, timeoutMs, signal);
    }
    const { status, headers: answered } = answer;
    if (REDIRECT_STATUSES.has(status)) {
      // Not followed, whatever the target: the token (and a login's password) go only to the site's own URL.
      const location = headerValue(answered, 'location') ?? '(no Location given)';
      throw new RedirectError(
        `${where}: the site answered HTTP ${status}, redirecting to ${location}; not followed, since credentials are sent only to the site's own URL. If the endpoint moved, change the site's URL`,
        location,
      );
    }
    const encoding = headerValue(answered, 'content-encoding');
    // Most answers are not compressed: their text is read without another promise.
    let text = encoding ? await this.decodedText(answer.bytes, where, budget, encoding) : bodyText(answer.bytes);
    // "204 No Content" of a list is an empty list, of an operation without an answer its answer; of anything else, no answer.
    const noContent = status === 204 && text.trim() === '' && (op.response.kind === 'list' || op.response.kind === 'empty');
    if (noContent && op.response.kind === 'list') text = '[]';
    if (status === 200 || noContent || (status === 206 && op.response.kind === 'list')) {
      // The service's own answer (a proxy's error page never gets here): its Date is its host's clock.
      const date = options.clock?.onServerDate ? headerValue(answered, 'date') : undefined;
      if (date !== undefined) options.clock?.onServerDate?.(date, sentMs, this.now());
      // A 206 is a part of the list: read, and marked incomplete by the normaliser.
      // Headers may say the same of a 200 (`Link: <…>; rel="next"`, `X-Total-Count`).
      const paged = op.response.kind === 'list' ? headerPaging(headerValue(answered, 'link'), headerValue(answered, 'x-total-count') ?? headerValue(answered, 'x-total')) : undefined;
      const context =
        status === 206
          ? { ...options.clock, partial: { total: contentRangeTotal(headerValue(answered, 'content-range')) ?? paged?.total } }
          : paged
            ? { ...options.clock, partial: { total: paged.total, more: paged.more } }
            : options.clock;
      const value = this.parseSuccess(op, text, where, context);
      // A system may echo what was sent (the session token): masked wherever it shows.
      // And the site's own secrets, which were not sent: whole, as only a whole one can be repeated.
      return maskAnswerSecrets(value, sent, options.mask ?? []);
    }
    if (TRANSIENT_STATUSES.has(status) && !isJsonText(text)) {
      const retryAfterMs = parseRetryAfter(headerValue(answered, 'retry-after'), this.now());
      throw new TransientHttpError(
        `${where}: HTTP ${status} with ${pageSummary(text)}, not the service's answer: something between Fleetdeck and the system (a proxy or load balancer) could not reach it${retryAfterMs !== undefined ? `; it asked to retry after ${Math.ceil(retryAfterMs / 1000)} s` : ''}`,
        status,
        retryAfterMs,
      );
    }
    const message = serverMessage(text) ?? `HTTP ${status}`;
    if (THROTTLE_STATUSES.has(status)) {
      // The service itself asking to slow down: as transient as a proxy's page, and its Retry-After counts.
      const retryAfterMs = parseRetryAfter(headerValue(answered, 'retry-after'), this.now());
      throw new TransientHttpError(
        `${where}: the system is throttling requests (HTTP ${status}: ${message.slice(0, 200)})${retryAfterMs !== undefined ? `; it asked to retry after ${Math.ceil(retryAfterMs / 1000)} s` : ''}`,
        status,
        retryAfterMs,
      );
    }
    if (status === 400) throw new ApiError(message);
    // Not in the document, but unmistakably the service refusing (its JSON, often a problem object).
    if (REFUSAL_STATUSES.has(status) && isJsonText(text)) throw new ApiError(`${message} (HTTP ${status})`, status);
    if (status === 401) throw new AuthError(message);
    // IIS's "Login Time-out" (440) and the "Authentication Timeout" of some frameworks (419): a session
    // that ended, whatever the body, but only on a call that sent one.
    if (SESSION_TIMEOUT_STATUSES.has(status) && headers.authorization !== undefined) throw new AuthError(`the session timed out (HTTP ${status}: ${message.slice(0, 200)})`);
    throw new ProtocolError(`${where}: unexpected HTTP ${status} (${message.slice(0, 200)}): is this a storage management endpoint?`);
  }

  /**
   * An answer's text: its Content-Encoding undone (the decoded size counts against the per-answer
   * limit and the caller's budget) and a UTF-8 byte order mark dropped.
   */
  private async decodedText(wire: Buffer, where: string, budget: ByteBudget | undefined, encoding: string): Promise<string> {
    const size = wire.length;
    const limit = Math.min(this.maxResponseBytes, budget ? budget.remaining + size : Number.MAX_SAFE_INTEGER);
    let decoded: Buffer;
    try {
      decoded = await decodeContent(wire, encoding, limit, where);
    } catch (err) {
      if (budget) budget.remaining += size;
      if ((err as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw err;
      throw limit < this.maxResponseBytes && budget
        ? new AnswerTooLargeError(`${where}: answer (decompressed) larger than what is left of the ${formatBytes(budget.total)} a system's answers may take per refresh, not read`, budget.total)
        : new AnswerTooLargeError(`${where}: answer larger than ${formatBytes(this.maxResponseBytes)} once decompressed, not read`, this.maxResponseBytes);
    }
    // The budget counts what the answer takes once read: its decoded bytes.
    if (budget) budget.remaining -= decoded.length - size;
    return bodyText(decoded);
  }

  private parseSuccess(op: Operation, text: string, where: string, clock: AnswerContext | undefined): unknown {
    if (op.response.kind === 'empty') return undefined;
    let answer: AnswerJson;
    try {
      answer = readAnswerJson(text, MAX_ANSWER_DEPTH);
    } catch {
      throw new ProtocolError(`${where}: the answer is not JSON (${text.slice(0, 80) || 'empty body'})`);
    }
    if (answer.tooDeep) {
      throw new ProtocolError(`${where}: the answer is nested deeper than ${MAX_ANSWER_DEPTH} levels, which no answer of the interface is; it was not read`);
    }
    return normalisedAnswer(op, answer.value, where, clock);
  }

  private mapNetworkError(err: unknown, where: string, timeoutMs: number, callerSignal: AbortSignal | undefined): Error {
    if (callerSignal?.aborted) return callerSignal.reason instanceof ClientError ? callerSignal.reason : new CancelledError(`${where}: cancelled`);
    if (isExchangeTimeout(err)) return new UnreachableError(`${where}: no answer within ${timeoutMs} ms`, 'timeout', { cause: err });
    if (err instanceof CertificateError) return err;
    const e = err as NodeJS.ErrnoException & { cause?: unknown };
    const inner = (e.cause ?? e) as NodeJS.ErrnoException;
    if (inner instanceof CertificateError) return inner;
    const code = inner.code ?? e.code ?? 'unknown';
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/i.test(code)) {
      return new CertificateError(`${where}: the site's certificate is not trusted (${code}); confirm its fingerprint first`, undefined, { cause: err });
    }
    if (NETWORK_CODES.has(code) || e.name === 'AbortError') {
      return new UnreachableError(`${where}: unreachable (${describeCode(code)})`, code, { cause: err });
    }
    return new UnreachableError(`${where}: ${inner.message || e.message || 'request failed'}`, code, { cause: err });
  }
}

/** The secret values a call sends: those under secret fields of its body, query and headers, and its token. */
function sentSecrets(options: CallOptions): string[] {
  const sent = options.body === undefined ? [] : secretValues(options.body);
  if (options.query !== undefined) sent.push(...secretValues(options.query));
  if (options.headers !== undefined) sent.push(...secretValues(options.headers));
  if (options.token) sent.push(options.token);
  return sent;
}

function describeCode(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connect timed out';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return 'timed out';
    default:
      return code;
  }
}

/** One header's value (the first, when repeated). */
function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
