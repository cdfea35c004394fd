import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * One node_modules serves the CLI on Node, the browser shell and Electron, with no rebuild
 * (`npmRebuild: false`): so every native module the app can load must be N-API. A module built
 * against one Node ABI exports `node_register_module_v<ABI>` (better-sqlite3's did: v115, Node 20
 * only) and Electron, whose ABI differs, refuses it; an N-API module exports
 * `napi_register_module_v1` and loads in both.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));

interface LockPackage {
  dev?: boolean;
  devOptional?: boolean;
}

/** Folders of the production dependencies as installed (package-lock.json: neither dev nor dev-optional). */
function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
  return Object.entries(lock.packages)
    .filter(([path, p]) => path.startsWith('node_modules/') && !p.dev && !p.devOptional)
    .map(([path]) => join(repo, path))
    .filter((dir) => existsSync(dir));
}

/** `.node` files inside a package folder, not descending into its own node_modules (those are packages of their own). */
function nativeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') out.push(...nativeFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.node')) out.push(path);
  }
  return out;
}

/** The module-registration symbols a shared object defines (`nm -D --defined-only`). */
function registrationSymbols(file: string): string[] {
  const text = execFileSync('nm', ['-D', '--defined-only', file], { encoding: 'utf8' });
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/).at(-1) ?? '')
    .filter((name) => /register_module/.test(name));
}

describe('native modules of the production dependencies', () => {
  const files = productionPackages().flatMap(nativeFiles);

  it('finds the native modules the app loads: keytar (keychain) and libsql (the store)', () => {
    const names = files.map((f) => relative(repo, f));
    expect(names).toContain(join('node_modules', 'keytar', 'build', 'Release', 'keytar.node'));
    expect(names.some((n) => n.startsWith(join('node_modules', '@libsql')))).toBe(true);
    expect(names.some((n) => n.includes('better-sqlite3'))).toBe(false);
  });

  it('every one is N-API: registers through napi_register_module_v1, none through a Node-ABI-specific node_register_module_v*', () => {
    for (const file of files) {
      const symbols = registrationSymbols(file);
      const name = relative(repo, file);
      expect(symbols.filter((s) => /^node_register_module_v\d+$/.test(s)), `${name} is tied to one Node ABI`).toEqual([]);
      expect(symbols, `${name} registers as an N-API module`).toContain('napi_register_module_v1');
    }
  });
});
