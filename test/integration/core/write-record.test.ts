import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redact } from '../../../app/redact.js';
import { Fleet } from '../../../main/core/fleet.js';
import { openRuntime } from '../../../main/runtime.js';
import { openSecretStore } from '../../../main/secrets/secret-store.js';
import { ActionLog, SiteStore, StoreError, openLogDatabase, openStores } from '../../../main/store/index.js';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';

/**
 * A write is recorded before it is sent: when the record cannot be written, the write does not
 * reach the system. The data directory is made read-only for a process that really cannot write
 * it: when the tests run as root (which ignores file modes), that process runs as `nobody`.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const runtimeModule = pathToFileURL(join(repo, 'main/runtime.ts')).href;

/** argv: phase (setup | write), dataDir, baseUrl, password, system, tag (of host names). Prints one JSON line per step. */
const WORKER = `
import { openRuntime } from ${JSON.stringify(runtimeModule)};
const [phase, dataDir, baseUrl, password, system, tag] = process.argv.slice(2);
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
const warnings = [];
const rt = await openRuntime({ dataDir, memorySecrets: true, timeoutMs: 5000, warn: (m) => warnings.push(m) });
out({ warnings });
if (phase === 'setup') {
  const site = await rt.fleet.addSite({ name: 'ro-site', baseUrl, username: 'admin', password });
  await rt.fleet.refresh({ force: true });
  await rt.fleet.call(site.id, system, 'POST /hosts/create', { body: { Name: 'before-' + tag, Iqn: 'iqn.2026-01.io.fleetdeck:before-' + tag } });
} else {
  // Reading still works: the saved sites, and a login (no write).
  out({ sites: rt.sites.list().map((s) => s.name) });
  const site = rt.sites.get('ro-site');
  await rt.fleet.login(site.id, { password });
  try {
    await rt.fleet.call(site.id, system, 'POST /hosts/create', { body: { Name: 'during-' + tag, Iqn: 'iqn.2026-01.io.fleetdeck:during-' + tag } });
    out({ written: true });
  } catch (err) {
    out({ error: { code: err.code, name: err.name, message: err.message } });
  }
}
await rt.close();
`;

const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

function run(script: string, args: readonly string[]): Promise<{ lines: Array<Record<string, unknown>>; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory', HOME: tmpdir() },
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('error', reject);
    child.once('exit', (code) =>
      resolve({
        lines: stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
        stderr,
        code,
      }),
    );
  });
}

describe('a write whose record cannot be written is not sent', () => {
  let sim: SimulatorHandle;
  let dir: string;

  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 1, seed: 'write-record', controlServer: false });
    dir = mkdtempSync(join(tmpdir(), 'fd-write-record-'));
    chmodSync(dir, 0o755);
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const hostsOnSystem = (): string[] => sim.fleet.sites[0]!.systems[0]!.hosts.map((h) => h.name);

  it.each([
    ['a read-only data directory', true],
    ['read-only data files in a writable directory', false],
  ])('refuses the write with %s, naming the log file; nothing reaches the system; reading still works', async (_what, dirToo) => {
    const script = join(dir, 'worker.mjs');
    writeFileSync(script, WORKER);
    chmodSync(script, 0o644);
    const tag = dirToo ? 'ro-dir' : 'ro-files';
    const dataDir = join(dir, tag);
    const site = sim.manifest.sites[0]!;
    const system = site.systems[0]!;
    if (asRoot) {
      // The data directory belongs to the user the worker runs as, as it would on a workstation.
      mkdirSync(dataDir, { mode: 0o700 });
      chownSync(dataDir, NOBODY, NOBODY);
    }
    const setup = await run(script, ['setup', dataDir, site.baseUrl, site.password, system, tag]);
    expect(setup.code, setup.stderr).toBe(0);
    expect(hostsOnSystem()).toContain(`before-${tag}`);

    for (const f of readdirSync(dataDir)) chmodSync(join(dataDir, f), 0o400);
    if (dirToo) chmodSync(dataDir, 0o500);
    try {
      const requestsBefore = sim.control.status()[0]!.requests;
      const result = await run(script, ['write', dataDir, site.baseUrl, site.password, system, tag]);
      expect(result.code, result.stderr).toBe(0);
      const [opened, listed, outcome] = result.lines;
      const logFile = join(dataDir, 'actions.db');
      // Opening says once which files cannot be written and what that means.
      expect((opened?.warnings as string[]).join('\n')).toContain(logFile);
      expect(listed).toEqual({ sites: ['ro-site'] });
      const error = outcome?.error as { code: string; message: string } | undefined;
      expect(error?.code).toBe('store');
      expect(error?.message).toContain(logFile);
      expect(error?.message).toMatch(/Writes to systems are refused until it can be written: make .* writable/);
      // The write did not reach the system: no host, and no request besides the logins.
      expect(hostsOnSystem()).not.toContain(`during-${tag}`);
      // The site's login, its system list, and the system's login and select (the cache could not be read) at most.
      expect(sim.control.status()[0]!.requests - requestsBefore).toBeLessThanOrEqual(4);
    } finally {
      chmodSync(dataDir, 0o700);
      for (const f of readdirSync(dataDir)) chmodSync(join(dataDir, f), 0o600);
    }

    // Writable again: writes are recorded and sent as before.
    const rt = await openRuntime({ dataDir, memorySecrets: true });
    try {
      expect(rt.actionLog.list().map((r) => [(r.params as { body: { Name: string } }).body.Name, r.result])).toEqual([[`before-${tag}`, 'ok']]);
      const later = rt.sites.get('ro-site')!;
      await rt.fleet.login(later.id, { password: site.password });
      await rt.fleet.call(later.id, system, 'POST /hosts/create', { body: { Name: `after-${tag}`, Iqn: `iqn.2026-01.io.fleetdeck:after-${tag}` } });
      expect(rt.actionLog.list().at(-1)).toMatchObject({ result: 'ok', params: { body: { Name: `after-${tag}` } } });
      expect(rt.actionLog.verify().ok).toBe(true);
    } finally {
      await rt.close();
    }
  }, 90_000);

  it('refuses the write on a full disk, naming the log file; nothing reaches the system', async () => {
    const dataDir = join(dir, 'full');
    const stores = openStores(dataDir);
    stores.actionLog.close();
    // The log's own connection, capped at the pages it has and filled up: SQLite's stand-in for a full disk.
    const logDb = openLogDatabase(dataDir);
    const actionLog = new ActionLog({ db: logDb, file: join(dataDir, 'actions.db') });
    const fleet = new Fleet({ sites: new SiteStore({ dataDir }), secrets: await openSecretStore({ disable: true }), cache: stores.cache, actionLog, user: 'tester', timeoutMs: 5000 });
    try {
      const s = sim.manifest.sites[0]!;
      const site = await fleet.addSite({ name: 'full-site', baseUrl: s.baseUrl, username: s.username, password: s.password });
      await fleet.refresh({ force: true });
      logDb.pragma(`max_page_count = ${Number(logDb.pragma('page_count', { simple: true }))}`);
      let filler = 0;
      for (;;) {
        try {
          actionLog.append({ user: 'filler', siteId: 'x', system: 'y', operation: 'POST /hosts/create', params: redact({ n: filler++, pad: 'p'.repeat(500) }), result: 'ok', message: redact('') });
        } catch (err) {
          expect(err).toBeInstanceOf(StoreError);
          break;
        }
      }
      const requestsBefore = sim.control.status()[0]!.requests;
      const error = await fleet.call(site.id, s.systems[0], 'POST /hosts/create', { body: { Name: 'on-full-disk', Iqn: 'iqn.2026-01.io.fleetdeck:full' } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).reason).toBe('full');
      expect((error as Error).message).toContain(join(dataDir, 'actions.db'));
      expect((error as Error).message).toMatch(/free space on the disk holding .*\(the write was not sent\)/);
      expect(hostsOnSystem()).not.toContain('on-full-disk');
      expect(sim.control.status()[0]!.requests).toBe(requestsBefore);
    } finally {
      await fleet.close();
      actionLog.close();
      stores.close();
    }
  });
});
