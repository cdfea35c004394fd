import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { BATCH_PATH, batchCalls, joinAnswers, MAX_BATCH } from '../../app/ipc/batch.js';
import { EVENT_NAMES, STATUS_SEQ_HEADER } from '../../app/ipc/channels.js';
import type { EventName, EventPayload } from '../../app/ipc/contract.js';
import type { dispatch, Handlers } from '../ipc/handlers.js';
import { answerJson } from '../ipc/raw-json.js';
import { CONTENT_SECURITY_POLICY } from './csp.js';

export interface BrowserShellOptions {
  handlers: Handlers;
  /** Folder of the built renderer (index.html and assets). */
  rendererDir: string;
  port?: number;
  /** Fixed token for tests; a random one otherwise. */
  token?: string;
  /** Subscribes the shell to main's events; returns the unsubscribe function. */
  subscribe: (emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void) => () => void;
}

export interface BrowserShell {
  /** The URL to open, with the access token. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const TOKEN_HEADER = 'x-fleetdeck-token';

let handlersImport: Promise<{ dispatch: typeof dispatch }> | undefined;
/**
 * The dispatcher's module, imported with the first call (not with the shell: the page is served
 * while main's core loads) and then kept: an `import()` per call asks the module loader again each
 * time, a trip to its thread when loader hooks are registered. A failed import is asked again by
 * the next call.
 */
function handlersModule(): Promise<{ dispatch: typeof dispatch }> {
  handlersImport ??= import('../ipc/handlers.js').catch((err: unknown) => {
    handlersImport = undefined;
    throw err;
  });
  return handlersImport;
}
/** How the hashed `/assets/*` files may be kept: a year, never revalidated (a new build has new names). */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';
const MAX_BODY = 2 * 1024 * 1024;
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/**
 * The same handlers as the Electron window, served to the same renderer bundle on loopback only.
 * The random access token opens the page once (`/?token=…`, which the page then removes from its
 * address) and from then on lives only in that page's memory, sent as a header on every call and
 * on the event stream. It is never a cookie: cookies ignore ports, so any other web server on
 * 127.0.0.1 would receive it. The bundle's scripts and styles are public (they hold no secret);
 * Host and Origin must be this loopback address (no DNS rebinding, no cross-site calls).
 */
export async function startBrowserShell(options: BrowserShellOptions): Promise<BrowserShell> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBuf = Buffer.from(token);
  const sseClients = new Set<ServerResponse>();
  let port = 0;
  /** Status events sent so far; each one's number is its SSE `id`. */
  let statusSeq = 0;
  /**
   * Each system's last status event, in the order they were sent (oldest first): what a stream
   * opened after a `fleet:status` answer replays of what came after it. A status event is the whole
   * status of its system, so the last one is that system's status now, and one per system is enough
   * (at most one per system the window's scope has).
   */
  const lastStatus = new Map<string, { seq: number; frame: string }>();

  const validToken = (candidate: string | undefined): boolean => {
    if (!candidate) return false;
    const c = Buffer.from(candidate);
    return c.length === tokenBuf.length && timingSafeEqual(c, tokenBuf);
  };
  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = (): Set<string> => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'internal error');
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (!allowedHosts().has(req.headers.host ?? '')) return send(res, 403, 'text/plain', 'forbidden host');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) return send(res, 403, 'text/plain', 'forbidden origin');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const api = url.pathname.startsWith('/ipc/') || url.pathname === '/events';
    // Calls and events: the header only, never the URL (logs, history) nor a cookie (other ports).
    if (api && !validToken(headerValue(req, TOKEN_HEADER))) return send(res, 401, 'text/plain', 'a valid access token is required');

    if (url.pathname.startsWith('/ipc/')) {
      if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');
      // Taken before any handler runs: a status event sent while it answers is replayed too, harmlessly.
      res.setHeader(STATUS_SEQ_HEADER, String(statusSeq));
      // A JSON content type cannot be sent cross-site without a preflight, which we never answer.
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, 'text/plain', 'application/json only');
      let payload: unknown;
      try {
        const text = await readBody(req);
        payload = text ? JSON.parse(text) : {};
      } catch (err) {
        if (url.pathname === BATCH_PATH) return send(res, 400, 'text/plain', `malformed batch: ${(err as Error).message}`);
        return sendJson(res, 200, { ok: false, error: { code: 'validation', message: `malformed request: ${(err as Error).message}` } });
      }
      // answerJson: a cached answer's JSON text goes out as stored, not parsed and re-serialised.
      if (url.pathname === BATCH_PATH) {
        // Several calls in one request (the first frame's reads): each dispatched as if it came alone,
        // all at once, and each envelope's text answered as a single call's would be.
        const calls = batchCalls(payload);
        if (!calls) return send(res, 400, 'text/plain', `a batch is a JSON array of 1 to ${MAX_BATCH} [channel, request] pairs`);
        const { dispatch } = await handlersModule();
        const answers = await Promise.all(calls.map(async ([channel, request]) => answerJson(await dispatch(options.handlers, channel, request))));
        return send(res, 200, 'text/plain; charset=utf-8', joinAnswers(answers));
      }
      const channel = decodePath(url.pathname.slice('/ipc/'.length));
      if (channel === undefined) return sendJson(res, 200, { ok: false, error: { code: 'unknown-channel', message: 'unknown channel (the name does not decode)' } });
      const { dispatch } = await handlersModule();
      return send(res, 200, 'application/json; charset=utf-8', answerJson(await dispatch(options.handlers, channel, payload)));
    }
    if (url.pathname === '/events') {
      if (req.method !== 'GET') return send(res, 405, 'text/plain', 'GET only');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      // What the page's `fleet:status` answer (or the stream it had before) did not see, then live.
      const after = Number(headerValue(req, 'last-event-id') ?? NaN);
      if (Number.isSafeInteger(after) && after < statusSeq) {
        for (const { seq, frame } of lastStatus.values()) if (seq > after) res.write(frame);
      }
      sseClients.add(res);
      req.on('close', () => sseClients.delete(res));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed');
    if (url.pathname === '/' || url.pathname === '/index.html') {
      // The page opens only with the token; without one (a reload, a bookmark) it says how to reopen.
      const presented = url.searchParams.get('token');
      if (presented === null) return sendHtml(res, 401, REOPEN_PAGE);
      if (!validToken(presented)) return send(res, 401, 'text/plain', 'this access token is not valid: open the address Fleetdeck printed when it started');
    }
    return serveStatic(url.pathname, res);
  }

  const root = resolve(options.rendererDir);
  /**
   * The bundle's assets, each read once and then answered from memory in one write: reading per
   * request is a stat, an open, reads and a close, each a trip through libuv's thread pool, which
   * a busy machine makes slow even for a small module. Their names carry their content's hash,
   * so a kept copy cannot be stale. index.html, whose content changes with a rebuild, is read each
   * time, in one synchronous call: a small file in the page cache, read in well under a millisecond,
   * where the window's first request would wait for those trips before anything else can start.
   */
  const assets = new Map<string, Promise<Buffer | undefined>>();
  const readAsset = (file: string, keep: boolean): Promise<Buffer | undefined> => {
    const kept = assets.get(file);
    if (kept) return kept;
    if (!keep) return Promise.resolve(readNow(file));
    const read = readFile(file).catch(() => undefined);
    assets.set(file, read);
    // A file missing now may be written later (a build in progress): ask the disk again next time.
    void read.then((b) => (b === undefined ? assets.delete(file) : undefined));
    return read;
  };

  /** The renderer file a path names, or the status to refuse it with. */
  function resolveStatic(pathname: string): { file: string } | { status: number; message: string } {
    const decoded = decodePath(pathname);
    if (decoded === undefined) return { status: 400, message: 'bad path' };
    const rel = pathname === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
    const file = normalize(join(root, rel));
    if (!file.startsWith(root + sep) && file !== root) return { status: 403, message: 'forbidden path' };
    // Source maps are for developers with the sources, not for whoever can reach this port.
    if (extname(file) === '.map') return { status: 404, message: 'not found' };
    return { file };
  }

  async function serveStatic(pathname: string, res: ServerResponse): Promise<void> {
    const target = resolveStatic(pathname);
    if ('status' in target) return send(res, target.status, 'text/plain', target.message);
    const { file } = target;
    const hashed = file.startsWith(join(root, 'assets') + sep);
    const body = await readAsset(file, hashed);
    if (body === undefined) return send(res, 404, 'text/plain', 'not found');
    const type = MIME[extname(file)] ?? 'application/octet-stream';
    // The bundle's assets carry their content's hash in their names, so a window opened again (a
    // desk's browser, the same --port) may keep them, and Chromium its compiled code with them;
    // index.html, which names this build's assets, is never kept.
    const headers: Record<string, string> = { 'content-type': type, 'content-length': String(body.length), 'cache-control': hashed ? ASSET_CACHE : 'no-store' };
    if (type.startsWith('text/html')) headers['content-security-policy'] = CONTENT_SECURITY_POLICY;
    res.writeHead(200, headers);
    res.end(body);
  }

  /** Reads the assets index.html names (the first frame's scripts and stylesheet) before the page asks. */
  async function prefetchFirstAssets(): Promise<void> {
    const html = await readFile(join(root, 'index.html'), 'utf8').catch(() => '');
    for (const m of html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"?#]+)"/g)) {
      const target = resolveStatic(`/${m[1] ?? ''}`);
      if ('file' in target) void readAsset(target.file, true);
    }
  }

  const heartbeat = setInterval(() => {
    for (const c of sseClients) c.write(': keep-alive\n\n');
  }, 15_000);
  heartbeat.unref();

  const unsubscribe = options.subscribe((event, payload) => {
    if (!(EVENT_NAMES as readonly string[]).includes(event)) return;
    let frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    if (event === 'fleet:status') {
      const status = payload as EventPayload<'fleet:status'>;
      const seq = ++statusSeq;
      frame = `id: ${seq}\n${frame}`;
      const key = `${status.siteId}\u0000${status.system}`;
      // Deleted first, so the map stays in the order the events were sent.
      lastStatus.delete(key);
      lastStatus.set(key, { seq, frame });
    }
    for (const c of sseClients) c.write(frame);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  void prefetchFirstAssets();
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    close: async () => {
      clearInterval(heartbeat);
      unsubscribe();
      for (const c of sseClients) c.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A percent-decoded path, or undefined when its escapes are malformed (a client error, not a server one). */
function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('request too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A file's bytes, or undefined when it cannot be read (missing, a folder). */
function readNow(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Answers `body`, encoded once: its length and the bytes written come from the same pass (a first-frame answer is 1 MB). */
function send(res: ServerResponse, status: number, type: string, body: string): void {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { 'content-type': type, 'content-length': bytes.length });
  res.end(bytes);
}

/** What a reload (or any visit without the token) shows: the token lived only in the page that was opened. */
const REOPEN_PAGE = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>Fleetdeck: open the address again</title>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>Open Fleetdeck from its address</h1>
<p>This window's access token is kept only in the page that was opened, never in a cookie or the
address bar, so a reload, a bookmark or a new tab cannot use it.</p>
<p>Open the address Fleetdeck printed when it started (<code>http://127.0.0.1:…/?token=…</code>,
on the line after "Open Fleetdeck in your browser") again.</p>
</body></html>
`;

function sendHtml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body), 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'", 'cache-control': 'no-store' });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}
