import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteStore } from '../../../../main/store/site-store.js';

// What a start from the admin's sites loads before it can answer: the embedded simulator (demo
// fleet) and pdf-lib (PDF merging) are large and used by neither the window nor the refresh, so a
// launch must not load them; undici (HTTP to the sites) only when a first request is sent, which a
// start with every site paused never does (cold start). The modules are watched by their mock factories,
// which run only when something imports them.
const loaded = new Set<string>();
vi.mock('../../../../main/demo.js', async (importOriginal) => {
  loaded.add('demo');
  return importOriginal();
});
vi.mock('pdf-lib', async (importOriginal) => {
  loaded.add('pdf-lib');
  return importOriginal();
});
vi.mock('undici', async (importOriginal) => {
  loaded.add('undici');
  return importOriginal();
});

const { launchCore, parseLaunchArgs } = await import('../../../../main/shells/launch.js');

const dirs: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('launchCore loads only what a start needs', () => {
  it('a start from saved sites loads neither the demo fleet, pdf-lib nor undici; a first start (no sites) loads the demo fleet', async () => {
    vi.stubEnv('FLEETDECK_KEYCHAIN', 'memory');
    const dir = mkdtempSync(join(tmpdir(), 'fd-launch-cold-'));
    dirs.push(dir);
    const sites = new SiteStore({ dataDir: dir });
    const site = await sites.add({ name: 'Paris', baseUrl: 'http://127.0.0.1:1', username: 'admin' });
    await sites.update(site.id, { polling: { paused: true } });

    const core = await launchCore(parseLaunchArgs(['--data-dir', dir], {}), () => undefined);
    try {
      expect(core.demo).toBeUndefined();
      expect(core.runtime.sites.list().map((s) => s.name)).toEqual(['Paris']);
      expect([...loaded]).toEqual([]);
    } finally {
      await core.close();
    }

    const empty = mkdtempSync(join(tmpdir(), 'fd-launch-cold-empty-'));
    dirs.push(empty);
    const demo = await launchCore(parseLaunchArgs(['--data-dir', empty], {}), () => undefined);
    try {
      expect(demo.demo).toBeDefined();
      expect(loaded.has('demo')).toBe(true);
      expect(loaded.has('pdf-lib')).toBe(false);
    } finally {
      await demo.close();
    }
  }, 120_000);
});
