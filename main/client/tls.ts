import { createHash, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import tls, { type TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import { InputError } from '../../app/errors.js';
import { formatFingerprint, requireFingerprint } from '../../app/fingerprint.js';
import { CertificateError, UnreachableError } from './errors.js';

/** How a site's certificate is trusted. */
export interface TlsTrust {
  /** PEM trust roots for this site only: a CA bundle, or the pinned self-signed certificate itself. */
  ca?: string | undefined;
  /** Pinned SHA-256 of the leaf certificate (hex, colons optional): any other certificate is refused. */
  pinSha256?: string | undefined;
}

/** What a server presented, read without trusting it (trust on first use). */
export interface PresentedCertificate {
  sha256: string;
  pem: string;
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
}

export function sha256Hex(der: Buffer): string {
  return createHash('sha256').update(der).digest('hex');
}

/**
 * How undici connects to a site under this trust. Without a pin: Node's verification (the site's
 * CA bundle, else the system's roots, and the host name). With a pin, the pin *is* the trust: the
 * connection succeeds exactly when the server presents the certificate the admin confirmed, whether
 * or not a chain to some CA also validates (a CA-issued leaf is no trust root of its own, so making
 * it one would refuse the very certificate that was pinned), and any other certificate is refused,
 * however well signed. TLS sessions are not resumed, so every connection shows its certificate.
 * `build` is undici's `buildConnector`, passed in by the caller that loaded undici (on first use).
 */
export function tlsConnector(trust: TlsTrust | undefined, timeoutMs: number, build: typeof buildConnector): buildConnector.BuildOptions | buildConnector.connector {
  if (!trust?.pinSha256) return { ...(trust?.ca ? { ca: trust.ca } : {}), timeout: timeoutMs };
  const pin = requireFingerprint(trust.pinSha256);
  const connect = build({ rejectUnauthorized: false, maxCachedSessions: 0, timeout: timeoutMs });
  return (options, callback) => {
    connect(options, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error('no socket'), null);
      if (options.protocol !== 'https:') return callback(null, socket);
      const mismatch = pinMismatch(socket as TLSSocket, pin, "the site's certificate");
      if (!mismatch) return callback(null, socket);
      socket.destroy();
      callback(mismatch, null);
    });
  };
}

/**
 * The error for a TLS connection whose peer certificate is not the pinned one (`pin`: lowercase
 * hex), or undefined when it is. `what` names the peer in the message ("the site's certificate").
 */
export function pinMismatch(socket: TLSSocket, pin: string, what: string): CertificateError | undefined {
  const raw = socket.getPeerCertificate().raw as Buffer | undefined;
  const presented = raw ? sha256Hex(raw) : undefined;
  if (presented === pin) return undefined;
  return new CertificateError(`${what} changed: presented ${presented ? formatFingerprint(presented) : 'none'}, pinned ${formatFingerprint(pin)}`, presented);
}

/** A pinned certificate's validity as a site shows it: its end, and since when it expired (both ISO). */
export interface PinnedValidity {
  validTo: string;
  expiredSince?: string | undefined;
}

/**
 * The validity of a site's pinned certificate (PEM), for the warning the site shows: a pin is
 * trusted however old its certificate (self-signed management certificates outlive their dates),
 * but the admin should know. Undefined when there is no readable certificate.
 */
export function pinnedValidity(pem: string | undefined, now: Date = new Date()): PinnedValidity | undefined {
  if (!pem) return undefined;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    return undefined;
  }
  const end = new Date(cert.validTo);
  if (Number.isNaN(end.getTime())) return undefined;
  return { validTo: end.toISOString(), ...(end.getTime() < now.getTime() ? { expiredSince: end.toISOString() } : {}) };
}

/**
 * Reads the certificate a TLS server presents, for trust on first use. No HTTP data is sent on this
 * connection; the result is only shown to the admin for confirmation, never used to trust silently.
 */
export async function probeCertificate(url: string, timeoutMs = 10_000): Promise<PresentedCertificate> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new InputError(`"${url}" is not a URL (expected e.g. https://mgmt.example.com)`);
  }
  if (u.protocol !== 'https:') throw new InputError(`${url} is not an https URL: only https endpoints present a certificate to trust`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || 443);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host,
      port,
      servername: isIP(host) ? undefined : host,
      // Unverified on purpose: this probe only reads the certificate to show its fingerprint.
      rejectUnauthorized: false,
      timeout: timeoutMs,
    });
    const fail = (err: Error): void => {
      socket.destroy();
      reject(new UnreachableError(`${u.host}: ${err.message}`, (err as NodeJS.ErrnoException).code ?? 'tls', { cause: err }));
    };
    socket.once('timeout', () => fail(new Error(`no TLS handshake within ${timeoutMs} ms`)));
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      const raw = socket.getPeerCertificate(false).raw;
      socket.end();
      if (!raw) return fail(new Error('the server presented no certificate'));
      const x = new X509Certificate(raw);
      resolve({
        sha256: sha256Hex(raw),
        pem: x.toString(),
        subject: x.subject,
        issuer: x.issuer,
        validFrom: x.validFrom,
        validTo: x.validTo,
      });
    });
  });
}
