import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../../simulator/index.js';
import { SimClock, startSimulator } from '../../../simulator/index.js';
import { linkStatus } from '../../../simulator/state/replication.js';
import { T0, raw } from './support.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

describe('simulator command', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('prints a ready line, writes the manifest and closes cleanly on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fleetdeck-sim-'));
    dirs.push(dir);
    const manifestPath = join(dir, 'manifest.json');
    const child = spawn(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', '--sites', '2', '--systems', '1', '--seed', 'cli', '--password', 'cli-pass-123', '--manifest', manifestPath], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const ready = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line: ${out} ${err}`)), 50_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.includes('ready'));
        if (line) {
          clearTimeout(timer);
          resolve(line);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
    expect(manifest.sites).toHaveLength(2);
    expect(manifest.sites[0]).toMatchObject({ username: 'admin', password: 'cli-pass-123', systems: [expect.any(String)] });
    for (const s of manifest.sites) expect(ready).toContain(s.baseUrl);
    expect(manifest.control).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const login = await raw(manifest.sites[1]!.baseUrl, 'POST', '/login', { body: JSON.stringify({ Username: 'admin', Password: 'cli-pass-123' }) });
    expect(login.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    await expect(raw(manifest.sites[0]!.baseUrl, 'GET', '/Version')).rejects.toThrow();
  });

  it('builds the demo fleet: 3 sites x 3 systems, one degrading drive, one replication pair in sync', async () => {
    const sim = await startSimulator({ demo: true, clock: SimClock.frozen(T0), controlServer: false });
    try {
      expect(sim.manifest.sites.map((s) => s.systems.length)).toEqual([3, 3, 3]);
      const drives = sim.fleet.sites.flatMap((s) => s.systems.flatMap((y) => y.nodes.flatMap((n) => n.drives)));
      const degrading = drives.filter((d) => d.wear.degradePerHour > 0);
      expect(degrading).toHaveLength(1);
      expect(degrading[0]?.status).toBe('Warning');
      const links = sim.fleet.sites.flatMap((s) => s.links);
      expect(links).toHaveLength(1);
      expect(linkStatus(links[0]!, T0).status).toBe('InSync');
      expect(links[0]?.primary.systemId).not.toBe(links[0]?.secondary.systemId);
    } finally {
      await sim.close();
    }
  });
});
