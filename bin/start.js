#!/usr/bin/env node
// `npm start`: build if needed, then launch the Electron app; where the Electron runtime cannot be
// obtained, say so in one line and serve the same app as the browser shell on loopback instead.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const forceWeb = process.argv.includes('--web');
const args = process.argv.slice(2).filter((a) => a !== '--web');

/** The Electron binary, or the reason it cannot be had. */
function electronBinary() {
  if (process.env.FLEETDECK_NO_ELECTRON === '1') return { reason: 'FLEETDECK_NO_ELECTRON=1' };
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

if (!buildIfNeeded((line) => process.stdout.write(`Fleetdeck: ${line}\n`))) process.exit(1);
const electron = forceWeb ? { reason: 'browser shell requested' } : electronBinary();
if (electron.path) {
  const child = spawn(electron.path, [join(root, 'out/main/electron/main.js'), ...args], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  if (!forceWeb) process.stdout.write(`Fleetdeck: the Electron runtime is not available here (${electron.reason}); serving the browser shell instead.\n`);
  const { runWeb } = await import(join(root, 'out/main/shells/web.js'));
  await runWeb(args);
}
