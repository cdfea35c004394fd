import { describe, expect, it } from 'vitest';
import { SECURE_BASELINE } from '../../../app/compliance/secure-baseline.js';
import { startSimulator } from '../../../simulator/index.js';
import { isMisconfiguration, MISCONFIGURATIONS } from '../../../simulator/misconfigure.js';

describe('simulator misconfigurations', () => {
  it('can fail every check of the shipped baseline, one state per check', () => {
    expect([...MISCONFIGURATIONS].sort()).toEqual(SECURE_BASELINE.checks.map((c) => c.id).sort());
    expect(isMisconfiguration('support-tunnel-off')).toBe(true);
    expect(isMisconfiguration('open-everything')).toBe(false);
  });

  it('are reached over the control server, which refuses an unknown one', async () => {
    const sim = await startSimulator({ sites: 1, systems: 1, seed: 'misconfigure', controlPort: 0 });
    try {
      const post = (path: string, body: unknown) => fetch(`${sim.manifest.control}${path}`, { method: 'POST', body: JSON.stringify(body) });
      const ok = await post('/sites/0/misconfigure', { check: 'support-tunnel-off' });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ system: sim.manifest.sites[0]!.systems[0], changed: expect.stringMatching(/support tunnel open/) });
      expect(sim.fleet.sites[0]!.systems[0]!.nodes[0]!.tunnel).toBe(true);
      expect((await post('/sites/0/secure', {})).status).toBe(200);
      expect(sim.fleet.sites[0]!.systems[0]!.nodes.every((n) => !n.tunnel)).toBe(true);
      expect((await post('/sites/0/misconfigure', { check: 'open-everything' })).status).toBeGreaterThanOrEqual(400);
    } finally {
      await sim.close();
    }
  });
});
