import { parseArgs } from 'node:util';
import { describeClockOffset } from '../../../app/answers/time.js';
import { getOperation, ValidationError } from '../../../app/catalog/index.js';
import { redact, secretValues } from '../../../app/redact.js';
import { shellWord, terminalField } from '../../../app/safe-text.js';
import { siteNotices } from '../../../app/domain/site-notices.js';
import type { Level } from '../../../app/health/level.js';
import type { Rollup } from '../../../app/health/rollup.js';
import { systemReasons } from '../../../app/health/connection.js';
import { rollupAnswers, systemLevel, systemRollup } from '../../../app/health/system-health.js';
import { pinnedValidity } from '../../client/index.js';
import { osUser, type Runtime } from '../../runtime.js';
import { resolveDataDir } from '../../store/data-dir.js';
import { askMonitor } from '../../monitor/lock.js';
import { exitOfAnswer, monitorAnswer, type MonitorRequest } from '../../monitor/requests.js';
import { startNewLog } from '../../store/stores.js';
import { DATA_DIR, withRuntime } from '../context.js';
import { CliError, EXIT, firstLine, printJson, printRow, type CliIo } from '../io.js';
import { applySecretArgs, SECRET_OPTIONS } from '../secret-args.js';
import { pairsToParams, parseBody, timeoutOption } from './call.js';
import { logForwardCommand, logForwardStatusCommand, verifySyslogCommand } from './log-forward.js';

/** `fleetdeck refresh [--site NAME]... [--force] [--json]`: refresh and print each system's state. */
export async function refreshCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { ...DATA_DIR, site: { type: 'string', multiple: true }, force: { type: 'boolean', default: true }, json: { type: 'boolean', default: false } },
  });
  return withRuntime(io, values['data-dir'], async (rt) => {
    const sites = (values.site ?? rt.sites.list().map((s) => s.id)).map((ref) => {
      const site = rt.sites.get(ref);
      if (!site) throw new CliError(`no site named "${ref}"`, EXIT.usage);
      return site;
    });
    if (!sites.length) throw new CliError('no sites: add one with "fleetdeck site add"', EXIT.usage);
    await rt.fleet.refresh({ siteIds: sites.map((s) => s.id), force: values.force ?? true });
    // Read after the refresh: it may have learned how a site takes its token.
    const notices = new Map(
      sites.map((site) => {
        const now = rt.sites.get(site.id) ?? site;
        const expiredSince = now.tls.pinSha256 ? pinnedValidity(now.tls.pinnedCertPem)?.expiredSince : undefined;
        return [site.id, siteNotices({ tls: { expiredSince }, auth: now.auth }).map((n) => `${n.tone}: ${n.text}`)] as const;
      }),
    );
    type Row = {
      site: string;
      system: string;
      state: string;
      /** The roll-up of the cached health, made worse by the state: the level the app's overview shows. */
      health?: Level | undefined;
      healthReasons?: string[] | undefined;
      lastSuccessAt?: string | undefined;
      lastError?: string | undefined;
      truncated?: string | undefined;
      clock?: string | undefined;
      siteNotices?: string[] | undefined;
    };
    const rows = sites.flatMap((site): Row[] => {
      const systems = rt.fleet.status(site.id);
      const siteError = rt.fleet.siteError(site.id);
      const siteNotes = notices.get(site.id)?.length ? { siteNotices: notices.get(site.id) } : {};
      if (!systems.length) return [{ site: site.name, system: '-', state: siteError ? siteErrorState(rt.fleet.siteErrorCode(site.id)) : 'unknown', lastSuccessAt: undefined, lastError: siteError, ...siteNotes }];
      return systems.map((s) => {
        const rollup = cachedRollup(rt, site.id, s.system);
        return {
          site: site.name,
          system: s.system,
          state: s.state,
          health: systemLevel(rollup, s.state),
          healthReasons: systemReasons(rollup, s.state),
          lastSuccessAt: s.lastSuccessAt,
          lastError: s.lastError,
          truncated: s.truncated,
          clock: describeClockOffset(s.clockOffsetMs),
          ...siteNotes,
        };
      });
    });
    if (values.json) printJson(io, rows);
    else {
      for (const r of rows) {
        const fields = [r.site, r.system, r.state, ...(r.health ? [`health ${r.health}${r.health !== 'ok' && r.healthReasons?.[0] ? ` (${r.healthReasons[0]})` : ''}`] : []), r.lastSuccessAt ? `as of ${r.lastSuccessAt}` : 'never refreshed', ...(r.lastError ? [r.lastError] : []), ...(r.truncated ? [`truncated: ${r.truncated}`] : []), ...(r.clock ? [r.clock] : [])];
        printRow(io, fields);
      }
      for (const site of sites) for (const note of notices.get(site.id) ?? []) printRow(io, [site.name, note]);
    }
    if (rows.every((r) => r.state === 'ok' || r.state === 'paused')) return EXIT.ok;
    // Answers the app cannot read are not a network problem: a script should be able to tell.
    return rows.some((r) => r.state === 'protocol-error') ? EXIT.protocol : EXIT.unreachable;
  });
}

/**
 * `fleetdeck login SITE [--password-stdin] [--code TOTP] [--system NAME]` and `fleetdeck logout
 * SITE`. A code logs in one system (one-time codes are accepted once): the systems still waiting
 * for theirs are printed with the command that logs each in, and the exit code is 6 until none is.
 */
export async function loginCommand(io: CliIo, args: readonly string[], logout: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { ...DATA_DIR, 'password-stdin': { type: 'boolean', default: false }, code: { type: 'string' }, system: { type: 'string' } },
  });
  const ref = positionals[0];
  if (positionals.length !== 1 || !ref) throw new CliError(`usage: fleetdeck ${logout ? 'logout' : 'login'} SITE`, EXIT.usage);
  const password = values['password-stdin'] ? firstLine(await io.readStdin()) : undefined;
  if (!logout) {
    const through = await loginThroughMonitor(io, values['data-dir'], { site: ref, ...(values.system !== undefined ? { system: values.system } : {}), ...(values.code ? { code: values.code } : {}), ...(password !== undefined ? { password } : {}) });
    if (through !== undefined) return through;
  }
  return withRuntime(io, values['data-dir'], async (rt) => {
    const site = rt.sites.get(ref);
    if (!site) throw new CliError(`no site named "${ref}"`, EXIT.usage);
    if (logout) {
      await rt.fleet.logout(site.id);
      io.stdout(`logged out of ${site.name}: session tokens forgotten\n`);
      return EXIT.ok;
    }
    const system = values.system;
    if (system !== undefined && !rt.fleet.systemsOf(site.id).some((s) => s.toLowerCase() === system.toLowerCase())) {
      throw new CliError(`${site.name} has no system "${system}" (as last listed: ${rt.fleet.systemsOf(site.id).join(', ') || 'none yet; log in to the site first'})`, EXIT.usage);
    }
    const progress = await rt.fleet.login(site.id, { ...(password !== undefined ? { password } : {}), ...(values.code ? { code: values.code } : {}), ...(system !== undefined ? { system } : {}) });
    return loggedIn(io, site.name, progress, '');
  });
}

/** How long a login through the running monitor may take (its own login's deadline is shorter). */
const MONITOR_LOGIN_TIMEOUT_MS = 120_000;

/**
 * A login made by the monitor running on the data directory, in its own sessions (its polls of a
 * site waiting for a code or a password go on at once); undefined when no monitor runs there.
 * @throws CliError when one runs but does not take it, or refuses it
 */
async function loginThroughMonitor(io: CliIo, dataDirFlag: string | undefined, login: { site: string; system?: string; code?: string; password?: string }): Promise<number | undefined> {
  const dataDir = resolveDataDir({ flag: dataDirFlag, env: io.env });
  let asked;
  try {
    asked = await askMonitor(dataDir, { login } satisfies MonitorRequest, MONITOR_LOGIN_TIMEOUT_MS);
  } catch (err) {
    throw new CliError(`a monitor runs on ${dataDir}, but ${(err as Error).message}; nothing was logged in. Try again once it has started`, EXIT.unreachable);
  }
  if (asked === undefined) return undefined;
  const by = asked.holder ? `the running monitor (process ${asked.holder.pid})` : 'the running monitor';
  const answer = monitorAnswer.safeParse(asked.answer);
  if (!answer.success) throw new CliError(`${by} answered something this version does not read; nothing is known of the login`, EXIT.protocol);
  if (!answer.data.ok) throw new CliError(`${by}: ${answer.data.message}`, exitOfAnswer(answer.data.code));
  return loggedIn(io, answer.data.site, answer.data, ` through ${by}`);
}

/** Prints a login's progress; the exit status says whether systems still wait for a code of their own. */
function loggedIn(io: CliIo, siteName: string, progress: { loggedIn: readonly string[]; needCode: readonly string[] }, how: string): number {
  // System names are the systems' own: one field each, and a quoted word in the command to paste.
  const names = (list: readonly string[]): string => list.map(terminalField).join(', ');
  io.stdout(progress.loggedIn.length ? `logged in to ${siteName}${how}: ${names(progress.loggedIn)}\n` : `logged in to ${siteName}${how}\n`);
  if (!progress.needCode.length) return EXIT.ok;
  const windows = process.platform === 'win32';
  io.stderr(
    `fleetdeck: ${names(progress.needCode)} ${progress.needCode.length === 1 ? 'needs a two-factor code of its own' : 'each need a two-factor code of their own'} (a code is accepted once). When your authenticator shows the next code, run:\n` +
      `  fleetdeck login ${shellWord(siteName, windows)} --system ${shellWord(progress.needCode[0] ?? '', windows)} --code NEXT_CODE\n`,
  );
  return EXIT.auth;
}

/** `fleetdeck call SITE [--system NAME] "METHOD /path" …` on a saved site. */
export async function siteCallCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      ...DATA_DIR,
      system: { type: 'string' },
      query: { type: 'string', multiple: true, default: [] },
      header: { type: 'string', multiple: true, default: [] },
      body: { type: 'string' },
      ...SECRET_OPTIONS,
      cached: { type: 'boolean', default: false },
      timeout: { type: 'string' },
    },
  });
  const timeoutMs = timeoutOption(values.timeout);
  const [ref, opText] = positionals;
  if (positionals.length !== 2 || !ref || !opText) throw new CliError('usage: fleetdeck call SITE [--system NAME] "METHOD /path" [--query name=value]... [--body JSON]', EXIT.usage);
  let op;
  try {
    op = getOperation(opText);
  } catch (err) {
    throw new CliError((err as Error).message, EXIT.usage);
  }
  const query = pairsToParams(values.query ?? [], '--query');
  const headers = pairsToParams(values.header ?? [], '--header');
  const body = await applySecretArgs(io, op, parseBody(values.body), { stdin: values['secret-stdin'], files: values['secret-file'] ?? [], env: values['secret-env'] ?? [] });
  return withRuntime(io, values['data-dir'], async (rt) => {
    const site = rt.sites.get(ref);
    if (!site) throw new CliError(`no site named "${ref}"`, EXIT.usage);
    const system = values.system;
    if (values.cached) {
      if (!system) throw new CliError('--cached needs --system', EXIT.usage);
      const hit = rt.fleet.cached(site.id, system, op.key, query);
      if (!hit) throw new CliError(`nothing cached for ${op.key} on ${site.name}/${system}`, EXIT.unreachable);
      io.stderr(`fleetdeck: cached answer as of ${terminalField(hit.at)}${hit.stale ? ' (stale)' : ''}\n`);
      printJson(io, hit.value);
      return EXIT.ok;
    }
    try {
      const result = await rt.fleet.call(site.id, system, op, { query, body, headers, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
      if (result !== undefined) printJson(io, redact(result, secretValues(body)));
      return EXIT.ok;
    } catch (err) {
      if (err instanceof ValidationError) throw new CliError(err.message, EXIT.usage);
      throw err;
    }
  });
}

/** How a write's result reads in `fleetdeck log`. */
const RESULT_TEXT: Readonly<Record<string, string>> = { ok: 'ok', refused: 'refused', unknown: 'outcome unknown', error: 'error' };

/**
 * `fleetdeck log [--site NAME] [--since ISO] [--until ISO] [--limit N] [--json]`, `fleetdeck log
 * verify` and `fleetdeck log start-new` (after the log file was damaged or lost).
 */
export async function logCommand(io: CliIo, args: readonly string[]): Promise<number> {
  if (args[0] === 'forward') return logForwardCommand(io, args.slice(1));
  if (args[0] === 'forward-status') return logForwardStatusCommand(io, args.slice(1));
  const sub = args[0] === 'verify' || args[0] === 'start-new' ? args[0] : undefined;
  const { values } = parseArgs({
    args: sub ? args.slice(1) : [...args],
    options: {
      ...DATA_DIR,
      site: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
      syslog: { type: 'string' },
    },
  });
  if (values.syslog !== undefined && sub !== 'verify') throw new CliError('--syslog goes with "log verify"', EXIT.usage);
  if (values.syslog !== undefined) return verifySyslogCommand(io, values.syslog, values.json ?? false);
  if (sub === 'start-new') {
    // Not through the runtime: it is what to run when the runtime refuses writes over the log.
    const dataDir = resolveDataDir({ flag: values['data-dir'], env: io.env });
    const started = startNewLog(dataDir, osUser());
    io.stdout(
      started.keptAs
        ? `the damaged action log was kept as ${started.keptAs} (SHA-256 ${started.sha256 ?? '?'}); a new log started, its first record names it\n`
        : 'the action log was missing; a new log started, its first record says so\n',
    );
    return EXIT.ok;
  }
  return withRuntime(io, values['data-dir'], async (rt) => {
    if (sub === 'verify') {
      const result = rt.actionLog.verify();
      if (result.ok) {
        io.stdout(`action log intact: ${result.count} record(s), hash chain verified: the intents and outcomes of ${result.writes} write(s)\n`);
        return EXIT.ok;
      }
      for (const p of result.problems) io.stderr(`record ${p.seq}: ${terminalField(p.reason)}\n`);
      throw new CliError(`action log verification FAILED: ${result.problems.length} problem(s) in ${result.count} record(s)`, rt.actionLog.unusable ? EXIT.store : EXIT.api);
    }
    const site = values.site ? rt.sites.get(values.site) : undefined;
    if (values.site && !site) throw new CliError(`no site named "${values.site}"`, EXIT.usage);
    const rows = rt.actionLog.list({
      ...(site ? { siteId: site.id } : {}),
      ...(values.since ? { since: timeOption(values.since, '--since') } : {}),
      ...(values.until ? { until: timeOption(values.until, '--until') } : {}),
      ...(values.limit ? { limit: limitOption(values.limit) } : {}),
    });
    if (values.json) printJson(io, rows);
    else for (const r of rows) printRow(io, [String(r.seq), r.at, r.user, `${r.siteId}/${r.system}`, r.operation, RESULT_TEXT[r.result] ?? r.result, r.message]);
    return EXIT.ok;
  }, { secrets: false });
}

/** A system's health roll-up from the offline cache (its drives' SMART too), as the app's overview and the health report compute it. */
function cachedRollup(rt: Runtime, siteId: string, system: string): Rollup {
  return systemRollup(rollupAnswers((r) => rt.fleet.cached(siteId, system, r.op, r.query)?.value, rt.smart.lookup(siteId, system)), Date.now());
}

/** The state shown for a site none of whose systems is known yet, from why it could not be listed. */
function siteErrorState(code: string | undefined): string {
  switch (code) {
    case 'unreachable':
      return 'unreachable';
    case 'certificate':
      return 'certificate-changed';
    case 'login-required':
    case 'auth':
      return 'login-required';
    case 'protocol':
      return 'protocol-error';
    default:
      return 'error';
  }
}

function timeOption(text: string, option: string): Date {
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new CliError(`${option} takes a time like 2026-01-31T13:45:00Z, not "${text}"`, EXIT.usage);
  return at;
}

function limitOption(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`--limit takes a whole number of records, 1 or more, not "${text}"`, EXIT.usage);
  return n;
}
