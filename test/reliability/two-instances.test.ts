import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime } from '../../main/runtime.js';
import { SiteStore } from '../../main/store/site-store.js';
import { startSimulator, type SimulatorHandle } from '../../simulator/index.js';
import { tempDir } from './support.js';

/**
 * Two instances launched per site (`--site alpha`, `--site beta`) on one data directory, as an admin
 * runs them side by side: each process opens its runtime through the shells' launch code and, at
 * the same moment as the other, refreshes its site and writes to it several times. The shared
 * SQLite store must take both (WAL, busy timeout): every refresh ok, every write logged in one
 * valid chain, each site's answers cached, the file intact.
 */

const repo = fileURLToPath(new URL('../../', import.meta.url));
const launchModule = pathToFileURL(join(repo, 'main/shells/launch.ts')).href;
const ROUNDS = 4;

/** One instance: launches scoped to a site, logs in, says `ready`, waits for `go` on stdin, then refreshes and writes ROUNDS times. */
const INSTANCE = `
import { launchCore, parseLaunchArgs } from ${JSON.stringify(launchModule)};
const [dataDir, site, password] = process.argv.slice(2);
const core = await launchCore(parseLaunchArgs(['--site', site, '--data-dir', dataDir], {}), (m) => process.stderr.write(m + '\\n'));
await core.runtime.fleet.login(core.scopedSiteId, { password });
const systems = core.runtime.fleet.systemsOf(core.scopedSiteId);
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
for (let round = 0; round < ${ROUNDS}; round++) {
  const statuses = await core.refresh();
  process.stdout.write('refreshed ' + statuses.map((s) => s.siteId + '/' + s.system + '=' + s.state).join(',') + '\\n');
  const system = core.runtime.fleet.systemsOf(core.scopedSiteId)[0];
  const name = site + '-host-' + round;
  await core.runtime.fleet.call(core.scopedSiteId, system, 'POST /hosts/create', { body: { Name: name, Iqn: 'iqn.2026-01.io.fleetdeck:' + name } });
  process.stdout.write('wrote ' + name + '\\n');
}
await core.close();
process.stdout.write('closed\\n');
`;

interface Instance {
  lines: string[];
  stderr: string;
  ready: Promise<void>;
  exited: Promise<number | null>;
  go(): void;
}

function startInstance(script: string, args: readonly string[]): Instance {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' } });
  const inst: Instance = {
    lines: [],
    stderr: '',
    ready: new Promise<void>((resolve, reject) => {
      let buffered = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const parts = buffered.split('\n');
        buffered = parts.pop() ?? '';
        inst.lines.push(...parts);
        if (parts.includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`instance exited (${code}) before it was ready: ${inst.stderr}`)));
    }),
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    go: () => child.stdin.end('go\n'),
  };
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (inst.stderr += chunk));
  return inst;
}

describe('two instances for two sites on one data directory', () => {
  let sim: SimulatorHandle;
  const data = tempDir('fd-two-');
  beforeAll(async () => {
    sim = await startSimulator({ sites: 2, systems: 2, seed: 'two-instances', controlServer: false });
  });
  afterAll(async () => {
    await sim.close();
    data.remove();
  });

  it('refresh and write at once, each its own site: all ok, one valid action log, both sites cached', async () => {
    const dataDir = join(data.dir, 'data');
    const sites = new SiteStore({ dataDir });
    for (const s of sim.manifest.sites) await sites.add({ name: s.name, baseUrl: s.baseUrl, username: s.username });
    const script = join(data.dir, 'instance.mjs');
    writeFileSync(script, INSTANCE);
    const [a, b] = sim.manifest.sites as [(typeof sim.manifest.sites)[number], (typeof sim.manifest.sites)[number]];
    const instances = [startInstance(script, [dataDir, a.name, a.password]), startInstance(script, [dataDir, b.name, b.password])];
    await Promise.all(instances.map((i) => i.ready));
    for (const i of instances) i.go();
    const codes = await Promise.all(instances.map((i) => i.exited));
    expect(codes, instances.map((i) => i.stderr).join('\n')).toEqual([0, 0]);

    const [idA, idB] = sites.list().map((s) => s.id) as [string, string];
    for (const [inst, own] of [
      [instances[0]!, idA],
      [instances[1]!, idB],
    ] as const) {
      const refreshed = inst.lines.filter((l) => l.startsWith('refreshed '));
      expect(refreshed).toHaveLength(ROUNDS);
      for (const line of refreshed) {
        const states = line.slice('refreshed '.length).split(',');
        expect(states).toHaveLength(2);
        for (const s of states) expect(s).toMatch(new RegExp(`^${own}/[^=]+=ok$`));
      }
      expect(inst.lines).toContain('closed');
    }

    const rt = await openRuntime({ dataDir, memorySecrets: true });
    try {
      expect(rt.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const verify = rt.actionLog.verify();
      expect(verify.problems).toEqual([]);
      expect(verify.count).toBe(2 * 2 * ROUNDS); // an intent and an outcome per write
      expect(new Set(rt.actionLog.list().map((r) => r.siteId))).toEqual(new Set([idA, idB]));
      const cached = new Set(rt.cache.systems().map((s) => s.siteId));
      expect(cached).toEqual(new Set([idA, idB]));
    } finally {
      await rt.close();
    }
    // Two processes, each with its own TypeScript loader, on a shared 2-core machine.
  }, 180_000);
});
