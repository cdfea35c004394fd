#!/usr/bin/env node
// `npm run test:electron`: the real Electron window, driven by Playwright's Electron launcher
// (test/electron/). Needs the Electron runtime, which `npm ci` downloads where the Electron release
// host is reachable; where it is not, says so in one line and exits 0. Not part of `npm test`.
import { spawnSync } from 'node:child_process';
import { build } from '../bin/build.js';
import { electronBinary } from '../bin/electron-binary.js';

const electron = electronBinary();
if (!electron.path) {
  console.log(`test:electron: skipped, the Electron runtime is not available here (${electron.reason})`);
  process.exit(0);
}
if (!build((line) => console.log(`test:electron: ${line}`))) process.exit(1);
const run = spawnSync('npx', ['playwright', 'test', '-c', 'playwright.electron.config.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, FLEETDECK_ELECTRON_BINARY: electron.path },
});
process.exit(run.status ?? 1);
