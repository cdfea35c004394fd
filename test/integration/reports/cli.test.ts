// The acceptance of the audit-report issue, through the built CLI (`node bin/fleetdeck.js`, after
// `npm run build:node`). With FLEETDECK_KEYCHAIN=memory a CLI process cannot log in to a
// site saved by another process (the password lived in that process's memory), so the data dir is
// prepared in-process first (sites added, refreshed, secrets written), as the app would have left it;
// the CLI's own refresh then cannot log in and the pack says so, with the age of the cached data.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFleetdeck, type CliResult } from '../../support/run-cli.js';
import { MARKERS, filesUnder, flipByte, pdfText, reportHarness, setMarkerSecrets, type ReportHarness } from './support.js';

const ENV = { FLEETDECK_KEYCHAIN: 'memory' };

// Each test runs several CLI processes one after another: on a busy 2-core machine each start takes seconds.
describe('fleetdeck report (built CLI) against a 2-site simulator', { timeout: 120_000 }, () => {
  let h: ReportHarness;
  let systems: string[];
  let pack: string;
  let first: CliResult;
  const cli = (args: string[]): Promise<CliResult> => runFleetdeck([...args, ...(args[1] === 'verify' ? [] : ['--data-dir', h.dataDir])], { env: ENV, timeoutMs: 60_000 });

  beforeAll(async () => {
    // Real-time simulator clock: the CLI process reads the wall clock.
    h = await reportHarness({ sites: 2, systems: 2, realTime: true });
    systems = h.sim.manifest.sites.flatMap((s) => s.systems);
    await h.fleet.refresh();
    await setMarkerSecrets(h, h.saved[0]!.id, h.sim.manifest.sites[0]!.systems[0]!);
    await h.release();
    pack = path.join(h.tempDir(), 'audit');
    first = await cli(['report', 'audit', '--format', 'pdf,html,csv,json', '--out', pack]);
  }, 60_000);
  afterAll(async () => h?.close());

  it('report audit produces PDF, HTML, CSV and JSON with a manifest, and prints the data ages', () => {
    expect(first.stderr).not.toMatch(/error|FAILED/i);
    expect(first.code).toBe(0);
    // The PDF is written by the app itself: no printer to find or to name.
    expect(first.stderr).not.toMatch(/PDF printed with/);
    for (const f of ['report.pdf', 'report.html', 'report.json', 'csv/config.hosts.csv', 'csv/data-ages.csv', 'manifest.json']) expect(fs.existsSync(path.join(pack, f)), f).toBe(true);
    expect(first.stdout).toMatch(/^report \d+: Audit pack \(refreshed first\)/);
    for (const s of systems) expect(first.stdout).toMatch(new RegExp(`/ ${s}\\t\\S+\\tas of \\d{4}-`));
    expect(first.stdout).toMatch(/manifest SHA-256 [0-9a-f]{64}/);
    // The memory keychain of this CLI process holds no password: the pack says the refresh failed.
    expect(first.stderr).toMatch(/note: Site dc-\w+: could not be refreshed for this report/);
    const text = pdfText(path.join(pack, 'report.pdf'));
    for (const s of systems) expect(text).toContain(s);
    const manifest = JSON.parse(fs.readFileSync(path.join(pack, 'manifest.json'), 'utf8')) as { kind: string; source: string; files: unknown[]; dataAges: Array<{ at: string | null }> };
    expect(manifest).toMatchObject({ kind: 'audit', source: 'fresh' });
    expect(manifest.dataAges).toHaveLength(systems.length);
    for (const a of manifest.dataAges) expect(a.at).not.toBeNull();
  });

  it('report verify passes on the untouched pack', async () => {
    const r = await cli(['report', 'verify', pack]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/intact/);
  });

  it('report verify fails naming the file when one byte of any file changes', async () => {
    for (const file of ['report.pdf', 'report.html', 'report.json', 'csv/config.users.csv', 'manifest.json']) {
      const copy = path.join(h.tempDir(), 'copy');
      fs.cpSync(pack, copy, { recursive: true });
      flipByte(path.join(copy, ...file.split('/')));
      const r = await cli(['report', 'verify', copy]);
      expect(r.code, file).toBe(1);
      expect(r.stderr, file).toContain(file);
      expect(r.stderr, file).toMatch(/FAILED/);
    }
  }, 120_000);

  it('never writes a marker secret into the pack or the data dir', () => {
    for (const f of [...filesUnder(pack), ...filesUnder(h.dataDir)]) {
      for (const [name, secret] of Object.entries(MARKERS)) expect(f.text.includes(secret), `${name} in ${f.path}`).toBe(false);
    }
  });

  it('with every site stopped, --offline still produces all four formats with data ages, and they verify', async () => {
    for (const s of h.sim.sites) await s.stop();
    const dir = path.join(h.tempDir(), 'offline');
    const r = await cli(['report', 'audit', '--offline', '--format', 'pdf,html,csv,json', '--out', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\(offline cache only\)/);
    for (const s of systems) expect(r.stdout).toMatch(new RegExp(`/ ${s}\\t\\S+\\tas of \\d{4}-.* old\\)`));
    for (const f of ['report.pdf', 'report.html', 'report.json', 'csv/data-ages.csv']) expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'report.html'), 'utf8')).toMatch(/Data age/);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { source: string; dataAges: Array<{ at: string | null; ageSeconds: number | null }> };
    expect(manifest.source).toBe('cache');
    for (const a of manifest.dataAges) expect(a.ageSeconds).toEqual(expect.any(Number));
    expect((await cli(['report', 'verify', dir])).code).toBe(0);

    const list = await cli(['report', 'list', '--json']);
    const ids = (JSON.parse(list.stdout) as Array<{ id: number; kind: string }>).map((x) => x.id);
    expect(ids).toHaveLength(2);
    const diff = await cli(['report', 'diff', String(ids[1]), String(ids[0])]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/0 added, 0 removed, 0 changed/);
  }, 120_000);
});
