import { createHash, X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';

/** A server certificate and the pin clients compare it against. */
export interface ServerCertificate {
  readonly key: string;
  readonly cert: string;
  /** SHA-256 of the DER certificate, lowercase hex without colons. */
  readonly sha256: string;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * Generates a self-signed certificate for 127.0.0.1 and localhost (EC P-256: fast to create), valid
 * for a year from now, or (`expired`) valid from two years ago until one year ago.
 */
export async function generateCertificate(now: Date = new Date(), options: { expired?: boolean } = {}): Promise<ServerCertificate> {
  const notBeforeDate = new Date(now.getTime() - (options.expired ? 2 * YEAR_MS : 60_000));
  const notAfterDate = new Date(now.getTime() + (options.expired ? -YEAR_MS : YEAR_MS));
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert, sha256: certificateSha256(pems.cert) };
}

/** SHA-256 of a PEM certificate's DER bytes as lowercase hex without colons. */
export function certificateSha256(pem: string): string {
  return createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
}
