// The admin's compliance story from the CLI alone: refresh, see what fails and what changed, waive
// one check, fix another through its preview, and find all of it in the audit pack.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetComplianceView } from '../../../app/compliance/results.js';
import { EXIT } from '../../../app/errors.js';
import { MemorySecretStore } from '../../../main/secrets/secret-store.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';
import { runCliHere } from '../../support/run-cli-here.js';

// One keychain for the suite's runtime and each CLI run, as the OS keychain is shared by the app and the CLI.
const keychain = new MemorySecretStore('shared by the test runtime and the CLI runs');

const cli = (dir: string, args: string[]) => runCliHere([...args, '--data-dir', dir], { keychain });

interface Table {
  id: string;
  columns: Array<{ id: string }>;
  rows: unknown[][];
}

describe('the compliance story from the CLI', { timeout: 240_000 }, () => {
  const f = useSimulatedFleet({ simulator: { sites: 1, systems: 2, seed: 'compliance-story' }, runtime: { keychain }, prefix: 'fd-story-' });

  it('finds the failures and what changed, waives one, fixes another, and the audit pack holds it all', async () => {
    const site = f.site(0);
    const [toFix, toWaive] = site.systems as [string, string];
    f.sim.control.secure({ site: 0, system: toFix });
    f.sim.control.secure({ site: 0, system: toWaive });
    expect((await cli(f.dir, ['refresh'])).code).toBe(EXIT.ok);
    const evaluate = async (): Promise<{ code: number; result: FleetComplianceView }> => {
      const r = await cli(f.dir, ['compliance', '--json']);
      expect(r.stderr).toBe('');
      return { code: r.code, result: JSON.parse(r.stdout) as FleetComplianceView };
    };
    const outcome = (r: FleetComplianceView, system: string, check: string) => r.systems.find((s) => s.system === system)?.checks.find((c) => c.id === check);
    const changeOf = (r: FleetComplianceView, system: string, check: string) => r.changes.find((c) => c.system === system && c.check === check);
    const first = await evaluate();
    expect(outcome(first.result, toFix, 'support-tunnel-off')?.result).toBe('pass');

    // Two systems drift; after a refresh the CLI says what fails, why, and what changed.
    f.sim.control.misconfigure({ site: 0, system: toFix, what: 'support-tunnel-off' });
    f.sim.control.misconfigure({ site: 0, system: toWaive, what: 'email-validates-certificate' });
    expect((await cli(f.dir, ['refresh'])).code).toBe(EXIT.ok);
    const drifted = await evaluate();
    expect(drifted.code).toBe(EXIT.checksFailing);
    expect(outcome(drifted.result, toFix, 'support-tunnel-off')).toMatchObject({ result: 'fail', evidence: { op: 'GET /nodes/support/tunnel/status' } });
    expect(changeOf(drifted.result, toFix, 'support-tunnel-off')).toMatchObject({ kind: 'fails', from: 'pass', to: 'fail', since: first.result.evaluatedAt });
    expect(changeOf(drifted.result, toWaive, 'email-validates-certificate')).toMatchObject({ kind: 'fails', from: 'pass', to: 'fail' });
    // Each newly failing check of medium severity or more has its alert, as the view says.
    const alerts = new Set(f.rt.alerts.list({ rule: 'compliance', state: 'active' }).map((a) => `${a.system}/${a.subject}`));
    for (const c of drifted.result.changes.filter((x) => x.kind === 'fails' && x.severity !== 'low')) expect(alerts).toContain(`${c.system}/${c.check}`);
    const text = await cli(f.dir, ['compliance']);
    expect(text.stdout).toMatch(/^changed since the previous evaluation:$/m);
    expect(text.stdout).toContain(`  newly fails\thigh\tsupport-tunnel-off\t${site.name}\t${toFix}\twas pass, is FAIL; previous evaluation ${first.result.evaluatedAt}, seen `);

    // Waive one with a reason and an end.
    const reason = 'relay accepts mail from the management VLAN only; change 7731';
    const waived = await cli(f.dir, ['compliance', 'waive', 'email-validates-certificate', '--site', site.name, '--system', toWaive, '--reason', reason, '--until', '2099-06-30T00:00:00Z']);
    expect(waived.stderr).toBe('');
    expect(waived.code).toBe(EXIT.ok);
    const granter = f.rt.actionLog.list({ operation: 'compliance waive' })[0]?.user as string;

    // Fix the other: the preview sends nothing; --yes sends it, reads the system again and evaluates the check.
    const preview = await cli(f.dir, ['compliance', 'fix', 'support-tunnel-off']);
    expect(preview.code).toBe(EXIT.ok);
    expect(preview.stdout).toMatch(new RegExp(`^ {2}PUT /nodes/support/tunnel/disable\\t\\{"Node":"[^"]+"\\}\\t${toFix} \\(${site.name}\\)$`, 'm'));
    expect(preview.stdout).toMatch(/^nothing sent: run again with --yes to send this write$/m);
    expect(f.rt.actionLog.list({ operation: 'tunnel/disable' })).toEqual([]);
    const fixed = await cli(f.dir, ['compliance', 'fix', 'support-tunnel-off', '--yes']);
    expect(fixed.stderr).toBe('');
    expect(fixed.code).toBe(EXIT.ok);
    expect(fixed.stdout).toMatch(new RegExp(`^ {2}ok\\tPUT /nodes/support/tunnel/disable\\t${toFix}\\t`, 'm'));
    expect(fixed.stdout).toMatch(new RegExp(`^ {2}now\\tpass\\tsupport-tunnel-off\\t${toFix} \\(${site.name}\\)\\t`, 'm'));
    expect(f.rt.actionLog.list({ operation: 'tunnel/disable' }).map((r) => [r.system, r.result])).toEqual([[toFix, 'ok']]);
    expect(f.rt.actionLog.verify().ok).toBe(true);
    // Nothing left to fix, and a second --yes sends nothing.
    expect((await cli(f.dir, ['compliance', 'fix', 'support-tunnel-off', '--yes'])).stdout).toMatch(/^no system needs this fix$/m);

    const after = await evaluate();
    expect(outcome(after.result, toFix, 'support-tunnel-off')?.result).toBe('pass');
    expect(outcome(after.result, toWaive, 'email-validates-certificate')).toMatchObject({ result: 'fail', waiver: { active: true, reason, by: granter } });
    expect(changeOf(after.result, toFix, 'support-tunnel-off')).toMatchObject({ kind: 'passes', from: 'fail', to: 'pass' });
    expect(changeOf(after.result, toWaive, 'email-validates-certificate')).toMatchObject({ kind: 'waived', from: 'fail', to: 'waived' });
    expect(f.rt.alerts.list({ rule: 'compliance', state: 'active' }).filter((a) => [toFix, toWaive].includes(a.system) && ['support-tunnel-off', 'email-validates-certificate'].includes(a.subject))).toEqual([]);

    // The audit pack: the baseline and its hash, the fixed check passing, the waiver, the changes.
    const out = join(f.dir, 'pack');
    const report = await cli(f.dir, ['report', 'audit', '--offline', '--format', 'html,csv,json', '--out', out]);
    expect(report.code).toBe(EXIT.ok);
    const model = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { sections: Array<{ id: string; tables: Table[] }> };
    const tables = model.sections.find((s) => s.id === 'compliance')?.tables ?? [];
    const rows = (id: string): Array<Record<string, unknown>> => {
      const t = tables.find((x) => x.id === id);
      return (t?.rows ?? []).map((r) => Object.fromEntries(t!.columns.map((c, i) => [c.id, r[i]])));
    };
    const { name, version, sha256 } = after.result.baseline;
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(rows('compliance.baseline')[0]).toMatchObject({ name, version, sha256 });
    expect(rows('compliance.results').find((r) => r.system === toFix && r.check === 'support-tunnel-off')).toMatchObject({ result: 'pass' });
    expect(rows('compliance.waivers')).toEqual([expect.objectContaining({ check: 'email-validates-certificate', reason, by: granter, until: '2099-06-30T00:00:00.000Z', state: 'in force' })]);
    expect(rows('compliance.changes')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ system: toFix, check: 'support-tunnel-off', change: 'newly passes' }),
        expect.objectContaining({ system: toWaive, check: 'email-validates-certificate', change: 'newly waived' }),
      ]),
    );
    const csv = readFileSync(join(out, 'csv', 'compliance.waivers.csv'), 'utf8');
    for (const t of [reason, granter, '2099-06-30']) expect(csv).toContain(t);
    expect(readFileSync(join(out, 'csv', 'compliance.baseline.csv'), 'utf8')).toContain(sha256);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(reason);
  });
  it('refuses a waiver or fix without exactly one check id, and a waiver without its reason', async () => {
    const recorded = f.rt.actionLog.list({}).length;
    for (const [args, said] of [
      [['compliance', 'waive'], 'compliance waive takes one check id'],
      [['compliance', 'unwaive', 'a', 'b'], 'compliance unwaive takes one check id'],
      [['compliance', 'fix'], 'compliance fix takes one check id'],
      [['compliance', 'waive', 'support-tunnel-off', '--until', '2099-01-01T00:00:00Z'], 'compliance waive needs --reason TEXT and --until ISO'],
    ] as const) {
      const run = await cli(f.dir, [...args]);
      expect(run.code, args.join(' ')).toBe(EXIT.usage);
      expect(run.stderr).toContain(said);
    }
    expect(f.rt.actionLog.list({})).toHaveLength(recorded);
  });
});
