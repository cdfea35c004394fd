// Finding the Electron runtime without starting its download, and how to launch the app on it.
// Shared by `npm start` (bin/start.js) and `npm run test:electron` (scripts/test-electron.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder: what Electron is given, so it reads package.json (name, main) as packaged. */
export const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The Electron binary, or the reason it cannot be had. */
export function electronBinary(env = process.env) {
  if (env.FLEETDECK_NO_ELECTRON === '1') return { reason: 'FLEETDECK_NO_ELECTRON=1' };
  // Read electron's own pointer file rather than require('electron'), which would start a download.
  let dir;
  try {
    dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  const pointer = join(dir, 'path.txt');
  if (!existsSync(pointer)) return { reason: 'its runtime binary was never downloaded' };
  const binary = join(dir, 'dist', readFileSync(pointer, 'utf8').trim());
  return existsSync(binary) ? { path: binary } : { reason: `${binary} is missing` };
}

/**
 * Electron's arguments for the app: the app folder (not the main file, which would leave the app
 * named "Electron", its userData folder too), then the app's own flags.
 */
export function electronArgs(args) {
  return [APP_DIR, ...args];
}
