import { generate } from 'selfsigned';

/** A fresh self-signed certificate for 127.0.0.1/localhost (tests only). */
export async function selfSignedCert(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] }],
  });
  return { key: pems.private, cert: pems.cert };
}

/**
 * A test certificate authority and a function issuing leaf certificates from it for
 * 127.0.0.1/localhost: CA-issued leaves, as a real management endpoint may present.
 */
export async function testCa(): Promise<{ caCert: string; issue: () => Promise<{ key: string; cert: string }> }> {
  const ca = await generate([{ name: 'commonName', value: 'Fleetdeck Test CA' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return {
    caCert: ca.cert,
    issue: async () => {
      const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
        keySize: 2048,
        algorithm: 'sha256',
        ca: { key: ca.private, cert: ca.cert },
        extensions: [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] },
        ],
      });
      return { key: leaf.private, cert: leaf.cert };
    },
  };
}
