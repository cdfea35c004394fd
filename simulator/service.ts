import type { IncomingHttpHeaders } from 'node:http';
import { OPERATIONS } from '../app/catalog/index.js';
import type { Group, Operation } from '../app/catalog/index.js';
import { answerText, pagedAnswer } from './answer-dialects.js';
import { parseBody, parseHeaders, parseQuery } from './args.js';
import type { Clock } from './clock.js';
import { ApiFailure, AuthFailure, fail, SessionTimeout, unauthorized } from './errors.js';
import { EMPTY } from './handlers/context.js';
import type { Ctx, Handler } from './handlers/context.js';
import type { FleetState, Session, SiteState, SystemState, UserState } from './state/model.js';
import { LEVEL, notify } from './state/notifications.js';
import type { NotifyInput } from './state/notifications.js';
import { tick } from './state/tick.js';

export interface SiteRequest {
  readonly method: string;
  /** Request target as sent: path plus optional query string. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface SiteResponse {
  readonly status: 200 | 204 | 206 | 400 | 401 | 404 | 440;
  /** Paging headers of a list answer: `Content-Range` of a 206 (`partial-content`), `Link` and `X-Total-Count` (`link-header-paging`). */
  readonly pagingHeaders?: Readonly<Record<string, string>>;
  /** JSON text, or undefined for an empty 200. */
  readonly body: string | undefined;
  /** Media type of the body when it is not plain `application/json` (a problem-details 400). */
  readonly contentType?: string;
}

/** Catalog routes: lower-cased path → method → operation. Built from OPERATIONS, never restated. */
const ROUTES = new Map<string, Map<string, Operation>>();
for (const op of OPERATIONS) {
  const path = op.path.toLowerCase();
  const byMethod = ROUTES.get(path) ?? new Map<string, Operation>();
  byMethod.set(op.method, op);
  ROUTES.set(path, byMethod);
}

const MODULE_OF: Record<Group, string> = {
  applications: 'Applications', nodes: 'Nodes', resources: 'Hardware', replication: 'Replication', templates: 'Templates', hosts: 'Hosts',
  floatingips: 'Network', nas_servers: 'NAS', users: 'Users', monitoring: 'Monitoring', settings: 'Settings', systems: 'Systems',
  version: 'Management', workflows: 'Management', hypervisor: 'Hypervisor', notifications: 'Notifications', login: 'Authentication',
  configurations: 'Management',
};

export function moduleOf(op: Operation): string {
  return MODULE_OF[op.group];
}

const json = (status: SiteResponse['status'], value: unknown): SiteResponse => ({ status, body: JSON.stringify(value) });

function splitTarget(url: string): { path: string; search: URLSearchParams } {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  let path = rawPath;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // Keep the raw text: a bad escape simply matches no operation.
  }
  path = path.toLowerCase();
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return { path, search: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
}

/** Role rules (the document leaves them unshown): Viewer reads only; Operator may not change users or settings. */
function checkPermission(op: Operation, user: UserState): void {
  if (!op.writes) return;
  if (user.role === 'Viewer') fail(`Permission denied: user '${user.name}' has role Viewer, which may only read.`);
  if (user.role === 'Operator' && (op.group === 'users' || op.group === 'settings'))
    fail(`Permission denied: user '${user.name}' has role Operator, which cannot change users or settings.`);
}

/** One management endpoint: routing, authentication, validation and dispatch for one site. */
export class SiteService {
  constructor(
    private readonly fleet: FleetState,
    readonly site: SiteState,
    private readonly clock: Clock,
    private readonly handlers: ReadonlyMap<string, Handler>,
  ) {}

  /** Never throws: every failure becomes a 400 or 401 string. */
  async handle(req: SiteRequest): Promise<SiteResponse> {
    try {
      return await this.#dispatch(req);
    } catch (e) {
      if (e instanceof AuthFailure) return json(401, e.message);
      if (e instanceof SessionTimeout) return { status: 440, body: 'Login Time-out', contentType: 'text/plain; charset=utf-8' };
      // A bug in a handler must still look like the service's own failure, never a 5xx.
      return this.#refusal(e instanceof ApiFailure ? e.message : `Internal error: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  async #dispatch(req: SiteRequest): Promise<SiteResponse> {
    const { path, search } = splitTarget(req.url);
    const byMethod = ROUTES.get(path);
    if (!byMethod) return json(404, `No operation at '${path}'.`);
    const op = byMethod.get(req.method.toUpperCase());
    if (!op) fail(`The requested resource does not support http method '${req.method.toUpperCase()}'.`);
    const handler = this.handlers.get(op.key);
    if (!handler) fail(`Operation ${op.key} is not available.`);

    const nowMs = this.clock.now();
    tick(this.site, nowMs);
    const session = op.authenticated ? this.#authenticate(req.headers, nowMs) : undefined;
    const user = session ? this.site.users.find((u) => u.name === session.user) : undefined;
    if (op.authenticated && !user) unauthorized('The user of this session no longer exists.');
    if (user) checkPermission(op, user);

    const query = parseQuery(op, search);
    const headers = parseHeaders(op, req.headers);
    const contentType = req.headers['content-type'];
    const body = parseBody(op, req.body, Array.isArray(contentType) ? contentType[0] : contentType);
    const system = this.#systemOf(session);
    const site = this.site;
    const ctx: Ctx = {
      op,
      query,
      body,
      headers,
      fleet: this.fleet,
      site,
      system,
      session,
      user,
      nowMs,
      wait: (ms: number) => this.clock.wait(ms),
      audited: false,
      notify: (input: NotifyInput) => void notify(system, site.customer, nowMs, withUser(input, user)),
      notifyOn: (other: SystemState, input: NotifyInput) => void notify(other, site.customer, nowMs, withUser(input, user)),
    };
    const result = await handler(ctx);
    if (op.writes && !ctx.audited) {
      const message = typeof result === 'string' ? result : `${op.summary}.`;
      ctx.notify({ level: LEVEL.info, module: moduleOf(op), message });
    }
    if (result === EMPTY || op.response.kind === 'empty') return { status: 200, body: undefined };
    // Dialect no-content-lists: an empty list is "204 No Content", as REST services often answer one.
    if (this.fleet.dialects.has('no-content-lists') && op.response.kind === 'list' && isEmptyList(result)) return { status: 204, body: undefined };
    const paged = pagedAnswer(this.fleet.dialects, op, result);
    const pagingHeaders = paged.headers ? { pagingHeaders: paged.headers } : {};
    return { status: paged.status ?? 200, body: answerText(this.fleet.dialects, op, paged.value), ...pagingHeaders };
  }

  /** A 400: the document's plain string, or an RFC 7807 problem (dialect problem-details). */
  #refusal(message: string): SiteResponse {
    if (!this.fleet.dialects.has('problem-details')) return json(400, message);
    const problem = { type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1', title: 'The request was refused.', status: 400, detail: message };
    return { status: 400, body: JSON.stringify(problem), contentType: 'application/problem+json; charset=utf-8' };
  }

  #authenticate(headers: IncomingHttpHeaders, nowMs: number): Session {
    const auth = headers.authorization;
    const raw = this.fleet.dialects.has('raw-token');
    // Dialect raw-token: the header is the token itself, and a Bearer scheme is an unknown token.
    const m = typeof auth === 'string' ? (raw ? /^\s*(.+?)\s*$/ : /^Bearer\s+(\S+)\s*$/i).exec(auth) : null;
    if (!m) unauthorized(raw ? 'Authorization header with the session token is required.' : 'Authorization header with a Bearer session token is required.');
    const token = m[1] as string;
    if (raw && /^Bearer\s/i.test(token)) {
      // As such a system's audit log would: a header in the scheme it does not take.
      notify(this.site.systems[0] as SystemState, this.site.customer, nowMs, { level: LEVEL.warning, module: 'Authentication', message: 'Refused an Authorization header with the Bearer scheme: this system takes the session token alone.' });
    }
    // Dialect expired-400: a session that ended is refused with a 400 in words, not a 401.
    // Dialect expired-440: IIS's "Login Time-out", a status of its own with a plain-text body.
    const ended: (message: string) => never = this.fleet.dialects.has('expired-440')
      ? () => {
          throw new SessionTimeout();
        }
      : this.fleet.dialects.has('expired-400')
        ? (message) => fail(`Session expired. Please log in again. (${message})`)
        : unauthorized;
    const session = this.site.sessions.get(token);
    if (!session) ended('Invalid or expired session token.');
    if (nowMs - session.lastSeenMs > session.timeoutMs) {
      this.site.sessions.delete(token);
      ended(`Session expired after ${Math.round(session.timeoutMs / 60_000)} minutes of inactivity.`);
    }
    session.lastSeenMs = nowMs;
    return session;
  }

  #systemOf(session: Session | undefined): SystemState {
    const chosen = session ? this.site.systems.find((s) => s.id === session.systemId) : undefined;
    return chosen ?? (this.site.systems[0] as SystemState);
  }
}

function withUser(input: NotifyInput, user: UserState | undefined): NotifyInput {
  return user ? { ...input, properties: { User: user.name, ...input.properties } } : input;
}

function isEmptyList(result: unknown): boolean {
  return typeof result === 'object' && result !== null && Array.isArray((result as { Data?: unknown }).Data) && (result as { Data: unknown[] }).Data.length === 0;
}
