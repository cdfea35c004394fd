// One damaged file stops nothing else: the CLI with random bytes in, or an emptied, data file.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/main.js';
import { openRuntime } from '../../../main/runtime.js';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

describe('fleetdeck with a damaged data file', () => {
  let sim: SimulatorHandle;
  let dir: string;
  const cli = async (...args: string[]): Promise<Ran> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli([...args, '--data-dir', dir], { stdout: (t) => out.push(t), stderr: (t) => err.push(t), readStdin: async () => '', env: { FLEETDECK_KEYCHAIN: 'memory' } });
    return { code, stdout: out.join(''), stderr: err.join('') };
  };
  const smash = (name: string, how: 'random' | 'empty'): void => {
    for (const f of [`${name}-wal`, `${name}-shm`]) rmSync(join(dir, f), { force: true });
    if (how === 'random') writeFileSync(join(dir, name), randomBytes(64 * 1024));
    else truncateSync(join(dir, name), 0);
  };

  let n = 0;
  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 1, seed: 'damaged-store', controlServer: false });
  });
  afterAll(async () => sim.close());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fd-damaged-'));
    // A data directory in use: a site, its data cached, one write logged.
    const rt = await openRuntime({ dataDir: dir, memorySecrets: true });
    const s = sim.manifest.sites[0]!;
    const site = await rt.fleet.addSite({ name: 'lab', baseUrl: s.baseUrl, username: s.username, password: s.password });
    await rt.fleet.refresh({ force: true });
    await rt.fleet.call(site.id, s.systems[0], 'POST /hosts/create', { body: { Name: `h-${++n}`, Iqn: `iqn.2026-01.io.fleetdeck:h-${n}` } });
    await rt.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('random bytes in the cache: moved aside (named) and rebuilt; site list, log and log verify work', async () => {
    smash('fleetdeck.db', 'random');
    const list = await cli('site', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('lab');
    expect(list.stderr).toMatch(new RegExp(`${join(dir, 'fleetdeck.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(the offline cache\\) was damaged .*: moved aside as \\S+fleetdeck\\.db\\.damaged-\\S+ and rebuilt`));
    expect(readdirSync(dir).some((f) => f.startsWith('fleetdeck.db.damaged-'))).toBe(true);
    const verify = await cli('log', 'verify');
    expect(verify.stdout).toMatch(/^action log intact: 2 record\(s\)/);
    expect((await cli('log')).stdout).toMatch(/POST \/hosts\/create\tok/);
  });

  it.each(['random', 'empty'] as const)('a log file with %s content: reported with its name and what to do, writes refused, site list still works, until log start-new', async (how) => {
    smash('actions.db', how);
    const logFile = join(dir, 'actions.db');
    const list = await cli('site', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('lab');
    expect(list.stderr).toContain(logFile);
    expect(list.stderr).toMatch(/Writes to systems are refused .*fleetdeck log start-new/);

    // Never "intact" on an emptied file.
    const verify = await cli('log', 'verify');
    expect(verify.code).toBe(7);
    expect(verify.stderr).toContain(logFile);
    expect(verify.stdout).not.toMatch(/intact/);

    const requests = sim.control.status()[0]!.requests;
    const write = await cli('call', 'lab', '--system', sim.manifest.sites[0]!.systems[0]!, 'POST /hosts/create', '--body', '{"Name":"refused-host","Iqn":"iqn.2026-01.io.fleetdeck:refused"}');
    expect(write.code).toBe(7);
    expect(write.stderr).toContain(logFile);
    expect(sim.control.status()[0]!.requests).toBe(requests);

    const restarted = await cli('log', 'start-new');
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stdout).toMatch(/the damaged action log was kept as \S+actions\.db\.damaged-\S+ \(SHA-256 [0-9a-f]{64}\); a new log started/);
    expect(existsSync(logFile)).toBe(true);
    const after = await cli('log', 'verify');
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toBe('');
    expect((await cli('log')).stdout).toMatch(/^1\t\S+\t\S+\t\/\tfleetdeck log start-new\tok\tnew action log started by /);
  });
});
