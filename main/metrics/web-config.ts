import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import bcrypt from 'bcryptjs';
import { parse as parseYaml } from 'yaml';

/**
 * The metrics endpoint's web configuration, in the format of the Prometheus exporter toolkit
 * (`--web.config.file` of node_exporter and the other official exporters), so an admin configures
 * it as every exporter on the host:
 *
 *     tls_server_config:
 *       cert_file: server.crt          # relative paths are relative to this file
 *       key_file: server.key
 *       client_ca_file: clients.crt    # optional, with client_auth_type
 *       client_auth_type: RequireAndVerifyClientCert
 *       min_version: TLS12
 *     basic_auth_users:
 *       prometheus: $2y$10$...         # bcrypt hash (htpasswd -nBC 10 "" | tr -d ':\n')
 *
 * A key this code does not know is refused by name rather than ignored: an ignored
 * `cipher_suites` would leave the admin believing in a restriction that is not there.
 */

export const CLIENT_AUTH_TYPES = ['NoClientCert', 'RequestClientCert', 'RequireAnyClientCert', 'VerifyClientCertIfGiven', 'RequireAndVerifyClientCert'] as const;
export type ClientAuthType = (typeof CLIENT_AUTH_TYPES)[number];
const TLS_VERSIONS: Readonly<Record<string, 'TLSv1.2' | 'TLSv1.3'>> = { TLS12: 'TLSv1.2', TLS13: 'TLSv1.3' };

export interface WebConfig {
  /** Where it was read from, for messages. */
  file: string;
  tls?: {
    cert: Buffer;
    key: Buffer;
    ca?: Buffer | undefined;
    clientAuth: ClientAuthType;
    minVersion: 'TLSv1.2' | 'TLSv1.3';
    maxVersion?: 'TLSv1.2' | 'TLSv1.3' | undefined;
  };
  /** User name → bcrypt hash. */
  users?: ReadonlyMap<string, string>;
}

/** A web config that cannot be used; the message names the file and the key. */
export class WebConfigError extends Error {}

const BCRYPT_HASH = /^\$2[aby]?\$\d\d\$[./A-Za-z0-9]{53}$/;

/**
 * Reads and checks a web config file; the certificate, key and CA files it names are read now.
 * @throws WebConfigError naming the file and what is wrong (never a secret's value)
 */
export function readWebConfig(file: string): WebConfig {
  const fail = (what: string): never => {
    throw new WebConfigError(`web config ${file}: ${what}`);
  };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return fail(`cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text) ?? {};
  } catch (err) {
    return fail(`is not YAML: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  if (!isObject(doc)) return fail('must be a YAML mapping');
  const out: WebConfig = { file };
  for (const k of Object.keys(doc)) {
    if (k === 'http_server_config') fail('http_server_config is not supported by Fleetdeck (remove it)');
    else if (k !== 'tls_server_config' && k !== 'basic_auth_users') fail(`unknown key "${k}" (known: tls_server_config, basic_auth_users)`);
  }
  const base = dirname(resolve(file));
  const readPart = (key: string, path: unknown): Buffer => {
    if (typeof path !== 'string' || path === '') return fail(`tls_server_config.${key} must be a file path`);
    const full = isAbsolute(path) ? path : resolve(base, path);
    try {
      return readFileSync(full);
    } catch (err) {
      return fail(`tls_server_config.${key}: ${full} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  };
  const tls = doc.tls_server_config;
  if (tls !== undefined && tls !== null) {
    if (!isObject(tls)) return fail('tls_server_config must be a mapping');
    const known = ['cert_file', 'key_file', 'client_ca_file', 'client_auth_type', 'min_version', 'max_version'];
    for (const k of Object.keys(tls)) if (!known.includes(k)) fail(`tls_server_config.${k} is not supported (known: ${known.join(', ')})`);
    if (tls.cert_file === undefined || tls.key_file === undefined) fail('tls_server_config needs both cert_file and key_file');
    const clientAuth = (tls.client_auth_type ?? (tls.client_ca_file !== undefined ? 'RequireAndVerifyClientCert' : 'NoClientCert')) as ClientAuthType;
    if (!CLIENT_AUTH_TYPES.includes(clientAuth)) fail(`tls_server_config.client_auth_type must be one of ${CLIENT_AUTH_TYPES.join(', ')}`);
    const verifies = clientAuth === 'VerifyClientCertIfGiven' || clientAuth === 'RequireAndVerifyClientCert';
    if (verifies && tls.client_ca_file === undefined) fail(`tls_server_config.client_auth_type ${clientAuth} needs client_ca_file`);
    const version = (key: string, v: unknown): 'TLSv1.2' | 'TLSv1.3' | undefined => {
      if (v === undefined) return undefined;
      const t = typeof v === 'string' ? TLS_VERSIONS[v] : undefined;
      return t ?? fail(`tls_server_config.${key} must be TLS12 or TLS13 (older versions are not offered)`);
    };
    out.tls = {
      cert: readPart('cert_file', tls.cert_file),
      key: readPart('key_file', tls.key_file),
      ca: tls.client_ca_file !== undefined ? readPart('client_ca_file', tls.client_ca_file) : undefined,
      clientAuth,
      minVersion: version('min_version', tls.min_version) ?? 'TLSv1.2',
      maxVersion: version('max_version', tls.max_version),
    };
  }
  const users = doc.basic_auth_users;
  if (users !== undefined && users !== null) {
    if (!isObject(users)) return fail('basic_auth_users must be a mapping of user name to bcrypt hash');
    const map = new Map<string, string>();
    for (const [name, hash] of Object.entries(users)) {
      if (name === '' || name.includes(':')) fail(`basic_auth_users: "${name}" is not a valid user name`);
      // The hash is not a secret an attacker can use, but a value that is not a hash may be a password pasted in by mistake: not echoed.
      if (typeof hash !== 'string' || !BCRYPT_HASH.test(hash)) fail(`basic_auth_users.${name} is not a bcrypt hash (make one with: htpasswd -nBC 10 "" | tr -d ':\\n')`);
      map.set(name, hash as string);
    }
    if (map.size) out.users = map;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether the config controls who may read: basic auth, or client certificates the server verifies. */
export function restrictsAccess(c: WebConfig | undefined): boolean {
  return !!c && (!!c.users || c.tls?.clientAuth === 'RequireAndVerifyClientCert');
}

/**
 * Checks basic-auth credentials against the config's bcrypt hashes. bcrypt is slow on purpose (a
 * tenth of a second at cost 10): a success is remembered, as the exporter toolkit does, under a
 * keyed hash of the user, password and stored hash, so a scrape every 15 s costs one hash. A
 * user not configured is checked against a dummy hash, so the time does not tell which users exist.
 */
export class BasicAuth {
  private readonly verified = new Set<string>();
  private readonly key = randomBytes(32);
  /** Made on the first unknown user: a cost-10 hash takes a tenth of a second. */
  private static dummy: Promise<string> | undefined;

  constructor(private readonly users: ReadonlyMap<string, string>) {}

  /** Whether an Authorization header carries a configured user's password. */
  async check(header: string | undefined): Promise<boolean> {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    if (!m) return false;
    const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return false;
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const hash = this.users.get(user);
    if (hash === undefined) {
      BasicAuth.dummy ??= bcrypt.hash(randomBytes(16).toString('hex'), 10);
      await bcrypt.compare(password, await BasicAuth.dummy);
      return false;
    }
    const memo = createHash('sha256').update(this.key).update(user).update('\u0000').update(password).update('\u0000').update(hash).digest('hex');
    // A digest keyed per process: what its lookup time could tell says nothing of the password.
    if (this.verified.has(memo)) return true;
    if (!(await bcrypt.compare(password, hash))) return false;
    if (this.verified.size >= 64) this.verified.clear();
    this.verified.add(memo);
    return true;
  }

}
