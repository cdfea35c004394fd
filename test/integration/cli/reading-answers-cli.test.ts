// The CLI against a system that stamps local time and pages its lists: `refresh` says the clock
// differs and which lists are incomplete; a report made by a later process says the lists are
// incomplete too (it reads that from the cache). Saved sites need the real keychain (scripts/with-keyring).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';
import { addSiteWith, fleetdeckOn } from '../../support/run-cli.js';

const haveKeyring = process.env.FLEETDECK_TEST_KEYRING === '1';
const PASSWORD = 'MARKER-CLI-READING-2f1e';

describe.runIf(haveKeyring)('fleetdeck against local-time and paged-lists (real keychain)', { timeout: 120_000 }, () => {
  let sim: SimulatorHandle;
  let dir: string;
  const site = () => sim.manifest.sites[0]!;
  const cli = fleetdeckOn(() => dir);

  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 1, seed: 'cli-reading', password: PASSWORD, controlServer: false, dialects: ['local-time', 'paged-lists', 'level-names'] });
    dir = mkdtempSync(join(tmpdir(), 'fd-cli-reading-'));
    const add = await addSiteWith(cli, site(), PASSWORD);
    expect(add.code, add.stderr).toBe(0);
  });
  afterAll(async () => {
    await cli(['site', 'remove', site().name]);
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refresh says the clock differs and which lists were read in part; a later report says so too', async () => {
    const refresh = await cli(['refresh']);
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(refresh.stdout).toContain('clock differs by \u22125 h');
    expect(refresh.stdout).toMatch(/GET \/hosts\/list incomplete: 3 of \d+/);
    const out = join(dir, 'report');
    const report = await cli(['report', 'health', '--offline', '--format', 'json', '--out', out]);
    expect(report.code, report.stderr).toBe(0);
    const model = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { notes: string[] };
    expect(model.notes.filter((n) => / is incomplete: 3 of \d+/.test(n)).length).toBeGreaterThan(0);
  });
});
