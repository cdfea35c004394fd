// Answers in another envelope are read as the document's
// shape; answers in a shape not recognised are a protocol error (exit 4) naming the read, never an
// empty list. `refresh` needs saved sites whose password survives between processes: the real
// keychain (scripts/with-keyring).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';
import { addSiteWith, fleetdeckOn, runFleetdeck } from '../../support/run-cli.js';

const haveKeyring = process.env.FLEETDECK_TEST_KEYRING === '1';
const PASSWORD = 'answers-cli-pw-41';

let sim: SimulatorHandle;
let dir: string;
beforeAll(async () => {
  sim = await startSimulator({ sites: 1, systems: 2, seed: 'answers-cli', password: PASSWORD, controlServer: false, dialects: ['envelope-result', 'envelope-lower'] });
  dir = mkdtempSync(join(tmpdir(), 'fd-answers-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const site = () => sim.manifest.sites[0]!;
const direct = (op: string) =>
  runFleetdeck(['call', '--url', site().baseUrl, '--user', site().username, '--password-stdin', '--system', site().systems[0]!, op], { stdin: `${PASSWORD}\n`, timeoutMs: 60_000 });

describe('fleetdeck call --url', () => {
  it('prints a list sent as {"Result":{"data":[…]}} with camelCase names in the document shape', async () => {
    sim.control.setDialects(['envelope-result', 'envelope-lower']);
    const r = await direct('GET /hosts/list');
    expect(r.code, r.stderr).toBe(0);
    const hosts = JSON.parse(r.stdout) as { Data: Array<{ Name?: string }> };
    expect(hosts.Data.length).toBeGreaterThan(0);
    expect(hosts.Data.every((h) => typeof h.Name === 'string')).toBe(true);
  }, 60_000);

  it('exits 4 on a list in an envelope it does not know, naming the read and what came back, printing no list', async () => {
    sim.control.setDialects(['unknown-envelope']);
    const r = await direct('GET /hosts/list');
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/GET \/hosts\/list answered \{"items": \[\d+ objects?\], "total": \d+\}, not \{"Data":\[Host, …\]\}/);
  }, 60_000);
});

describe.runIf(haveKeyring)('fleetdeck refresh (real keychain)', () => {
  const cli = fleetdeckOn(() => dir);

  it('refreshes to ok in the envelope dialects, then says protocol-error (exit 4) in the unknown one, keeping the lists it read before', async () => {
    sim.control.setDialects(['envelope-result', 'envelope-lower']);
    expect((await addSiteWith(cli, site(), PASSWORD)).code).toBe(0);
    const ok = await cli(['refresh']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.trim().split('\n').map((l) => l.split('\t')[2])).toEqual(['ok', 'ok']);

    sim.control.setDialects(['unknown-envelope']);
    const bad = await cli(['refresh']);
    expect(bad.code).toBe(4);
    const rows = bad.stdout.trim().split('\n').map((l) => l.split('\t'));
    for (const row of rows) {
      expect(row[2]).toBe('protocol-error');
      // The error follows the time of the last good read (a health field may come before it).
      const error = row[row.findIndex((f) => f.startsWith('as of ')) + 1];
      expect(error).toMatch(/^protocol error: GET \/\S+ answered \{"items": \[/);
      expect(error).toContain('SMART not read: the drive list (GET /resources/list) could not be read');
    }
    // What was read before is still there, with its time, and not replaced by an empty list.
    const cached = await cli(['call', site().name, '--system', site().systems[0]!, 'GET /hosts/list', '--query', 'wwn=true', '--query', 'iqn=true', '--query', 'nqn=true', '--query', 'mapping=true', '--query', 'ip=true', '--cached']);
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stderr).toMatch(/cached answer as of .* \(stale\)/);
    expect((JSON.parse(cached.stdout) as { Data: unknown[] }).Data.length).toBeGreaterThan(0);
    // Five processes, two of them refreshing a site: generous on a loaded machine.
  }, 240_000);
});
