import { flushSync } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import type { FleetComplianceView, SystemComplianceView } from '../../../app/compliance/results.js';
import type { Alert } from '../../../app/alerts/alert.js';
import type { Waiver } from '../../../app/compliance/waivers.js';
import { setApi } from '../../../renderer/lib/api.js';
import { BulkState } from '../../../renderer/lib/bulk.svelte.js';
import { FleetStore } from '../../../renderer/lib/fleet.svelte.js';
import { Nav } from '../../../renderer/lib/nav.svelte.js';
import ComplianceView from '../../../renderer/views/ComplianceView.svelte';
import { sent, withChannels } from './support/channels.js';
import { fakeApi, settle, site, status } from './support/fake-api.js';
import { renderComponent } from './support/render.js';

const AT = '2026-03-01T10:00:00.000Z';
const META = [
  { id: 'support-tunnel-off', title: 'Tunnel closed', rationale: 'A standing way in.', severity: 'high' as const, fixable: true },
  { id: 'host-chap', title: 'Host CHAP', rationale: 'Binds the IQN.', severity: 'low' as const, fixable: false },
];

function system(siteId: string, siteName: string, name: string, tunnel: 'fail' | 'pass', waiver?: Waiver): SystemComplianceView {
  const fails = tunnel === 'fail' && !waiver ? 1 : 0;
  return {
    siteId,
    site: siteName,
    system: name,
    counts: { fail: fails, 'cannot-tell': 0, waived: waiver ? 1 : 0, pass: 2 - fails - (waiver ? 1 : 0), 'not-applicable': 0 },
    score: fails ? 50 : 100,
    checks: [
      {
        id: 'support-tunnel-off',
        title: 'Tunnel closed',
        severity: 'high',
        result: tunnel,
        reason: tunnel === 'fail' ? '1 of 2 do not meet SupportTunnelStatus' : 'all 2 meet it',
        evidence: { op: 'GET /nodes/support/tunnel/status', at: AT, ageSeconds: 60, items: 2, values: [{ item: 'n1', field: 'SupportTunnelStatus', value: tunnel === 'fail' ? 'Enabled' : 'Disabled' }] },
        ...(waiver ? { waiver: { ...waiver, active: true } } : {}),
      },
      { id: 'host-chap', title: 'Host CHAP', severity: 'low', result: 'pass', reason: 'all meet it', evidence: { op: 'GET /hosts/list', at: AT, ageSeconds: 60, items: 1, values: [] } },
    ],
  };
}

function answer(waived = false): FleetComplianceView {
  const w: Waiver = { check: 'support-tunnel-off', siteId: 's1', system: 'prod-a', reason: 'case 42', until: '2099-01-01T00:00:00.000Z', by: 'ann', at: AT, seq: 7 };
  return {
    baseline: { name: 'fleetdeck-secure', version: '1.0.0', sha256: 'ab'.repeat(32), checks: META },
    evaluatedAt: AT,
    counts: { fail: waived ? 0 : 1, 'cannot-tell': 0, waived: waived ? 1 : 0, pass: 3, 'not-applicable': 0 },
    score: waived ? 100 : 75,
    systems: [system('s2', 'Site two', 'dr-b', 'pass'), system('s1', 'Site one', 'prod-a', 'fail', waived ? w : undefined)],
    waivers: waived ? [w] : [],
    history: [{ at: AT, siteId: '', system: '', counts: { fail: 1, 'cannot-tell': 0, waived: 0, pass: 3, 'not-applicable': 0 }, score: 75 }],
    changes: [
      waived
        ? { ...CHANGE, kind: 'waived', from: 'fail', to: 'waived' }
        : { ...CHANGE, kind: 'fails', from: 'pass', to: 'fail' },
      { ...CHANGE, siteId: 's2', site: 'Site two', system: 'dr-b', check: 'host-chap', title: 'Host CHAP', severity: 'low', kind: 'passes', from: 'cannot-tell', to: 'pass' },
    ],
  };
}

const CHANGE = { siteId: 's1', site: 'Site one', system: 'prod-a', check: 'support-tunnel-off', title: 'Tunnel closed', severity: 'high', since: '2026-03-01T09:00:00.000Z', at: AT } as const;

/** The compliance alert the engine keeps open for a check failing without a waiver. */
function tunnelAlert(): Alert {
  return { id: 1, rule: 'compliance', siteId: 's1', system: 'prod-a', subject: 'support-tunnel-off', level: 'warning', message: 'compliance check failing (high): Tunnel closed', state: 'open', raisedAt: AT, lastSeenAt: AT };
}

async function render() {
  const fake = fakeApi({ sites: [site('s1', 'Site one'), site('s2', 'Site two')], statuses: [status('s1', 'prod-a', 'ok'), status('s2', 'dr-b', 'ok')] });
  let waived = false;
  setApi(
    withChannels(fake, {
      'compliance:evaluate': () => answer(waived),
      'compliance:history': () => [],
      'alerts:list': () => ({ alerts: waived ? [] : [tunnelAlert()], openCount: waived ? 0 : 1 }),
      'compliance:waive': (r) => {
        waived = true;
        return { check: r.check, siteId: 's1', system: r.system ?? '', reason: r.reason, until: r.until, by: 'ann', at: AT, seq: 7 };
      },
      'compliance:fixplan': () => ({ check: 'support-tunnel-off', title: 'Tunnel closed', fixTitle: 'Close it', writes: [{ op: 'PUT /nodes/support/tunnel/disable', body: { Node: 'n1' }, targets: [{ siteId: 's1', site: 'Site one', system: 'prod-a', item: 'n1' }] }], left: [] }),
    }),
  );
  const fleet = new FleetStore({ eventBatchMs: 0 });
  await fleet.load();
  fleet.listen();
  const app = renderComponent(ComplianceView, { fleet, nav: new Nav(), bulk: new BulkState() });
  await settle();
  const all = (testid: string) => [...app.target.ownerDocument.querySelectorAll<HTMLElement>(`[data-testid="${testid}"]`)];
  const one = (testid: string) => all(testid)[0] as HTMLElement;
  return { fake, el: app.target, all, one };
}

const click = (el: Element | undefined): void => {
  (el as HTMLElement).click();
  flushSync();
};

describe('the compliance view', () => {
  it('shows systems by check worst first, with the word of each result, and filters by site and severity', async () => {
    const { all, one } = await render();
    expect(all('compliance-row').map((r) => r.dataset.system)).toEqual(['prod-a', 'dr-b']);
    const cells = all('compliance-cell');
    expect(cells.map((c) => `${c.dataset.check}:${c.textContent?.trim()}`)).toEqual(['support-tunnel-off:FAIL', 'host-chap:pass', 'support-tunnel-off:pass', 'host-chap:pass']);
    expect(one('compliance-score').textContent).toBe('75 %');
    const severity = one('compliance-severity') as unknown as HTMLSelectElement;
    severity.value = 'high';
    severity.dispatchEvent(new Event('change'));
    flushSync();
    expect(all('compliance-check-head').map((h) => h.dataset.check)).toEqual(['support-tunnel-off']);
    const siteSelect = one('compliance-site') as unknown as HTMLSelectElement;
    siteSelect.value = 's2';
    siteSelect.dispatchEvent(new Event('change'));
    flushSync();
    expect(all('compliance-row').map((r) => r.dataset.system)).toEqual(['dr-b']);
  });

  it('says what changed since the previous evaluation, and whether the alert engine raised an alert for it', async () => {
    const { all, one } = await render();
    const rows = all('compliance-change');
    expect(rows.map((r) => [r.dataset.system, r.dataset.check, r.dataset.kind])).toEqual([
      ['prod-a', 'support-tunnel-off', 'fails'],
      ['dr-b', 'host-chap', 'passes'],
    ]);
    expect(rows[0]?.textContent).toContain('newly fails');
    expect(rows[0]?.textContent).toContain('pass → FAIL');
    expect(all('compliance-change-alert').map((a) => a.textContent)).toEqual(['warning alert open', 'no alert open']);
    // Filtered by severity, the low check's change is not shown.
    const severity = one('compliance-severity') as unknown as HTMLSelectElement;
    severity.value = 'medium';
    severity.dispatchEvent(new Event('change'));
    flushSync();
    expect(all('compliance-change').map((r) => r.dataset.check)).toEqual(['support-tunnel-off']);
    // The system's checks say the same.
    click(rows[0]?.querySelector('button') ?? undefined);
    await settle();
    const tunnel = all('compliance-detail-row').find((r) => r.dataset.check === 'support-tunnel-off');
    expect(tunnel?.querySelector('[data-testid="compliance-detail-change"]')?.textContent).toBe('newly fails');
  });

  it('evaluates again when a refresh has cached new answers, or a compliance alert moved', async () => {
    const { fake } = await render();
    const evaluations = () => sent(fake, 'compliance:evaluate').length;
    const before = evaluations();
    vi.useFakeTimers();
    try {
      fake.emit('fleet:status', status('s1', 'prod-a', 'refreshing'));
      await vi.advanceTimersByTimeAsync(100);
      flushSync();
      expect(evaluations()).toBe(before);
      fake.emit('fleet:status', status('s1', 'prod-a', 'ok', { lastSuccessAt: '2026-03-01T11:00:00.000Z' }));
      await vi.advanceTimersByTimeAsync(100);
      flushSync();
    } finally {
      vi.useRealTimers();
    }
    expect(evaluations()).toBe(before + 1);
    // A compliance alert raised or cleared by the engine alone (a waiver ended) moves the view too; another rule's does not.
    const drive = { ...tunnelAlert(), id: 2, rule: 'drive' as const, subject: 'd1' };
    fake.emit('alerts:changed', { siteId: 's1', system: 'prod-a', raised: [drive], cleared: [], openCount: 2 });
    await settle();
    expect(evaluations()).toBe(before + 1);
    fake.emit('alerts:changed', { siteId: 's1', system: 'prod-a', raised: [tunnelAlert()], cleared: [], openCount: 2 });
    await settle();
    expect(evaluations()).toBe(before + 2);
  });

  it('drills into a system with the evidence, and records a waiver with its reason', async () => {
    const { fake, all, one } = await render();
    click(all('compliance-system')[0]);
    await settle();
    const row = all('compliance-detail-row').find((r) => r.dataset.check === 'support-tunnel-off') as HTMLElement;
    expect(row.textContent).toContain('n1: SupportTunnelStatus = "Enabled"');
    expect(row.textContent).toContain('GET /nodes/support/tunnel/status');
    click(row.querySelector('[data-testid="compliance-waive"]') ?? undefined);
    const reason = one('compliance-waive-reason') as unknown as HTMLTextAreaElement;
    reason.value = 'case 42';
    reason.dispatchEvent(new Event('input'));
    flushSync();
    click(one('compliance-waive-submit'));
    await settle();
    const [request] = sent(fake, 'compliance:waive');
    expect(request).toMatchObject({ check: 'support-tunnel-off', site: 'Site one', system: 'prod-a', reason: 'case 42' });
    expect(Date.parse(request!.until)).toBeGreaterThan(Date.now());
    const after = all('compliance-detail-row').find((r) => r.dataset.check === 'support-tunnel-off') as HTMLElement;
    expect(after.dataset.result).toBe('waived');
    expect(one('compliance-waiver').textContent).toBe('waived (case 42, by ann, until 2099-01-01T00:00:00.000Z)');
    expect(all('compliance-waiver-row')).toHaveLength(1);
    // Evaluated again after the waiver: the change is now that it is waived, and no alert is open.
    const change = all('compliance-change').find((r) => r.dataset.check === 'support-tunnel-off');
    expect(change?.dataset.kind).toBe('waived');
    expect(change?.querySelector('[data-testid="compliance-change-alert"]')?.textContent).toBe('no alert open');
  });

  it('previews a fix and sends nothing until confirmed', async () => {
    const { fake, all, one } = await render();
    click(all('compliance-check-head').find((h) => h.dataset.check === 'support-tunnel-off'));
    click(one('compliance-fix'));
    await settle();
    expect(one('compliance-fix-body').textContent).toBe('{"Node":"n1"}');
    expect(one('compliance-fix-write').textContent).toContain('prod-a (Site one)');
    expect(sent(fake, 'bulk:start')).toEqual([]);
    click(one('compliance-fix-send'));
    await settle();
    expect(sent(fake, 'bulk:start')).toEqual([{ operation: 'PUT /nodes/support/tunnel/disable', targets: [{ site: 's1', system: 'prod-a' }], body: { Node: 'n1' } }]);
  });
});
