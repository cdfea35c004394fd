import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../app/catalog/index.js';
import type { Application, Host, SystemsList } from '../../../app/catalog/resources.js';
import { ApiClient } from '../../../main/client/index.js';
import { SimClock, startSimulator } from '../../../simulator/index.js';
import { T0, harness } from './support.js';
import type { Harness } from './support.js';

describe('systems and sessions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 2, systems: 3 });
  });
  afterAll(async () => h.close());

  it('lists the site systems relative to the session, with nodes on request', async () => {
    const list = await h.call<SystemsList>('GET /systems/list', { query: { showNodes: true } });
    expect(list.Systems).toHaveLength(3);
    const [first, second] = list.Systems ?? [];
    expect(first).toMatchObject({ IsCurrentlyConnectedSystem: true, Connectivity: 'Direct' });
    expect(second).toMatchObject({ IsCurrentlyConnectedSystem: false, Connectivity: 'Relay' });
    expect(first?.ConnectedNodeAddress).toMatch(/^10\.1\.1\.\d+$/);
    expect(first?.Nodes?.length).toBeGreaterThanOrEqual(2);
    expect(first?.Nodes?.[0]).toMatchObject({ State: 'Running', HAState: 'Normal' });
    // The seeded replication pair runs from the first system to the second.
    expect(first?.ReplicationTargetSystems).toEqual([second?.Name]);
    const plain = await h.call<SystemsList>('GET /systems/list');
    expect(plain.Systems?.[0]?.Nodes).toBeUndefined();
    // The second site is its own endpoint with its own systems.
    const other = await h.login(undefined, 1);
    const otherClient = new ApiClient({ baseUrl: h.sim.manifest.sites[1]!.baseUrl });
    const otherList = await otherClient.call('GET /systems/list', { token: other });
    await otherClient.close();
    expect(otherList.Systems?.map((s) => s.Name)).toEqual(h.sim.manifest.sites[1]?.systems);
    expect(otherList.Systems?.map((s) => s.Name)).not.toContain(first?.Name);
  });

  it('scopes systems/select to the session token: two sessions work on two systems at once', async () => {
    const [a, b] = h.sim.manifest.sites[0]!.systems;
    const t1 = await h.login();
    const t2 = await h.login();
    await h.client.selectSystem(t2, b!);
    const hostsOf = async (token: string): Promise<string[]> => (await h.call<{ Data: Host[] }>('GET /hosts/list', { token })).Data.map((x) => x.Name ?? '');
    await h.call('POST /hosts/create', { token: t1, body: { Name: 'only-on-a' } });
    await h.call('POST /hosts/create', { token: t2, body: { Name: 'only-on-b' } });
    expect(await hostsOf(t1)).toContain('only-on-a');
    expect(await hostsOf(t1)).not.toContain('only-on-b');
    expect(await hostsOf(t2)).toContain('only-on-b');
    expect(await hostsOf(t2)).not.toContain('only-on-a');
    const l1 = await h.call<SystemsList>('GET /systems/list', { token: t1 });
    const l2 = await h.call<SystemsList>('GET /systems/list', { token: t2 });
    expect(l1.Systems?.find((s) => s.IsCurrentlyConnectedSystem)?.Name).toBe(a);
    expect(l2.Systems?.find((s) => s.IsCurrentlyConnectedSystem)?.Name).toBe(b);
    // A new session starts on the first system again.
    const t3 = await h.login();
    expect(await hostsOf(t3)).toContain('only-on-a');
    await expect(h.client.selectSystem(t3, 'no-such-system')).rejects.toThrow(/does not exist/);
    const id = l1.Systems?.[2]?.Id as number;
    await h.call('GET /systems/select', { token: t3, query: { id } });
    const l3 = await h.call<SystemsList>('GET /systems/list', { token: t3 });
    expect(l3.Systems?.find((s) => s.IsCurrentlyConnectedSystem)?.Id).toBe(id);
  });

  it('renames a system; references by other systems follow', async () => {
    const token = await h.login();
    const list = await h.call<SystemsList>('GET /systems/list', { token });
    const second = list.Systems?.[1];
    await h.call('PUT /systems/rename', { token, body: { Id: second?.Id, Newname: 'renamed-sys' } });
    const after = await h.call<SystemsList>('GET /systems/list', { token });
    expect(after.Systems?.[1]?.Name).toBe('renamed-sys');
    expect(after.Systems?.[0]?.ReplicationTargetSystems).toEqual(['renamed-sys']);
    const hosts = await h.call<{ Data: Host[] }>('GET /hosts/list', { token });
    expect(hosts.Data.flatMap((x) => x.Pairs ?? []).map((p) => p.RemoteSystem)).toContain('renamed-sys');
    await expect(h.call('PUT /systems/rename', { token, body: { Name: 'renamed-sys', Newname: list.Systems?.[0]?.Name } })).rejects.toThrow(/already exists/);
    await h.call('PUT /systems/rename', { token, body: { Name: 'renamed-sys', Newname: second?.Name } });
  });
});

describe('determinism', () => {
  async function snapshot(seed: string): Promise<string> {
    const sim = await startSimulator({ seed, sites: 2, systems: 2, clock: SimClock.frozen(T0), controlServer: false });
    const out: Record<string, unknown> = {};
    try {
      for (const [i, site] of sim.manifest.sites.entries()) {
        const client = new ApiClient({ baseUrl: site.baseUrl });
        const token = (await client.login({ Username: site.username, Password: site.password })).SessionToken as string;
        for (const system of site.systems) {
          await client.selectSystem(token, system);
          for (const op of OPERATIONS.filter((o) => o.method === 'GET' && !o.writes && o.key !== 'GET /applications/encryption/encryption_key_example' && o.key !== 'GET /systems/select')) {
            // Operations that need parameters answer 400; their messages must be equal too.
            out[`${i}/${system}/${op.key}`] = await client.call(op, { token }).catch((e: unknown) => ({ error: (e as Error).message }));
          }
        }
        await client.close();
      }
      out['manifest'] = sim.manifest.sites.map((s) => ({ name: s.name, systems: s.systems }));
    } finally {
      await sim.close();
    }
    return JSON.stringify(out);
  }

  it('gives identical state for the same seed and different state for another seed', async () => {
    const a = await snapshot('alpha');
    const b = await snapshot('alpha');
    const c = await snapshot('beta');
    expect(a.length).toBeGreaterThan(100_000);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    const apps = (s: string): Application[] => (JSON.parse(s) as Record<string, { Data: Application[] }>)[Object.keys(JSON.parse(s) as object).find((k) => k.endsWith('GET /applications/list')) as string]?.Data ?? [];
    expect(apps(a).map((x) => x.Volumes?.map((v) => v.Naa))).toEqual(apps(b).map((x) => x.Volumes?.map((v) => v.Naa)));
  });
});
