import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuseStates, PACKAGED_FUSES } from '../../support/fuses.js';

/**
 * electron-builder run for real (`--dir`, this machine's OS) on the built app, with a stand-in for
 * the Electron runtime, which cannot be downloaded here: a file carrying Electron's fuse wire, so
 * electron-builder flips the fuses in it as in the real binary. What the packaged app is made of is
 * then read from the result: the asar's files, the unpacked native modules, the launcher, the
 * fuses, the afterPack check having run. Whether that app starts needs the real runtime
 * (test/electron/packaged.spec.ts). The stand-in is a Linux layout: this runs where CI runs.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const builderRequire = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'));
const asar = builderRequire('@electron/asar') as { listPackage(archive: string, options: { isPack: boolean }): string[]; extractFile(archive: string, file: string): Buffer };
/** Electron's fuse sentinel, then wire version 1 and eight fuses, all off until electron-builder flips them. */
const FUSE_WIRE = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX\x01\x0800000000';

describe.runIf(process.platform === 'linux')('the app as electron-builder packages it (stand-in runtime)', () => {
  const work = mkdtempSync(join(tmpdir(), 'fd-package-dir-'));
  const app = join(work, 'dist', 'linux-unpacked');
  const resources = join(app, 'resources');
  let log = '';
  let files: string[] = [];

  beforeAll(() => {
    const dist = join(work, 'electron');
    mkdirSync(dist);
    writeFileSync(join(dist, 'electron'), `#!/bin/sh\n# ${FUSE_WIRE}\n`, { mode: 0o755 });
    writeFileSync(join(dist, 'chrome-sandbox'), '', { mode: 0o755 });
    for (const f of ['LICENSE', 'LICENSES.chromium.html']) writeFileSync(join(dist, f), '');
    writeFileSync(join(dist, 'version'), '45.5.0');
    const cli = createRequire(import.meta.url).resolve('electron-builder/cli.js');
    const r = spawnSync(process.execPath, [cli, '--dir', '--linux', '--config', 'electron-builder.yml', '--publish', 'never', `-c.directories.output=${join(work, 'dist')}`, `-c.electronDist=${dist}`], { cwd: repo, encoding: 'utf8', timeout: 170_000 });
    log = `${r.stdout}\n${r.stderr}`;
    expect(r.status, log).toBe(0);
    files = asar.listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) => f.replace(/\\/g, '/'));
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('ran the afterPack check, which passed the native modules of this machine', () => {
    expect(log).toMatch(/afterPack: \d+ native modules are linux-x64 N-API modules/);
  });

  it('flipped the fuses in the binary: RunAsNode on, NODE_OPTIONS and --inspect off, asar integrity and asar-only on', async () => {
    expect(await fuseStates(join(app, 'fleetdeck'))).toEqual(PACKAGED_FUSES);
  });

  it('packs the built app and its runtime dependencies into app.asar, and none of its sources, tests or maps', () => {
    for (const f of ['/package.json', '/out/bundle/electron/main.js', '/out/bundle/cli/main.js', '/out/preload/preload.cjs', '/out/renderer/index.html', '/bin/fleetdeck.js', '/bin/windows-args.js', '/node_modules/electron-updater/package.json', '/node_modules/keytar/package.json', '/node_modules/libsql/package.json']) {
      expect(files, f).toContain(f);
    }
    // The app's own files; the dependencies' are electron-builder's to choose.
    const own = files.filter((f) => !f.startsWith('/node_modules/'));
    expect(own.filter((f) => /^\/(main|app|renderer|simulator|test|scripts|docs|build)\//.test(f) || /\.(ts|map)$/.test(f) || f.startsWith('/out/main/'))).toEqual([]);
    const pkg = JSON.parse(asar.extractFile(join(resources, 'app.asar'), 'package.json').toString()) as { main: string; desktopName: string };
    expect(pkg).toMatchObject({ main: 'out/bundle/electron/main.js', desktopName: 'fleetdeck.desktop' });
  });

  it('leaves the native modules outside the asar, where they can be loaded', () => {
    expect(existsSync(join(resources, 'app.asar.unpacked/node_modules/keytar/build/Release/keytar.node'))).toBe(true);
    expect(files.filter((f) => f.endsWith('.node')).every((f) => existsSync(join(resources, 'app.asar.unpacked', f)))).toBe(true);
  });

  it('ships the CLI launcher (executable), the AppImage AppArmor profile and the update metadata', () => {
    expect(statSync(join(resources, 'bin/fleetdeck')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(resources, 'bin/fleetdeck'), 'utf8')).toBe(readFileSync(join(repo, 'build/bin/fleetdeck'), 'utf8'));
    expect(readFileSync(join(resources, 'apparmor-appimage'), 'utf8')).toContain('/opt/fleetdeck-appimage/fleetdeck');
    expect(readFileSync(join(resources, 'app-update.yml'), 'utf8')).toMatch(/^provider: generic$/m);
  });
});
