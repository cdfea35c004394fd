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
 * The data directory (database, sites.json, locks): the `--data-dir` flag, else
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
