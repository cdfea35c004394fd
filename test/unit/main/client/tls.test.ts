import { X509Certificate } from 'node:crypto';
import type { buildConnector } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { CertificateError, pinnedValidity, probeCertificate, sha256Hex, tlsConnector } from '../../../../main/client/index.js';
import { selfSignedCert } from '../../../support/tls-cert.js';

/** undici's connector as tlsConnector builds it: hands the test's socket (or error) to the callback, recording the options it was built with. */
function fakeBuild(outcome: { err?: Error; raw?: Buffer; noSocket?: boolean }) {
  const built: unknown[] = [];
  const destroyed: boolean[] = [];
  const socket = { getPeerCertificate: () => ({ raw: outcome.raw }), destroy: () => void destroyed.push(true) };
  const build = ((options: unknown) => {
    built.push(options);
    return (_o: unknown, cb: (err: Error | null, s: unknown) => void) => cb(outcome.err ?? null, outcome.err || outcome.noSocket ? null : socket);
  }) as unknown as typeof buildConnector;
  return { build, built, destroyed, socket };
}

function connect(connector: ReturnType<typeof tlsConnector>, protocol = 'https:'): Promise<{ err: Error | null; socket: unknown }> {
  return new Promise((resolve) => (connector as buildConnector.connector)({ protocol, hostname: 'h', host: 'h', port: '443' } as never, (err, socket) => resolve({ err, socket })));
}

describe('tlsConnector', () => {
  let raw: Buffer;
  let sha: string;
  beforeAll(async () => {
    raw = new X509Certificate((await selfSignedCert()).cert).raw;
    sha = sha256Hex(raw);
  });

  it('without a pin, leaves verification to Node with the site CA, if any', () => {
    const { build, built } = fakeBuild({});
    expect(tlsConnector(undefined, 1234, build)).toEqual({ timeout: 1234 });
    expect(tlsConnector({ ca: 'PEM' }, 1234, build)).toEqual({ ca: 'PEM', timeout: 1234 });
    expect(built).toEqual([]);
  });

  it('with a pin, connects unverified without resumed sessions and accepts exactly the pinned certificate', async () => {
    const f = fakeBuild({ raw });
    const connector = tlsConnector({ pinSha256: sha.toUpperCase().match(/../g)!.join(':') }, 999, f.build);
    expect(f.built).toEqual([{ rejectUnauthorized: false, maxCachedSessions: 0, timeout: 999 }]);
    expect(await connect(connector)).toEqual({ err: null, socket: f.socket });
    expect(f.destroyed).toEqual([]);
  });

  it('refuses, and closes, a connection whose certificate differs from the pin in any digit', async () => {
    for (const i of [0, 1, 15, 16, 40, 63]) {
      const pin = sha.slice(0, i) + ((parseInt(sha[i]!, 16) + 1) % 16).toString(16) + sha.slice(i + 1);
      const f = fakeBuild({ raw });
      const { err, socket } = await connect(tlsConnector({ pinSha256: pin }, 1000, f.build));
      expect(socket, `digit ${i}`).toBeNull();
      expect(err).toBeInstanceOf(CertificateError);
      expect((err as CertificateError).presentedSha256).toBe(sha);
      expect(err?.message).toBe(`the site's certificate changed: presented ${sha.toUpperCase().match(/../g)!.join(':')}, pinned ${pin.toUpperCase().match(/../g)!.join(':')}`);
      expect(f.destroyed).toEqual([true]);
    }
  });

  it('refuses a server that presents no certificate, passes on connection errors, and does not look at plain http', async () => {
    const none = fakeBuild({});
    const refused = await connect(tlsConnector({ pinSha256: sha }, 1000, none.build));
    expect(refused.err).toBeInstanceOf(CertificateError);
    expect(refused.err?.message).toMatch(/presented none, pinned/);
    expect((refused.err as CertificateError).presentedSha256).toBeUndefined();
    const broken = new Error('ECONNREFUSED');
    expect(await connect(tlsConnector({ pinSha256: sha }, 1000, fakeBuild({ err: broken }).build))).toEqual({ err: broken, socket: null });
    const lost = await connect(tlsConnector({ pinSha256: sha }, 1000, fakeBuild({ noSocket: true }).build));
    expect(lost.socket).toBeNull();
    expect(lost.err?.message).toBe('no socket');
    const plain = fakeBuild({});
    expect(await connect(tlsConnector({ pinSha256: sha }, 1000, plain.build), 'http:')).toEqual({ err: null, socket: plain.socket });
  });

  it('refuses a malformed pin before connecting', () => {
    expect(() => tlsConnector({ pinSha256: sha.slice(0, 16) }, 1000, fakeBuild({}).build)).toThrow();
  });
});

describe('pinnedValidity', () => {
  it('gives the end of validity, and since when it expired', async () => {
    const { cert } = await selfSignedCert();
    const end = new Date(new X509Certificate(cert).validTo);
    expect(pinnedValidity(cert, new Date(end.getTime() - 1))).toEqual({ validTo: end.toISOString() });
    expect(pinnedValidity(cert, end)).toEqual({ validTo: end.toISOString() });
    expect(pinnedValidity(cert, new Date(end.getTime() + 1))).toEqual({ validTo: end.toISOString(), expiredSince: end.toISOString() });
    expect(pinnedValidity(undefined)).toBeUndefined();
    expect(pinnedValidity('not a certificate')).toBeUndefined();
    expect(pinnedValidity('')).toBeUndefined();
  });
});

describe('probeCertificate', () => {
  it('refuses what is not an https URL before connecting', async () => {
    await expect(probeCertificate('not a url')).rejects.toThrow(/is not a URL/);
    await expect(probeCertificate('http://127.0.0.1:1')).rejects.toThrow(/not an https URL/);
  });
});
