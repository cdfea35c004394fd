import { lookup } from 'node:dns/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { APP_VERSION, type Runtime } from '../runtime.js';
import { CONTENT_TYPES, formatFor } from './exposition.js';
import { FleetMetrics } from './fleet-metrics.js';
import { BasicAuth, readWebConfig, restrictsAccess, type WebConfig } from './web-config.js';

/**
 * The `/metrics` endpoint Prometheus scrapes: the fleet's metrics (`fleet-metrics.ts`) in the
 * OpenMetrics or Prometheus text format, as the scraper's Accept header asks.
 *
 * Where it listens: loopback unless an address is named. An address off loopback is refused unless
 * the web config (exporter-toolkit format, `web-config.ts`) sets TLS and restricts who may read
 * (basic auth, or client certificates verified against a CA): the metrics name every site, system,
 * pool and drive of the fleet, and basic auth without TLS would send its password in clear.
 */

export interface MetricsEndpointOptions {
  /** `ADDR:PORT`, `[IPv6]:PORT`, `:PORT` or `PORT` (the last two on loopback); port 0 takes a free one. */
  listen: string;
  /** A web config file (exporter-toolkit format): TLS and basic auth. */
  webConfigFile?: string;
}

export interface MetricsEndpoint {
  /** The metrics page's URL (`http(s)://host:port/metrics`), with the port actually bound. */
  url: string;
  /** Resolves once the series of every system known now are written (the background work after a start or a poll). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** A listen address or web config that cannot be used; the message says why and what to do. */
export class MetricsEndpointError extends Error {}

/** At most this many password checks at once: each is a tenth of a second of CPU, and anyone who reaches the port can ask for one. */
const MAX_AUTH_CHECKS = 4;

/** The host and port of `ADDR:PORT`; a bare port or `:PORT` is loopback. */
export function parseListen(listen: string): { host: string; port: number } {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(listen.trim()) ?? /^()()(\d{1,5})$/.exec(listen.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || !(port >= 0 && port <= 65535)) throw new MetricsEndpointError(`metrics listen address "${listen}" is not ADDR:PORT (for example 127.0.0.1:9852, [::1]:9852 or :9852 for loopback)`);
  const host = m[1] || m[2] || '127.0.0.1';
  return { host, port };
}

/**
 * Whether a request's Host names this endpoint in a way DNS rebinding cannot: an IP address,
 * `localhost`, or the host it listens on as given. A missing Host (HTTP/1.0) is taken: browsers
 * always send one.
 */
export function hostWithoutRebinding(hostHeader: string | undefined, listenHost: string): boolean {
  if (hostHeader === undefined) return true;
  const m = /^(?:\[([^\]]*)\]|([^:]*))(?::\d*)?$/.exec(hostHeader.trim());
  const name = (m?.[1] ?? m?.[2])?.toLowerCase();
  if (name === undefined || name === '') return false;
  return isIP(name) !== 0 || name === 'localhost' || name === listenHost.toLowerCase();
}

function isLoopbackIp(ip: string): boolean {
  if (isIP(ip) === 4) return ip.startsWith('127.');
  const v6 = ip.toLowerCase();
  return v6 === '::1' || v6.startsWith('::ffff:127.');
}

/** Whether every address `host` names is a loopback one. */
async function isLoopback(host: string): Promise<boolean> {
  if (isIP(host)) return isLoopbackIp(host);
  try {
    const all = await lookup(host, { all: true });
    return all.length > 0 && all.every((a) => isLoopbackIp(a.address));
  } catch {
    throw new MetricsEndpointError(`metrics listen address: the host "${host}" does not resolve`);
  }
}

/**
 * Serves the runtime's metrics on `o.listen` until closed.
 * @throws MetricsEndpointError for an address that cannot be used (malformed, in use, off loopback
 *   without TLS and access control) or a web config that cannot be read; nothing listens then.
 */
export async function startMetricsEndpoint(rt: Runtime, o: MetricsEndpointOptions): Promise<MetricsEndpoint> {
  const { host, port } = parseListen(o.listen);
  let config: WebConfig | undefined;
  try {
    config = o.webConfigFile ? readWebConfig(o.webConfigFile) : undefined;
  } catch (err) {
    throw new MetricsEndpointError(err instanceof Error ? err.message : String(err));
  }
  if (!(await isLoopback(host)) && !(config?.tls && restrictsAccess(config))) {
    throw new MetricsEndpointError(
      `metrics on ${host} (not loopback) need a web config with TLS (tls_server_config) and access control (basic_auth_users, or client_auth_type RequireAndVerifyClientCert): the metrics name every site, system and drive of the fleet`,
    );
  }
  const metrics = new FleetMetrics(rt, { version: APP_VERSION });
  const auth = config?.users ? new BasicAuth(config.users) : undefined;
  const clientAuth = config?.tls?.clientAuth ?? 'NoClientCert';
  let checking = 0;

  const open = !restrictsAccess(config);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    // An endpoint anyone on the machine may read is still no web page's to read: a page that
    // rebinds its own name to 127.0.0.1 reaches it as its own origin, with its name as Host.
    if (open && !hostWithoutRebinding(req.headers.host, host)) return send(res, 403, 'forbidden host: scrape this endpoint by its address, or localhost\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'only GET and HEAD\n', { allow: 'GET, HEAD' });
    if (path !== '/metrics' && path !== '/') return send(res, 404, 'not found: the metrics are at /metrics\n');
    const socket = req.socket as Partial<TLSSocket>;
    if (clientAuth === 'RequireAnyClientCert' || clientAuth === 'VerifyClientCertIfGiven') {
      const cert = socket.getPeerCertificate?.();
      const given = !!cert && Object.keys(cert).length > 0;
      if (clientAuth === 'RequireAnyClientCert' && !given) return send(res, 403, 'a client certificate is required\n');
      if (given && !socket.authorized) return send(res, 403, 'the client certificate is not trusted\n');
    }
    if (auth) {
      if (checking >= MAX_AUTH_CHECKS) return send(res, 429, 'too many authentication attempts at once\n', { 'retry-after': '1' });
      checking++;
      let ok: boolean;
      try {
        ok = await auth.check(req.headers.authorization);
      } finally {
        checking--;
      }
      if (!ok) return send(res, 401, 'unauthorized\n', { 'www-authenticate': 'Basic realm="Fleetdeck metrics", charset="UTF-8"' });
    }
    if (path === '/') return send(res, 200, 'Fleetdeck metrics for Prometheus: /metrics\n');
    const format = formatFor(req.headers.accept);
    const body = metrics.scrape(format);
    const headers: Record<string, string> = { 'content-type': CONTENT_TYPES[format], 'cache-control': 'no-store' };
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      headers['content-encoding'] = 'gzip';
      return send(res, 200, await gzipAsync(body, { level: GZIP_LEVEL }), headers, req.method === 'HEAD');
    }
    return send(res, 200, body, headers, req.method === 'HEAD');
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((err: unknown) => {
      // The cause goes to the monitor's log, not to the scraper: it learns only that the page could not be made.
      process.stderr.write(`fleetdeck: the metrics could not be collected: ${err instanceof Error ? err.message : String(err)}\n`);
      if (!res.headersSent) send(res, 500, 'the metrics could not be collected\n');
      else res.destroy();
    });
  };
  const tls = config?.tls;
  const server: Server = tls
    ? createHttpsServer(
        {
          cert: tls.cert,
          key: tls.key,
          ...(tls.ca ? { ca: tls.ca } : {}),
          requestCert: clientAuth !== 'NoClientCert',
          rejectUnauthorized: clientAuth === 'RequireAndVerifyClientCert',
          minVersion: tls.minVersion,
          ...(tls.maxVersion ? { maxVersion: tls.maxVersion } : {}),
        },
        listener,
      )
    : createHttpServer(listener);
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  await new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException): void => {
      reject(new MetricsEndpointError(`metrics cannot listen on ${o.listen}: ${err.code === 'EADDRINUSE' ? 'the address is in use' : err.code === 'EACCES' ? 'permission denied (ports below 1024 need privileges)' : err.code === 'EADDRNOTAVAIL' ? 'no interface has this address' : err.message}`));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  metrics.start();
  const bound = server.address() as AddressInfo;
  const shown = bound.family === 'IPv6' || bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  return {
    url: `${tls ? 'https' : 'http'}://${shown}:${bound.port}/metrics`,
    ready: () => metrics.ready(),
    close: () =>
      new Promise<void>((resolve) => {
        metrics.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const gzipAsync = promisify(gzip);
/** A third of the default level's CPU for a page about 15 % larger: the page is repetitive text, sent every scrape. */
const GZIP_LEVEL = 1;

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}, headOnly = false): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers, 'content-length': String(bytes.length) });
  res.end(headOnly ? undefined : bytes);
}
