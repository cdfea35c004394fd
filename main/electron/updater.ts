import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import type { AppUpdater } from 'electron-updater';

/**
 * Updates from a feed IT hosts and names, never from us: electron-updater's generic provider (a
 * folder of installers and the `latest*.yml` electron-builder writes beside them) at the URL of the
 * machine policy. Off unless the policy names one; there is no per-user setting, since any process
 * of the user could then point the app at its own feed. An update is downloaded in the background
 * and installed only when the admin agrees and no write is running.
 */

/** Where the machine policy is read, per OS: only administrators can write there. */
export const POLICY_FILES: Partial<Record<NodeJS.Platform, string>> = {
  linux: '/etc/fleetdeck/policy.json',
  darwin: '/Library/Application Support/Fleetdeck/policy.json',
};
/** On Windows: a REG_SZ value under HKLM (what Group Policy writes). */
export const POLICY_REGISTRY = { key: 'HKLM\\SOFTWARE\\Policies\\Fleetdeck', value: 'UpdateUrl' } as const;

/** The update feed from the machine policy: its URL, or why there is none (undefined: not configured). */
export interface UpdatePolicy {
  url?: string;
  /** Why a configured policy is not used (wrong owner, not https …), for the log. */
  problem?: string;
}

/** How the policy is read (tests hand in fakes). */
export interface PolicySources {
  platform: NodeJS.Platform;
  readFile(path: string): Promise<string>;
  /** Owner and mode of a file. */
  stat(path: string): Promise<{ uid: number; mode: number }>;
  /** `reg query`'s output for a value, or undefined when the key or value does not exist. */
  queryRegistry(key: string, value: string): Promise<string | undefined>;
}

/** The policy as this machine holds it: its files, and `reg query` on Windows. */
export function nodePolicySources(platform: NodeJS.Platform): PolicySources {
  return {
    platform,
    readFile: (path) => readFile(path, 'utf8'),
    stat: (path) => stat(path),
    queryRegistry: (key, value) =>
      new Promise((resolve) => {
        // reg.exe exits 1 when the key or value does not exist.
        execFile('reg', ['query', key, '/v', value], { windowsHide: true, timeout: 10_000 }, (err, stdout) => resolve(err ? undefined : stdout));
      }),
  };
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** The feed URL, checked: https only (the feed's answers are trusted as they come, see README). */
function feed(url: unknown, where: string): UpdatePolicy {
  if (typeof url !== 'string' || url.trim() === '') return { problem: `${where} has no update URL` };
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return { problem: `${where}: the update URL is not a URL` };
  }
  if (parsed.protocol !== 'https:') return { problem: `${where}: the update URL must be https, not ${parsed.protocol}` };
  return { url: parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/` };
}

/**
 * Reads the update feed from the machine policy. On Linux and macOS a JSON file `{ "updateUrl": <an https
 * URL> }`, used only when owned by root and writable by no one else; on Windows the registry
 * value {@link POLICY_REGISTRY}. Never throws: a policy that cannot be used comes back as `problem`.
 */
export async function readUpdatePolicy(s: PolicySources): Promise<UpdatePolicy> {
  if (s.platform === 'win32') {
    const out = await s.queryRegistry(POLICY_REGISTRY.key, POLICY_REGISTRY.value).catch(() => undefined);
    if (out === undefined) return {};
    const m = new RegExp(`^\\s*${POLICY_REGISTRY.value}\\s+REG_(?:EXPAND_)?SZ\\s+(.+?)\\s*$`, 'im').exec(out);
    return feed(m?.[1], `${POLICY_REGISTRY.key}\\${POLICY_REGISTRY.value}`);
  }
  const file = POLICY_FILES[s.platform];
  if (!file) return {};
  let text: string;
  let st: { uid: number; mode: number };
  try {
    st = await s.stat(file);
    text = await s.readFile(file);
  } catch (err) {
    return isMissing(err) ? {} : { problem: `${file} cannot be read: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (st.uid !== 0 || (st.mode & 0o022) !== 0) return { problem: `${file} is ignored: it must be owned by root and writable by no one else` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: `${file} is not JSON` };
  }
  return feed((json as { updateUrl?: unknown } | null)?.updateUrl, file);
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
