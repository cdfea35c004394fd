import { readFile } from 'node:fs/promises';
import { getOperation, ValidationError, type Operation } from '../../../app/catalog/index.js';
import { redact } from '../../../app/redact.js';
import { ApiClient, probeCertificate, normalizeFingerprint, displayFingerprint, type TlsTrust } from '../../client/index.js';
import { CliError, EXIT, firstLine, type CliIo } from '../io.js';
import { toCliError } from '../errors.js';
import { isLoopbackUrl } from '../../net.js';

export interface CallArgs {
  url: string;
  user: string;
  passwordStdin: boolean;
  system?: string | undefined;
  code?: string | undefined;
  operation: string;
  query: readonly string[];
  headers: readonly string[];
  body?: string | undefined;
  trust?: string | undefined;
  caFile?: string | undefined;
  allowHttp: boolean;
  timeoutMs?: number | undefined;
}

/** Parses repeated `name=value` options into a map; a repeated name becomes an array. */
export function pairsToParams(pairs: readonly string[], what: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`${what} "${pair}": write it as name=value`, EXIT.usage);
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

export function parseBody(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CliError(`--body is not valid JSON: ${(err as Error).message}`, EXIT.usage);
  }
}

/** `fleetdeck call --url …`: log in, select the system if asked, make one call, print the JSON. */
export async function callCommand(io: CliIo, args: CallArgs): Promise<number> {
  let op: Operation;
  try {
    op = getOperation(args.operation);
  } catch (err) {
    throw new CliError((err as Error).message, EXIT.usage);
  }
  if (!args.passwordStdin) throw new CliError('give the password with --password-stdin (never on the command line)', EXIT.usage);
  const query = pairsToParams(args.query, '--query');
  const headers = pairsToParams(args.headers, '--header');
  const body = parseBody(args.body);
  const url = args.url;
  if (url.startsWith('http:') && !isLoopbackUrl(url) && !args.allowHttp) {
    throw new CliError(`${url}: plain http is only used for loopback; pass --allow-http to send credentials unencrypted`, EXIT.usage);
  }
  const trust = await resolveTrust(url, args);
  const password = firstLine(await io.readStdin());
  const client = new ApiClient({ baseUrl: url, tls: trust, ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}) });
  try {
    // Validate before logging in: a wrong parameter type is reported without any request.
    client.validate(op, { query, body, headers });
    const login = await client.login({
      Username: args.user,
      Password: password,
      ...(args.code ? { TwoFactorAuthenticationToken: args.code } : {}),
    });
    if (login.Status !== 'Ok' || !login.SessionToken) {
      throw new CliError(
        `login did not complete (status ${login.Status ?? 'unknown'}${login.Details ? `: ${login.Details}` : ''})${args.code ? '' : '; if two-factor authentication is on, pass --code'}`,
        EXIT.auth,
      );
    }
    const token = login.SessionToken;
    if (args.system) await client.selectSystem(token, args.system);
    const result = await client.call(op, { query, body, headers, token });
    if (result !== undefined) io.stdout(`${JSON.stringify(redact(result, [token, password]), null, 2)}\n`);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (err instanceof ValidationError) throw new CliError(err.message, EXIT.usage);
    throw toCliError(err);
  } finally {
    await client.close();
  }
}

async function resolveTrust(url: string, args: CallArgs): Promise<TlsTrust | undefined> {
  if (!url.startsWith('https:')) return undefined;
  const ca = args.caFile ? await readFile(args.caFile, 'utf8') : undefined;
  if (!args.trust) return ca ? { ca } : undefined;
  let pin: string;
  try {
    pin = normalizeFingerprint(args.trust);
  } catch (err) {
    throw new CliError(`--trust: ${(err as Error).message}`, EXIT.usage);
  }
  if (ca) return { ca, pinSha256: pin };
  // A pinned self-signed certificate is its own trust root once its fingerprint matches.
  const presented = await probeCertificate(url).catch((err: unknown) => {
    throw toCliError(err);
  });
  if (presented.sha256 !== pin) {
    throw new CliError(
      `certificate mismatch: ${url} presents ${displayFingerprint(presented.sha256)}, expected ${displayFingerprint(pin)}`,
      EXIT.certificate,
    );
  }
  return { ca: presented.pem, pinSha256: pin };
}
