import type { Alert } from '../../app/alerts/alert.js';
import type { Site, SystemState, SystemStatus } from '../../app/domain/site.js';
import { shellWord, terminalField } from '../../app/safe-text.js';
import { ManagedError } from '../../app/errors.js';
import { startMetricsEndpoint, type MetricsEndpoint, type MetricsEndpointOptions } from '../metrics/endpoint.js';
import { APP_VERSION, openRuntime, osUser, type Runtime } from '../runtime.js';
import { ensureDataDir } from '../store/data-dir.js';
import { acquireMonitorLock } from './lock.js';
import type { MonitorArgs } from './options.js';
import { answerRequest } from './requests.js';
import { OverlaySecretStore, ProvidedPasswords, readSecretsFile, secretEnvName, type PasswordSource } from './secrets.js';

/**
 * The headless monitor: the app's poll scheduler and alert engine on a data directory, with no
 * window and no search index, until stopped. It holds the data directory's monitor lock while it
 * runs (see `lock.ts`), so two monitors never both poll; a desktop app on the same directory
 * leaves the background polls to it (see `FleetOptions.polledElsewhere`).
 *
 * It writes one line per notable event (started, a system's state changed, an alert raised or
 * cleared, stopping): a time, then text made one safe line. Statuses and alerts carry no secret
 * (the fleet redacts them), and passwords are named by where they came from, never shown.
 */

/** How long a stop waits for the running refreshes and the stores before it gives up. */
export const STOP_BOUND_MS = 15_000;
/** How often the site list is read again for sites changed by another process. */
const SITE_RESYNC_MS = 30_000;

export interface MonitorDeps {
  /** The data directory, resolved (flag, environment or the platform's folder). */
  dataDir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** One line of the monitor's log, without its line end. */
  log: (line: string) => void;
  /** Keep secrets in memory rather than the keychain (FLEETDECK_KEYCHAIN=memory). */
  memorySecrets?: boolean;
  /** V8 options of `RUNTIME_V8_FLAGS` the process was started without: said once after the started line. */
  missingRuntimeFlags?: readonly string[];
  clock?: () => Date;
}

/** A running monitor. */
export interface RunningMonitor {
  readonly runtime: Runtime;
  readonly metrics: MetricsEndpoint | undefined;
  /** The first full refresh of every site, done. */
  readonly firstRefresh: Promise<void>;
  /** Stops polling, ends or abandons the refreshes in flight, closes the endpoint and the stores, releases the lock. */
  stop(): Promise<void>;
}

/** States that wait for an admin: the monitor does not try them again until one acts. */
const WAITS_FOR_ADMIN: ReadonlySet<SystemState> = new Set(['login-required', 'certificate-changed']);

/**
 * Starts a monitor: takes the lock, opens the runtime, starts the metrics endpoint if asked,
 * refreshes every site once in full and then polls each at its interval.
 * @throws MonitorRunningError when another monitor holds the data directory; InputError for a
 *   bad secrets file; whatever opening the stores or the endpoint throws (the lock is released).
 */
export async function startMonitor(args: MonitorArgs, d: MonitorDeps): Promise<RunningMonitor> {
  const clock = d.clock ?? (() => new Date());
  const log = (text: string): void => d.log(`${clock().toISOString()} ${terminalField(text)}`);
  // Read before anything is taken: a refused file stops here.
  const file = args.secretsFile !== undefined ? readSecretsFile(args.secretsFile) : new Map<string, string>();
  ensureDataDir(d.dataDir);
  const lock = await acquireMonitorLock({ dataDir: d.dataDir, user: osUser(), version: APP_VERSION, now: clock });
  let rt: Runtime | undefined;
  let metrics: MetricsEndpoint | undefined;
  let passwords: ProvidedPasswords | undefined;
  try {
    rt = await openRuntime({
      dataDir: d.dataDir,
      ...(d.memorySecrets ? { memorySecrets: true } : {}),
      warn: (m) => log(`warning: ${m}`),
      searchIndex: false,
      deferToMonitor: false,
      secretsOverlay: (store, sites) => {
        passwords = new ProvidedPasswords(file, d.env, sites);
        return new OverlaySecretStore(store, passwords, sites);
      },
    });
    const endpoint = metricsInForce(rt, args);
    if (endpoint) metrics = await startMetricsEndpoint(rt, endpoint);
  } catch (err) {
    await rt?.close();
    await lock.release();
    throw err;
  }
  const runtime = rt;
  // An admin's `fleetdeck login` (a two-factor code, a new password) reaches this monitor's sessions.
  lock.serve((request) => answerRequest(runtime, request, log));
  const unwatch = watch(runtime, log);
  log(startedLine(runtime, d.dataDir, passwords, metrics));
  if (d.missingRuntimeFlags?.length) {
    log(`warning: node was started without ${d.missingRuntimeFlags.join(' ')}, which the fleetdeck command passes: polling costs more CPU (start it with the fleetdeck command, or put them before the script on node's command line)`);
  }
  for (const name of passwords?.unknownFileEntries() ?? []) log(`warning: the secrets file names "${name}", which is no site of this data directory`);
  for (const names of passwords?.envClashes(runtime.sites.list()) ?? []) log(`warning: sites ${names.map((n) => `"${n}"`).join(', ')} share one environment variable for their password; give them theirs in --secrets-file instead`);

  let stopping: Promise<void> | undefined;
  let resync: NodeJS.Timeout | undefined;
  const firstRefresh = (async () => {
    // As the app's shells do at start: one full refresh of every site, then the steady polls.
    await runtime.fleet.refresh({ force: true });
    if (stopping) return;
    for (const site of runtime.sites.list()) {
      const error = runtime.fleet.siteError(site.id);
      if (error && !runtime.fleet.status(site.id).length) log(`${site.name}: ${runtime.fleet.siteErrorCode(site.id) ?? 'error'}: ${error}`);
    }
    runtime.fleet.startPolling();
    // Sites added, edited or removed by another process (the CLI, the app) are otherwise picked up
    // only when a poll of some site falls due: a monitor started on no sites would never see one.
    resync = setInterval(() => runtime.fleet.startPolling(), SITE_RESYNC_MS);
    log(`first refresh done: ${summary(runtime.fleet.status())}`);
  })().catch((err: unknown) => log(`first refresh failed: ${err instanceof Error ? err.message : String(err)}`));

  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      log('stopping: polls end, refreshes in flight are abandoned');
      clearInterval(resync);
      unwatch();
      await metrics?.close().catch(() => undefined);
      await runtime.close();
      await lock.release();
      log('stopped');
    })());
  return { runtime, metrics, firstRefresh, stop };
}

/** Logs state changes (not the `refreshing` in between) and alerts raised and cleared; returns the unsubscribe. */
function watch(rt: Runtime, log: (text: string) => void): () => void {
  const names = (): Map<string, string> => new Map(rt.sites.list().map((s) => [s.id, s.name]));
  let siteNames = names();
  const last = new Map<string, SystemState>();
  for (const s of rt.fleet.status(undefined, 'any')) last.set(key(s), s.state);
  const nameOf = (siteId: string): string => {
    if (!siteNames.has(siteId)) siteNames = names();
    return siteNames.get(siteId) ?? siteId;
  };
  const offFleet = rt.fleet.on((e) => {
    if (e.type !== 'status' || e.status.state === 'refreshing') return;
    const s = e.status;
    const before = last.get(key(s));
    if (before === s.state) return;
    last.set(key(s), s.state);
    log(stateLine(nameOf(s.siteId), before, s));
  });
  const offAlerts = rt.alerts.on((c) => {
    for (const a of c.raised) log(`alert raised: ${alertText(a, nameOf(a.siteId))}`);
    for (const a of c.cleared) log(`alert cleared: ${alertText(a, nameOf(a.siteId))}`);
  });
  return () => {
    offFleet();
    offAlerts();
  };
}

function key(s: Pick<SystemStatus, 'siteId' | 'system'>): string {
  return `${s.siteId}\u0000${s.system}`;
}

/** "paris/prod-a: ok → unreachable: no answer …"; a state that waits for an admin says what to run. */
export function stateLine(siteName: string, before: SystemState | undefined, s: SystemStatus): string {
  const change = before === undefined ? s.state : `${before} → ${s.state}`;
  const why = s.state === 'ok' || !s.lastError ? '' : `: ${s.lastError}`;
  return `${siteName}/${s.system}: ${change}${why}${waitingFor(siteName, s)}`;
}

/** What an admin runs to end a wait (the monitor asks the system nothing until then), or ''. */
function waitingFor(siteName: string, s: SystemStatus): string {
  if (!WAITS_FOR_ADMIN.has(s.state)) return '';
  const quoted = shellWord(siteName, process.platform === 'win32');
  const command =
    s.state === 'certificate-changed'
      ? `fleetdeck site trust ${quoted}`
      : /two-factor/i.test(s.lastError ?? '')
        ? `fleetdeck login ${quoted} --system ${shellWord(s.system, process.platform === 'win32')} --code CODE`
        : `fleetdeck login ${quoted} --password-stdin, or its password in --secrets-file or ${secretEnvName(siteName)}`;
  return ` (waiting for an admin, not polled until then: ${command})`;
}

function alertText(a: Alert, siteName: string): string {
  return `${a.level} ${siteName}/${a.system} ${a.rule}${a.subject ? ` ${a.subject}` : ''}: ${a.message}`;
}

/** "12 systems: 10 ok, 2 unreachable". */
function summary(statuses: readonly SystemStatus[]): string {
  const counts = new Map<string, number>();
  for (const s of statuses) counts.set(s.state, (counts.get(s.state) ?? 0) + 1);
  return `${statuses.length} systems${counts.size ? `: ${[...counts].map(([state, n]) => `${n} ${state}`).join(', ')}` : ''}`;
}

function startedLine(rt: Runtime, dataDir: string, passwords: ProvidedPasswords | undefined, metrics: MetricsEndpoint | undefined): string {
  const sites = rt.sites.list();
  const polled = sites.map((s) => `${s.name} (${polling(s)}, password from ${passwords?.lookup(s)?.source ?? ('keychain' satisfies PasswordSource)})`);
  return [
    `started: Fleetdeck ${APP_VERSION} monitor, process ${process.pid}, data dir ${dataDir}`,
    `${sites.length} site${sites.length === 1 ? '' : 's'}${sites.length ? `: ${polled.join(', ')}` : ' (add them with "fleetdeck site add")'}`,
    `secrets: ${rt.secrets.kind === 'keychain' ? 'OS keychain' : 'memory only for this run'}`,
    ...(metrics ? [`metrics at ${metrics.url}`] : []),
  ].join('; ');
}

function polling(s: Site): string {
  if (s.polling.paused) return 'paused';
  if (s.polling.intervalSeconds <= 0) return 'on demand only, not polled';
  return `every ${s.polling.intervalSeconds} s`;
}

/**
 * Where /metrics is served: the machine policy's endpoint when it sets one (a different
 * --metrics-listen is refused, not silently overridden), else the options'.
 * @throws ManagedError when the options ask for another endpoint than the policy's
 */
export function metricsInForce(rt: Pick<Runtime, 'policy'>, args: { metricsListen?: string | undefined; metricsWebConfig?: string | undefined }): MetricsEndpointOptions | undefined {
  const forced = rt.policy.state.policy?.metrics;
  if (forced) {
    const differs = (args.metricsListen !== undefined && args.metricsListen !== forced.listen) || (args.metricsWebConfig !== undefined && args.metricsWebConfig !== forced.webConfigFile);
    if (differs) throw new ManagedError(`the metrics endpoint is managed by your organisation (machine policy ${rt.policy.state.file}): ${forced.listen}; drop --metrics-listen and --metrics-web-config`);
    return { listen: forced.listen, ...(forced.webConfigFile !== undefined ? { webConfigFile: forced.webConfigFile } : {}) };
  }
  if (args.metricsListen === undefined) return undefined;
  return { listen: args.metricsListen, ...(args.metricsWebConfig !== undefined ? { webConfigFile: args.metricsWebConfig } : {}) };
}
