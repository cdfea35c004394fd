import { readFile } from 'node:fs/promises';
import { asksForSecondFactor, interpretLogin } from '../../../app/auth/login-result.js';
import { announcedRunTime, getOperation, keyOf, timeoutForRun, ValidationError, type Operation } from '../../../app/catalog/index.js';
import { redact, secretValues } from '../../../app/redact.js';
import { terminalField } from '../../../app/safe-text.js';
import { requireFingerprint } from '../../../app/fingerprint.js';
import { ApiClient, AuthError, type TlsTrust, type TokenScheme } from '../../client/index.js';
import { CliError, EXIT, firstLine, printJson, type CliIo } from '../io.js';
import { toCliError } from '../errors.js';
import { applySecretArgs, type SecretArgs } from '../secret-args.js';
import { isLoopbackUrl, urlProtocol } from '../../net.js';

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
  /** Secrets of the body given outside `--body`. */
  secrets: SecretArgs;
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

/** `--timeout MS`: a whole number of milliseconds, or undefined when not given. */
export function timeoutOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!(Number.isInteger(ms) && ms > 0)) throw new CliError(`--timeout takes a whole number of milliseconds, not "${text}"`, EXIT.usage);
  return ms;
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
  const url = args.url;
  // Parsed, never compared as text: `HTTP://` is plain http too.
  const protocol = urlProtocol(url);
  if (protocol !== 'http:' && protocol !== 'https:') throw new CliError(`--url ${url}: expected an http(s) URL such as https://mgmt.example`, EXIT.usage);
  if (protocol === 'http:' && !isLoopbackUrl(url) && !args.allowHttp) {
    throw new CliError(`${url}: plain http is only used for loopback; pass --allow-http to send credentials unencrypted`, EXIT.usage);
  }
  const body = await applySecretArgs(io, op, parseBody(args.body), args.secrets, 'the password (--password-stdin)');
  const trust = await resolveTrust(url, protocol, args);
  const password = firstLine(await io.readStdin());
  const client = new ApiClient({ baseUrl: url, tls: trust, ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}) });
  try {
    // Validate before logging in: a wrong parameter type is reported without any request.
    client.validate(op, { query, body, headers });
    let login: unknown;
    try {
      login = await client.login({ Username: args.user, Password: password, ...(args.code ? { TwoFactorAuthenticationToken: args.code } : {}) });
    } catch (err) {
      if (err instanceof AuthError && !args.code && asksForSecondFactor(err.message)) throw new CliError(terminalField(`login refused: ${err.message}; pass --code`), EXIT.auth);
      throw err;
    }
    const outcome = interpretLogin(login);
    if (outcome.kind !== 'ok') {
      const hint = outcome.kind === 'second-factor' && !args.code ? '; two-factor authentication is on: pass --code' : '';
      throw new CliError(terminalField(`login did not complete (${outcome.message})${hint}`), EXIT.auth);
    }
    const token = outcome.token;
    // Bearer as documented; a site that refuses a brand-new token that way gets it bare, once.
    let tokenScheme: TokenScheme = 'bearer';
    const first = <T>(request: (scheme: TokenScheme) => Promise<T>): Promise<T> =>
      request(tokenScheme).catch((err: unknown) => {
        if (!(err instanceof AuthError) || tokenScheme !== 'bearer') throw err;
        tokenScheme = 'raw';
        return request(tokenScheme);
      });
    const system = args.system;
    if (system) await first((scheme) => client.call('GET /systems/select', { token, tokenScheme: scheme, query: { name: system } }));
    // Long runs (a node utility's timeoutSeconds, the analyzer) get their own timeout unless --timeout says.
    const run = args.timeoutMs ? undefined : announcedRunTime(keyOf(op), query);
    const timeoutMs = run ? timeoutForRun(run) : args.timeoutMs;
    const call = (scheme: TokenScheme): Promise<unknown> => client.call(op, { query, body, headers, token, tokenScheme: scheme, ...(timeoutMs ? { timeoutMs } : {}) });
    const result = system ? await call(tokenScheme) : await first(call);
    if (result !== undefined) printJson(io, redact(result, [token, password, ...secretValues(body)]));
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (err instanceof ValidationError) throw new CliError(err.message, EXIT.usage);
    throw toCliError(err);
  } finally {
    await client.close();
  }
}

async function resolveTrust(url: string, protocol: string, args: CallArgs): Promise<TlsTrust | undefined> {
  if (protocol !== 'https:') {
    if (args.trust || args.caFile) throw new CliError(`--trust and --ca are for https URLs; ${url} is plain http`, EXIT.usage);
    return undefined;
  }
  const ca = args.caFile ? await readLocalFile(args.caFile, '--ca') : undefined;
  if (!args.trust) return ca ? { ca } : undefined;
  let pin: string;
  try {
    pin = requireFingerprint(args.trust);
  } catch (err) {
    throw new CliError(`--trust: ${(err as Error).message}`, EXIT.usage);
  }
  // The pin alone decides which certificate is accepted (main/client/tls.ts), CA-issued or not.
  return { ...(ca ? { ca } : {}), pinSha256: pin };
}

/** A file the user named on the command line; unreadable is a usage error, with the reason. */
export async function readLocalFile(path: string, option: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`${option}: cannot read ${path}: ${(err as Error).message}`, EXIT.usage);
  }
}
