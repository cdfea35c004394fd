import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const check = (version: string) => spawnSync(process.execPath, ['scripts/check-node.mjs', '--node-version', version], { cwd: repo, encoding: 'utf8' });

describe('npm run dist checks the Node that builds installers', () => {
  it('refuses Node before 22.12 with a message saying which Node is needed and why', () => {
    for (const v of ['20.20.2', '22.11.0', '21.99.9']) {
      const r = check(v);
      expect(r.status, v).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`needs Node 22\\.12 or newer \\(electron 45, @electron/get and @electron/rebuild require it\\); this is Node ${v.replace(/\./g, '\\.')}`));
    }
    expect(check('not-a-version').status).toBe(1);
  });

  it('lets 22.12 and newer through', () => {
    for (const v of ['22.12.0', '22.20.1', '23.0.0', '24.1.0']) expect(check(v).status, v).toBe(0);
  });

  it('runs first in npm run dist', () => {
    const pkg = JSON.parse(readFileSync(`${repo}package.json`, 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.dist).toMatch(/^node scripts\/check-node\.mjs && /);
  });
});
