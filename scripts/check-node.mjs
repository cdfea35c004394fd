#!/usr/bin/env node
// `npm run dist` starts here: building installers needs Node 22.12 or newer, which electron 45,
// @electron/get and @electron/rebuild declare (the app itself and its tests run on Node 20).
// `--node-version X.Y.Z` checks that version instead of this Node's (for tests).
const MINIMUM = [22, 12, 0];
const arg = process.argv.indexOf('--node-version');
const version = arg >= 0 ? process.argv[arg + 1] ?? '' : process.versions.node;
const parts = version.split('.').map(Number);
/** Negative when version a is older than b. */
const compare = (a, b) => a.slice(0, 3).reduce((d, n, i) => d || n - (b[i] ?? 0), 0);
const tooOld = parts.length < 3 || parts.some(Number.isNaN) || compare(parts, MINIMUM) < 0;
if (tooOld) {
  console.error(
    `dist: building installers needs Node ${MINIMUM.slice(0, 2).join('.')} or newer (electron 45, @electron/get and @electron/rebuild require it); this is Node ${version}. ` +
      'Use Node 22 LTS on the workstation that builds installers (running the app and its tests needs Node 20.19 or newer).',
  );
  process.exit(1);
}
