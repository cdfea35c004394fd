import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Responder = (req: Recorded, res: ServerResponse) => void;

/** A certificate and its key, PEM. */
export interface ServerCert {
  key: string;
  cert: string;
}

/** An HTTP (or, given a certificate, HTTPS) server that records every request and answers with a scripted responder. */
export class RecordingServer {
  readonly requests: Recorded[] = [];
  responder: Responder = (_req, res) => json(res, 200, 'ok');
  private server: Server | HttpsServer;
  private readonly sockets = new Set<Socket>();
  private readonly scheme: 'http' | 'https';

  constructor(options: { tls?: ServerCert } = {}) {
    this.scheme = options.tls ? 'https' : 'http';
    const handler = (req: IncomingMessage, res: ServerResponse): void => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rec = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.requests.push(rec);
        this.responder(rec, res);
      });
    };
    this.server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler) : createServer(handler);
    this.server.on(options.tls ? 'secureConnection' : 'connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `${this.scheme}://127.0.0.1:${this.port}`;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Presents another certificate from now on (HTTPS only); open connections are dropped. */
  setCertificate(tls: ServerCert): void {
    (this.server as HttpsServer).setSecureContext({ key: tls.key, cert: tls.cert });
    for (const s of this.sockets) s.destroy();
  }

  get last(): Recorded {
    const r = this.requests.at(-1);
    if (!r) throw new Error('no request recorded');
    return r;
  }

  /** The query of the last request as ordered pairs. */
  lastQuery(): Array<[string, string]> {
    return [...new URL(this.last.url, 'http://x').searchParams.entries()];
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** A responder that logs in (token "tok-1") and answers everything else with `answer`. */
export function loginThen(answer: Responder): Responder {
  return (req, res) => {
    if (req.url.endsWith('/login')) return json(res, 200, { SessionToken: 'tok-1', Status: 'Ok', UserEmailAddress: 'a@b.c', Details: '' });
    if (req.url.includes('/systems/select')) return json(res, 200, 'selected');
    answer(req, res);
  };
}
