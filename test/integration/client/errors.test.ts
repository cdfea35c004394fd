import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { X509Certificate, createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  ApiError,
  AuthError,
  CertificateError,
  ProtocolError,
  UnreachableError,
  probeCertificate,
} from '../../../main/client/index.js';
import { RecordingServer, json } from '../../support/recording-server.js';
import { selfSignedCert } from '../../support/tls-cert.js';

describe('client error mapping', () => {
  const server = new RecordingServer();
  let client: ApiClient;

  beforeAll(async () => {
    client = new ApiClient({ baseUrl: await server.start(), timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('maps 400 to ApiError carrying the server string', async () => {
    server.responder = (_r, res) => json(res, 400, 'Host esx01 already exists');
    const err = await client.call('POST /hosts/create', { token: 't', body: { Name: 'esx01' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('Host esx01 already exists');
  });

  it('refuses an answer nested 100,000 deep as a protocol error, not a stack overflow', async () => {
    const body = `{"Data":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    server.responder = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    };
    const err = await client.call('GET /hosts/list', { token: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as Error).message).toMatch(/GET \/hosts\/list: the answer is nested deeper than 256 levels/);
    // A deep but sane answer still reads.
    const fine = { Data: [{ Name: 'h', A: [[[[{ B: [1] }]]]] }] };
    server.responder = (_r, res) => json(res, 200, fine);
    expect(await client.call('GET /hosts/list', { token: 't' })).toEqual(fine);
  });

  it('masks the secrets a request sent when the answer or an error echoes them, whatever the field', async () => {
    server.responder = (req, res) => json(res, 400, `bad host ${req.body} for ${req.headers.authorization ?? ''}`);
    const err = await client.call('POST /hosts/create', { token: 'tok-echoed-123', body: { Name: 'esx01', ChapSecret: 'chap-echoed-456' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toBe('bad host {"Name":"esx01","ChapSecret":"[redacted]"} for Bearer [redacted]');
    server.responder = (req, res) => json(res, 200, { Data: [{ Name: 'esx01', Note: `seen ${req.headers.authorization ?? ''}` }] });
    expect(await client.call('GET /hosts/list', { token: 'tok-echoed-123' })).toEqual({ Data: [{ Name: 'esx01', Note: 'seen Bearer [redacted]' }] });
    // A login answer keeps the session token it hands out; an echoed password is masked.
    server.responder = (req, res) => json(res, 200, { SessionToken: 'tok-new-789', Status: 'Ok', Details: `welcome ${req.body}` });
    expect(await client.login({ Username: 'a', Password: 'pw-echoed-000' })).toEqual({ SessionToken: 'tok-new-789', Status: 'Ok', Details: 'welcome {"Username":"a","Password":"[redacted]"}' });
  });

  it('maps 401 to AuthError for calls and for a failed login', async () => {
    server.responder = (_r, res) => json(res, 401, 'Session expired');
    await expect(client.call('GET /hosts/list', { token: 't' })).rejects.toThrow(AuthError);
    await expect(client.login({ Username: 'a', Password: 'b' })).rejects.toThrow(/Session expired/);
  });

  it('refuses an authenticated call without a token, sending nothing', async () => {
    const before = server.requests.length;
    await expect(client.call('GET /hosts/list')).rejects.toThrow(AuthError);
    expect(server.requests.length).toBe(before);
  });

  it('maps bodies that are not the documented shape to ProtocolError', async () => {
    server.responder = (_r, res) => json(res, 200, ['not', 'hosts']);
    await expect(client.call('GET /hosts/list', { token: 't' })).rejects.toThrow(/GET \/hosts\/list answered \[2 strings\], not \{"Data":\[Host, …\]\} with Host objects/);
    server.responder = (_r, res) => json(res, 200, { Data: 'x' });
    await expect(client.call('GET /hosts/list', { token: 't' })).rejects.toThrow(ProtocolError);
    server.responder = (_r, res) => json(res, 200, { Data: [] });
    await expect(client.call('POST /hosts/create', { token: 't', body: {} })).rejects.toThrow(/POST \/hosts\/create answered \{"Data": \[\]\}, not a JSON string/);
    server.responder = (_r, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy login</html>');
    };
    await expect(client.call('GET /Version', { token: 't' })).rejects.toThrow(/not JSON/);
    server.responder = (_r, res) => json(res, 404, 'Not found');
    await expect(client.call('GET /Version', { token: 't' })).rejects.toThrow(/unexpected HTTP 404/);
  });

  it('reads an empty object as an empty list (a serialiser that leaves out a null Data)', async () => {
    server.responder = (_r, res) => json(res, 200, {});
    await expect(client.call('GET /hosts/list', { token: 't' })).resolves.toEqual({ Data: [] });
  });

  it('maps a timeout to UnreachableError naming it', async () => {
    // The server never answers: only the call's own 300 ms timeout (not the client's 30 s) ends it.
    server.responder = () => undefined;
    const err = await client.call('GET /hosts/list', { token: 't', timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as UnreachableError).message).toMatch(/no answer within 300 ms/);
  });

  it('maps a reset connection to UnreachableError', async () => {
    server.responder = (_r, res) => res.socket?.destroy();
    await expect(client.call('GET /hosts/list', { token: 't' })).rejects.toThrow(UnreachableError);
  });

  it('maps a refused connection to UnreachableError', async () => {
    const probe: NetServer = createNetServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const dead = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 1000 });
    const err = await dead.call('GET /hosts/list', { token: 't' }).catch((e: unknown) => e);
    await dead.close();
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as Error).message).toMatch(/connection refused/);
  });
});

describe('client TLS trust', () => {
  let server: HttpsServer;
  let url = '';
  let pem = '';
  let sha = '';

  beforeAll(async () => {
    const { key, cert } = await selfSignedCert();
    pem = cert;
    sha = createHash('sha256').update(new X509Certificate(cert).raw).digest('hex');
    server = createHttpsServer({ key, cert }, (_req, res) => json(res, 200, { Versions: [{ Component: 'core', Version: '1' }] }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('refuses an untrusted self-signed certificate', async () => {
    const c = new ApiClient({ baseUrl: url, timeoutMs: 2000 });
    await expect(c.call('GET /Version', { token: 't' })).rejects.toThrow(CertificateError);
    await c.close();
  });

  it('reads the presented certificate for trust on first use', async () => {
    const presented = await probeCertificate(url);
    expect(presented.sha256).toBe(sha);
    expect(presented.pem.trim()).toBe(pem.trim());
  });

  it('accepts the pinned certificate and refuses another fingerprint', async () => {
    const ok = new ApiClient({ baseUrl: url, timeoutMs: 2000, tls: { ca: pem, pinSha256: sha } });
    await expect(ok.call('GET /Version', { token: 't' })).resolves.toMatchObject({ Versions: [{ Component: 'core' }] });
    await ok.close();
    const wrong = new ApiClient({ baseUrl: url, timeoutMs: 2000, tls: { ca: pem, pinSha256: 'ab'.repeat(32) } });
    const err = await wrong.call('GET /Version', { token: 't' }).catch((e: unknown) => e);
    await wrong.close();
    expect(err).toBeInstanceOf(CertificateError);
    expect((err as CertificateError).presentedSha256).toBe(sha);
    expect((err as Error).message).toMatch(/certificate changed/);
  });

  it('refuses a pin that differs from the certificate in any single hex digit, first, middle or last, and accepts it in any spelling', async () => {
    const flip = (i: number): string => sha.slice(0, i) + ((parseInt(sha[i]!, 16) + 1) % 16).toString(16) + sha.slice(i + 1);
    for (const i of [0, 15, 16, 31, 32, 62, 63]) {
      const near = new ApiClient({ baseUrl: url, timeoutMs: 2000, tls: { ca: pem, pinSha256: flip(i) } });
      const err = await near.call('GET /Version', { token: 't' }).catch((e: unknown) => e);
      await near.close();
      expect(err, `pin differing at hex digit ${i}`).toBeInstanceOf(CertificateError);
    }
    const spelt = sha.toUpperCase().match(/../g)!.join(':');
    const ok = new ApiClient({ baseUrl: url, timeoutMs: 2000, tls: { ca: pem, pinSha256: spelt } });
    await expect(ok.call('GET /Version', { token: 't' })).resolves.toMatchObject({ Versions: [{ Component: 'core' }] });
    await ok.close();
  });
});
