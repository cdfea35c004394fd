#!/usr/bin/env -S node --no-memory-reducer --retain-maps-for-n-gc=16
// The bundled CLI lives in out/bundle (built by `npm ci` through the prepare script, or `npm run build`).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rawArgsFromEcho, splitWindowsArgs } from './windows-args.js';

// Started by the Windows fleetdeck.cmd: the arguments are in the file it wrote, unparsed.
const argsFile = process.env.FLEETDECK_ARGS_FILE;
if (argsFile) {
  delete process.env.FLEETDECK_ARGS_FILE;
  const raw = rawArgsFromEcho(readFileSync(argsFile, 'utf8'));
  if (raw === undefined) {
    process.stderr.write('fleetdeck: fleetdeck.cmd did not record the arguments\n');
    process.exit(2);
  }
  process.argv.splice(2, Infinity, ...splitWindowsArgs(raw));
}
const entry = new URL('../out/bundle/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('fleetdeck: not built yet; run `npm run build` in the project folder\n');
  process.exit(2);
}
const { main } = await import(entry.href);
await main();
