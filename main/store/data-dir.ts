import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Folder name under the platform's app-data folder; Electron's `userData` uses the same product name. */
export const APP_FOLDER = 'Fleetdeck';

export interface DataDirSources {
  /** Value of `--data-dir`, if given. */
  flag?: string | undefined;
  /** Environment; `FLEETDECK_DATA_DIR` is read from it (and XDG_CONFIG_HOME, APPDATA). */
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  /** The user's home directory. */
  home?: string;
}

/**
 * The data directory (site list, cache, action log, report history): the `--data-dir` flag, else
 * `FLEETDECK_DATA_DIR`, else the platform's app-data folder — Linux and other Unixes
 * `$XDG_CONFIG_HOME/Fleetdeck` or `~/.config/Fleetdeck`, macOS
 * `~/Library/Application Support/Fleetdeck`, Windows `%APPDATA%\Fleetdeck`. An explicit
 * path may start with `~` (not expanded by the shell in `--data-dir=~/x`); a relative one is taken
 * from the working directory. Empty values count as not set. Does not create the directory.
 */
export function resolveDataDir(sources: DataDirSources = {}): string {
  const env = sources.env ?? process.env;
  const platform = sources.platform ?? process.platform;
  const home = sources.home ?? os.homedir();
  // The target platform's path rules, so Windows paths are built right even when tested elsewhere.
  const p = platform === 'win32' ? path.win32 : path.posix;

  const explicit = nonEmpty(sources.flag) ?? nonEmpty(env.FLEETDECK_DATA_DIR);
  if (explicit !== undefined) {
    if (explicit === '~') return home;
    if (explicit.startsWith('~/') || (platform === 'win32' && explicit.startsWith('~\\'))) return p.join(home, explicit.slice(2));
    return p.resolve(explicit);
  }

  switch (platform) {
    case 'win32': {
      const appData = nonEmpty(env.APPDATA);
      return p.join(appData ?? p.join(home, 'AppData', 'Roaming'), APP_FOLDER);
    }
    case 'darwin':
      return p.join(home, 'Library', 'Application Support', APP_FOLDER);
    default: {
      // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
      const xdg = nonEmpty(env.XDG_CONFIG_HOME);
      return p.join(xdg !== undefined && p.isAbsolute(xdg) ? xdg : p.join(home, '.config'), APP_FOLDER);
    }
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/**
 * Creates the data directory (and missing parents) private to this user, mode 0700, and narrows
 * an existing one that others can read or enter (an earlier Fleetdeck or another tool may have
 * created it with the default 0755). Modes are not applied on Windows, where the profile folder's
 * ACL already keeps other users out.
 */
export function ensureDataDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const mode = fs.statSync(dir).mode & 0o777;
  if (mode & 0o077) fs.chmodSync(dir, mode & 0o700);
}

/** Narrows an existing data file to 0600 (owner only); a missing file is left alone. */
export function tightenFile(file: string): void {
  if (process.platform === 'win32') return;
  let mode: number;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    return;
  }
  if (mode & 0o077) fs.chmodSync(file, mode & 0o600);
}

/** Makes a rename or link inside `dir` durable; a no-op where directories cannot be opened (Windows). */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Windows cannot open a directory; its renames are durable once they return.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Suffix of the marker next to a rebuildable file whose damage showed while running: the next start moves it aside. */
export const DAMAGED_SUFFIX = '.damaged';

/** Leaves the marker that makes the next start move `file` aside and rebuild it. */
export function markDamaged(file: string): void {
  try {
    fs.writeFileSync(`${file}${DAMAGED_SUFFIX}`, '', { mode: 0o600 });
  } catch {
    // Read-only or full: the error the caller reports already names the file and what to do.
  }
}
