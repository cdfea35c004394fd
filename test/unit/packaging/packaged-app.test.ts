import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rawArgsFromEcho, splitWindowsArgs } from '../../../bin/windows-args.js';
import { afterPack, describeBinary, nativeModuleProblems } from '../../../scripts/after-pack.mjs';
import { PACKAGED_FUSES } from '../../support/fuses.js';

/**
 * What the packaged app is made of, checked without building it (installers need the Electron
 * runtime): the metadata the deb and the Linux desktop need, the fuses, the afterPack refusal of
 * another OS's native modules, the Windows CLI shim's argument passing, the AppArmor profile's paths.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string): string => readFileSync(join(repo, file), 'utf8');
const config = parse(read('electron-builder.yml')) as {
  appId: string;
  afterPack?: string;
  electronFuses?: Record<string, boolean>;
  linux?: { executableName?: string; syncDesktopName?: boolean };
};
const pkg = JSON.parse(read('package.json')) as { homepage?: string; desktopName?: string; dependencies: Record<string, string> };

describe('package metadata', () => {
  it('has a homepage (electron-builder refuses a deb without one) and a desktopName matching the desktop file', () => {
    expect(pkg.homepage).toMatch(/^https:\/\/[a-z0-9.-]+\//);
    // Electron takes desktopName as the Wayland app id and WM_CLASS; syncDesktopName names the
    // installed desktop file after it, so the running window finds its entry and icon.
    expect(pkg.desktopName).toBe(`${config.linux?.executableName}.desktop`);
    expect(config.linux?.syncDesktopName).toBe(true);
  });

  it('uses the one app id everywhere: Windows attributes notifications to it', () => {
    expect(read('main/electron/app-identity.ts')).toContain(`export const APP_ID = '${config.appId}';`);
  });

  it('ships electron-updater as a runtime dependency, left out of the main bundle (loaded from node_modules)', () => {
    expect(pkg.dependencies['electron-updater']).toBeDefined();
    expect(read('vite.config.ts')).toMatch(/MAIN_EXTERNAL = \[[^\]]*'electron-updater'/);
  });
});

describe('Electron fuses', () => {
  it('turns off NODE_OPTIONS and --inspect, checks the asar and loads only from it', () => {
    // PACKAGED_FUSES is also what the packaged binary is checked against (integration, electron specs).
    expect(config.electronFuses).toMatchObject(PACKAGED_FUSES);
    expect(PACKAGED_FUSES).toMatchObject({
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('keeps RunAsNode, because both CLI launchers depend on it, and the README says why', () => {
    expect(config.electronFuses?.runAsNode).toBe(true);
    for (const file of ['build/bin/fleetdeck', 'build/bin/fleetdeck.cmd']) expect(read(file), file).toMatch(/ELECTRON_RUN_AS_NODE=1/);
    expect(read('README.md')).toMatch(/RunAsNode/);
  });
});

/** A minimal binary header of each format, for one machine code. */
function elf(machine: number): Buffer {
  const b = Buffer.alloc(64);
  b.writeUInt32BE(0x7f454c46, 0);
  b[4] = 2;
  b[5] = 1;
  b.writeUInt16LE(machine, 18);
  return Buffer.concat([b, Buffer.from('napi_register_module_v1')]);
}
function pe(machine: number): Buffer {
  const b = Buffer.alloc(256);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  b.writeUInt16LE(machine, 0x84);
  return Buffer.concat([b, Buffer.from('napi_register_module_v1')]);
}
function macho(cpus: number[]): Buffer {
  const b = Buffer.alloc(64);
  if (cpus.length === 1) {
    b.writeUInt32LE(0xfeedfacf, 0);
    b.writeUInt32LE(cpus[0]!, 4);
  } else {
    b.writeUInt32BE(0xcafebabe, 0);
    b.writeUInt32BE(cpus.length, 4);
    cpus.forEach((cpu, i) => b.writeUInt32BE(cpu, 8 + i * 20));
  }
  return Buffer.concat([b, Buffer.from('napi_register_module_v1')]);
}

const KEYTAR = 'resources/app.asar.unpacked/node_modules/keytar/build/Release/keytar.node';
const libsql = (name: string): string => `resources/app.asar.unpacked/node_modules/@libsql/${name}/index.node`;

describe('afterPack: every packaged native module is for the package', () => {
  it('reads format and CPU from the headers of ELF, PE and (universal) Mach-O files, and whether they are N-API', () => {
    expect(describeBinary(elf(0x3e))).toEqual({ format: 'elf', archs: ['x64'], napi: true });
    expect(describeBinary(pe(0xaa64))).toEqual({ format: 'pe', archs: ['arm64'], napi: true });
    expect(describeBinary(macho([0x0100000c, 0x01000007]))).toEqual({ format: 'macho', archs: ['arm64', 'x64'], napi: true });
    expect(describeBinary(Buffer.concat([elf(0x3e), Buffer.from('node_register_module_v115')])).napi).toBe(false);
  });

  it("passes the build machine's own modules for its own target", () => {
    const files = [KEYTAR, libsql('linux-x64-gnu'), libsql('linux-x64-musl')].map((path) => ({ path, bytes: elf(0x3e) }));
    expect(nativeModuleProblems({ platform: 'linux', arch: 'x64', files })).toEqual([]);
    expect(nativeModuleProblems({ platform: 'win32', arch: 'x64', files: [KEYTAR, libsql('win32-x64-msvc')].map((path) => ({ path, bytes: pe(0x8664) })) })).toEqual([]);
    expect(nativeModuleProblems({ platform: 'darwin', arch: 'universal', files: [KEYTAR, libsql('darwin-arm64'), libsql('darwin-x64')].map((path) => ({ path, bytes: macho([0x01000007, 0x0100000c]) })) })).toEqual([]);
  });

  it('refuses a Windows package built on Linux, an arm64 package with x64 modules, and a missing keytar or libsql', () => {
    const linux = [KEYTAR, libsql('linux-x64-gnu')].map((path) => ({ path, bytes: elf(0x3e) }));
    const win = nativeModuleProblems({ platform: 'win32', arch: 'x64', files: linux });
    expect(win).toEqual(expect.arrayContaining([expect.stringMatching(/keytar\.node is a Linux \(ELF\) file, but this is a win32 package/), expect.stringMatching(/no @libsql\/win32-x64 package/), expect.stringMatching(/@libsql\/linux-x64-gnu is for another platform/)]));
    expect(nativeModuleProblems({ platform: 'linux', arch: 'arm64', files: linux })).toEqual(expect.arrayContaining([expect.stringMatching(/built for x64, but this package is for arm64/)]));
    expect(nativeModuleProblems({ platform: 'linux', arch: 'x64', files: [] })).toEqual([expect.stringMatching(/keytar\.node is missing/), expect.stringMatching(/no @libsql\/linux-x64 package/)]);
  });

  it('is the hook electron-builder runs: it reads the unpacked folder and stops the build on a foreign module', async () => {
    expect(config.afterPack).toBe('./scripts/after-pack.mjs');
    const appOutDir = mkdtempSync(join(tmpdir(), 'fd-after-pack-'));
    try {
      for (const path of [KEYTAR, libsql('linux-x64-gnu')]) {
        mkdirSync(join(appOutDir, dirname(path)), { recursive: true });
        writeFileSync(join(appOutDir, path), elf(0x3e));
      }
      // electron-builder's Arch: x64 is 1, arm64 is 3.
      await expect(afterPack({ appOutDir, electronPlatformName: 'linux', arch: 1 })).resolves.toBeUndefined();
      await expect(afterPack({ appOutDir, electronPlatformName: 'linux', arch: 3 })).rejects.toThrow(/linux-arm64 package carries native modules it cannot load/);
      await expect(afterPack({ appOutDir, electronPlatformName: 'win32', arch: 1 })).rejects.toThrow(/keytar\.node is a Linux \(ELF\) file/);
    } finally {
      rmSync(appOutDir, { recursive: true, force: true });
    }
  });
});

describe('the Windows CLI shim passes arguments intact', () => {
  const shim = read('build/bin/fleetdeck.cmd');

  it('never puts %* on a command line cmd parses again: only into an echoed rem, written to a private folder', () => {
    const lines = shim.split('\r\n');
    expect(lines.filter((l) => l.includes('%*') && !/^rem /i.test(l.trim()))).toEqual(['  for %%b in (1) do rem * #%*#']);
    expect(shim).toMatch(/echo on\r\n\s+for %%b in \(1\) do rem \* #%\*#\r\n\s+@echo off\r\n\) > "%FLEETDECK_ARGS_FILE%"/);
    // md refuses an existing folder: a file planted in TEMP beforehand is never read as the arguments.
    expect(shim).toMatch(/md "%FLEETDECK_TRY%" >nul 2>&1 && set "FLEETDECK_ARGS_DIR=%FLEETDECK_TRY%"/);
    expect(shim).toMatch(/rd \/s \/q "%FLEETDECK_ARGS_DIR%"/);
    // cmd reads a batch file line by line: CRLF throughout.
    expect(shim.replace(/\r\n/g, '')).not.toMatch(/\n/);
  });

  it('the CLI reads the echoed line and splits it as Windows programs do: & | ^ % < > ( ) stay what they are', () => {
    const echoed = '\r\nrem * #site add --name "Paris & Lyon" a|b ^caret 100%% "%PATH%" <in> (x) "q\\"uote" C:\\dir\\# \r\n';
    const raw = rawArgsFromEcho(echoed);
    expect(splitWindowsArgs(raw!)).toEqual(['site', 'add', '--name', 'Paris & Lyon', 'a|b', '^caret', '100%%', '%PATH%', '<in>', '(x)', 'q"uote', 'C:\\dir\\']);
    expect(splitWindowsArgs('"a""b" "" x\\\\"y z"')).toEqual(['a"b', '', 'x\\y z']);
    expect(rawArgsFromEcho('no marker here')).toBeUndefined();
  });

  it('the CLI entry takes its arguments from the file the shim names, not from its command line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-cmd-args-'));
    try {
      const file = join(dir, 'args.txt');
      writeFileSync(file, '\r\nrem * #"a&b|c^d 100% (x)"# \r\n');
      const run = (): string => {
        try {
          return execFileSync(process.execPath, [join(repo, 'bin/fleetdeck.js'), 'operations'], { encoding: 'utf8', stdio: 'pipe', env: { ...process.env, FLEETDECK_ARGS_FILE: file } });
        } catch (err) {
          return String((err as { stderr?: string }).stderr);
        }
      };
      expect(run()).toContain('unknown command "a&b|c^d 100% (x)"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('AppArmor profile of the AppImage', () => {
  it('attaches only to root-owned, fixed paths: no mount point a user can create, no glob', () => {
    const profile = read('build/linux/apparmor-appimage');
    const attachments = [...profile.matchAll(/^profile \S+ (\S+) flags=/gm)].map((m) => m[1]!);
    expect(attachments).toEqual(['/opt/fleetdeck-appimage/fleetdeck']);
    for (const path of attachments) {
      expect(path).toMatch(/^\/(opt|usr)\//);
      expect(path).not.toMatch(/[*?{}[\]]|\/tmp\/|\.mount_/);
    }
    expect(profile).not.toMatch(/^[^#]*\/tmp\//m);
  });
});
