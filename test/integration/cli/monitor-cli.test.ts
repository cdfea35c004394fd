import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_V8_FLAGS } from '../../../main/heap.js';
import { acquireMonitorLock, lockAddress, monitorHolder } from '../../../main/monitor/lock.js';
import { secretEnvName } from '../../../main/monitor/secrets.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { BIN, runFleetdeck } from '../../support/run-cli.js';
import { until } from '../../support/until.js';
import { siteInput, tempDataDir, useSimulator } from '../support/simulated-fleet.js';

/** A `fleetdeck monitor` child process and everything it wrote to stderr so far. */
interface MonitorProcess {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  exited: Promise<number | null>;
}

const INTERVAL_S = 2;

describe('fleetdeck monitor, a real process against the simulator', { timeout: 120_000 }, () => {
  const simulator = useSimulator({ sites: 2, systems: 2, seed: 'monitor-cli' });
  let data: { dir: string; remove: () => void };
  let secrets: { dir: string; remove: () => void };
  const secretsFile = (): string => join(secrets.dir, 'secrets.json');
  const running: MonitorProcess[] = [];

  const startMonitor = (extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}): MonitorProcess => {
    const a = simulator.sim.manifest.sites[0]!;
    // Started as the fleetdeck launchers start it, with their V8 options.
    const child = spawn(process.execPath, [...RUNTIME_V8_FLAGS, BIN, 'monitor', '--data-dir', data.dir, '--secrets-file', secretsFile(), ...extraArgs], {
      // Site A's password from the environment, site B's from the file; no keychain.
      env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory', [secretEnvName(a.name)]: a.password, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const m = { child, stderr: () => stderr, exited };
    running.push(m);
    return m;
  };

  beforeAll(async () => {
    data = tempDataDir('fd-monitor-');
    secrets = tempDataDir('fd-monitor-secrets-');
    const [a, b] = simulator.sim.manifest.sites;
    writeFileSync(secretsFile(), JSON.stringify({ [b!.name]: b!.password }), { mode: 0o600 });
    // Sites saved as an admin saves them; the passwords stay in this process's memory, not on disk.
    const rt = await openRuntime({ dataDir: data.dir, memorySecrets: true });
    for (const s of [a!, b!]) {
      const site = await rt.fleet.addSite(siteInput(s));
      await rt.fleet.editSite(site.id, { polling: { ...site.polling, intervalSeconds: INTERVAL_S } });
    }
    await rt.close();
  });
  afterEach(async () => {
    for (const m of running.splice(0)) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
  });
  afterAll(() => {
    data.remove();
    secrets.remove();
  });

  it('polls, raises an alert after a fault, refuses a second monitor, and stops on SIGTERM with exit 0 and the lock released', async () => {
    const m = startMonitor();
    await until(() => m.stderr().includes('first refresh done'), () => m.stderr());
    expect(m.stderr()).toMatch(/started: .*2 sites: .*\(every 2 s, password from environment\).*\(every 2 s, password from file\)/);
    expect(m.stderr()).toContain('first refresh done: 4 systems: 4 ok');
    expect(m.stderr()).not.toContain('was started without');

    // A second monitor on the same data directory is refused, naming the first.
    const second = await runFleetdeck(['monitor', '--data-dir', data.dir], { env: { FLEETDECK_KEYCHAIN: 'memory' }, timeoutMs: 30_000 });
    expect(second.code).toBe(14);
    expect(second.stderr).toContain(`another monitor already polls ${data.dir}: process ${m.child.pid} of`);

    // A fault on the simulator: the next poll sees it and the alert engine raises it.
    const site = simulator.sim.manifest.sites[0]!;
    const failed = simulator.sim.control.failDrive({ site: 0 });
    await until(() => new RegExp(`alert raised: critical ${site.name}/${failed.system} drive .*${failed.name}`).test(m.stderr()), () => m.stderr(), 60_000);

    m.child.kill('SIGTERM');
    expect(await m.exited).toBe(0);
    expect(m.stderr()).toMatch(/SIGTERM received\n.*stopping: .*\n.*stopped\n$/);
    expect(await monitorHolder(data.dir)).toBeUndefined();
    expect(existsSync(lockAddress(data.dir))).toBe(false);
    // No password reached the log.
    for (const s of simulator.sim.manifest.sites) expect(m.stderr()).not.toContain(s.password);
  });

  it('is replaced after a SIGKILL: the next monitor takes the lock the dead one left', async () => {
    const first = startMonitor();
    await until(() => first.stderr().includes(' started: '), () => first.stderr());
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(lockAddress(data.dir))).toBe(true);
    const next = startMonitor();
    await until(() => next.stderr().includes('first refresh done'), () => next.stderr());
    expect(await monitorHolder(data.dir)).toMatchObject({ pid: next.child.pid });
    next.child.kill('SIGINT');
    expect(await next.exited).toBe(0);
  });

  it('leaves the background polls to the monitor: an app on the same data dir takes what the monitor recorded', async () => {
    const m = startMonitor();
    await until(() => m.stderr().includes('first refresh done'), () => m.stderr());
    // The app's runtime has no password of any site: a poll of its own would end in "login required".
    const app: Runtime = await openRuntime({ dataDir: data.dir, memorySecrets: true });
    try {
      const seen: string[] = [];
      app.fleet.on((e) => e.type === 'status' && seen.push(`${e.status.system}:${e.status.state}`));
      app.fleet.startPolling();
      const before = Math.max(...app.fleet.status().map((s) => Date.parse(s.lastSuccessAt ?? '') || 0));
      // The monitor's later polls reach the app's statuses through the data dir.
      await until(() => app.fleet.status().some((s) => Date.parse(s.lastSuccessAt ?? '') > before), () => JSON.stringify(app.fleet.status()), 60_000);
      expect(app.fleet.status().map((s) => s.state)).toEqual(['ok', 'ok', 'ok', 'ok']);
      expect(seen.filter((s) => !s.endsWith(':ok'))).toEqual([]);

      // Without a monitor the app polls itself (and, with no password, says a login is needed).
      m.child.kill('SIGTERM');
      expect(await m.exited).toBe(0);
      await until(() => app.fleet.status().some((s) => s.state === 'login-required'), () => JSON.stringify(app.fleet.status()), 60_000);
    } finally {
      await app.close();
    }
  });

  it('takes the lock in-process the same way: a monitor cannot start while a lock is held', async () => {
    const lock = await acquireMonitorLock({ dataDir: data.dir, user: 'someone', version: '0.0.1' });
    try {
      const refused = await runFleetdeck(['monitor', '--data-dir', data.dir], { env: { FLEETDECK_KEYCHAIN: 'memory' }, timeoutMs: 30_000 });
      expect(refused.code).toBe(14);
      expect(refused.stderr).toContain(`process ${process.pid} of someone`);
    } finally {
      await lock.release();
    }
  });
});

describe('fleetdeck monitor and a site that asks for a two-factor code', { timeout: 180_000 }, () => {
  const simulator = useSimulator({ sites: 2, systems: 2, seed: 'monitor-2fa' });
  let data: { dir: string; remove: () => void };

  beforeAll(async () => {
    data = tempDataDir('fd-monitor-2fa-');
    const rt = await openRuntime({ dataDir: data.dir, memorySecrets: true });
    for (const s of simulator.sim.manifest.sites) {
      const site = await rt.fleet.addSite(siteInput(s));
      await rt.fleet.editSite(site.id, { polling: { ...site.polling, intervalSeconds: INTERVAL_S } });
    }
    // Site 0 turns two-factor authentication on: a password alone no longer logs in.
    const first = rt.sites.list().find((s) => s.name === simulator.sim.manifest.sites[0]!.name)!;
    await rt.fleet.refresh({ siteIds: [first.id], force: true });
    await rt.fleet.call(first.id, rt.fleet.systemsOf(first.id)[0], 'PUT /settings/authentication', { body: { EnableMultifactorAuthentication: true } });
    await rt.close();
    simulator.sim.control.expireTokens(0);
  });
  afterAll(() => data.remove());

  it('reports it as waiting for an admin, does not ask it again at each poll, and takes the code from fleetdeck login', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, FLEETDECK_KEYCHAIN: 'memory' };
    for (const s of simulator.sim.manifest.sites) env[secretEnvName(s.name)] = s.password;
    const child = spawn(process.execPath, [BIN, 'monitor', '--data-dir', data.dir], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until(() => stderr.includes('first refresh done'), () => stderr);
      // Started by node without the launchers' V8 options: it says so, once, and runs.
      expect(stderr.match(/warning: node was started without --no-memory-reducer --retain-maps-for-n-gc=16, which the fleetdeck command passes/g)).toHaveLength(1);
      const [waiting, other] = simulator.sim.manifest.sites;
      const waits = new RegExp(`${waiting!.name}/(\\S+): ok → login-required: .*two-factor.*\\(waiting for an admin, not polled until then: fleetdeck login ${waiting!.name} --system \\1 --code CODE\\)`);
      expect(stderr).toMatch(waits);
      const load = (i: number): number => simulator.sim.control.status()[i]!.requests;
      const asked = load(0);
      // The other site, on the same interval, is polled twice meanwhile: the waiting one is not asked.
      let polls = 0;
      let last = load(1);
      await until(
        () => {
          const now = load(1);
          if (now > last) {
            polls++;
            last = now;
          }
          return polls >= 3;
        },
        () => `polls of ${other!.name}: ${polls}`,
        60_000,
      );
      expect(load(0)).toBe(asked);

      // The admin gives one system its code from the command line: the running monitor logs it in
      // with its own session, and polls it again at once; the other system still waits for its own.
      const system = waits.exec(stderr)?.[1];
      expect(system).toBeDefined();
      const { code } = simulator.sim.control.totpSecret(0, waiting!.username);
      const login = await runFleetdeck(['login', waiting!.name, '--system', system!, '--code', code, '--data-dir', data.dir], { env: { FLEETDECK_KEYCHAIN: 'memory' } });
      expect(login.stderr).toBe('');
      expect(login.stdout).toMatch(new RegExp(`^logged in to ${waiting!.name} through the running monitor \\(process ${child.pid}\\): ${system}\\n$`));
      expect(login.code).toBe(0);
      // Its login leaves it stale; the poll that follows at once makes it ok.
      await until(() => stderr.includes(`${waiting!.name}/${system}: stale → ok`), () => stderr);
      expect(stderr).toContain(`${waiting!.name}/${system}: login-required → stale`);
      expect(stderr).toContain(`${waiting!.name}: logged in by "fleetdeck login" with a two-factor code: ${system}`);
      const sibling = simulator.sim.manifest.sites[0]!.systems.find((s) => s !== system)!;
      expect(stderr).not.toContain(`${waiting!.name}/${sibling}: login-required → `);
      // A wrong code is refused by the monitor's login, and said so with the error's exit status.
      const wrong = await runFleetdeck(['login', waiting!.name, '--system', sibling, '--code', code === '000000' ? '111111' : '000000', '--data-dir', data.dir], { env: { FLEETDECK_KEYCHAIN: 'memory' } });
      expect(wrong.stderr).toContain(`the running monitor (process ${child.pid})`);
      expect(wrong.code).toBe(6);
      for (const s of simulator.sim.manifest.sites) expect(stderr).not.toContain(s.password);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
