import { beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../../app/alerts/alert.js';
import type { PoolCapacityUsage } from '../../../app/catalog/index.js';
import type { Runtime } from '../../../main/runtime.js';
import { SimClock, type SimulatorHandle } from '../../../simulator/index.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';
import { runCliHere } from '../../support/run-cli-here.js';

/**
 * Conditions made through its control API and the
 * interface (fail a drive, fill a pool, stop a site), then a refresh as the app runs it — the
 * alert engine of the runtime listens to the fleet's status events — and the alerts it keeps.
 */

const GiB = 1024 ** 3;
const PASSWORD = 'alerts-pw-1';

let sim: SimulatorHandle;
let dataDir: string;
let rt: Runtime;
let siteId: string;
let first: string;

const active = (): Alert[] => rt.alerts.list({ state: 'active' });
const keyOf = (a: Alert): string => `${a.rule} ${a.system} ${a.subject}`;

const cli = (args: string[]) => runCliHere([...args, '--data-dir', dataDir]);

// Real time: the CLI part evaluates with the wall clock, and notifications are judged by their age.
const world = useSimulatedFleet({ simulator: { sites: 1, systems: 2, password: PASSWORD, clock: new SimClock(), seed: 'alerts' }, prefix: 'fleetdeck-alerts-' });

beforeAll(async () => {
  ({ sim, rt, dir: dataDir } = world);
  siteId = world.siteIds[0]!;
  await rt.fleet.refresh({ force: true });
  first = rt.fleet.status(siteId)[0]!.system;
}, 120_000);


describe('alerts against the simulator', { timeout: 120_000 }, () => {
  it('raises a failed drive after the refresh, once, and notifies the listeners once', async () => {
    const heard: Alert[] = [];
    const off = rt.alerts.on((c) => heard.push(...c.raised));
    const failed = sim.control.failDrive({ site: 0, system: first });
    await rt.fleet.refresh({ force: true });
    const drive = active().filter((a) => a.rule === 'drive' && a.system === first && a.subject === `${failed.node}/${failed.name}`);
    expect(drive).toHaveLength(1);
    expect(drive[0]).toMatchObject({ level: 'critical', state: 'open', siteId });
    expect(drive[0]?.message).toContain('Failed');
    // The system's Critical notification of the failure is an alert of its own.
    expect(active().some((a) => a.rule === 'notification' && a.system === first && a.message.includes(failed.name))).toBe(true);
    const before = active().map((a) => [a.id, keyOf(a)]);
    const raisedOnce = heard.filter((a) => a.rule === 'drive' && a.subject === `${failed.node}/${failed.name}`);
    expect(raisedOnce).toHaveLength(1);

    await rt.fleet.refresh({ force: true });
    expect(active().map((a) => [a.id, keyOf(a)])).toEqual(before);
    expect(heard.filter((a) => a.rule === 'drive' && a.subject === `${failed.node}/${failed.name}`)).toHaveLength(1);
    off();
  });

  it('raises a pool filled past the rule, and clears it when the space is given back', async () => {
    const pools = rt.fleet.cached(siteId, first, 'GET /monitoring/capacity/pools/current', { total: true, details: true })?.value as PoolCapacityUsage;
    const pool = pools.CapacityUsage?.find((p) => p.Name && p.Name !== 'Total' && (p.FreeCapacityInBytes ?? 0) > 100 * GiB);
    expect(pool, 'a pool with free space').toBeDefined();
    const size = Math.floor(((pool!.FreeCapacityInBytes ?? 0) * 0.97) / GiB) * GiB;
    await rt.fleet.call(siteId, first, 'POST /templates/create', { body: { Application: 'filler-tpl' } });
    await rt.fleet.call(siteId, first, 'POST /templates/volumes/create', { body: { Application: 'filler-tpl', Volume: 'fill', CapacityInBytes: size, Pool: pool!.Name } });
    await rt.fleet.call(siteId, first, 'POST /applications/create', { body: { Application: 'filler', Template: 'filler-tpl' } });
    await rt.fleet.refresh({ force: true });
    const full = active().find((a) => a.rule === 'pool-used' && a.system === first && a.subject === pool!.Name);
    expect(full?.message).toMatch(/% allocated \(rule: above 90 %\)/);

    await rt.fleet.call(siteId, first, 'DELETE /applications/delete', { query: { application: 'filler' } });
    await rt.fleet.refresh({ force: true });
    expect(active().some((a) => a.rule === 'pool-used' && a.subject === pool!.Name && a.system === first)).toBe(false);
    expect(rt.alerts.list({ state: 'cleared', rule: 'pool-used' }).find((a) => a.id === full!.id)?.clearedAt).toBeDefined();
  });

  it('raises every system of a stopped site as unreachable and clears them when it answers again', async () => {
    await sim.control.siteDown(0);
    await rt.fleet.refresh({ force: true });
    const down = active().filter((a) => a.rule === 'unreachable');
    expect(down.map((a) => a.system).sort()).toEqual(rt.fleet.status(siteId).map((s) => s.system).sort());
    // The data of an unreachable system is as old as before: its drive alert stays.
    expect(active().some((a) => a.rule === 'drive' && a.system === first)).toBe(true);

    await sim.control.siteUp(0);
    await rt.fleet.refresh({ force: true });
    expect(active().filter((a) => a.rule === 'unreachable')).toEqual([]);
    expect(rt.alerts.list({ state: 'cleared', rule: 'unreachable' }).map((a) => a.id).sort()).toEqual(down.map((a) => a.id).sort());
  });

  it('keeps acknowledgements and snoozes across a restart, and the CLI exits 12 while any alert is open, 0 once none is', async () => {
    const drive = active().find((a) => a.rule === 'drive' && a.system === first)!;
    rt.alerts.acknowledge([drive.id]);
    const until = new Date(Date.now() + 3_600_000);
    const others = active().filter((a) => a.id !== drive.id);
    expect(others.length).toBeGreaterThan(0);
    rt.alerts.snooze([others[0]!.id], until);
    await world.closeRuntime();

    rt = await world.reopen();
    const after = new Map(rt.alerts.list({ state: 'active' }).map((a) => [a.id, a]));
    expect(after.get(drive.id)).toMatchObject({ state: 'acknowledged', acknowledgedBy: expect.any(String) });
    expect(after.get(others[0]!.id)).toMatchObject({ state: 'snoozed', snoozedUntil: until.toISOString() });
    await world.closeRuntime();

    const open = await cli(['alerts']);
    expect(open.code, open.stderr).toBe(12);
    expect(open.stdout).toContain('\tacknowledged\t');
    const json = await cli(['alerts', '--json']);
    const listed = JSON.parse(json.stdout) as Alert[];
    expect(json.code).toBe(12);
    expect(listed.find((a) => a.id === drive.id)?.state).toBe('acknowledged');

    rt = await world.reopen();
    rt.alerts.acknowledge(rt.alerts.list({ state: 'open' }).map((a) => a.id));
    await world.closeRuntime();
    const quiet = await cli(['alerts']);
    expect(quiet.code, quiet.stdout).toBe(0);
    expect((await cli(['alerts', '--site', 'nowhere'])).code).toBe(2);
    rt = await world.reopen();
  });

  it('never reads "no alerts" as all well for a site none of whose systems was read: it names the site and exits 16', async () => {
    const unread = await rt.sites.add({ name: 'never-read', baseUrl: 'https://127.0.0.1:9', username: 'admin' });
    try {
      rt.alerts.acknowledge(rt.alerts.list({ state: 'open' }).map((a) => a.id));
      await world.closeRuntime();
      const all = await cli(['alerts']);
      expect(all.code, all.stderr).toBe(16);
      expect(all.stderr).toContain('not read: site never-read: no system of it has been read yet');
      expect(all.stderr).toContain('its alerts are unknown');
      // Scoped to the site that was read, nothing is unknown.
      const read = await cli(['alerts', '--site', rt.sites.get(siteId)!.name]);
      expect(read.code, read.stderr).toBe(0);
      expect(read.stderr).toBe('');
      const compliance = await cli(['compliance', '--json', '--site', 'never-read']);
      expect(compliance.code, compliance.stderr).toBe(16);
      expect((JSON.parse(compliance.stdout) as { notRead?: unknown }).notRead).toEqual([{ siteId: unread.id, site: 'never-read' }]);
    } finally {
      rt = await world.reopen();
      await rt.sites.remove(unread.id);
    }
  });

  it('records a rule change in the action log chain and applies it at once', async () => {
    rt.alerts.setRules({ level: 'site', siteId }, { drive: { enabled: false } });
    expect(rt.alerts.list({ state: 'active', rule: 'drive' })).toEqual([]);
    const rec = rt.actionLog.list({ siteId }).at(-1);
    expect(rec).toMatchObject({ operation: 'alerts rules set', result: 'ok', params: { scope: { level: 'site', siteId }, override: { drive: { enabled: false } } } });
    expect(rt.actionLog.verify().ok).toBe(true);
  });
});
