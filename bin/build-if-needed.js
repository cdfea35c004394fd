// Rebuilds out/ (`npm run build`) when a source is newer than out/.build-stamp. Used by `npm start`
// and the bench, which both run the compiled app.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds when out/ is missing or older than app/, main/, renderer/, simulator/ or package.json.
 * @param {(line: string) => void} log told once when a build starts
 * @returns {boolean} false when the build failed (its output went to this process's stdio)
 */
export function buildIfNeeded(log) {
  const stamp = join(root, 'out', '.build-stamp');
  const sources = ['app', 'main', 'renderer', 'simulator'].map((d) => join(root, d)).filter(existsSync);
  const newest = Math.max(...sources.map(newestSource), statSync(join(root, 'package.json')).mtimeMs);
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newest) return true;
  log('building…');
  return spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' }).status === 0;
}
