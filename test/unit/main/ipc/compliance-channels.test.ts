// The compliance channels through dispatch: parsed, scoped to a window's site, recorded.
import { describe, expect, it } from 'vitest';
import type { FleetComplianceView } from '../../../../app/compliance/results.js';
import type { FixPlan } from '../../../../app/compliance/fix.js';
import { refreshRead } from '../../../../app/fleet/refresh-plan.js';
import { dispatch } from '../../../../main/ipc/handlers.js';
import type { Runtime } from '../../../../main/runtime.js';
import { cacheKey } from '../../../../main/store/offline-cache.js';
import { addParisAndLyon, useRuntimes } from '../../../support/runtimes.js';
import { useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();
const TUNNEL = cacheKey('GET /nodes/support/tunnel/status', refreshRead('GET /nodes/support/tunnel/status').query);

describe('the compliance channels', () => {
  const open = useRuntimes();
  const call = async (rt: Runtime, channel: string, payload: unknown = {}): Promise<{ ok: boolean; value?: unknown; message?: string }> => {
    const a = await dispatch(rt.handlers, channel, payload);
    return a.ok ? { ok: true, value: a.value } : { ok: false, message: a.error.message };
  };

  async function fleet(): Promise<{ dir: string; fleetWindow: Runtime }> {
    const dir = tempDir();
    const fleetWindow = await open(dir);
    await addParisAndLyon(fleetWindow);
    const at = new Date().toISOString();
    fleetWindow.cache.put('paris', 'p1', TUNNEL, { Data: [{ Name: 'n1', SupportTunnelStatus: 'Enabled' }] }, at);
    fleetWindow.cache.put('lyon', 'l1', TUNNEL, { Data: [{ Name: 'n9', SupportTunnelStatus: 'Enabled' }] }, at);
    return { dir, fleetWindow };
  }

  it('evaluates the window\u2019s sites and previews fixes there only', async () => {
    const { dir, fleetWindow } = await fleet();
    const all = (await call(fleetWindow, 'compliance:evaluate')).value as FleetComplianceView;
    expect(all.systems.map((s) => s.system)).toEqual(['l1', 'p1']);
    expect(all.baseline.checks.find((c) => c.id === 'support-tunnel-off')?.fixable).toBe(true);
    const paris = await open(dir, { scopedSite: 'paris' });
    const own = (await call(paris, 'compliance:evaluate')).value as FleetComplianceView;
    expect(own.systems.map((s) => s.system)).toEqual(['p1']);
    expect((await call(paris, 'compliance:evaluate', { site: 'Lyon' })).message).toMatch(/scoped to site "paris"/);
    const plan = (await call(paris, 'compliance:fixplan', { check: 'support-tunnel-off' })).value as FixPlan;
    expect(plan.writes.flatMap((w) => w.targets.map((t) => t.system))).toEqual(['p1']);
    expect((await call(paris, 'compliance:fixplan', { check: 'users-two-step' })).message).toMatch(/has no fix/);
  });

  it('waives within a scoped window\u2019s site only, and records each waiver in the action log', async () => {
    const { dir, fleetWindow } = await fleet();
    const paris = await open(dir, { scopedSite: 'paris' });
    const grant = { check: 'support-tunnel-off', reason: 'case 42', until: '2099-01-01T00:00:00Z' };
    expect((await call(paris, 'compliance:waive', grant)).message).toMatch(/waives checks of its site or its systems only/);
    expect((await call(paris, 'compliance:waive', { ...grant, site: 'Lyon', system: 'l1' })).message).toMatch(/scoped to site "paris"/);
    expect((await call(paris, 'compliance:waive', { ...grant, system: 'p1' })).message).toMatch(/name the site/);
    expect(fleetWindow.actionLog.list({ operation: 'compliance' })).toEqual([]);
    await call(paris, 'compliance:evaluate');
    const ok = await call(paris, 'compliance:waive', { ...grant, site: 'Paris', system: 'p1' });
    expect(ok.value).toMatchObject({ check: 'support-tunnel-off', siteId: 'paris', system: 'p1', reason: 'case 42' });
    const seen = (await call(fleetWindow, 'compliance:evaluate')).value as FleetComplianceView;
    expect(seen.counts.waived).toBe(1);
    expect(seen.systems.find((s) => s.system === 'p1')?.checks.find((c) => c.id === 'support-tunnel-off')?.waiver?.active).toBe(true);
    // The fleet's window may waive for the whole fleet; the scoped window still sees that waiver.
    expect((await call(fleetWindow, 'compliance:waive', { ...grant, check: 'host-chap' })).ok).toBe(true);
    expect(((await call(paris, 'compliance:evaluate')).value as FleetComplianceView).waivers.map((w) => w.check).sort()).toEqual(['host-chap', 'support-tunnel-off']);
    // It cannot revoke that fleet-wide waiver.
    expect((await call(paris, 'compliance:unwaive', { check: 'host-chap' })).ok).toBe(false);
    expect((await call(paris, 'compliance:unwaive', { check: 'support-tunnel-off', site: 'paris', system: 'p1' })).ok).toBe(true);
    expect(fleetWindow.actionLog.list({ operation: 'compliance' }).map((r) => r.operation)).toEqual(['compliance waive', 'compliance waive', 'compliance unwaive']);
    expect(fleetWindow.actionLog.verify().ok).toBe(true);
    // Kept per evaluation: failing before the waiver, waived after (an unchanged score is not kept again).
    const history = (await call(fleetWindow, 'compliance:history', { site: 'paris', system: 'p1' })).value as Array<{ counts: { fail: number; waived: number } }>;
    expect(history.map((p) => [p.counts.fail, p.counts.waived])).toEqual([[1, 0], [0, 1]]);
  });
});
