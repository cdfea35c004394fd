// The fleet search is answered by main through `search:query`, from its index of the
// offline cache, validated like every channel and limited to a scoped window's site.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAnswerSchema, type SearchAnswer } from '../../../app/search/entries.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { SEARCH_READS } from '../../../main/search/search-index.js';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';

const PASSWORD = 'MARKER-SEARCH-SITE-PASSWORD-5c1e';

describe('search:query against the simulator', { timeout: 120_000 }, () => {
  let sim: SimulatorHandle;
  let rt: Runtime;
  let dir: string;
  const siteIds: string[] = [];
  const search = async (payload: unknown, runtime = rt): Promise<SearchAnswer> => {
    const answer = (await dispatch(runtime.handlers, 'search:query', payload)) as { ok: boolean; value?: unknown; error?: unknown };
    expect(answer.ok, JSON.stringify(answer.error)).toBe(true);
    return searchAnswerSchema.parse(answer.value);
  };

  beforeAll(async () => {
    sim = await startSimulator({ sites: 2, systems: 2, seed: 'search-channel', password: PASSWORD, controlServer: false });
    dir = mkdtempSync(join(tmpdir(), 'fd-search-'));
    rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 10_000 });
    for (const s of sim.manifest.sites) siteIds.push((await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: PASSWORD })).id);
    await rt.fleet.refresh({ force: true });
  });
  afterAll(async () => {
    await rt.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds a system and a cached host, with where each leads, and every system read', async () => {
    const system = sim.manifest.sites[1]?.systems[0] as string;
    const bySystem = await search({ query: system });
    expect(bySystem).toMatchObject({ systems: 4, pending: 0 });
    expect(bySystem.results[0]).toMatchObject({ kind: 'system', text: system, siteId: siteIds[1], area: 'summary' });

    const hosts = rt.fleet.cached(siteIds[0] as string, sim.manifest.sites[0]?.systems[1] as string, SEARCH_READS.hosts.op, SEARCH_READS.hosts.query, { recordUse: false })?.value as { Data: Array<{ Name: string }> };
    const host = hosts.Data[0]?.Name as string;
    const found = await search({ query: host, limit: 5 });
    expect(found.results.find((e) => e.kind === 'host' && e.text === host)).toMatchObject({ area: 'hosts', detail: { kind: 'host', host } });
    expect(found.results.length).toBeLessThanOrEqual(5);
    expect(found.total).toBeGreaterThanOrEqual(found.results.length);
    expect(JSON.stringify(found)).not.toContain(PASSWORD);
  });

  it('finds a host created since, once its list is read again', async () => {
    const site = siteIds[0] as string;
    const system = sim.manifest.sites[0]?.systems[0] as string;
    const name = 'search-new-host-1';
    expect((await search({ query: name })).total).toBe(0);
    const created = await dispatch(rt.handlers, 'op:call', { site, system, operation: 'POST /hosts/create', body: { Name: name, Iqn: 'iqn.2026-01.io.fleetdeck:search-new-host-1' } });
    expect(created.ok).toBe(true);
    // The hosts view reads the list again, as the refresh does: the index reads that system again.
    expect((await dispatch(rt.handlers, 'op:call', { site, system, operation: SEARCH_READS.hosts.op, query: SEARCH_READS.hosts.query })).ok).toBe(true);
    const found = await search({ query: 'search-new-host' });
    expect(found.results.filter((e) => e.kind === 'host' && e.text === name).map((e) => e.system)).toEqual([system]);
  });

  it('refuses a malformed request with a validation error', async () => {
    for (const payload of [{ query: 5 }, { query: 'x', limit: 0 }, { query: 'x', limit: 1001 }, { query: 'x'.repeat(1001) }]) {
      expect(await dispatch(rt.handlers, 'search:query', payload)).toMatchObject({ ok: false, error: { code: 'validation' } });
    }
  });

  it('searches only its own site in a window scoped to it', async () => {
    const scoped = await openRuntime({ dataDir: dir, memorySecrets: true, scopedSite: siteIds[1] });
    try {
      const answer = await search({ query: sim.manifest.sites[0]?.systems[0] as string }, scoped);
      expect(answer.systems).toBe(2);
      expect(answer.results.every((e) => e.siteId === siteIds[1])).toBe(true);
    } finally {
      await scoped.close();
    }
  });
});
