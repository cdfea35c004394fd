import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Dialect } from './dialects.js';
import { INJECTED_ERROR } from './faults.js';
import type { FaultDecision, FaultSettings, ProxyErrors, SiteFaults } from './faults.js';
import type { SiteService } from './service.js';
import type { ServerCertificate } from './tls.js';

export interface SiteServerOptions {
  readonly host: string;
  /** 0 picks a free port on first start; later starts reuse the port first bound. */
  readonly port: number;
  readonly certificate: ServerCertificate | undefined;
  readonly service: SiteService;
  readonly faults: SiteFaults;
  /** Bodies above this size are refused with 400. */
  readonly maxBodyBytes: number;
  /** Whether a dialect is on now (they change at run time). */
  readonly dialect: (name: Dialect) => boolean;
  /** How injected latency is waited (the simulator clock's wait). */
  readonly wait: (ms: number) => Promise<void>;
  /** The system's clock (ms): what its answers' HTTP `Date` says, as a real host's clock does. */
  readonly now?: () => number;
}

/** The reason phrases of the statuses a proxy page carries. */
const REASONS: Readonly<Record<number, string>> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** What a reverse proxy (nginx-like) answers when the service behind it cannot: an HTML page, never JSON. */
function sendProxyPage(res: ServerResponse, page: ProxyErrors, nowMs: number): void {
  if (res.headersSent || res.destroyed) return;
  const reason = REASONS[page.status] ?? 'Error';
  const body = `<html>\r\n<head><title>${page.status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${page.status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  const headers: Record<string, string | number> = { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(body), Server: 'nginx' };
  if (page.retryAfterSeconds !== undefined) {
    headers['Retry-After'] = page.date ? new Date(nowMs + page.retryAfterSeconds * 1000).toUTCString() : String(page.retryAfterSeconds);
  }
  res.writeHead(page.status, headers);
  res.end(body);
}

/** A rate-limited service's own refusal (fault `throttleReads`): 429 with its JSON message and Retry-After when set. */
function sendThrottled(res: ServerResponse, s: Readonly<FaultSettings>, nowMs: number): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify('Too many requests: the request rate limit was exceeded. Try again later.');
  const headers: Record<string, string | number> = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) };
  if (s.throttleRetryAfterSeconds > 0) {
    headers['Retry-After'] = s.throttleRetryAfterDate ? new Date(nowMs + s.throttleRetryAfterSeconds * 1000).toUTCString() : String(s.throttleRetryAfterSeconds);
  }
  res.writeHead(429, headers);
  res.end(body);
}

/** The compressed answer of dialect `compressed`: a UTF-8 BOM, then br, deflate or gzip by path. */
function compressedAnswer(url: string, body: string): { encoding: string; bytes: Buffer } {
  const path = (url.split('?')[0] ?? '').toLowerCase().replace(/\/+$/, '');
  const text = Buffer.from(`\uFEFF${body}`, 'utf8');
  if (path.endsWith('/drives/smart')) return { encoding: 'br', bytes: brotliCompressSync(text) };
  if (path.endsWith('/list')) return { encoding: 'deflate', bytes: deflateSync(text) };
  return { encoding: 'gzip', bytes: gzipSync(text) };
}

/** One MiB of spaces: padding (see FaultSettings.padBytes) is streamed from it, never built whole. */
const PADDING = Buffer.alloc(1024 * 1024, 0x20);

/** Bodies are drained up to this size before the 400 is sent; larger uploads are cut off. */
const MAX_DRAIN_BYTES = 32 * 1024 * 1024;

function send(res: ServerResponse, status: number, body: string | undefined, contentType = 'application/json; charset=utf-8', compress?: string, extra?: Readonly<Record<string, string>>): void {
  if (res.headersSent || res.destroyed) return;
  if (body !== undefined && compress !== undefined) {
    const packed = compressedAnswer(compress, body);
    res.writeHead(status, { 'Content-Length': packed.bytes.length, 'Content-Type': contentType, 'Content-Encoding': packed.encoding, ...extra });
    res.end(packed.bytes);
    return;
  }
  const headers: Record<string, string | number> = { 'Content-Length': body === undefined ? 0 : Buffer.byteLength(body), ...extra };
  if (body !== undefined) headers['Content-Type'] = contentType;
  res.writeHead(status, headers);
  res.end(body);
}

/** A 200 answer followed by `padBytes` spaces, streamed with backpressure. */
function sendPadded(res: ServerResponse, body: string, padBytes: number): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, { 'Content-Length': Buffer.byteLength(body) + padBytes, 'Content-Type': 'application/json; charset=utf-8' });
  res.write(body);
  let left = padBytes;
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const n = Math.min(left, PADDING.length);
      left -= n;
      if (!res.write(n === PADDING.length ? PADDING : PADDING.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** Literal host for URLs: IPv6 in brackets; wildcard binds are reached through loopback. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The HTTP(S) endpoint of one site. It can be stopped (listening socket and every connection
 * closed) and started again on the same port, and its certificate can be replaced in place.
 */
export class SiteServer {
  #server: Server | undefined;
  #port: number;
  #certificate: ServerCertificate | undefined;
  readonly #sockets = new Set<Socket>();
  /** Requests received, answered or not: lets tests see what a client sent (and did not). */
  #requests = 0;
  #inFlight = 0;
  #peakInFlight = 0;

  constructor(private readonly options: SiteServerOptions) {
    this.#port = options.port;
    this.#certificate = options.certificate;
  }

  get port(): number {
    return this.#port;
  }

  /** Request counters: total received, being handled now, and the most at once since the last reset. */
  get load(): { requests: number; inFlight: number; peakInFlight: number } {
    return { requests: this.#requests, inFlight: this.#inFlight, peakInFlight: this.#peakInFlight };
  }

  resetPeak(): void {
    this.#peakInFlight = this.#inFlight;
  }

  get running(): boolean {
    return this.#server !== undefined;
  }

  get baseUrl(): string {
    return `${this.#certificate ? 'https' : 'http'}://${urlHost(this.options.host)}:${this.#port}`;
  }

  get certificateSha256(): string | undefined {
    return this.#certificate?.sha256;
  }

  async start(): Promise<void> {
    if (this.#server) return;
    const handler = (req: IncomingMessage, res: ServerResponse): void => this.#onRequest(req, res);
    const cert = this.#certificate;
    const server: Server = cert ? createHttpsServer({ key: cert.key, cert: cert.cert }, handler) : createHttpServer(handler);
    server.keepAliveTimeout = 30_000;
    server.headersTimeout = 35_000;
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    // Malformed HTTP gets a 400 string too (Node's default would answer 431 for oversized headers).
    server.on('clientError', (err: Error, socket: Socket) => {
      if (socket.writable && !('code' in err && err.code === 'ECONNRESET')) {
        const body = JSON.stringify('Bad request: the HTTP request could not be parsed.');
        socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      } else {
        socket.destroy();
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, this.options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    if (address && typeof address === 'object') this.#port = address.port;
    this.#server = server;
  }

  /** Closes the listening socket and drops every open connection. */
  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    this.dropConnections();
    await closed;
  }

  dropConnections(): void {
    for (const s of this.#sockets) s.destroy();
    this.#sockets.clear();
  }

  /** Serves a new certificate from now on; open connections are dropped so clients see it at once. */
  setCertificate(certificate: ServerCertificate): void {
    if (!this.#certificate) throw new Error('this site serves plain HTTP; start the simulator with TLS to change certificates');
    this.#certificate = certificate;
    const server = this.#server as (Server & { setSecureContext?: (o: { key: string; cert: string }) => void }) | undefined;
    server?.setSecureContext?.({ key: certificate.key, cert: certificate.cert });
    this.dropConnections();
  }

  #onRequest(req: IncomingMessage, res: ServerResponse): void {
    this.#requests++;
    this.#inFlight++;
    this.#peakInFlight = Math.max(this.#peakInFlight, this.#inFlight);
    res.once('close', () => this.#inFlight--);
    const decision = this.options.faults.next(req.method, req.url);
    if (decision.action === 'reset') {
      req.socket.destroy();
      return;
    }
    const action = decision.action;
    const max = this.options.maxBodyBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) {
        req.socket.destroy();
        return;
      }
      if (size <= max) chunks.push(chunk);
    });
    req.on('error', () => req.socket.destroy());
    req.on('end', () => {
      void this.#respond(req, res, decision, action, size > max ? undefined : Buffer.concat(chunks).toString('utf8'));
    });
  }

  async #respond(req: IncomingMessage, res: ServerResponse, decision: FaultDecision, action: Exclude<FaultDecision['action'], 'reset'>, body: string | undefined): Promise<void> {
    try {
      if (decision.delayMs > 0) await this.options.wait(decision.delayMs);
      // `no-clock-hints`: no Date header at all (Node writes one unless told not to).
      if (this.options.dialect('no-clock-hints')) res.sendDate = false;
      else if (this.options.now && !res.headersSent) res.setHeader('Date', new Date(this.options.now()).toUTCString());
      if (action === 'proxy' && decision.proxy) return sendProxyPage(res, decision.proxy, Date.now());
      if (action === 'redirect') {
        if (res.headersSent || res.destroyed) return;
        res.writeHead(307, { Location: this.options.faults.settings.redirectTo, 'Content-Length': 0 });
        res.end();
        return;
      }
      if (action === 'error') return send(res, 400, JSON.stringify(INJECTED_ERROR));
      if (action === 'throttle') return sendThrottled(res, this.options.faults.settings, Date.now());
      if (body === undefined) return send(res, 400, JSON.stringify(`Request body too large: at most ${this.options.maxBodyBytes} bytes.`));
      const out = await this.options.service.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
      // Handled (a write took effect), but the answer never leaves: the client waits until it gives up.
      if (decision.hang) return;
      if (decision.padBytes > 0 && out.status === 200 && out.body !== undefined) return sendPadded(res, out.body, decision.padBytes);
      send(res, out.status, out.body, out.contentType, this.options.dialect('compressed') ? (req.url ?? '/') : undefined, out.pagingHeaders);
    } catch (e) {
      send(res, 400, JSON.stringify(`Internal error: ${e instanceof Error ? e.message : String(e)}`));
    }
  }
}
