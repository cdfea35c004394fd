// Waivers, kept scores, compliance alerts and the audit pack's compliance section, through the CLI
// on a data directory the app has refreshed from the simulator.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetComplianceView } from '../../../app/compliance/results.js';
import { EXIT } from '../../../app/errors.js';
import { pdfText } from '../reports/support.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';
import { runCliHere } from '../../support/run-cli-here.js';

const cli = (dir: string, args: string[]) => runCliHere([...args, '--data-dir', dir]);

describe('compliance waivers, scores, alerts and the audit pack', { timeout: 180_000 }, () => {
  const f = useSimulatedFleet({ simulator: { sites: 1, systems: 2, seed: 'compliance-waivers' }, prefix: 'fd-waive-' });

  it('a waiver excuses a failing check until revoked, in the action log, the alerts and the audit pack', async () => {
    const site = f.site(0);
    const [good, bad] = site.systems as [string, string];
    f.sim.control.secure({ site: 0, system: good });
    f.sim.control.secure({ site: 0, system: bad });
    f.sim.control.misconfigure({ site: 0, system: bad, what: 'support-tunnel-off' });
    await f.rt.fleet.refresh({ force: true });
    const tunnelAlert = () => f.rt.alerts.list({ rule: 'compliance', state: 'active', system: bad }).find((a) => a.subject === 'support-tunnel-off');
    expect(tunnelAlert()?.level).toBe('warning');

    const evaluate = async (): Promise<{ code: number; result: FleetComplianceView }> => {
      const r = await cli(f.dir, ['compliance', '--json']);
      expect(r.stderr).toBe('');
      return { code: r.code, result: JSON.parse(r.stdout) as FleetComplianceView };
    };
    const tunnelOf = (r: FleetComplianceView) => r.systems.find((s) => s.system === bad)?.checks.find((c) => c.id === 'support-tunnel-off');
    const before = await evaluate();
    expect(tunnelOf(before.result)?.result).toBe('fail');
    const failsBefore = before.result.counts.fail;

    // Refused: no reason, an end in the past, a check the baseline lacks, a system without its site.
    expect((await cli(f.dir, ['compliance', 'waive', 'support-tunnel-off', '--site', site.name, '--system', bad, '--until', '2099-01-01T00:00:00Z'])).code).toBe(EXIT.usage);
    const past = await cli(f.dir, ['compliance', 'waive', 'support-tunnel-off', '--site', site.name, '--system', bad, '--reason', 'case 42', '--until', '2001-01-01T00:00:00Z']);
    expect(past.code).not.toBe(EXIT.ok);
    expect(past.stderr).toMatch(/must end after now/);
    expect((await cli(f.dir, ['compliance', 'waive', 'no-such-check', '--reason', 'x', '--until', '2099-01-01T00:00:00Z'])).stderr).toMatch(/has no check "no-such-check"/);
    expect((await cli(f.dir, ['compliance', 'waive', 'support-tunnel-off', '--system', bad, '--reason', 'x', '--until', '2099-01-01T00:00:00Z'])).code).toBe(EXIT.usage);
    expect(f.rt.actionLog.list({ operation: 'compliance' })).toEqual([]);

    const waived = await cli(f.dir, ['compliance', 'waive', 'support-tunnel-off', '--site', site.name, '--system', bad, '--reason', 'vendor case 42 open', '--until', '2099-01-01T00:00:00Z']);
    expect(waived.stderr).toBe('');
    expect(waived.code).toBe(EXIT.ok);
    expect(waived.stdout).toMatch(/^check support-tunnel-off waived for \S+ of \S+ until 2099-01-01T00:00:00.000Z by \S+ \(action log record \d+\)\n$/);
    const records = f.rt.actionLog.list({ operation: 'compliance waive' });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ system: bad, result: 'ok', params: { check: 'support-tunnel-off', reason: 'vendor case 42 open', until: '2099-01-01T00:00:00.000Z' } });
    expect(f.rt.actionLog.verify().ok).toBe(true);

    const after = await evaluate();
    expect(tunnelOf(after.result)).toMatchObject({ result: 'fail', waiver: { active: true, reason: 'vendor case 42 open', until: '2099-01-01T00:00:00.000Z' } });
    expect(after.result.counts.fail).toBe(failsBefore - 1);
    expect(after.result.counts.waived).toBe(1);
    expect(after.result.waivers).toHaveLength(1);
    const text = await cli(f.dir, ['compliance', '--site', site.name]);
    expect(text.stdout).toMatch(/^ {2}waived\thigh\tsupport-tunnel-off\t.*waived \(vendor case 42 open, by \S+, until 2099-01-01T00:00:00.000Z\)/m);
    // The CLI evaluated the alerts again: a waived check raises none.
    expect(f.rt.alerts.list({ rule: 'compliance', state: 'active', system: bad }).some((a) => a.subject === 'support-tunnel-off')).toBe(false);
    // Each evaluation's score was kept (the counts moved, so every change is a point).
    const scores = f.rt.compliance.evaluate({ keep: false }).history;
    expect(scores.length).toBeGreaterThanOrEqual(2);
    expect(scores.at(-1)?.counts.waived).toBe(1);

    // The audit pack carries the same evaluation, with the waiver, in every format.
    const out = join(f.dir, 'pack');
    const report = await cli(f.dir, ['report', 'audit', '--offline', '--format', 'pdf,html,csv,json', '--out', out]);
    expect(report.code).toBe(EXIT.ok);
    const model = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { sections: Array<{ id: string; tables: Array<{ id: string; rows: unknown[][] }> }> };
    const section = model.sections.find((s) => s.id === 'compliance');
    const table = (id: string) => section?.tables.find((t) => t.id === id);
    expect(table('compliance.baseline')?.rows[0]?.slice(0, 3)).toEqual([after.result.baseline.name, after.result.baseline.version, after.result.baseline.sha256]);
    const row = table('compliance.results')?.rows.find((r) => r[1] === bad && r[2] === 'support-tunnel-off');
    expect(row?.[4]).toBe('waived');
    expect(row?.[10]).toMatch(/^waived \(vendor case 42 open, by /);
    expect(table('compliance.waivers')?.rows[0]?.slice(0, 3)).toEqual(['support-tunnel-off', `${site.name} / ${bad}`, 'vendor case 42 open']);
    expect(existsSync(join(out, 'csv', 'compliance.results.csv'))).toBe(true);
    expect(readFileSync(join(out, 'csv', 'compliance.waivers.csv'), 'utf8')).toMatch(/vendor case 42 open/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/vendor case 42 open/);
    expect(pdfText(join(out, 'report.pdf'))).toMatch(/Compliance/);

    // Revoked, the check fails again, and so does the run.
    expect((await cli(f.dir, ['compliance', 'unwaive', 'support-tunnel-off', '--site', site.name, '--system', bad])).code).toBe(EXIT.ok);
    const revoked = await evaluate();
    expect(revoked.code).toBe(EXIT.checksFailing);
    expect(tunnelOf(revoked.result)?.waiver).toBeUndefined();
    expect(revoked.result.waivers).toEqual([]);
    expect((await cli(f.dir, ['compliance', 'unwaive', 'support-tunnel-off', '--site', site.name, '--system', bad])).stderr).toMatch(/no waiver of check support-tunnel-off/);
    expect(tunnelAlert()).toBeDefined();
    expect(f.rt.actionLog.verify().ok).toBe(true);
  });

  it('evaluates the data directory\u2019s own baseline, and says why one that cannot be used is not', async () => {
    const file = join(f.dir, 'compliance-baseline.yaml');
    writeFileSync(
      file,
      'format: 1\nname: ours\nversion: "7"\nmaxAgeHours: 24\nchecks:\n  - id: tunnel\n    title: Tunnel closed\n    rationale: A standing way in.\n    severity: high\n    rule: { read: GET /nodes/support/tunnel/status, items: Data, every: { field: SupportTunnelStatus, matches: "^disabled" } }\n',
    );
    try {
      const r = await cli(f.dir, ['compliance', '--json']);
      expect(r.stderr).toBe('');
      const result = JSON.parse(r.stdout) as FleetComplianceView;
      expect(result.baseline).toMatchObject({ name: 'ours', version: '7', file });
      expect(new Set(result.systems.flatMap((s) => s.checks.map((c) => c.id)))).toEqual(new Set(['tunnel']));

      writeFileSync(file, 'format: 1\nname: ours\nversion: "7"\nmaxAgeHours: 24\nchecks:\n  - id: tunnel\n    owner: me\n');
      const bad = await cli(f.dir, ['compliance', '--json']);
      expect(bad.stderr).toMatch(/compliance-baseline\.yaml: not a usable baseline\n/);
      expect(bad.stderr).toMatch(/^ {2}line 7 \(checks\[0\]\): unknown field "owner"$/m);
      expect(bad.stderr).toMatch(/the shipped secure baseline is used until it is corrected/);
      expect((JSON.parse(bad.stdout) as FleetComplianceView).baseline.name).toBe('fleetdeck-secure');
    } finally {
      rmSync(file, { force: true });
    }
  });
});
