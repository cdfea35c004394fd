// Brings out/ up to date for `npm start`, the bench and the Electron tests. `tsc -b main` compiles
// app/, simulator/ and main/ to out/ and skips every project whose sources have not changed (its
// out/.tsbuild/*.tsbuildinfo says so). The two Vite bundles (renderer, preload) have no incremental
// build: they are rebuilt when a source they bundle is newer than the bundle.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE_SOURCES = ['renderer', 'app', 'main/electron/preload.ts', 'vite.config.ts', 'svelte.config.js', 'package.json'];
const BUNDLES = ['out/renderer/index.html', 'out/preload/preload.cjs'];

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function run(args) {
  return spawnSync('npm', ['run', '--silent', ...args], { cwd: root, stdio: 'inherit' }).status === 0;
}

/**
 * Builds what is out of date.
 * @param {(line: string) => void} log told when the bundles are rebuilt
 * @returns {boolean} false when a build failed (its output went to this process's stdio)
 */
export function build(log) {
  if (!run(['build:node'])) return false;
  const built = BUNDLES.map((b) => join(root, b));
  const sources = Math.max(...BUNDLE_SOURCES.map((s) => join(root, s)).filter(existsSync).map(newest));
  if (built.every((b) => existsSync(b) && statSync(b).mtimeMs >= sources)) return true;
  log('building the renderer…');
  return run(['build:preload']) && run(['build:renderer']);
}

// `node bin/build.js` (npm test): the same, as a command.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(build((line) => console.log(line)) ? 0 : 1);
