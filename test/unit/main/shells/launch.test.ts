import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as RuntimeModule from '../../../../main/runtime.js';
import type * as SecretStoreModule from '../../../../main/secrets/secret-store.js';
import { SiteStore } from '../../../../main/store/site-store.js';
import { startSimulator } from '../../../../simulator/index.js';

// The real runtime and secret store, watched: how often a launch opens the runtime, and whether it
// asks the OS keychain at all.
const openRuntime = vi.fn<typeof RuntimeModule.openRuntime>();
const openSecretStore = vi.fn<typeof SecretStoreModule.openSecretStore>();
vi.mock('../../../../main/runtime.js', async (importOriginal) => {
  const real = await importOriginal<typeof RuntimeModule>();
  openRuntime.mockImplementation(real.openRuntime);
  return { ...real, openRuntime };
});
vi.mock('../../../../main/secrets/secret-store.js', async (importOriginal) => {
  const real = await importOriginal<typeof SecretStoreModule>();
  openSecretStore.mockImplementation(real.openSecretStore);
  return { ...real, openSecretStore };
});

const { launchCore, parseLaunchArgs, resolveScope } = await import('../../../../main/shells/launch.js');
const RuntimeReal = await vi.importActual<typeof RuntimeModule>('../../../../main/runtime.js');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-launch-'));
  openRuntime.mockClear();
  openSecretStore.mockClear();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function saveSites(...names: string[]): Promise<SiteStore> {
  const sites = new SiteStore({ dataDir: dir });
  for (const [i, name] of names.entries()) await sites.add({ name, baseUrl: `http://127.0.0.1:${i + 1}`, username: 'admin' });
  return sites;
}
const args = (...argv: string[]) => parseLaunchArgs([...argv, '--data-dir', dir], {});

describe('resolveScope: which lock and profile a launch uses, from the site list alone', () => {
  it('keys a --site window on the site id: a name in any case and the id are one instance', async () => {
    await saveSites('Paris', 'Lyon Nord');
    expect(resolveScope(args('--site', 'Paris'))).toEqual({ demo: false, siteId: 'paris', instanceKey: 'site-paris' });
    expect(resolveScope(args('--site', 'paris')).instanceKey).toBe('site-paris');
    expect(resolveScope(args('--site', 'PARIS')).instanceKey).toBe('site-paris');
    expect(resolveScope(args('--site', 'lyon nord')).instanceKey).toBe('site-lyon-nord');
    expect(resolveScope(args())).toEqual({ demo: false, instanceKey: 'fleet' });
  });

  it('refuses a --site that names no saved site, whatever characters it holds', async () => {
    await saveSites('Paris');
    expect(() => resolveScope(args('--site', '*'))).toThrow(/no site named "\*"/);
    expect(() => resolveScope(args('--site', '../x'))).toThrow(/no site named/);
  });

  it('every instance key is a valid folder name on every platform', async () => {
    await saveSites('Paris');
    for (const a of [args('--site', 'Paris'), args(), args('--demo', '--site', 'Demo: *Site* <1>'), args('--demo')]) {
      expect(resolveScope(a).instanceKey).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    }
  });
});

describe('launchCore', () => {
  it('opens the runtime once for a --site window, scoped to that site id', async () => {
    await saveSites('Alpha', 'Beta');
    const core = await launchCore(args('--site', 'BETA'), () => undefined);
    try {
      expect(openRuntime).toHaveBeenCalledTimes(1);
      expect(openRuntime.mock.calls[0]?.[0]).toMatchObject({ dataDir: dir, scopedSite: 'beta' });
      expect(core.scopedSiteId).toBe('beta');
      expect((await core.runtime.handlers['sites:list']({})).map((s) => s.id)).toEqual(['beta']);
    } finally {
      await core.close();
    }
  });

  it('starts background polling for the window’s sites (a --site window: its own), which the runtime alone (the CLI) never does', async () => {
    const sites = await saveSites('Alpha', 'Beta');
    for (const s of sites.list()) await sites.update(s.id, { polling: { intervalSeconds: 60 } });
    const cli = await RuntimeReal.openRuntime({ dataDir: dir, memorySecrets: true });
    try {
      expect(cli.fleet.nextPollAt('alpha')).toBeUndefined();
      expect(cli.fleet.nextPollAt('beta')).toBeUndefined();
    } finally {
      await cli.close();
    }
    const core = await launchCore(args('--site', 'Beta'), () => undefined);
    try {
      expect(core.runtime.fleet.nextPollAt('beta')).toBeGreaterThan(Date.now());
      expect(core.runtime.fleet.nextPollAt('alpha')).toBeUndefined();
    } finally {
      await core.close();
    }
    expect(core.runtime.fleet.nextPollAt('beta')).toBeUndefined();
  });

  it('opens the demo fleet on a first launch (no sites) without asking the OS keychain, runtime opened once', async () => {
    const core = await launchCore(args(), () => undefined);
    try {
      expect(core.demo).toBeDefined();
      expect(openRuntime).toHaveBeenCalledTimes(1);
      expect(openSecretStore).toHaveBeenCalledTimes(1);
      expect(openSecretStore.mock.calls[0]?.[0]).toMatchObject({ disable: true });
      expect(core.runtime.secrets.kind).toBe('memory');
    } finally {
      await core.close();
    }
  });

  it('a --site window refreshes only its own site and forwards only its events', async () => {
    vi.stubEnv('FLEETDECK_KEYCHAIN', 'memory');
    const sim = await startSimulator({ sites: 2, systems: 1, controlServer: false });
    const sites = new SiteStore({ dataDir: dir });
    for (const s of sim.manifest.sites) await sites.add({ name: s.name, baseUrl: s.baseUrl, username: s.username });
    const [first, second] = sites.list();
    const core = await launchCore(args('--site', second!.name), () => undefined);
    try {
      for (const [i, s] of sites.list().entries()) await core.runtime.fleet.login(s.id, { password: sim.manifest.sites[i]!.password });
      const requestsBefore = sim.control.status().map((s) => s.requests);
      const seen: string[] = [];
      const stop = core.subscribe((_event, payload) => seen.push((payload as { siteId: string }).siteId));
      const statuses = await core.refresh();
      expect(statuses.map((s) => [s.siteId, s.state])).toEqual([[second!.id, 'ok']]);
      const requestsAfter = sim.control.status().map((s) => s.requests);
      expect(requestsAfter[0]).toBe(requestsBefore[0]);
      expect(requestsAfter[1]).toBeGreaterThan(requestsBefore[1]!);
      // Both sites refreshed behind the window's back: each emits, only its own site reaches it.
      const emitted: string[] = [];
      seen.length = 0;
      const stopAll = core.runtime.fleet.on((e) => emitted.push(e.type === 'status' ? e.status.siteId : e.siteId));
      await core.runtime.fleet.refresh({ force: true });
      stop();
      stopAll();
      expect(new Set(emitted)).toEqual(new Set([first!.id, second!.id]));
      expect(seen).toEqual(emitted.filter((s) => s === second!.id));
    } finally {
      await core.close();
      await sim.close();
      vi.unstubAllEnvs();
    }
  });
});
