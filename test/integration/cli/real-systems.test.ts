// The CLI against the simulator in the dialects of real systems. The one-shot `call --url` needs no
// keychain; the saved-site commands run as separate processes and need the real one (scripts/with-keyring).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';
import { addSiteWith, fleetdeckOn, runFleetdeck } from '../../support/run-cli.js';

const haveKeyring = process.env.FLEETDECK_TEST_KEYRING === '1';
const PASSWORD = 'MARKER-CLI-REAL-PASSWORD-77c3';

describe('fleetdeck call --url against real-system dialects', () => {
  let sim: SimulatorHandle;
  const site = () => sim.manifest.sites[0]!;
  const call = (args: string[]) => runFleetdeck(['call', '--url', site().baseUrl, '--user', site().username, '--password-stdin', '--system', site().systems[0]!, ...args], { stdin: `${PASSWORD}\n`, timeoutMs: 60_000 });

  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 2, seed: 'cli-real-systems', password: PASSWORD, controlServer: false });
  });
  afterAll(async () => {
    await sim.close();
  });
  afterEach(() => {
    sim.control.setDialects([]);
    sim.fleet.sites[0]!.multifactor = false;
  });

  it('raw-token: the token refused as Bearer right after the login is sent bare, and the call answers', async () => {
    sim.control.setDialects(['raw-token']);
    // The token refused as Bearer is sent bare, not reported as "not authorized" (exit 6).
    const r = await call(['GET /Version']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ Versions: expect.any(Array) });
  });

  it('numeric-status: a login answering Status 0 is a login', async () => {
    sim.control.setDialects(['numeric-status']);
    // Status 0 is a completed login, not "login did not complete".
    const r = await call(['GET /Version']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('mfa-401: a second factor asked for on the 401 says to pass --code', async () => {
    sim.control.setDialects(['mfa-401']);
    sim.fleet.sites[0]!.multifactor = true;
    const r = await call(['GET /Version']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('Multifactor authentication required');
    expect(r.stderr).toContain('pass --code');
  });

  it("problem-details: a refusal prints the problem's title and detail, not its JSON", async () => {
    sim.control.setDialects(['problem-details']);
    const host = sim.fleet.sites[0]!.systems[0]!.hosts[0]!.name;
    const r = await call(['POST /hosts/create', '--body', JSON.stringify({ Name: host, Iqn: 'iqn.2026-01.io.fleetdeck:dup' })]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`fleetdeck: the system refused: The request was refused.: Host '${host}' already exists.\n`);
  });
});

// Each test runs several CLI processes one after another: on a busy 2-core machine each start takes seconds.
describe.runIf(haveKeyring)('fleetdeck with saved sites against real-system dialects (real keychain)', { timeout: 120_000 }, () => {
  let sim: SimulatorHandle;
  let dir: string;
  const site = () => sim.manifest.sites[0]!;
  const cli = fleetdeckOn(() => dir);
  const hostsOn = (i: number): string[] => sim.fleet.sites[0]!.systems[i]!.hosts.map((h) => h.name);

  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 3, seed: 'cli-real-saved', password: PASSWORD, controlServer: false });
    dir = mkdtempSync(join(tmpdir(), 'fd-cli-real-'));
    const add = await addSiteWith(cli, site(), PASSWORD);
    expect(add.code, add.stderr).toBe(0);
    const refresh = await cli(['refresh']);
    expect(refresh.code, refresh.stderr).toBe(0);
  });
  afterAll(async () => {
    await cli(['site', 'remove', site().name]);
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to point a system's session at another system, and the next write lands on the system named", async () => {
    const [first, second] = site().systems as [string, string];
    const select = await cli(['call', site().name, '--system', first, 'GET /systems/select', '--query', `name=${second}`]);
    // Refused, not sent: the session stays on its system, so the write below lands there.
    expect(select.code).toBe(2);
    expect(select.stderr).toContain("GET /systems/select is Fleetdeck's own");
    const write = await cli(['call', site().name, '--system', first, 'POST /hosts/create', '--body', JSON.stringify({ Name: 'cli-first', Iqn: 'iqn.2026-01.io.fleetdeck:cli-first' })]);
    expect(write.code, write.stderr).toBe(0);
    expect(hostsOn(0)).toContain('cli-first');
    expect(hostsOn(1)).not.toContain('cli-first');
  });

  it('--timeout overrides the timeout a utility derives from its timeoutSeconds', async () => {
    const node = sim.fleet.sites[0]!.systems[0]!.nodes[0]!.name;
    const args = ['call', site().name, '--system', site().systems[0]!, 'GET /nodes/utils/run', '--query', `node=${node}`, '--query', 'utility=sleep', '--query', 'args=2', '--query', 'timeoutSeconds=10'];
    expect((await cli(args)).code).toBe(0);
    const cut = await cli([...args, '--timeout', '500']);
    expect(cut.code).not.toBe(0);
    expect(cut.stderr).toMatch(/timed out; it may or may not have happened and was not resent/);
  });

  it('mfa-401: each system logs in with a code of its own, one command each, the next named every time', async () => {
    sim.control.setDialects(['mfa-401']);
    sim.fleet.sites[0]!.multifactor = true;
    sim.control.expireTokens();
    const [a, b, c] = site().systems as [string, string, string];
    const code = () => sim.control.totpSecret(0, site().username).code;
    const first = await cli(['login', site().name, '--code', code()]);
    expect(first.code).toBe(6);
    expect(first.stdout).toBe(`logged in to ${site().name}: ${a}\n`);
    expect(first.stderr).toContain(`${b}, ${c} each need a two-factor code of their own (a code is accepted once)`);
    expect(first.stderr).toContain(`fleetdeck login ${site().name} --system ${b} --code NEXT_CODE`);
    sim.control.advanceClock(30);
    const second = await cli(['login', site().name, '--system', b, '--code', code()]);
    expect([second.code, second.stdout]).toEqual([0, `logged in to ${site().name}: ${b}\n`]);
    sim.control.advanceClock(30);
    const last = await cli(['login', site().name, '--system', c, '--code', code()]);
    expect(last.code, last.stderr).toBe(0);
    const refresh = await cli(['refresh']);
    expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0);
    sim.control.setDialects([]);
    sim.fleet.sites[0]!.multifactor = false;
    // Five CLI processes one after another: on a busy 2-core machine each start takes seconds.
  }, 120_000);
});

// A cron job's refresh and report run as separate processes: what the refresh found must reach the report.
describe.runIf(haveKeyring)('fleetdeck refresh, then another process (real keychain)', { timeout: 120_000 }, () => {
  let sim: SimulatorHandle;
  let dir: string;
  let out: string;
  const site = () => sim.manifest.sites[0]!;
  const cli = fleetdeckOn(() => dir);

  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 3, seed: 'cli-outcomes', password: PASSWORD, controlServer: false });
    dir = mkdtempSync(join(tmpdir(), 'fd-cli-outcomes-'));
    out = mkdtempSync(join(tmpdir(), 'fd-cli-outcomes-out-'));
    const add = await addSiteWith(cli, site(), PASSWORD);
    expect(add.code, add.stderr).toBe(0);
  });
  afterAll(async () => {
    await cli(['site', 'remove', site().name]);
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('report --offline names real staleness only, and a system the site stopped listing says since when and why', async () => {
    const refresh = await cli(['refresh']);
    expect(refresh.code, refresh.stderr).toBe(0);
    const report = await cli(['report', 'health', '--offline', '--format', 'json', '--out', join(out, 'first')]);
    expect(report.code, report.stderr).toBe(0);
    // The new process starts from the recorded outcomes: ok right after a successful refresh, not stale.
    for (const s of site().systems) expect(report.stdout).toMatch(new RegExp(`/ ${s}\\tok\\tas of `));

    const last = site().systems.at(-1)!;
    sim.control.setDialects(['unlisted-system']);
    const dropped = await cli(['refresh']);
    expect(dropped.code).not.toBe(0);
    const row = dropped.stdout.split('\n').find((l) => l.split('\t')[1] === last)!.split('\t');
    expect(row[2]).toBe('unlisted');
    expect(row.join('\t')).toMatch(/not listed by the site since \S+; the list says: System '.+' is not listed: its relay connection is down\./);
    const alerts = await cli(['alerts', '--json']);
    expect((JSON.parse(alerts.stdout) as Array<{ rule: string; system: string }>).filter((a) => a.rule === 'unlisted').map((a) => a.system)).toEqual([last]);
    const after = await cli(['report', 'health', '--offline', '--format', 'json', '--out', join(out, 'second')]);
    expect(after.stdout).toMatch(new RegExp(`/ ${last}\\tunlisted\\tas of `));
    for (const s of site().systems.slice(0, -1)) expect(after.stdout).toMatch(new RegExp(`/ ${s}\\tok\\tas of `));
    sim.control.setDialects([]);
  });
});
