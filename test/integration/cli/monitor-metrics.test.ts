import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime } from '../../../main/runtime.js';
import { BIN } from '../../support/run-cli.js';
import { until } from '../../support/until.js';
import { siteInput, tempDataDir, useSimulator } from '../support/simulated-fleet.js';

/**
 * `fleetdeck monitor --metrics-listen`: the monitor serves /metrics (main/metrics/endpoint.ts) for
 * the fleet it polls, at the address its start line names, and closes it when it stops.
 */
describe('fleetdeck monitor --metrics-listen', { timeout: 120_000 }, () => {
  const simulator = useSimulator({ sites: 1, systems: 2, seed: 'monitor-metrics' });
  let data: { dir: string; remove: () => void };

  beforeAll(async () => {
    data = tempDataDir('fd-monitor-metrics-');
    const rt = await openRuntime({ dataDir: data.dir, memorySecrets: true });
    await rt.fleet.addSite(siteInput(simulator.sim.manifest.sites[0]!));
    await rt.close();
  });
  afterAll(() => data.remove());

  it('answers GET /metrics with the fleet\'s series while it runs, and stops serving when it stops', async () => {
    const site = simulator.sim.manifest.sites[0]!;
    const child = spawn(process.execPath, [BIN, 'monitor', '--data-dir', data.dir, '--metrics-listen', '127.0.0.1:0'], {
      env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory', [`FLEETDECK_SECRET_${site.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`]: site.password },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let ended = false;
    void exited.then(() => (ended = true));
    try {
      await until(() => ended || stderr.includes('first refresh done'), () => stderr);
      expect(ended, stderr).toBe(false);
      const url = /metrics at (\S+)/.exec(stderr)?.[1];
      expect(url, stderr).toBeDefined();
      const res = await fetch(new URL('/metrics', url));
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^fleetdeck_\w+/m);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(fetch(new URL('/metrics', url))).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
