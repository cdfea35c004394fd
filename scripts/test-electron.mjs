#!/usr/bin/env node
// `npm run test:electron`: the real Electron window, driven by Playwright (test/electron/): the app
// from the project folder (app.spec.ts), then as packaged by `electron-builder --dir`
// (packaged.spec.ts). Needs the Electron runtime, which `npm ci` downloads where the Electron release
// host is reachable; where it is not, says so in one line and exits 0. Not part of `npm test`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../bin/build.js';
import { APP_DIR, electronBinary } from '../bin/electron-binary.js';

const electron = electronBinary();
if (!electron.path) {
  console.log(`test:electron: skipped, the Electron runtime is not available here (${electron.reason})`);
  process.exit(0);
}
if (!build((line) => console.log(`test:electron: ${line}`))) process.exit(1);

/**
 * Packages the built app for this OS into a folder (no installer), as `npm run dist` would.
 * @param {string} out the folder electron-builder writes to
 * @returns {{ dir: string } | { error: string }} the unpacked app's folder, or why there is none
 *   (packaged.spec.ts then fails with it: a packaging failure is a test failure, not a skip).
 */
function packageApp(out) {
  const node = spawnSync(process.execPath, [join(APP_DIR, 'scripts/check-node.mjs')], { encoding: 'utf8' });
  if (node.status !== 0) return { error: node.stderr.trim() };
  console.log('test:electron: packaging the app (electron-builder --dir)…');
  // electron-builder's own script on this Node (no npx: Windows cannot spawn npx.cmd without a shell).
  const cli = createRequire(import.meta.url).resolve('electron-builder/cli.js');
  const r = spawnSync(process.execPath, [cli, '--dir', '--config', 'electron-builder.yml', '--publish', 'never', `-c.directories.output=${out}`], { cwd: APP_DIR, stdio: 'inherit' });
  if (r.status !== 0) return { error: `electron-builder --dir exited with ${r.status}` };
  const unpacked = readdirSync(out).find((name) => /-unpacked$|^mac/.test(name));
  return unpacked ? { dir: join(out, unpacked) } : { error: `no unpacked app in ${out}` };
}

// Not under test-results/: Playwright empties its output folder before the specs run.
const out = mkdtempSync(join(tmpdir(), 'fleetdeck-packaged-'));
const packaged = packageApp(out);
const run = spawnSync('npx', ['playwright', 'test', '-c', 'playwright.electron.config.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, FLEETDECK_ELECTRON_BINARY: electron.path, ...('dir' in packaged ? { FLEETDECK_PACKAGED_DIR: packaged.dir } : { FLEETDECK_PACKAGED_ERROR: packaged.error }) },
});
rmSync(out, { recursive: true, force: true });
process.exit(run.status ?? 1);
