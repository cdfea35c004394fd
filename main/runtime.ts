import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BulkJobs, fleetSender } from './core/bulk.js';
import { AlertEngine } from './alerts/alert-engine.js';
import { AlertStore } from './alerts/alert-store.js';
import { ComplianceService } from './compliance/compliance-service.js';
import { ScoreHistory } from './compliance/score-history.js';
import { dataDirBaseline } from './compliance/baseline-source.js';
import { SearchIndex } from './search/search-index.js';
import { Fleet } from './core/fleet.js';
import { HealthSummaries } from './core/health-summaries.js';
import { AnswerDigests } from './core/answer-digests.js';
import { SmartVerdicts } from './core/smart-verdicts.js';
import { StartGate, type StartGateOptions } from './core/start-gate.js';
import { createHandlers, type Forwarding, type Handlers, type WhatIf } from './ipc/handlers.js';
import type { SaveDialogs } from './reports/save-grants.js';
import { ReportService } from './reports/service.js';
import { ReportStore } from './reports/store.js';
import { monitorHolder } from './monitor/lock.js';
import { loginThroughMonitor, type MonitorRequest } from './monitor/requests.js';
import { describeAccount } from './secrets/accounts.js';
import { openSecretStore, type SecretStore } from './secrets/secret-store.js';
import { keychainSecretLimit, SizeLimitedSecretStore } from './secrets/size-limited-store.js';
import type { ActionLog } from './store/action-log.js';
import type { Database } from './store/driver.js';
import type { OfflineCache } from './store/offline-cache.js';
import { SiteStore } from './store/site-store.js';
import { nodePolicySources, presetToSite, readMachinePolicy, type PolicyState } from './policy/machine-policy-file.js';
import { PolicyGuard } from './policy/policy-guard.js';
import { openStores } from './store/stores.js';
import { SelectionScopes } from './store/selection-scopes.js';
import { SystemOutcomes } from './store/system-outcomes.js';
import type { Timers } from './core/deadline.js';
import { checkForwardSetting, type ForwardPolicy, type ForwardSetting } from '../app/domain/syslog-forward.js';
import type { PolicySyslog } from '../app/policy/machine-policy.js';
import { changeForwardSetting, forwardSettingInForce, forwardSettingStamp } from './audit/forward-settings.js';
import { SyslogForwarder, storedStatus } from './audit/syslog-forwarder.js';
import { SyslogOutbox } from './store/syslog-outbox.js';

export interface RuntimeOptions {
  dataDir: string;
  /** Force the in-memory secret store (demo fleet, tests). */
  memorySecrets?: boolean;
  /**
   * The keychain to use instead of the OS's (tests: one store shared by the runtimes of a data
   * directory, as the OS keychain is shared by the app and a CLI process). Wins over `memorySecrets`.
   */
  keychain?: SecretStore;
  /** Keychain call timeout, ms. */
  keychainTimeoutMs?: number;
  timeoutMs?: number;
  /** Printed once when no keychain is usable, and for each data file that was rebuilt, kept in memory or is unusable. */
  warn?: (message: string) => void;
  scopedSite?: string | undefined;
  simulatedSiteIds?: ReadonlySet<string>;
  /** Where exports the admin asks for are saved (the Electron shell passes its save dialog); without it they are handed to the window to download. */
  saveFile?: SaveDialogs;
  /** Told when a secret is over the keychain's cap and kept in memory for the run (the Electron shell shows it). */
  onSecretInMemory?: (account: string, bytes: number, limit: number) => void;
  /** The demo fleet's simulator behind `demo:whatif` (only `startDemoFleet` passes it). */
  whatIf?: WhatIf;
  /** Clock and timers of the fleet's deadlines and retry waits (tests: to see what was waited). */
  timers?: Timers;
  /** Keep the fleet search index (default true; the CLI, which never searches, says false). */
  searchIndex?: boolean;
  /** When background start-up work runs (tests: fake timers; see {@link StartGate}). */
  startGate?: StartGateOptions;
  /** Puts secrets from elsewhere in front of the keychain (the monitor's service-account passwords from a file or the environment). */
  secretsOverlay?: (store: SecretStore, sites: SiteStore) => SecretStore;
  /**
   * Background polls defer to a monitor holding the data dir's lock (default true): they take what
   * it recorded instead of reading the systems. The monitor itself says false.
   */
  deferToMonitor?: boolean;
  /**
   * Forward the action log to the syslog collector in force (default true: the app and the
   * monitor). CLI commands say false: their records wait in the outbox for a forwarding process.
   */
  forward?: boolean;
  /** The machine policy's syslog setting, when it forces one: it replaces the admin's, shown as managed. */
  forwardPolicy?: ForwardPolicy | undefined;
  /** The machine policy (tests); default: read from the OS's policy file (main/policy/machine-policy-file.ts). */
  policy?: PolicyState;
}

/** Everything main runs on: stores, secrets, the fleet and the IPC handlers, for one data dir. */
export interface Runtime {
  dataDir: string;
  /** The offline cache's connection. */
  db: Database;
  sites: SiteStore;
  cache: OfflineCache;
  actionLog: ActionLog;
  secrets: SecretStore;
  fleet: Fleet;
  reports: ReportService;
  /** The fleet search index (`search:query`). */
  search: SearchIndex;
  /** Bulk changes (one write on several systems), kept in memory for this run. */
  bulk: BulkJobs;
  /** Alert rules and alerts, evaluated after every refresh of a system. */
  alerts: AlertEngine;
  /** Every system's health summary, computed when its cached answers change. */
  summaries: HealthSummaries;
  /** Compliance with the baseline in force: evaluation, waivers, kept scores. */
  compliance: ComplianceService;
  /** Every drive's SMART verdict, parsed once per cached text: what drive levels read. */
  smart: SmartVerdicts;
  handlers: Handlers;
  keychainWarning?: string | undefined;
  /** What happened to the data files on opening (see `openStores`). */
  storeWarnings: string[];
  /** The syslog outbox in the action log's database (undefined when the log is unusable). */
  outbox: SyslogOutbox | undefined;
  /** The forwarder of this process (undefined when `forward` is false or the log is unusable). */
  forwarder: SyslogForwarder | undefined;
  /** Audit-trail forwarding as the `forward:*` channels and `log forward` use it (undefined when the log is unusable). */
  forwarding: Forwarding | undefined;
  /** The syslog setting in force: the policy's, else the admin's. @throws StoreError for an invalid settings file */
  forwardSetting(): { setting: ForwardSetting | undefined; managed: boolean };
  /**
   * The machine policy in force: `policy.readOnly` (why every write is refused), the forced
   * settings in `policy.state.policy` (`syslog`, `metrics`, `minPollIntervalSeconds`), the update
   * feed in `policy.state.updateUrl`.
   */
  policy: PolicyGuard;
  close(): Promise<void>;
}

/** The app's version, from the package.json above this module (source and compiled layouts differ). */
export const APP_VERSION: string = findPackageVersion();

function findPackageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) return '0.0.0';
  }
}

/** Opens the core on a data directory (created 0700 if missing). */
export async function openRuntime(o: RuntimeOptions): Promise<Runtime> {
  // The data files first: a data directory that cannot even be created stops here, before the keychain is asked.
  const stores = openStores(o.dataDir);
  for (const w of stores.warnings) o.warn?.(w);
  let keychainWarning: string | undefined;
  const opened = o.keychain ?? await openSecretStore({
    ...(o.memorySecrets ? { disable: true } : {}),
    ...(o.keychainTimeoutMs ? { timeoutMs: o.keychainTimeoutMs } : {}),
    onFallback: (reason) => {
      // Memory by request (demo fleet, FLEETDECK_KEYCHAIN=memory) is not a problem to warn about.
      if (o.memorySecrets) return;
      keychainWarning = `No usable OS keychain (${reason}): passwords and session tokens are kept in memory for this run only and never written to disk.`;
      o.warn?.(keychainWarning);
    },
  });
  const limit = opened.kind === 'keychain' ? keychainSecretLimit(process.platform) : undefined;
  const kept: SecretStore = limit
    ? new SizeLimitedSecretStore(opened, limit, (account, bytes) => {
        o.warn?.(`kept in memory for this run only, never on disk: ${describeAccount(account)} (${bytes} bytes, more than the ${limit} the OS keychain holds); it is asked for again at the next start`);
        o.onSecretInMemory?.(account, bytes, limit);
      })
    : opened;
  const { cache, actionLog } = stores;
  const policyState = o.policy ?? (await readMachinePolicy(nodePolicySources(process.platform)));
  const policy = new PolicyGuard(policyState);
  for (const n of policyState.notes) o.warn?.(n);
  if (policyState.status === 'refused' && policyState.readOnly) o.warn?.(policyState.readOnly);
  actionLog.guard = (what) => policy.assertWritable(what);
  const sites = new SiteStore({ dataDir: o.dataDir, policy });
  const presets = policyState.policy?.sites ?? [];
  if (presets.length > 0) {
    const at = new Date().toISOString();
    try {
      for (const w of await sites.applyPresets(presets.map((p) => presetToSite(p, at)))) {
        o.warn?.(w);
        stores.warnings.push(w);
      }
    } catch (err) {
      const w = `the machine policy's sites could not be added: ${err instanceof Error ? err.message : String(err)}`;
      o.warn?.(w);
      stores.warnings.push(w);
    }
  }
  const secrets = o.secretsOverlay ? o.secretsOverlay(kept, sites) : kept;
  const fleet = new Fleet({ sites, secrets, cache, actionLog, outcomes: new SystemOutcomes(stores.cacheDb), selectionScopes: new SelectionScopes(stores.cacheDb), user: osUser(), ...(o.deferToMonitor === false ? {} : { polledElsewhere: async () => (await monitorHolder(o.dataDir)) !== undefined }), ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}), ...(o.timers ? { timers: o.timers } : {}) });
  // Before the alert engine and the shells: a status event reaches them with the system's summary already computed.
  // One SMART verdict per cached text, for the summaries and the alert rules both.
  const smart = new SmartVerdicts(fleet);
  const summaries = new HealthSummaries({ fleet, db: stores.cacheDb, warn: (m) => o.warn?.(m), smart });
  summaries.start();
  // One digest per poll of each volatile answer (node and drive lists, health), for the alert engine and the search index both.
  const digests = new AnswerDigests(fleet);
  const baseline = dataDirBaseline(o.dataDir);
  if (baseline.problem) o.warn?.(baseline.problem);
  const compliance = new ComplianceService({ cache, sites: () => sites.shared(), actionLog, user: osUser(), history: new ScoreHistory(stores.reportsDb), baseline: baseline.source });
  const alerts = new AlertEngine({ store: new AlertStore(stores.alertsDb), fleet, actionLog, user: osUser(), siteIds: () => sites.list().map((s) => s.id), warn: (m) => o.warn?.(m), digests, scopedSite: o.scopedSite, compliance, smart });
  alerts.start();
  const reports = new ReportService({
    fleet,
    sites,
    actionLog,
    store: new ReportStore(stores.reportsDb),
    user: osUser(),
    appVersion: APP_VERSION,
    compliance,
  });
  const bulk = new BulkJobs({ send: fleetSender(fleet) });
  const outbox = stores.logDb ? new SyslogOutbox(stores.logDb) : undefined;
  const forwardPolicy = o.forwardPolicy ?? policyForward(policyState.policy?.syslog, (m) => o.warn?.(m));
  const forwardSetting = (): { setting: ForwardSetting | undefined; managed: boolean } => forwardSettingInForce(o.dataDir, forwardPolicy);
  const forwarder =
    outbox && o.forward !== false
      ? new SyslogForwarder({ outbox, setting: forwardSetting, settingStamp: () => forwardSettingStamp(o.dataDir), onAppend: (l) => actionLog.onAppend(l) })
      : undefined;
  forwarder?.start();
  const forwarding: Forwarding | undefined = outbox && {
    status: () => forwarder?.status() ?? storedStatus(outbox, forwardSetting()),
    set: (setting) => {
      changeForwardSetting({ dataDir: o.dataDir, policy: forwardPolicy, actionLog, user: osUser(), setting });
      forwarder?.wake();
      return forwarder?.status() ?? storedStatus(outbox, forwardSetting());
    },
  };
  // The index's background reading waits until the window has painted its first frame (or no window asks).
  const startGate = new StartGate(o.startGate);
  const search = new SearchIndex({ fleet, sites: () => sites.shared(), warn: (m) => o.warn?.(m), digests, afterStart: (run) => startGate.after(run) });
  if (o.searchIndex !== false) search.start();
  const handlers = createHandlers({
    fleet,
    sites,
    actionLog,
    version: APP_VERSION,
    keychain: secrets.kind,
    keychainWarning,
    storeWarnings: stores.warnings,
    simulatedSiteIds: o.simulatedSiteIds ?? new Set(),
    scopedSite: o.scopedSite,
    reports,
    bulk,
    alerts,
    search,
    summaries,
    compliance,
    startGate,
    user: osUser(),
    forwarding,
    ...(o.deferToMonitor === false ? {} : { monitorLogin: (login: MonitorRequest['login']) => loginThroughMonitor(o.dataDir, login) }),
    ...(o.saveFile ? { saveFile: o.saveFile } : {}),
    ...(o.whatIf ? { whatIf: o.whatIf } : {}),
  });
  return {
    dataDir: o.dataDir,
    db: stores.cacheDb,
    sites,
    cache,
    actionLog,
    secrets,
    fleet,
    reports,
    bulk,
    alerts,
    search,
    summaries,
    compliance,
    smart,
    handlers,
    keychainWarning,
    storeWarnings: stores.warnings,
    outbox,
    forwarder,
    forwarding,
    forwardSetting,
    policy,
    close: async () => {
      // First: its last confirmation is written while the log's database is still open.
      await forwarder?.stop();
      startGate.close();
      search.close();
      alerts.stop();
      // The running refreshes end before the databases close (libsql aborts the process on some
      // calls after close); the summaries' last batch is stored after their last status.
      await fleet.close();
      summaries.stop();
      stores.close();
      sites.close();
    },
  };
}

export function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

/**
 * The machine policy's collector as the forwarder's setting (TLS unless it says tcp). One the
 * forwarder cannot use is named and forwarding stays off: never sent where the policy did not say.
 */
export function policyForward(s: PolicySyslog | undefined, warn: (message: string) => void): ForwardPolicy | undefined {
  if (!s) return undefined;
  try {
    return checkForwardSetting({ target: `${s.transport ?? 'tls'}://${s.target}`, ...(s.pinSha256 ? { pinSha256: s.pinSha256 } : {}), ...(s.caBundlePem ? { ca: s.caBundlePem } : {}) });
  } catch (err) {
    warn(`the machine policy's syslog collector cannot be used, forwarding is off: ${err instanceof Error ? err.message : String(err)}`);
    return 'off';
  }
}
