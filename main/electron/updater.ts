import type { AppUpdater } from 'electron-updater';
import { problemText } from '../../app/policy/machine-policy.js';
import { readMachinePolicy, type PolicySources, type PolicyState } from '../policy/machine-policy-file.js';

/**
 * Updates from a feed IT hosts and names, never from us: electron-updater's generic provider (a
 * folder of installers and the `latest*.yml` electron-builder writes beside them) at the URL of the
 * machine policy. Off unless the policy names one; there is no per-user setting, since any process
 * of the user could then point the app at its own feed. An update is downloaded in the background
 * and installed only when the admin agrees and no write is running.
 */

export { POLICY_FILES, POLICY_REGISTRY, nodePolicySources, type PolicySources } from '../policy/machine-policy-file.js';

/** The update feed from the machine policy: its URL, or why there is none (undefined: not configured). */
export interface UpdatePolicy {
  url?: string;
  /** Why a configured policy is not used (wrong owner, not https …), for the log. */
  problem?: string;
}

/**
 * The update feed of the machine policy (main/policy/machine-policy-file.ts, the one reader of it):
 * its `updateUrl`, or on Windows the Group Policy registry value when the file names none. A
 * refused policy names no feed. Never throws: a policy that cannot be used comes back as `problem`.
 */
export async function readUpdatePolicy(s: PolicySources): Promise<UpdatePolicy> {
  return updatePolicyOf(await readMachinePolicy(s));
}

/** The update feed of a policy already read. */
export function updatePolicyOf(state: PolicyState): UpdatePolicy {
  if (state.status === 'refused') return { problem: `${state.file}: ${state.problems.map(problemText).join('; ')}` };
  if (state.updateUrl) return { url: state.updateUrl };
  return state.updateProblem ? { problem: state.updateProblem } : {};
}

/** What the update flow needs of electron-updater (see {@link electronUpdaterAdapter}). */
export interface UpdaterLike {
  /** Points the updater at the feed: download in the background, never install on quit, never downgrade. */
  configure(url: string): void;
  check(): Promise<unknown>;
  /** Quits and runs the downloaded installer. */
  install(): void;
  onDownloaded(listener: (version: string) => void): void;
  onError(listener: (err: Error) => void): void;
}

/** electron-updater's `autoUpdater` as {@link UpdaterLike}. */
export function electronUpdaterAdapter(u: Pick<AppUpdater, 'autoDownload' | 'autoInstallOnAppQuit' | 'allowDowngrade' | 'setFeedURL' | 'checkForUpdates' | 'quitAndInstall' | 'on'>): UpdaterLike {
  return {
    configure: (url) => {
      u.autoDownload = true;
      // Installing at quit would run whatever was downloaded without asking; the admin is asked instead.
      u.autoInstallOnAppQuit = false;
      u.allowDowngrade = false;
      u.setFeedURL({ provider: 'generic', url });
    },
    check: () => u.checkForUpdates(),
    install: () => u.quitAndInstall(false, true),
    onDownloaded: (listener) => void u.on('update-downloaded', (info) => listener(info.version)),
    onError: (listener) => void u.on('error', listener),
  };
}

/** Options of {@link startUpdates}. */
export interface UpdateOptions {
  updater: UpdaterLike;
  url: string;
  /** True while a write or a bulk change runs (asked of the core each time). */
  busy: () => boolean;
  /** Asks the admin whether to restart now and install the version; false: later. */
  confirm: (version: string) => Promise<boolean>;
  log: (line: string) => void;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** Between checks of the feed (default 6 h). */
  checkEveryMs?: number;
  /** Between looks at the core while a write runs, before asking (default 30 s). */
  idleCheckMs?: number;
}

export const DEFAULT_CHECK_EVERY_MS = 6 * 60 * 60 * 1000;
export const DEFAULT_IDLE_CHECK_MS = 30_000;

/**
 * Checks the feed now and every {@link UpdateOptions.checkEveryMs}. When an update has been
 * downloaded (and electron-updater has matched its sha512 against the feed's `latest*.yml`), waits
 * until no write runs, asks the admin, looks at the core once more, and only then installs. An
 * admin who says "later" is asked again at the next start. Returns the stop function.
 */
export function startUpdates(o: UpdateOptions): () => void {
  let stopped = false;
  let timer: unknown;
  let asked = false;
  const later = (run: () => void, ms: number): void => {
    if (!stopped) timer = o.setTimeout(run, ms);
  };
  const check = (): void => {
    void o.updater.check().catch((err: unknown) => o.log(`update check failed: ${err instanceof Error ? err.message : String(err)}`));
    later(check, o.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS);
  };
  const offer = (version: string): void => {
    if (stopped || asked) return;
    if (o.busy()) {
      o.setTimeout(() => offer(version), o.idleCheckMs ?? DEFAULT_IDLE_CHECK_MS);
      return;
    }
    asked = true;
    void o.confirm(version).then(
      (yes) => {
        if (!yes || stopped) return;
        if (o.busy()) {
          // A write started while the question was open: ask again once it has ended.
          asked = false;
          o.log(`update ${version}: a write started; installing once it has ended`);
          offer(version);
          return;
        }
        o.log(`installing update ${version}`);
        o.updater.install();
      },
      () => undefined,
    );
  };
  o.updater.onError((err) => o.log(`update failed: ${err.message}`));
  o.updater.onDownloaded((version) => {
    o.log(`update ${version} downloaded and its sha512 matched the feed`);
    offer(version);
  });
  o.updater.configure(o.url);
  check();
  return () => {
    stopped = true;
    o.clearTimeout(timer);
  };
}
