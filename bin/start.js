#!/usr/bin/env node
// `npm start`: build what is out of date, then launch the Electron app; where the Electron runtime cannot be
// obtained, say so in one line and serve the same app as the browser shell on loopback instead.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from './build.js';
import { APP_DIR, electronArgs, electronBinary } from './electron-binary.js';

const forceWeb = process.argv.includes('--web');
const args = process.argv.slice(2).filter((a) => a !== '--web');

if (!build((line) => process.stdout.write(`Fleetdeck: ${line}\n`))) process.exit(1);
const electron = forceWeb ? { reason: 'browser shell requested' } : electronBinary();
if (electron.path) {
  const child = spawn(electron.path, electronArgs(args), { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  if (!forceWeb) process.stdout.write(`Fleetdeck: the Electron runtime is not available here (${electron.reason}); serving the browser shell instead.\n`);
  const { runWeb } = await import(join(APP_DIR, 'out/bundle/shells/web.js'));
  await runWeb(args);
}
