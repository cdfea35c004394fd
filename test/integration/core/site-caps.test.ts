import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLEET_LIMITS } from '../../../main/core/fleet.js';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';
import { useFleetsOnDisk } from '../support/simulated-fleet.js';

/**
 * Each site's own request cap bounds a refresh: no site ever receives more requests at once than
 * its cap, and the fleet as a whole is not held to a small fleet-wide number (it had 32), so many
 * sites are read in parallel. The simulator counts the requests each site handles at once.
 */
describe('per-site request caps bound a fleet refresh', { timeout: 120_000 }, () => {
  let sim: SimulatorHandle;
  const fleetOnDisk = useFleetsOnDisk('fd-site-caps-');
  const SITES = 16;

  beforeAll(async () => {
    sim = await startSimulator({ sites: SITES, systems: 3, seed: 'site-caps', controlServer: false, latencyMs: 40 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('keeps every site within its own cap while the fleet has more than 32 requests in flight', async () => {
    const { fleet, sites, siteIds } = await fleetOnDisk({ timeoutMs: 30_000 }, sim.manifest.sites);
    // Caps 1 to 4, site by site.
    const caps = siteIds.map((_, i) => (i % 4) + 1);
    for (const [i, id] of siteIds.entries()) {
      const site = sites.get(id)!;
      await sites.update(id, { polling: { ...site.polling, maxInFlight: caps[i]! } });
      await fleet.siteChanged(id);
      sim.control.resetPeak(i);
    }
    // The fleet's requests in flight, sampled while the refresh runs.
    let fleetPeak = 0;
    const sample = setInterval(() => {
      fleetPeak = Math.max(fleetPeak, sim.control.status().reduce((n, s) => n + s.inFlight, 0));
    }, 5);
    let statuses;
    try {
      statuses = await fleet.refresh({ force: true });
    } finally {
      clearInterval(sample);
    }
    expect(statuses.filter((s) => s.state === 'ok')).toHaveLength(SITES * 3);
    const peaks = sim.control.status().map((s) => s.peakInFlight);
    for (const [i, peak] of peaks.entries()) expect(peak, `site ${i} (cap ${caps[i]})`).toBeLessThanOrEqual(caps[i]!);
    // Each site used its cap (its systems were read in parallel up to it).
    expect(peaks).toEqual(caps);
    expect(fleetPeak).toBeGreaterThan(32);
    expect(FLEET_LIMITS.globalMaxInFlight).toBeGreaterThanOrEqual(SITES * 4);
  });
});
