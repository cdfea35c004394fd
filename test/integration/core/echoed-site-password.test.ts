import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/ipc/handlers.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { MemorySecretStore } from '../../../main/secrets/secret-store.js';
import { LEVEL, notify } from '../../../simulator/state/notifications.js';
import { siteInput, tempDataDir, useSimulator } from '../support/simulated-fleet.js';

/**
 * A system that writes the site's own password into the text it returns later (an event log's
 * "login failed … with password …", in another spelling too): main knows that password, so it is
 * masked in every answer, wherever the answer is kept or shown; whole, since a password may begin
 * like the system's own text.
 */
const PASSWORD = 'Site-Pass/Echo+8842';

describe('the site password echoed in what a system returns', { timeout: 90_000 }, () => {
  const simulator = useSimulator({ sites: 1, systems: 1, seed: 'echoed-site-password', password: PASSWORD });
  const data = tempDataDir('fd-echo-site-pw-');
  const keychain = new MemorySecretStore();
  const open: Runtime[] = [];
  afterAll(async () => {
    for (const rt of open) await rt.close();
    data.remove();
  });

  /** Every spelling of the password the system writes, as an attacker reading the text would decode. */
  const spellings = [PASSWORD, encodeURIComponent(PASSWORD), PASSWORD.toUpperCase(), Buffer.from(PASSWORD).toString('base64')];
  const leaks = (text: string): string[] => spellings.filter((s) => text.includes(s));

  it('is masked in the cache, the files of the data directory, reports and the notifications shown, also for a session restored from the keychain', async () => {
    const s = simulator.sim.manifest.sites[0]!;
    const site = simulator.sim.control.site(0);
    const system = site.state.systems[0]!;
    const echo = (): void =>
      void notify(system, site.state.customer, Date.now(), {
        level: LEVEL.warning,
        module: 'Authentication',
        message: `Login failed for admin with password '${PASSWORD}' (${PASSWORD.toUpperCase()}) from 10.0.0.5; account Site-Pass/Echo-other unchanged`,
        exception: `body=${encodeURIComponent(PASSWORD)}; b64=${Buffer.from(PASSWORD).toString('base64')}`,
      });
    echo();
    const first = await openRuntime({ dataDir: data.dir, keychain });
    open.push(first);
    const { id } = await first.fleet.addSite(siteInput(s));
    await first.fleet.refresh({ force: true });

    const check = async (rt: Runtime): Promise<void> => {
      const notifications = await dispatch(rt.handlers, 'cache:read', { site: id, system: system.name, operation: 'GET /notifications/query' });
      const shown = JSON.stringify(notifications);
      expect(shown, 'the notifications are cached').toContain('Login failed for admin with password');
      expect(leaks(shown), 'cache:read').toEqual([]);
      // Text that merely begins as the password does is the system's own: not masked.
      expect(shown).toContain('account Site-Pass/Echo-other unchanged');
      const report = await dispatch(rt.handlers, 'reports:generate', { kind: 'audit', offline: true });
      expect(report.ok).toBe(true);
      expect(leaks(JSON.stringify(report)), 'report').toEqual([]);
      for (const f of readdirSync(data.dir)) expect(leaks(readFileSync(join(data.dir, f)).toString('latin1')), f).toEqual([]);
    };
    await check(first);
    await first.close();
    open.pop();

    // A later run takes the session token from the keychain: no login in it, yet the password is masked.
    echo();
    const later = await openRuntime({ dataDir: data.dir, keychain });
    open.push(later);
    await later.fleet.refresh({ force: true });
    expect(simulator.sim.control.status()[0]!.requests).toBeGreaterThan(0);
    await check(later);
  });
});
