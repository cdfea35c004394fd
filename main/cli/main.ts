import { parseArgs } from 'node:util';
import { alertsCommand } from './commands/alerts.js';
import { callCommand, timeoutOption } from './commands/call.js';
import { complianceCommand } from './commands/compliance.js';
import { monitorCommand } from './commands/monitor.js';
import { operationsCommand } from './commands/operations.js';
import { logCommand, loginCommand, refreshCommand, siteCallCommand } from './commands/fleet.js';
import { reportCommand } from './commands/report.js';
import { siteCommand } from './commands/site.js';
import { exitCodeList } from '../../app/errors.js';
import { CliError, EXIT, processIo, terminalIo, type CliIo } from './io.js';
import { toCliError } from './errors.js';
import { SECRET_OPTIONS } from './secret-args.js';

const USAGE = `fleetdeck — manage a fleet of clustered storage systems

Usage:
  fleetdeck operations [--json]
      Print the operation catalog of the storage management interface.
  fleetdeck call --url URL --user USER --password-stdin [--system NAME] "METHOD /path"
                 [--query name=value]... [--header name=value]... [--body JSON]
                 [--secret-file FIELD=PATH]... [--secret-env FIELD=VARIABLE]...
                 [--code TOTP] [--trust SHA256] [--ca FILE] [--allow-http] [--timeout MS]
      Log in, select the system if asked, make one call and print its JSON answer.

  fleetdeck site add NAME --url URL --user USER [--password-stdin] [--trust SHA256] [--ca FILE]
                 [--group G] [--tag T]... [--allow-http]
  fleetdeck site list [--json] | site edit NAME [...] | site remove NAME | site trust NAME [--trust SHA256]
  fleetdeck site pause NAME | site resume NAME
  fleetdeck site export FILE [--site NAME]... [--force]
  fleetdeck site import FILE [--dry-run] [--replace] [--json]
      Move site lists between workstations: names, URLs, users, groups, tags, pins and polling,
      never a password. Import refuses a file with any malformed entry or secret-looking field
      (each named, nothing imported); a conflict with a site here is named and skipped, or with
      --replace takes the file's version.
  fleetdeck login SITE [--password-stdin] [--code TOTP] [--system NAME] | fleetdeck logout SITE
      A two-factor code logs in one system (codes are accepted once); the systems still waiting
      for a code of their own are named, with the command for each (exit 6 until none waits).
  fleetdeck refresh [--site NAME]... [--json]
      Refresh sites and print each system's state.
  fleetdeck call SITE [--system NAME] "METHOD /path" [--query name=value]... [--body JSON] [--cached]
                 [--secret-stdin FIELD] [--secret-file FIELD=PATH]... [--secret-env FIELD=VARIABLE]...
                 [--timeout MS]
      Call an operation on a saved site (writes are recorded in the action log). A write's secrets
      (ChapSecret, Password, …) go in with --secret-*, never in --body, which the process list shows.
      Operations that say how long they run (a node utility's timeoutSeconds, the performance
      analyzer's iterations) get a timeout derived from it unless --timeout is given.
      GET /systems/select is refused: choose the system with --system.
  fleetdeck log [--site NAME] [--since ISO] [--until ISO] [--limit N] [--json] | fleetdeck log verify
      Every write: intended (recorded before it is sent), then ok, refused or outcome unknown.
  fleetdeck log forward --to tcp://HOST:PORT|tls://HOST:PORT [--trust SHA256|--ca FILE] | log forward --off
      Forward every action-log record to a syslog collector (RFC 5424 over TCP or TLS), in order,
      at least once; the app and "fleetdeck monitor" send, records queue while the collector is away.
  fleetdeck log forward --flush [--timeout SECONDS] | log forward-status [--json]
      Send what is queued now and wait for it to be confirmed (exit 3 if it is not in time); print
      the target, the last record acknowledged, the queue length and the last error.
  fleetdeck log verify --syslog FILE [--json]
      Verify a collector's file: every workstation's chain in it, unbroken; names missing records.
  fleetdeck log start-new
      Only after the action log file was damaged or lost (writes are refused until then): keeps the
      file aside and starts a new log whose first record names it.
  fleetdeck report KIND [--site NAME]... [--format pdf,html,csv,json] --out DIR [--offline]
                 [--since ISO] [--until ISO]
      KIND: inventory, health, smart, config, actions, compliance or audit (all of them). Refreshes first
      unless --offline; writes the formats plus manifest.json (SHA-256 of every file) and keeps
      the report in the history.
  fleetdeck report verify DIR [--manifest-sha256 HEX]
      Check every file against manifest.json; names any file changed, missing or added.
  fleetdeck report list [--json] | report diff ID1 ID2 [--json]
  fleetdeck report export ID --out DIR [--format pdf,html,csv,json]
  fleetdeck alerts [--site NAME] [--all] [--json]
      The alerts not cleared (--all: with the cleared history), after evaluating each system's
      cached state with the rules in force. Exit 12 when any alert is open (not acknowledged, not
      snoozed), else 0.
  fleetdeck compliance [--baseline FILE] [--site NAME]... [--json] | compliance --print-baseline
      Every cached system against a compliance baseline (without --baseline: the data
      directory's compliance-baseline.yaml, else the shipped secure baseline): per check pass, FAIL, CANNOT TELL (data missing,
      unreadable or too old) or n/a, with the value, the operation it came from and its age, and
      the score. Reads the offline cache only. Exit 13 when any check fails without a waiver, else 0.
  fleetdeck compliance waive CHECK [--site NAME [--system NAME]] --reason TEXT --until ISO
  fleetdeck compliance unwaive CHECK [--site NAME [--system NAME]]
      A waiver (recorded in the action log's hash chain) excuses a failing check until it ends:
      shown as "waived (reason, by, until)" and not counted as failing. Without --site: every system.
  fleetdeck compliance fix CHECK [--site NAME]... [--yes]
      The exact writes that fix a check where it fails (without a waiver), printed and not sent;
      --yes sends them as bulk changes, reads those systems again and evaluates the check again
      (exit 13 while it still fails there, 9 or 1 when a write's outcome is unknown or refused).
  fleetdeck monitor [--data-dir DIR] [--metrics-listen ADDR:PORT] [--metrics-web-config FILE]
                    [--secrets-file FILE]
      Polls every site at its interval and evaluates the alerts, with no window, until SIGTERM or
      SIGINT; one line per event on stderr. One monitor per data directory (exit 14 names the one
      running). Passwords from the keychain, --secrets-file (JSON {"site": "password"}, mode 600)
      or FLEETDECK_SECRET_<SITE>. --metrics-listen serves /metrics for Prometheus.

Every command that uses saved sites takes --data-dir DIR (default: $FLEETDECK_DATA_DIR, else the
platform's app-data folder). FLEETDECK_KEYCHAIN=memory keeps secrets in memory only. A machine
policy (see README, "Machine policy for IT") may make every write end with exit 15.

Exit codes:
${exitCodeList()}
`;

/** Runs one CLI invocation; returns the exit code. */
export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  // Systems' text (names, messages) reaches the terminal: nothing in it may act on the terminal.
  const io = terminalIo(rawIo);
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'operations': {
        const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean', default: false } }, strict: true });
        return operationsCommand(io, values.json ?? false);
      }
      case 'call':
        return rest.some((a) => a === '--url' || a.startsWith('--url=')) ? await runCall(rest, io) : await siteCallCommand(io, rest);
      case 'site':
        return await siteCommand(io, rest);
      case 'refresh':
        return await refreshCommand(io, rest);
      case 'login':
      case 'logout':
        return await loginCommand(io, rest, command === 'logout');
      case 'log':
        return await logCommand(io, rest);
      case 'report':
        return await reportCommand(io, rest);
      case 'alerts':
        return await alertsCommand(io, rest);
      case 'compliance':
        return await complianceCommand(io, rest);
      case 'monitor':
        return await monitorCommand(io, rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout(USAGE);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        throw new CliError(`unknown command "${command}"\n\n${USAGE}`, EXIT.usage);
    }
  } catch (err) {
    const e = isParseArgsError(err) ? new CliError(`${(err as Error).message}\n${commandUsage(command ?? '')}`, EXIT.usage) : toCliError(err);
    io.stderr(`fleetdeck: ${e.message}\n`);
    return e.exitCode;
  }
}

/**
 * The usage lines of one command, for a mistake in its options: the admin reads how the command
 * is called, not the whole help (which `fleetdeck help` prints).
 */
export function commandUsage(command: string): string {
  const lines: string[] = [];
  let inCommand = false;
  for (const line of USAGE.split('\n')) {
    if (/^\s+fleetdeck /.test(line)) inCommand = line.trimStart().startsWith(`fleetdeck ${command} `) || line.trim() === `fleetdeck ${command}`;
    else if (!/^\s+\[/.test(line)) inCommand = false;
    if (inCommand) lines.push(line);
  }
  return `${lines.length ? `usage:\n${lines.join('\n')}\n` : ''}("fleetdeck help" lists every command and option)`;
}

function isParseArgsError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? '';
  return code.startsWith('ERR_PARSE_ARGS');
}

async function runCall(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string' },
      user: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      system: { type: 'string' },
      code: { type: 'string' },
      query: { type: 'string', multiple: true, default: [] },
      header: { type: 'string', multiple: true, default: [] },
      body: { type: 'string' },
      trust: { type: 'string' },
      ca: { type: 'string' },
      'allow-http': { type: 'boolean', default: false },
      timeout: { type: 'string' },
      ...SECRET_OPTIONS,
    },
  });
  if (positionals.length !== 1) throw new CliError(`call takes one operation, like "GET /hosts/list"\n\n${USAGE}`, EXIT.usage);
  if (!values.url || !values.user) throw new CliError('call needs --url and --user', EXIT.usage);
  const timeoutMs = timeoutOption(values.timeout);
  return callCommand(io, {
    url: values.url,
    user: values.user,
    passwordStdin: values['password-stdin'] ?? false,
    system: values.system,
    code: values.code,
    operation: positionals[0] as string,
    query: values.query ?? [],
    headers: values.header ?? [],
    body: values.body,
    trust: values.trust,
    caFile: values.ca,
    allowHttp: values['allow-http'] ?? false,
    timeoutMs,
    secrets: { stdin: values['secret-stdin'], files: values['secret-file'] ?? [], env: values['secret-env'] ?? [] },
  });
}

/** Entry point of the `fleetdeck` binary. */
export async function main(): Promise<void> {
  const code = await runCli(process.argv.slice(2), processIo());
  // Exit explicitly once output is flushed: a keychain call hung in native code would otherwise
  // keep the process alive after the command is done.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
