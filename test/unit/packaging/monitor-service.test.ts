import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EXIT } from '../../../app/errors.js';

/**
 * The monitor's service definitions as the installers ship them: the systemd unit (parsed here, and
 * checked by systemd itself where `systemd-analyze` is installed), the launchd agent, and the
 * electron-builder configuration that puts them in the packages.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string): string => readFileSync(join(repo, file), 'utf8');
const UNIT = 'build/linux/fleetdeck-monitor.service';
const PLIST = 'build/mac/io.fleetdeck.monitor.plist';

/** A unit file's sections and their keys (a key given twice keeps every value, in order). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[([A-Za-z]+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1]!, current);
      continue;
    }
    const kv = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (!kv || !current) throw new Error(`line ${i + 1} is neither a section, a key=value nor a comment: ${raw}`);
    current.set(kv[1]!, [...(current.get(kv[1]!) ?? []), kv[2]!]);
  }
  return sections;
}

describe('the monitor as a systemd service', () => {
  const unit = parseUnit(read(UNIT));
  const service = unit.get('Service')!;
  const one = (key: string): string | undefined => service.get(key)?.at(-1);

  it('runs `fleetdeck monitor` on /var/lib/fleetdeck as its own account, stopped by SIGTERM, restarted after a failure', () => {
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install']);
    expect(one('ExecStart')).toMatch(/^\/usr\/bin\/fleetdeck monitor --data-dir \/var\/lib\/fleetdeck /);
    expect(one('User')).toBe('fleetdeck');
    expect(one('StateDirectory')).toBe('fleetdeck');
    expect(one('StateDirectoryMode')).toBe('0700');
    expect(one('KillSignal')).toBe('SIGTERM');
    expect(one('Restart')).toBe('on-failure');
    // Longer than the monitor's own stop bound, so systemd does not SIGKILL a clean stop.
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThan(15);
    // What a restart cannot fix, from the one exit table.
    expect(one('RestartPreventExitStatus')?.split(' ').map(Number).sort()).toEqual([EXIT.usage, EXIT.monitorRunning].sort());
    expect(unit.get('Install')?.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('is hardened: no new privileges, a read-only system, no home, no capabilities', () => {
    for (const [key, value] of Object.entries({ NoNewPrivileges: 'yes', ProtectSystem: 'strict', ProtectHome: 'yes', PrivateTmp: 'yes', PrivateDevices: 'yes', RestrictSUIDSGID: 'yes', CapabilityBoundingSet: '', UMask: '0077' })) {
      expect(one(key), key).toBe(value);
    }
    // V8 writes the code it compiles: this option would stop the runtime.
    expect(service.has('MemoryDenyWriteExecute')).toBe(false);
  });

  it('is a unit systemd accepts without a warning (where systemd-analyze is installed)', () => {
    const which = spawnSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' });
    if (which.status !== 0) {
      // The parse above is then the check: say so once in the output.
      console.log('systemd-analyze is not installed: the unit is checked by the parse above only');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'fd-unit-'));
    try {
      // The launcher the deb installs is not on this machine: an executable stands in for it.
      const file = join(dir, 'fleetdeck-monitor.service');
      writeFileSync(file, read(UNIT).replace('/usr/bin/fleetdeck ', `${process.execPath} `));
      const verify = spawnSync(which.stdout.trim(), ['verify', '--man=no', file], { encoding: 'utf8' });
      expect(verify.status, verify.stderr).toBe(0);
      expect(verify.stderr.trim()).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the installers ship the monitor', () => {
  const config = parse(read('electron-builder.yml')) as {
    linux?: { extraResources?: Array<{ from: string; to: string }> };
    mac?: { extraResources?: Array<{ from: string; to: string }> };
    deb?: { fpm?: string[]; afterInstall?: string };
  };

  it('the deb installs the unit where systemd reads packaged units, and creates its account', () => {
    expect(config.deb?.fpm).toContain(`${UNIT}=/usr/lib/systemd/system/fleetdeck-monitor.service`);
    const install = read(config.deb!.afterInstall!);
    expect(install).toMatch(/useradd --system .*fleetdeck/);
    expect(install).toContain('systemctl daemon-reload');
  });

  it('every package carries its service definition in resources/', () => {
    expect(config.linux?.extraResources).toContainEqual({ from: UNIT, to: 'fleetdeck-monitor.service' });
    expect(config.mac?.extraResources).toContainEqual({ from: PLIST, to: 'io.fleetdeck.monitor.plist' });
  });

  it('the launchd agent runs the CLI inside the app on `monitor`, restarting it only after a failure', () => {
    const plist = read(PLIST);
    expect(plist).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<!DOCTYPE plist /);
    expect(plist).toMatch(/<key>Label<\/key>\s*<string>io\.fleetdeck\.monitor<\/string>/);
    expect(plist).toMatch(/<key>ProgramArguments<\/key>\s*<array>\s*<string>\/Applications\/Fleetdeck\.app\/Contents\/Resources\/bin\/fleetdeck<\/string>\s*<string>monitor<\/string>\s*<\/array>/);
    expect(plist).toMatch(/<key>KeepAlive<\/key>\s*<dict>\s*<key>SuccessfulExit<\/key>\s*<false\/>/);
    // Balanced tags: every element opened is closed.
    const opened = (plist.match(/<(dict|array|plist)>|<plist [^>]*>/g) ?? []).length;
    const closed = (plist.match(/<\/(dict|array|plist)>/g) ?? []).length;
    expect(opened).toBe(closed);
  });
});
