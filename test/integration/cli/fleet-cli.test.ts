// The "Main-process core" acceptance, through the CLI as an admin runs it. Each command is its own
// process, so secrets must survive between them: this needs the real keychain (scripts/with-keyring).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../../../main/store/driver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';
import { addSiteWith, fleetdeckOn } from '../../support/run-cli.js';

const haveKeyring = process.env.FLEETDECK_TEST_KEYRING === '1';
const PASSWORD = 'MARKER-CLI-PASSWORD-5c1d';

it('runs with a real keychain under CI', () => {
  if (process.env.CI && process.env.CI !== 'false') expect(haveKeyring, 'run the tests through scripts/with-keyring').toBe(true);
});

function grepDir(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) hits.push(...grepDir(p, needle));
    else if (readFileSync(p).includes(Buffer.from(needle))) hits.push(p);
  }
  return hits;
}

// Each test runs several CLI processes one after another: on a busy 2-core machine each start takes seconds.
describe.runIf(haveKeyring)('fleetdeck site, refresh, call, log (real keychain)', { timeout: 120_000 }, () => {
  let sim: SimulatorHandle;
  let dir: string;
  const cli = fleetdeckOn(() => dir);

  beforeAll(async () => {
    sim = await startSimulator({ sites: 2, systems: 3, seed: 'cli-acceptance', password: PASSWORD, controlServer: false });
    dir = mkdtempSync(join(tmpdir(), 'fd-cli-'));
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds two sites and refreshes every system to ok', async () => {
    for (const s of sim.manifest.sites) {
      const r = await addSiteWith(cli, s, PASSWORD);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    const list = await cli(['site', 'list']);
    for (const s of sim.manifest.sites) expect(list.stdout).toContain(s.name);
    const r = await cli(['refresh']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(line.split('\t')[2]).toBe('ok');
    // The roll-up the app's overview shows, from what the refresh cached.
    for (const line of lines) expect(line.split('\t')[3]).toMatch(/^health (ok|warning|critical|unknown)/);
    const json = await cli(['refresh', '--json', '--force']);
    const rows = JSON.parse(json.stdout) as Array<{ health: string; healthReasons: string[] }>;
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(['ok', 'warning', 'critical']).toContain(row.health);
  });

  it('shows a killed site unreachable while the other stays ok, and its cached data stays readable', async () => {
    await sim.sites[1]!.stop();
    const r = await cli(['refresh']);
    expect(r.code).toBe(3);
    const rows = r.stdout.trim().split('\n').map((l) => l.split('\t'));
    const dead = sim.manifest.sites[1]!.name;
    for (const row of rows) expect(row[2], row.join(' ')).toBe(row[0] === dead ? 'unreachable' : 'ok');
    const system = sim.manifest.sites[1]!.systems[0]!;
    const cached = await cli(['call', dead, '--system', system, 'GET /Version', '--cached']);
    expect(cached.code).toBe(0);
    expect(cached.stderr).toMatch(/cached answer as of .* \(stale\)/);
    expect(JSON.parse(cached.stdout)).toHaveProperty('Versions');
    await sim.sites[1]!.start();
  });

  it('calls an operation on a saved site and records the write', async () => {
    const site = sim.manifest.sites[0]!;
    const system = site.systems[1]!;
    const r = await cli(['call', site.name, '--system', system, 'POST /hosts/create', '--body', '{"Name":"cli-host","Iqn":"iqn.2026-02.io.fleetdeck:cli","ChapSecret":"MARKER-CHAP-77aa"}']);
    expect(r.code, r.stderr).toBe(0);
    const hosts = await cli(['call', site.name, '--system', system, 'GET /hosts/list', '--query', 'name=cli-host']);
    expect(JSON.parse(hosts.stdout).Data).toHaveLength(1);
    const log = await cli(['log', '--site', site.name]);
    expect(log.stdout).toMatch(/POST \/hosts\/create\tok/);
    expect(log.stdout).not.toContain('MARKER-CHAP-77aa');
    expect((await cli(['log', 'verify'])).code).toBe(0);
  });

  it('keeps no password, token or secret in any file of the data directory', () => {
    for (const marker of [PASSWORD, 'MARKER-CHAP-77aa']) expect(grepDir(dir, marker), marker).toEqual([]);
    // Session tokens live in the keychain: the simulator knows them, the data directory must not.
    const tokens = sim.fleet.sites.flatMap((s) => [...s.sessions.keys()]);
    expect(tokens.length).toBeGreaterThan(0);
    for (const t of tokens) expect(grepDir(dir, t), 'a session token on disk').toEqual([]);
  });

  it('detects one edited byte of an action-log row', async () => {
    const db = connect(join(dir, 'actions.db'));
    for (const t of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as Array<{ name: string }>) db.exec(`DROP TRIGGER ${t.name}`);
    const row = db.prepare('SELECT seq, params FROM action_log ORDER BY seq LIMIT 1').get() as { seq: number; params: string };
    const edited = row.params.replace('cli-host', 'cli-hosT');
    expect(edited).not.toBe(row.params);
    db.prepare('UPDATE action_log SET params = ? WHERE seq = ?').run(edited, row.seq);
    db.close();
    const r = await cli(['log', 'verify']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(new RegExp(`record ${row.seq}:`));
    expect(r.stderr).toMatch(/verification FAILED/);
  });

  it('forgets every secret of a removed site', async () => {
    const site = sim.manifest.sites[0]!;
    const removed = await cli(['site', 'remove', site.name]);
    expect(removed.code, removed.stderr).toBe(0);
    const after = await cli(['site', 'add', site.name, '--url', site.baseUrl, '--user', site.username]);
    expect(after.code).toBe(0);
    const r = await cli(['refresh', '--site', site.name]);
    // No password survived the removal: the site needs a login again.
    expect(r.stdout).toMatch(/no password stored|login/);
  });
});
