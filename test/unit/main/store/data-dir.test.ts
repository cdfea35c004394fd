import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../../../main/store/index.js';

describe('resolveDataDir', () => {
  const home = '/home/ada';

  it('prefers the --data-dir flag, then FLEETDECK_DATA_DIR', () => {
    const env = { FLEETDECK_DATA_DIR: '/srv/env-dir', XDG_CONFIG_HOME: '/xdg' };
    expect(resolveDataDir({ flag: '/srv/flag-dir', env, platform: 'linux', home })).toBe('/srv/flag-dir');
    expect(resolveDataDir({ env, platform: 'linux', home })).toBe('/srv/env-dir');
    expect(resolveDataDir({ flag: '', env, platform: 'linux', home })).toBe('/srv/env-dir');
    expect(resolveDataDir({ env: { FLEETDECK_DATA_DIR: 'C:\\Fleet' }, platform: 'win32', home: 'C:\\Users\\ada' })).toBe('C:\\Fleet');
  });

  it('expands a leading ~ and resolves a relative path from the working directory', () => {
    expect(resolveDataDir({ flag: '~/fleet', env: {}, platform: 'linux', home })).toBe('/home/ada/fleet');
    expect(resolveDataDir({ flag: 'rel/dir', env: {}, platform: 'linux', home })).toBe(path.resolve('rel/dir'));
  });

  it('uses XDG_CONFIG_HOME or ~/.config on Linux, ignoring a relative XDG_CONFIG_HOME', () => {
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: '/xdg' }, platform: 'linux', home })).toBe('/xdg/Fleetdeck');
    expect(resolveDataDir({ env: {}, platform: 'linux', home })).toBe('/home/ada/.config/Fleetdeck');
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: 'relative' }, platform: 'linux', home })).toBe('/home/ada/.config/Fleetdeck');
  });

  it('uses Application Support on macOS', () => {
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: '/xdg' }, platform: 'darwin', home: '/Users/ada' })).toBe('/Users/ada/Library/Application Support/Fleetdeck');
  });

  it('uses %APPDATA% on Windows, or the roaming folder under the home when unset', () => {
    expect(resolveDataDir({ env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, platform: 'win32', home: 'C:\\Users\\ada' })).toBe('C:\\Users\\ada\\AppData\\Roaming\\Fleetdeck');
    expect(resolveDataDir({ env: {}, platform: 'win32', home: 'C:\\Users\\ada' })).toBe('C:\\Users\\ada\\AppData\\Roaming\\Fleetdeck');
  });

  it('reads the real environment by default', () => {
    const saved = process.env.FLEETDECK_DATA_DIR;
    process.env.FLEETDECK_DATA_DIR = '/tmp/from-process-env';
    try {
      expect(resolveDataDir()).toBe('/tmp/from-process-env');
    } finally {
      if (saved === undefined) delete process.env.FLEETDECK_DATA_DIR;
      else process.env.FLEETDECK_DATA_DIR = saved;
    }
  });
});
