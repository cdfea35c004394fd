// The compliance baseline end to end: the simulator driven into each failing state of the shipped
// baseline, a refresh caching what it shows, and `fleetdeck compliance` reading the cache.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckOutcome } from '../../../app/compliance/evaluate.js';
import { SECURE_BASELINE } from '../../../app/compliance/secure-baseline.js';
import { EXIT } from '../../../app/errors.js';
import { runCli } from '../../../main/cli/main.js';
import type { CliIo } from '../../../main/cli/io.js';
import { MISCONFIGURATIONS } from '../../../simulator/misconfigure.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

interface Report {
  baseline: { name: string; version: string; sha256: string };
  systems: Array<{ site: string; system: string; checks: CheckOutcome[] }>;
}

async function compliance(dir: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), readStdin: async () => '', env: { FLEETDECK_KEYCHAIN: 'memory' } };
  const code = await runCli(['compliance', '--data-dir', dir, ...args], io);
  return { code, stdout, stderr };
}

describe('fleetdeck compliance against the simulator', { timeout: 180_000 }, () => {
  const f = useSimulatedFleet({ simulator: { sites: 1, systems: 2, seed: 'compliance' }, prefix: 'fd-comply-' });

  it('drives a system into every failing state of the shipped baseline and finds each, with evidence', async () => {
    const site = f.site(0);
    const [secured, broken] = site.systems as [string, string];
    f.sim.control.secure({ site: 0, system: secured });
    f.sim.control.secure({ site: 0, system: broken });
    for (const what of MISCONFIGURATIONS) f.sim.control.misconfigure({ site: 0, system: broken, what });
    await f.rt.fleet.refresh({ force: true });

    const r = await compliance(f.dir, ['--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.checksFailing);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.baseline).toMatchObject({ name: SECURE_BASELINE.name, version: SECURE_BASELINE.version });
    expect(report.systems.map((s) => s.system).sort()).toEqual([...site.systems].sort());
    const checksOf = (system: string) => new Map(report.systems.find((s) => s.system === system)!.checks.map((c) => [c.id, c]));

    const bad = checksOf(broken);
    for (const what of MISCONFIGURATIONS) {
      const c = bad.get(what)!;
      expect(c.result, `${what}: ${c.reason}`).toBe('fail');
      expect(c.evidence?.op).toBe(SECURE_BASELINE.checks.find((k) => k.id === what)!.rule.read);
      expect(c.evidence?.ageSeconds).toBeGreaterThanOrEqual(0);
    }
    // Secured, it fails nothing but what `secure` leaves alone (two-step authentication, site-wide; free
    // space) and the replication link it shares with the broken system.
    const good = checksOf(secured);
    const mayFail = new Set(['users-two-step', 'pool-free-space', 'replication-in-sync']);
    for (const [id, c] of good) if (!mayFail.has(id)) expect(c.result, `${id}: ${c.reason}`).not.toBe('fail');
    expect(good.get('support-tunnel-off')?.result).toBe('pass');
    expect(good.get('volumes-encrypted')?.result).toBe('pass');

    const text = await compliance(f.dir, ['--site', site.name]);
    expect(text.code).toBe(EXIT.checksFailing);
    expect(text.stdout).toMatch(/^baseline fleetdeck-secure 1\.0\.0 \(sha256 [0-9a-f]{64}\)/);
    expect(text.stdout).toMatch(/^ {2}FAIL\thigh\tsupport-tunnel-off\t.*\[GET \/nodes\/support\/tunnel\/status, read .* ago\)\] .*SupportTunnelStatus="Enabled/m);
  });

  it('cannot tell from data older than the baseline allows, and refuses a malformed baseline by line', async () => {
    const strict = join(f.dir, 'strict.json');
    writeFileSync(strict, JSON.stringify({ ...SECURE_BASELINE, maxAgeHours: 1 / 3_600_000 }, null, 2));
    const r = await compliance(f.dir, ['--baseline', strict, '--json']);
    expect(r.code).toBe(EXIT.ok);
    const report = JSON.parse(r.stdout) as Report;
    const results = new Set(report.systems.flatMap((s) => s.checks.map((c) => c.result)));
    expect(results.has('pass')).toBe(false);
    expect(results.has('cannot-tell')).toBe(true);

    const bad = join(f.dir, 'bad.yaml');
    writeFileSync(bad, 'format: 1\nname: x\nversion: "1"\nmaxAgeHours: 24\nchecks:\n  - id: a\n    title: A\n    rationale: R\n    severity: urgent\n');
    const refused = await compliance(f.dir, ['--baseline', bad]);
    expect(refused.code).toBe(EXIT.usage);
    // One problem a line, each with its line and where in the file.
    expect(refused.stderr).toMatch(/bad\.yaml: not a usable baseline\n/);
    expect(refused.stderr).toMatch(/^ {2}line 9 \(checks\[0\]\.severity\): /m);
    expect(refused.stderr).toMatch(/^ {2}line 6 \(checks\[0\]\.rule\): /m);
  });
});
