import { z } from 'zod';
import { CodedError, ERROR_TABLE, EXIT, errorCode, type ErrorCode } from '../../app/errors.js';
import { maskSecrets, redact } from '../../app/redact.js';
import type { LoginProgress } from '../core/site-connection.js';
import { askMonitor } from './lock.js';

/**
 * What an admin's command asks of the running monitor over its lock (`lock.ts`): a login of one of
 * its sites, with a password and a two-factor code, made in the monitor's own sessions so that its
 * polls go on with them (a login made by the command's process would stay in that process).
 */
export const monitorRequest = z
  .object({
    login: z
      .object({
        site: z.string().min(1),
        system: z.string().min(1).optional(),
        code: z.string().min(1).optional(),
        password: z.string().optional(),
      })
      .strict(),
  })
  .strict();
export type MonitorRequest = z.infer<typeof monitorRequest>;

/** The monitor's answer: the login's progress, or why it was not made (an error code of `app/errors.ts`). */
export const monitorAnswer = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), site: z.string(), loggedIn: z.array(z.string()), needCode: z.array(z.string()) }),
  z.object({ ok: z.literal(false), code: z.string().optional(), message: z.string() }),
]);
export type MonitorAnswer = z.infer<typeof monitorAnswer>;

/** What answering needs of the monitor's runtime. */
export interface RequestTarget {
  sites: { get(nameOrId: string): { id: string; name: string } | undefined };
  fleet: {
    systemsOf(siteId: string): string[];
    login(siteId: string, credentials: { password?: string; code?: string; system?: string }): Promise<LoginProgress>;
  };
}

/**
 * Answers one request; logs what was done (never the password or the code).
 * Never throws: a failure is an answer with its error code and a message without the secrets sent.
 */
export async function answerRequest(rt: RequestTarget, raw: unknown, log: (line: string) => void): Promise<MonitorAnswer> {
  const parsed = monitorRequest.safeParse(raw);
  if (!parsed.success) return { ok: false, code: 'validation', message: 'the monitor takes a login request only' };
  const { site: ref, system, code, password } = parsed.data.login;
  const site = rt.sites.get(ref);
  if (!site) return { ok: false, code: 'not-found', message: `no site named "${ref}" in the monitor's data directory` };
  const systems = rt.fleet.systemsOf(site.id);
  const named = system === undefined ? undefined : systems.find((s) => s.toLowerCase() === system.toLowerCase());
  if (system !== undefined && named === undefined) {
    return { ok: false, code: 'not-found', message: `${site.name} has no system "${system}" (as last listed: ${systems.join(', ') || 'none yet; log in to the site first'})` };
  }
  const how = [code !== undefined ? 'a two-factor code' : '', password !== undefined ? 'a password' : ''].filter(Boolean).join(' and ');
  try {
    const progress = await rt.fleet.login(site.id, { ...(password !== undefined ? { password } : {}), ...(code !== undefined ? { code } : {}), ...(named !== undefined ? { system: named } : {}) });
    log(`${site.name}: logged in by "fleetdeck login"${how ? ` with ${how}` : ''}: ${progress.loggedIn.join(', ') || 'the site'}${progress.needCode.length ? `; still waiting for a code of their own: ${progress.needCode.join(', ')}` : ''}`);
    return { ok: true, site: site.name, loggedIn: progress.loggedIn, needCode: progress.needCode };
  } catch (err) {
    const sent = [password, code].filter((s): s is string => s !== undefined);
    const message = maskSecrets(redact(err instanceof Error ? err.message : String(err)), sent);
    log(`${site.name}: a login by "fleetdeck login"${how ? ` with ${how}` : ''} failed: ${message}`);
    return { ok: false, code: errorCode(err), message };
  }
}

/** The CLI's exit status for a refused answer's error code. */
export function exitOfAnswer(code: string | undefined): number {
  return code !== undefined && code in ERROR_TABLE ? EXIT[ERROR_TABLE[code as keyof typeof ERROR_TABLE].exit] : EXIT.internal;
}

/** How long a login through the running monitor may take (its own login's deadline is shorter). */
export const MONITOR_LOGIN_TIMEOUT_MS = 120_000;

/**
 * A login made by the monitor running on the data directory, in its own sessions (its polls go on
 * with it); undefined when no monitor runs there. For a window on a data directory a monitor
 * polls: the window's polls take what the monitor records, so a login made only in the window
 * would leave the site waiting for one in both.
 * @throws CodedError when a monitor runs but does not answer, or refuses the login (its message,
 *   without the secrets sent)
 */
export async function loginThroughMonitor(dataDir: string, login: MonitorRequest['login'], timeoutMs = MONITOR_LOGIN_TIMEOUT_MS): Promise<LoginProgress | undefined> {
  const sent = [login.password, login.code].filter((s): s is string => s !== undefined);
  let asked;
  try {
    asked = await askMonitor(dataDir, { login } satisfies MonitorRequest, timeoutMs);
  } catch (err) {
    throw new CodedError('unreachable', `a monitor polls this data directory, but ${maskSecrets(err instanceof Error ? err.message : String(err), sent)}; nothing was logged in. Try again once it has started`);
  }
  if (asked === undefined) return undefined;
  const answer = monitorAnswer.safeParse(asked.answer);
  if (!answer.success) throw new CodedError('protocol', 'the monitor polling this data directory answered something this version does not read; nothing is known of the login');
  if (!answer.data.ok) {
    const code: ErrorCode = answer.data.code !== undefined && answer.data.code in ERROR_TABLE ? (answer.data.code as ErrorCode) : 'internal';
    throw new CodedError(code, `the monitor polling this data directory: ${maskSecrets(answer.data.message, sent)}`);
  }
  return { loggedIn: answer.data.loggedIn, needCode: answer.data.needCode };
}
