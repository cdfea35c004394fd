#!/usr/bin/env node
// The bundled CLI lives in out/bundle (built by `npm ci` through the prepare script, or `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../out/bundle/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('fleetdeck: not built yet; run `npm run build` in the project folder\n');
  process.exit(2);
}
const { main } = await import(entry.href);
await main();
