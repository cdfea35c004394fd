import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pausedCachedFleet } from '../support/cached-fleet.js';
import { shellIpc as ipc } from '../support/shell-ipc.js';
import { SimClock, startSimulator } from '../../../simulator/index.js';

/**
 * The shells and the CLI start main bundled (`vite build --mode main`, in
 * out/bundle; built by `npm test`'s build step), not tsc's ~100 modules plus zod's. What they start
 * must work from there: the browser shell serves the renderer and main's handlers from the cache,
 * the CLI reads the sites, the Electron entry finds its preload, and nothing of ours is loaded from
 * outside the bundle.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUNDLE = path.join(ROOT, 'out/bundle');
const PASSWORD = 'bundle-pw-1';
let dataDir: string;

beforeAll(async () => {
  const sim = await startSimulator({ sites: 2, systems: 2, password: PASSWORD, controlServer: false, clock: new SimClock(), seed: 'bundle' });
  try {
    // Paused, as in the cold-start bench: the started shell contacts nothing (the simulator is gone).
    dataDir = await pausedCachedFleet(sim, PASSWORD, 'bundle');
  } finally {
    await sim.close();
  }
}, 120_000);

afterAll(() => {
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = { ...process.env, FLEETDECK_KEYCHAIN: 'memory' };

/**
 * Loaded before the entry (`--import`): says on stdout when the process first compares by locale,
 * which loads ICU's collation data (tens of ms) that serving the first byte does not need.
 */
const COLLATION_PROBE = `data:text/javascript,${encodeURIComponent(`
  const say = () => { if (!globalThis.__collated) { globalThis.__collated = true; process.stdout.write('collation: first use\\n'); } };
  const compare = String.prototype.localeCompare;
  String.prototype.localeCompare = function (...a) { say(); return compare.apply(this, a); };
  const Collator = Intl.Collator;
  Intl.Collator = function (...a) { say(); return new Collator(...a); };
`)}`;


/** Every module specifier a built file imports, statically or on first use. */
function specifiers(file: string): string[] {
  const code = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of code.matchAll(/^(?:import|export)\s[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm)) found.push((m[1] ?? m[2] ?? m[3]) as string);
  return found;
}

describe('main bundled for start (out/bundle)', { timeout: 120_000 }, () => {
  it('the browser shell entry serves the renderer and the cached fleet, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', COLLATION_PROBE, path.join(BUNDLE, 'shells/web.js'), '--data-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          stdout += d;
          const m = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(out);
          if (m) resolve(m[1] as string);
        });
        child.stderr.resume();
        child.once('exit', (code) => reject(new Error(`exited ${code} before serving:\n${out}`)));
      });
      // The renderer is found from the bundle's own file (../../renderer/), as from out/main.
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(new URL(script!, url))).status).toBe(200);
      // Main's handlers answer from the cache: both sites, every system paused, nothing fetched.
      const status = (await ipc(url, 'fleet:status', {})) as Array<{ systems: Array<{ state: string }> }>;
      expect(status.flatMap((s) => s.systems).map((s) => s.state)).toEqual(['paused', 'paused', 'paused', 'paused']);
      expect(await ipc(url, 'app:info', {})).toMatchObject({ simulated: false });
      // Serving came first: the start's own bookkeeping (paused sites, summaries, search index)
      // compares nothing by locale. A view's sorted read afterwards may (fleet:status is sorted).
      expect(stdout.split('\n').findIndex((l) => l.startsWith('http://'))).toBeGreaterThanOrEqual(0);
      expect(stdout.slice(0, stdout.indexOf('http://'))).not.toContain('collation: first use');
      expect(stdout).toContain('collation: first use');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('the browser shell entry serves before main’s core is loaded: what it loads first holds no handler, fleet or runtime code', () => {
    // Its static imports, followed through the chunks (a dynamic import() waits for first use).
    const first = new Set<string>();
    const visit = (file: string): void => {
      if (first.has(file)) return;
      first.add(file);
      const code = fs.readFileSync(file, 'utf8');
      for (const m of code.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.[^"]+)"|^import\s*"(\.[^"]+)"/gm)) visit(path.resolve(path.dirname(file), (m[1] ?? m[2]) as string));
    };
    visit(path.join(BUNDLE, 'shells/web.js'));
    const code = [...first].map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    // A class as the bundler writes it (`var Fleet = class {`) or as written.
    const defines = (name: string): RegExp => new RegExp(`\\b(?:class ${name}\\b|${name} = class\\b|function ${name}\\()`);
    // The site list is read before serving (a --site naming no site stops there) …
    expect(first.size).toBeGreaterThan(1);
    expect(code).toMatch(defines('SiteStore'));
    // … the core after: its handlers, fleet and runtime are loaded while the browser loads the page.
    for (const name of ['createHandlers', 'Fleet', 'openRuntime', 'dispatch']) expect(code, name).not.toMatch(defines(name));
    // The same reading finds them in the bundle (so a miss above is not a blind spot).
    const all = fs.readdirSync(path.join(BUNDLE, 'chunks')).filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(BUNDLE, 'chunks', f), 'utf8')).join('\n');
    for (const name of ['createHandlers', 'Fleet', 'openRuntime', 'dispatch']) expect(all, name).toMatch(defines(name));
  });

  it('the CLI entry reads the saved sites', () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/fleetdeck.js'), 'site', 'list', '--json', '--data-dir', dataDir], { env, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const sites = JSON.parse(run.stdout) as Array<{ polling: { paused: boolean } }>;
    expect(sites).toHaveLength(2);
    expect(sites.every((s) => s.polling.paused)).toBe(true);
  });

  it('the Electron entry loads the preload the preload build writes', () => {
    const file = path.join(BUNDLE, 'electron/main.js');
    const preload = /new URL\("([^"]+preload\.cjs)", import\.meta\.url\)/.exec(fs.readFileSync(file, 'utf8'))?.[1];
    expect(preload).toBe('../../preload/preload.cjs');
    expect(fs.existsSync(path.resolve(path.dirname(file), preload!))).toBe(true);
  });

  it('loads nothing of ours from outside the bundle: only Node, the external packages and its own chunks', () => {
    const external = new Set(['electron', 'electron-updater', 'keytar', 'libsql', 'undici', 'pdf-lib', 'selfsigned', 'yaml']);
    const files = fs.readdirSync(BUNDLE, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(files).toEqual(expect.arrayContaining(['shells/web.js', 'electron/main.js', 'cli/main.js']));
    const outside: string[] = [];
    for (const f of files) {
      for (const s of specifiers(path.join(BUNDLE, f))) {
        if (isBuiltin(s) || external.has(s)) continue;
        const target = s.startsWith('.') ? path.resolve(BUNDLE, path.dirname(f), s) : undefined;
        if (!target || !target.startsWith(BUNDLE + path.sep) || !fs.existsSync(target)) outside.push(`${f} → ${s}`);
      }
    }
    expect(outside).toEqual([]);
    // The reading above sees the imports at all: the entry's chunks, the native modules.
    expect(specifiers(path.join(BUNDLE, 'shells/web.js'))).toEqual(expect.arrayContaining([expect.stringMatching(/^\.\.\/chunks\/.+\.js$/), 'node:http']));
    expect(files.flatMap((f) => specifiers(path.join(BUNDLE, f)))).toEqual(expect.arrayContaining(['libsql', 'keytar', 'electron']));
  });
});
