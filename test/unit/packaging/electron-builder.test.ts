import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RUNTIME_V8_FLAGS } from '../../../main/heap.js';

/**
 * The packaging configuration, checked without building (installers need the Electron runtime,
 * which these machines cannot download): what goes into the package, what stays out, targets per
 * OS, native modules, icons, and that the entry point is a file the build produces.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string): string => readFileSync(join(repo, file), 'utf8');

interface BuilderConfig {
  appId?: string;
  productName?: string;
  directories?: { app?: string; buildResources?: string; output?: string };
  asar?: boolean;
  asarUnpack?: string[];
  files?: string[];
  npmRebuild?: boolean;
  extraMetadata?: { main?: string };
  publish?: unknown;
  linux?: { target?: string[]; icon?: string; executableName?: string; extraResources?: Resource[] };
  win?: { target?: string[]; icon?: string; extraResources?: Resource[] };
  mac?: { target?: string[]; icon?: string; extraResources?: Resource[] };
  deb?: { depends?: string[]; afterInstall?: string; afterRemove?: string };
}

interface Resource {
  from: string;
  to: string;
}

interface PackageJson {
  productName?: string;
  main?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const config = parse(read('electron-builder.yml')) as BuilderConfig;
const pkg = JSON.parse(read('package.json')) as PackageJson;

interface MinimatchPattern {
  negate: boolean;
  match(path: string, partial?: boolean): boolean;
}
/** The minimatch electron-builder itself resolves (app-builder-lib's), so globs mean what they mean to it. */
const { Minimatch } = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'))('minimatch') as {
  Minimatch: new (pattern: string, options: { dot: boolean }) => MinimatchPattern;
};

/**
 * Whether electron-builder packages a file (a path relative to the app directory), by the same rule
 * as its file filter (app-builder-lib's minimatchAll, with `dot: true`): patterns apply in order, a
 * match is only re-tested against later negations and a miss only against later inclusions.
 */
function packaged(file: string, patterns: readonly string[] = config.files ?? []): boolean {
  let match = false;
  for (const pattern of patterns.map((p) => new Minimatch(p, { dot: true }))) {
    if (match !== pattern.negate) continue;
    match = pattern.match(file);
  }
  return match;
}

/** electron-builder's own schema check of a configuration (what `electron-builder` runs first). */
const { validateConfiguration } = createRequire(import.meta.url)('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration: (config: unknown, debugLogger: { isEnabled: boolean; add: () => void }) => Promise<void>;
};

/** Width and height from a PNG's IHDR chunk (after checking the signature). */
/** `vite build --mode main`'s options that decide where each entry and chunk is written. */
async function mainBundleConfig(): Promise<{ outDir: string; input: Record<string, string>; entryFileNames: string; chunkFileNames: string }> {
  type Build = { outDir: string; rollupOptions: { input: Record<string, string>; output: { entryFileNames: string; chunkFileNames: string } } };
  const { default: configFor } = (await import('../../../vite.config.js')) as { default: (env: { mode: string; command: string }) => { build: Build } };
  const { outDir, rollupOptions } = configFor({ mode: 'main', command: 'build' }).build;
  return { outDir, input: rollupOptions.input, ...rollupOptions.output };
}

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it('names the app and sets every directory explicitly', () => {
    expect(config.appId).toMatch(/^[a-z][a-z0-9]*(\.[a-z0-9-]+)+$/);
    expect(config.productName).toBe('Fleetdeck');
    expect(config.productName).toBe(pkg.productName);
    // app/ holds shared source: without an explicit app directory electron-builder would take it.
    expect(config.directories).toEqual({ app: '.', buildResources: 'build', output: 'dist' });
    // A generic feed only so that latest*.yml is written; never reachable (.invalid), never published to.
    expect(config.publish).toEqual({ provider: 'generic', url: expect.stringMatching(/^https:\/\/[a-z.]+\.invalid\//) });
    expect(read('package.json')).toMatch(/"dist": "[^"]*electron-builder [^"]*--publish never"/);
  });

  it("passes electron-builder's own schema validation, which refuses a wrong one", async () => {
    const logger = { isEnabled: false, add: () => undefined };
    await expect(validateConfiguration(structuredClone(config), logger)).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...structuredClone(config), asar: 'maybe' }, logger)).rejects.toThrow(/configuration\.asar/);
  });

  it('packages the compiled app and nothing of the sources, tests or tooling', () => {
    for (const file of ['package.json', 'out/bundle/electron/main.js', 'out/bundle/cli/main.js', 'out/bundle/chunks/runtime-abc123.js', 'out/preload/preload.cjs', 'out/renderer/index.html', 'out/renderer/assets/index-abc123.js', 'bin/fleetdeck.js']) {
      expect(packaged(file), `${file} is packaged`).toBe(true);
    }
    // tsc's per-module output is not what the app starts (out/bundle is), and the maps stay home.
    for (const file of ['test/x.ts', 'main/x.ts', 'renderer/x.svelte', 'renderer/App.svelte', 'app/x.ts', 'simulator/cli.ts', 'scripts/setup', 'docs/interface.md', '.ci/run', 'out/main/electron/main.js', 'out/app/catalog/operations.js', 'out/simulator/index.js', 'out/bundle/electron/main.js.map', 'out/bundle/chunks/runtime-abc123.js.map', 'tsconfig.json', 'electron-builder.yml', 'vite.config.ts', 'README.md', 'build/icon.png']) {
      expect(packaged(file), `${file} stays out`).toBe(false);
    }
  });

  it('the matcher itself tells included from excluded (so the checks above can fail)', () => {
    expect(packaged('main/x.ts', ['**/*'])).toBe(true);
    expect(packaged('main/x.ts', ['**/*', '!main/**'])).toBe(false);
    expect(packaged('out/x.js', ['!out/**', 'out/**'])).toBe(true);
  });

  it('builds the renderer without a source map, so none is served or shipped', async () => {
    const { default: configFor } = (await import('../../../vite.config.js')) as { default: (env: { mode: string; command: string }) => { build?: { sourcemap?: unknown } } };
    expect(configFor({ mode: 'production', command: 'build' }).build?.sourcemap).toBe(false);
  });

  it('targets AppImage and deb on Linux, NSIS on Windows, dmg on macOS, each with an icon', () => {
    expect(config.linux?.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.linux?.icon).toBe('build/icons');
    expect(config.win?.icon).toBe('build/icon.ico');
    expect(config.mac?.icon).toBe('build/icon.png');
  });

  it('packs into asar with native modules unpacked and not rebuilt (they are N-API: one build serves Node and Electron)', () => {
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
    for (const native of ['node_modules/keytar/build/Release/keytar.node', 'node_modules/@libsql/linux-x64-gnu/index.node', 'node_modules/@libsql/win32-x64-msvc/index.node']) {
      expect((config.asarUnpack ?? []).some((p) => new Minimatch(p, { dot: true }).match(native)), native).toBe(true);
    }
  });

  it('ships keytar and libsql as runtime dependencies, Electron and the builder as dev tools', () => {
    expect(pkg.dependencies?.['better-sqlite3']).toBeUndefined();
    for (const runtime of ['keytar', 'libsql']) {
      expect(pkg.dependencies?.[runtime], runtime).toBeDefined();
      expect(pkg.devDependencies?.[runtime], runtime).toBeUndefined();
    }
    // electron-builder refuses electron in dependencies: the runtime comes with the package.
    expect(pkg.devDependencies?.electron).toBeDefined();
    expect(pkg.dependencies?.electron).toBeUndefined();
    expect(pkg.devDependencies?.['electron-builder']).toBeDefined();
  });

  it('keeps the libraries an Electron app needs in the deb dependencies, plus libsecret for keytar', () => {
    // `depends` replaces electron-builder's defaults rather than adding to them.
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['libgtk-3-0', 'libnss3', 'libxss1', 'libxtst6', 'xdg-utils', 'libatspi2.0-0', 'libuuid1', 'libnotify4', 'libsecret-1-0']));
  });

  it('points main at the file the build writes, and that file loads what the build writes beside it', async () => {
    const main = config.extraMetadata?.main;
    expect(main).toBe('out/bundle/electron/main.js');
    expect(pkg.main).toBe(main);
    expect(packaged(main!)).toBe(true);
    // `vite build --mode main` bundles main/electron/main.ts to out/bundle/electron/main.js, and every
    // entry and chunk two folders below out/, as tsc's out/main/electron/main.js was.
    const bundle = await mainBundleConfig();
    expect(bundle.outDir).toBe(join(repo, 'out/bundle'));
    expect(bundle.input['electron/main']).toBe(join(repo, 'main/electron/main.ts'));
    expect(join('out/bundle', bundle.entryFileNames.replace('[name]', 'electron/main'))).toBe(main);
    expect(bundle.chunkFileNames).toMatch(/^[a-z]+\/[^/]+\.js$/);
    // The entry loads ../../preload/preload.cjs, which `vite build --mode preload` writes to out/preload.
    expect(read('main/electron/main.ts')).toContain("new URL('../../preload/preload.cjs', import.meta.url)");
    expect(read('vite.config.ts')).toMatch(/outDir: here\('out\/preload'\)[\s\S]*fileName: \(\) => 'preload\.cjs'/);
    // The renderer is served from out/renderer (launch.ts: ../../renderer/ from out/main/shells).
    expect(read('vite.config.ts')).toMatch(/outDir: here\('out\/renderer'\)/);
    expect(read('main/shells/launch.ts')).toContain("new URL('../../renderer/', import.meta.url)");
  });

  it('has real icons in build/: 512×512 and 256×256 PNGs and an ICO with a 256 px entry', () => {
    expect(pngSize(readFileSync(join(repo, 'build/icon.png')))).toEqual({ width: 512, height: 512 });
    expect(pngSize(readFileSync(join(repo, 'build/icons/512x512.png')))).toEqual({ width: 512, height: 512 });
    expect(pngSize(readFileSync(join(repo, 'build/icons/256x256.png')))).toEqual({ width: 256, height: 256 });
    const ico = readFileSync(join(repo, 'build/icon.ico'));
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const entries = Array.from({ length: count }, (_, i) => {
      const e = 6 + 16 * i;
      const size = ico[e] === 0 ? 256 : (ico[e] as number);
      const offset = ico.readUInt32LE(e + 12);
      return { size, image: pngSize(ico.subarray(offset, offset + ico.readUInt32LE(e + 8))) };
    });
    expect(entries.map((e) => e.size)).toContain(256);
    for (const e of entries) expect(e.image).toEqual({ width: e.size, height: e.size });
  });

  it('ships the fleetdeck CLI launcher in the Linux packages (AppImage and deb), macOS and Windows, beside the app', () => {
    const launcher = { from: 'build/bin/fleetdeck', to: 'bin/fleetdeck' };
    expect(config.linux?.extraResources).toContainEqual(launcher);
    expect(config.mac?.extraResources).toContainEqual(launcher);
    expect(config.win?.extraResources).toContainEqual({ from: 'build/bin/fleetdeck.cmd', to: 'bin/fleetdeck.cmd' });
    if (process.platform !== 'win32') expect(statSync(join(repo, 'build/bin/fleetdeck')).mode & 0o111).not.toBe(0);
    // Both run the CLI entry inside the packaged app on the app's runtime as Node.
    expect(packaged('bin/fleetdeck.js')).toBe(true);
    for (const file of ['build/bin/fleetdeck', 'build/bin/fleetdeck.cmd']) {
      expect(read(file), file).toMatch(/ELECTRON_RUN_AS_NODE=1/);
      expect(read(file), file).toMatch(/app\.asar[\\/]bin[\\/]fleetdeck\.js/);
    }
    expect(read('build/bin/fleetdeck.cmd')).toMatch(/"%~dp0\.\.\\\.\.\\Fleetdeck\.exe"/);
  });

  it('the deb puts the launcher on the PATH as /usr/bin/fleetdeck, and takes it away on removal', () => {
    expect(config.linux?.executableName).toBe('fleetdeck');
    expect(config.deb?.afterInstall).toBe('build/linux/after-install.sh');
    expect(config.deb?.afterRemove).toBe('build/linux/after-remove.sh');
    const install = read('build/linux/after-install.sh');
    expect(install).toMatch(/app='\/opt\/\$\{sanitizedProductName\}'/);
    expect(install).toContain(`ln -sf "$app/resources/bin/fleetdeck" '/usr/bin/\${executable}'`);
    // The deb's AppArmor profile (written by electron-builder to resources/) is still installed.
    expect(install).toContain('/etc/apparmor.d/${executable}');
    expect(read('build/linux/after-remove.sh')).toContain("rm -f '/usr/bin/${executable}'");
    // electron-builder fills ${name} macros and refuses unknown ones: only its own are used.
    for (const file of ['build/linux/after-install.sh', 'build/linux/after-remove.sh']) {
      expect([...read(file).matchAll(/\$\{([a-zA-Z]+)\}/g)].map((m) => m[1]).filter((n) => !['executable', 'sanitizedProductName'].includes(n!)), file).toEqual([]);
    }
  });

  it('ships an AppArmor profile with the AppImage (Ubuntu 23.10+ refuses the sandbox without one)', () => {
    expect(config.linux?.extraResources).toContainEqual({ from: 'build/linux/apparmor-appimage', to: 'apparmor-appimage' });
    const profile = read('build/linux/apparmor-appimage');
    expect(profile).toMatch(/^profile fleetdeck-appimage \/opt\/fleetdeck-appimage\/fleetdeck flags=\(unconfined\) \{\n\s+userns,/m);
  });

  it.runIf(process.platform !== 'win32')('the launcher, reached through a /usr/bin-style link, runs the CLI on the runtime beside it with ELECTRON_RUN_AS_NODE=1', () => {
    // An installed layout: <app>/fleetdeck (the runtime; here Node, which runs a script as Electron
    // does as Node, behind a check that it was asked to), <app>/resources/app.asar (here the
    // project itself), the launcher.
    const root = mkdtempSync(join(tmpdir(), 'fd-launcher-'));
    try {
      const app = join(root, 'opt', 'Fleetdeck');
      mkdirSync(join(app, 'resources', 'bin'), { recursive: true });
      writeFileSync(join(app, 'fleetdeck'), `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo 'would open a window' >&2; exit 99; }\nprintf '%s\\n' "$@" > '${join(root, 'args')}'\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
      symlinkSync(repo, join(app, 'resources', 'app.asar'));
      writeFileSync(join(app, 'resources', 'bin', 'fleetdeck'), read('build/bin/fleetdeck'), { mode: 0o755 });
      mkdirSync(join(root, 'usr', 'bin'), { recursive: true });
      symlinkSync(join(app, 'resources', 'bin', 'fleetdeck'), join(root, 'usr', 'bin', 'fleetdeck'));
      const out = execFileSync(join(root, 'usr', 'bin', 'fleetdeck'), ['operations', '--json'], { encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '' } });
      expect((JSON.parse(out) as unknown[]).length).toBe(129);
      // The runtime gets the V8 options first (read when the heap is set up), then the CLI entry.
      expect(readFileSync(join(root, 'args'), 'utf8').split('\n').slice(0, RUNTIME_V8_FLAGS.length + 1)).toEqual([...RUNTIME_V8_FLAGS, join(app, 'resources', 'app.asar', 'bin', 'fleetdeck.js')]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
