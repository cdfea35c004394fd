import { X509Certificate } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UnreachableError, pinnedValidity, probeCertificate, sha256Hex, tlsConnector } from '../../../../main/client/index.js';
import { selfSignedCert } from '../../../support/tls-cert.js';

/** A TLS server on loopback that records the SNI name each client sent. */
async function tlsServer(host: string, cert: { key: string; cert: string }): Promise<{ server: tls.Server; port: number; names: string[] }> {
  const names: string[] = [];
  const server = tls.createServer({
    ...cert,
    // Called during the handshake, and only when the client sent a name.
    SNICallback: (name, done) => {
      names.push(name);
      done(null, tls.createSecureContext(cert));
    },
  }, (socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, names };
}

function closed(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('probeCertificate against a TLS server', () => {
  let cert: { key: string; cert: string };
  const servers: net.Server[] = [];
  beforeAll(async () => {
    cert = await selfSignedCert();
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await closed(s);
  });

  it('reads the certificate presented: fingerprint, PEM, names and dates, and sends the host name for SNI', async () => {
    const { server, port, names } = await tlsServer('127.0.0.1', cert);
    servers.push(server);
    const x = new X509Certificate(cert.cert);
    const presented = await probeCertificate(`https://localhost:${port}/ignored/path`);
    expect(presented).toEqual({ sha256: sha256Hex(x.raw), pem: x.toString(), subject: x.subject, issuer: x.issuer, validFrom: x.validFrom, validTo: x.validTo });
    expect(presented.subject).toMatch(/CN=127\.0\.0\.1/);
    expect(names).toEqual(['localhost']);
  });

  it('sends no SNI name to an IP address, IPv4 or bracketed IPv6', async () => {
    const v4 = await tlsServer('127.0.0.1', cert);
    const v6 = await tlsServer('::1', cert);
    servers.push(v4.server, v6.server);
    const sha = sha256Hex(new X509Certificate(cert.cert).raw);
    expect((await probeCertificate(`https://127.0.0.1:${v4.port}`)).sha256).toBe(sha);
    expect((await probeCertificate(`https://[::1]:${v6.port}`)).sha256).toBe(sha);
    expect([...v4.names, ...v6.names]).toEqual([]);
  });

  it('names the host and the cause when the port refuses, keeping the system’s error code', async () => {
    const spare = net.createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await closed(spare);
    const err = await probeCertificate(`https://127.0.0.1:${port}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as UnreachableError).reason).toBe('ECONNREFUSED');
    expect((err as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect((err as Error).message).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port}: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`));
  });

  it('connects to port 443 when the URL names none', async () => {
    const err = await probeCertificate('https://127.0.0.1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as Error).message).toMatch(/^127\.0\.0\.1: connect \w+ 127\.0\.0\.1:443$/);
  });

  it('gives up on a server that accepts but never completes the handshake, and closes the connection', async () => {
    const sockets: net.Socket[] = [];
    let ended = 0;
    const silent = net.createServer((socket) => {
      sockets.push(socket);
      socket.resume();
      socket.on('close', () => ended++);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    servers.push(silent);
    const port = (silent.address() as AddressInfo).port;
    const err = await probeCertificate(`https://127.0.0.1:${port}`, 200).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as UnreachableError).reason).toBe('tls');
    expect((err as Error).message).toBe(`127.0.0.1:${port}: no TLS handshake within 200 ms`);
    await new Promise<void>((resolve) => (ended > 0 ? resolve() : sockets[0]?.once('close', () => resolve())));
    expect(ended).toBe(1);
  });

  it('refuses an https URL it cannot parse, quoting it', async () => {
    await expect(probeCertificate('https://')).rejects.toThrow('"https://" is not a URL (expected e.g. https://mgmt.example.com)');
    await expect(probeCertificate('ftp://127.0.0.1')).rejects.toThrow('ftp://127.0.0.1 is not an https URL: only https endpoints present a certificate to trust');
  });
});

describe('pinnedValidity of a certificate that is not one', () => {
  let pem: string;
  beforeAll(async () => {
    pem = (await selfSignedCert()).cert;
  });

  it('reads a valid PEM and ignores text that only looks like one', () => {
    expect(pinnedValidity(pem, new Date(0))).toEqual({ validTo: new Date(new X509Certificate(pem).validTo).toISOString() });
    expect(pinnedValidity(pem.replace(/[A-Za-z0-9+/]{10}\n/, '\n'))).toBeUndefined();
  });
});

describe('tlsConnector without a usable pin', () => {
  it('treats an empty pin as no pin: Node verifies, with the site CA', () => {
    const build = (() => {
      throw new Error('a pinned connector was built');
    }) as unknown as Parameters<typeof tlsConnector>[2];
    expect(tlsConnector({ pinSha256: '', ca: 'PEM' }, 500, build)).toEqual({ ca: 'PEM', timeout: 500 });
    expect(tlsConnector({ ca: '' }, 500, build)).toEqual({ timeout: 500 });
  });
});
