import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/ipc/handlers.js';
import { startMonitor, type RunningMonitor } from '../../../main/monitor/monitor.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { until } from '../../support/until.js';
import { siteInput, tempDataDir, useSimulator } from '../support/simulated-fleet.js';

/**
 * A window logging in to a site while `fleetdeck monitor` polls the same data directory: the
 * window's polls take what the monitor records, so the login must reach the monitor's sessions,
 * or the site stays "no password stored" in both.
 */
describe('a window login while a monitor polls the data directory', { timeout: 90_000 }, () => {
  const simulator = useSimulator({ sites: 1, systems: 2, seed: 'window-login-monitor' });
  let data: { dir: string; remove: () => void };
  let monitor: RunningMonitor | undefined;
  let app: Runtime | undefined;
  const lines: string[] = [];

  beforeAll(async () => {
    data = tempDataDir('fd-window-login-');
    // The site saved without a password: the monitor has none for it.
    const rt = await openRuntime({ dataDir: data.dir, memorySecrets: true });
    const site = await rt.fleet.addSite({ ...siteInput(simulator.sim.manifest.sites[0]!), password: undefined } as never);
    await rt.fleet.editSite(site.id, { polling: { ...site.polling, intervalSeconds: 2 } });
    await rt.close();
  });
  afterAll(async () => {
    await app?.close();
    await monitor?.stop();
    data.remove();
  });

  it('a password the system refuses is refused through the monitor, and its answer does not echo it', async () => {
    monitor = await startMonitor({ dataDir: data.dir }, { dataDir: data.dir, env: {}, log: (l) => lines.push(l), memorySecrets: true });
    await monitor.firstRefresh;
    const siteId = monitor.runtime.sites.list()[0]!.id;
    app = await openRuntime({ dataDir: data.dir, memorySecrets: true });
    const wrong = 'Wrong-Password-77aa';
    const login = await dispatch(app.handlers, 'session:login', { site: siteId, password: wrong });
    expect(login).toMatchObject({ ok: false, error: { code: 'login-required', message: expect.stringMatching(/^the monitor polling this data directory: .*login refused/) } });
    expect(JSON.stringify(login)).not.toContain(wrong);
    expect(lines.join('\n')).not.toContain(wrong);
    await app.close();
    app = undefined;
    await monitor.stop();
    monitor = undefined;
  });

  it('reaches the monitor: its polls go on with the password, and the window shows them ok', async () => {
    monitor = await startMonitor({ dataDir: data.dir }, { dataDir: data.dir, env: {}, log: (l) => lines.push(l), memorySecrets: true });
    await monitor.firstRefresh;
    const s = simulator.sim.manifest.sites[0]!;
    const siteId = monitor.runtime.sites.list()[0]!.id;
    expect(monitor.runtime.fleet.siteError(siteId)).toMatch(/no password stored/);

    app = await openRuntime({ dataDir: data.dir, memorySecrets: true });
    app.fleet.startPolling();
    const login = await dispatch(app.handlers, 'session:login', { site: siteId, password: s.password });
    expect(login).toMatchObject({ ok: true });

    // The monitor polls with it, and the window, which takes the monitor's records, shows them.
    await until(() => monitor!.runtime.fleet.status(siteId).length === s.systems.length && monitor!.runtime.fleet.status(siteId).every((x) => x.state === 'ok'), () => `${JSON.stringify(monitor!.runtime.fleet.status(siteId))}\n${lines.join('\n')}`, 60_000);
    await until(() => app!.fleet.status(siteId).length === s.systems.length && app!.fleet.status(siteId).every((x) => x.state === 'ok'), () => JSON.stringify(app!.fleet.status(siteId)), 30_000);
    const shown = (await dispatch(app.handlers, 'fleet:status', { site: siteId })) as { ok: true; value: Array<{ error?: string }> };
    expect(shown.value[0]?.error).toBeUndefined();
    // The password went over the lock's socket: the monitor's log never shows it.
    expect(lines.join('\n')).not.toContain(s.password);
  });
});
