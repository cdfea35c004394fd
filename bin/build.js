// Brings out/ up to date for `npm start`, the bench and the Electron tests. `tsc -b main` compiles
// app/, simulator/ and main/ to out/ and skips every project whose sources have not changed (its
// out/.tsbuild/*.tsbuildinfo says so). The Vite bundles (main's entries in out/bundle, renderer,
// preload) have no incremental build: each is rebuilt when a source it bundles is newer than it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE_SOURCES = ['renderer', 'app', 'main/electron/preload.ts', 'vite.config.ts', 'svelte.config.js', 'package.json'];
const BUNDLES = ['out/renderer/index.html', 'out/preload/preload.cjs'];
const MAIN_SOURCES = ['main', 'app', 'simulator', 'vite.config.ts', 'package.json'];
/** What the shells and the CLI start (`vite build --mode main`). */
export const MAIN_BUNDLES = ['out/bundle/shells/web.js', 'out/bundle/electron/main.js', 'out/bundle/cli/main.js'];

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** True when every file of `built` exists and is newer than every file under `sources`. */
function upToDate(built, sources) {
  const newestSource = Math.max(...sources.map((s) => join(root, s)).filter(existsSync).map(newest));
  return built.every((b) => existsSync(join(root, b)) && statSync(join(root, b)).mtimeMs >= newestSource);
}

/**
 * The builds' environment: the caller's without NODE_ENV. A test runner sets it to `test`, and Vite
 * follows it: a build started from a test (start.test.ts) would make out/ a Svelte development
 * bundle (runtime checks and warnings, a larger frame chunk) that the benches and e2e then run.
 * Whoever starts it, `vite build` makes the production bundle.
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
export function buildEnv(env) {
  const rest = { ...env };
  delete rest.NODE_ENV;
  return rest;
}

function run(args) {
  return spawnSync('npm', ['run', '--silent', ...args], { cwd: root, stdio: 'inherit', env: buildEnv(process.env) }).status === 0;
}

/**
 * Builds what is out of date.
 * @param {(line: string) => void} log told when the bundles are rebuilt
 * @returns {boolean} false when a build failed (its output went to this process's stdio)
 */
export function build(log) {
  if (!run(['build:node'])) return false;
  if (!upToDate(MAIN_BUNDLES, MAIN_SOURCES)) {
    log('bundling the main process…');
    if (!run(['build:main'])) return false;
  }
  if (upToDate(BUNDLES, BUNDLE_SOURCES)) return true;
  log('building the renderer…');
  return run(['build:preload']) && run(['build:renderer']);
}

// `node bin/build.js` (npm test): the same, as a command.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(build((line) => console.log(line)) ? 0 : 1);
