import { describe, expect, it } from 'vitest';
import { CHANNEL_ACCESS, CHANNEL_NAMES, type ChannelName } from '../../../app/ipc/channels.js';
import { getOperation } from '../../../app/catalog/index.js';
import { CONTRACT } from '../../../app/ipc/contract.js';
import { parseMachinePolicy } from '../../../app/policy/machine-policy.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import type { PolicyState } from '../../../main/policy/machine-policy-file.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';

const PASSWORD = 'read-only-pass';
const LIST = JSON.stringify({ format: 'fleetdeck-site-list', version: 1, sites: [{ id: 'other', name: 'Other', baseUrl: 'http://127.0.0.1:9', username: 'u', tags: [], allowHttp: false, tls: {}, polling: { intervalSeconds: 0, paused: false, maxInFlight: 4 } }] });
const REASON = 'Audit workstation: Fleetdeck shows the fleet and changes nothing here';

function readOnlyPolicy(): PolicyState {
  const parsed = parseMachinePolicy(JSON.stringify({ version: 1, readOnly: true, readOnlyReason: REASON }));
  if (!parsed.ok) throw new Error('the test policy is malformed');
  return { file: '/etc/fleetdeck/policy.json', status: 'applied', policy: parsed.policy, problems: [], notes: [], readOnly: REASON };
}

/**
 * A valid request of every channel of the contract, on the simulated site: a channel added to the
 * contract without one here fails the test below, so its access is decided and tested.
 */
function samples(site: string, system: string): Record<ChannelName, unknown> {
  return {
    'app:info': {},
    'sites:list': {},
    'sites:probe': { baseUrl: 'http://127.0.0.1:9' },
    'sites:add': { name: 'New', baseUrl: 'http://127.0.0.1:9', username: 'u' },
    'sites:edit': { site, patch: { tags: ['x'] } },
    'sites:remove': { site },
    'sites:trust': { site, sha256: 'ab'.repeat(32) },
    'sites:pause': { site, paused: true },
    'sites:export': {},
    'sites:preview': { fileName: 'team.json', text: LIST, replace: true },
    'sites:import': { fileName: 'team.json', text: LIST, replace: true },
    'session:login': { site, password: PASSWORD },
    'session:logout': { site },
    'fleet:status': {},
    'fleet:refresh': { sites: [site] },
    'op:call': { site, system, operation: 'PUT /nodes/isns', body: { Address: '10.0.0.9' } },
    'op:cancel': { callId: 'none' },
    'bulk:start': { operation: 'PUT /nodes/isns', targets: [{ site, system }], body: { Address: '10.0.0.9' } },
    'bulk:list': {},
    'bulk:retry': { id: 'none' },
    'bulk:cancel': { id: 'none' },
    'cache:read': { site, system, operation: 'GET /nodes/list' },
    'search:query': { query: 'node' },
    'health:briefs': {},
    'health:summaries': {},
    'log:list': {},
    'log:verify': {},
    'log:query': {},
    'log:export': { format: 'csv' },
    'reports:list': {},
    'reports:generate': { kind: 'inventory', offline: true },
    'reports:open': { id: 1 },
    'reports:diff': { from: 1, to: 1 },
    'reports:export': { id: 1, formats: ['json'] },
    'alerts:list': {},
    'alerts:ack': { ids: [1] },
    'alerts:snooze': { ids: [1], until: null },
    'alertrules:get': {},
    'alertrules:set': { scope: { level: 'fleet' }, override: null },
    'alerts:notify': { notify: false },
    'table:export': { format: 'csv', title: 't', columns: ['a'], rows: [['1']] },
    'demo:whatif': { action: 'stop-site', site },
    'notices:dismiss': { notice: 'site-import' },
    'forward:status': {},
    'forward:set': { setting: { target: 'tcp://127.0.0.1:1' } },
    'compliance:evaluate': {},
    'compliance:history': { site, system },
    'compliance:waive': { check: 'users-two-step', site, system, reason: 'read-only test', until: '2099-01-01T00:00:00Z' },
    'compliance:unwaive': { check: 'users-two-step', site, system },
    'compliance:fixplan': { check: 'support-tunnel-off' },
  };
}

describe('a read-only workstation (machine policy)', { timeout: 120_000 }, () => {
  const world = useSimulatedFleet({ simulator: { sites: 1, systems: 1, seed: 'read-only-policy', password: PASSWORD }, prefix: 'fd-read-only-' });

  it('refuses every write channel with the policy\'s reason, changes nothing, and still reads', async () => {
    const site = world.site(0);
    const system = site.systems[0]!;
    await world.rt.fleet.refresh();
    // Something in the log before: an action taken when the workstation could still write.
    await world.rt.fleet.login(world.siteIds[0]!, { password: PASSWORD });
    await world.rt.fleet.call(world.siteIds[0]!, system, 'PUT /nodes/isns', { body: { Address: '10.0.0.1' } });
    const rt = await world.reopen({ policy: readOnlyPolicy() });
    const logBefore = rt.actionLog.count();
    const sitesBefore = JSON.stringify(rt.sites.list());
    const rulesBefore = JSON.stringify(rt.alerts.rules().overrides);

    const all = samples(site.name, system);
    // Every channel of the contract has a sample and an access decision.
    expect(Object.keys(all).sort()).toEqual([...CHANNEL_NAMES].sort());
    expect(Object.keys(CHANNEL_ACCESS).sort()).toEqual([...CHANNEL_NAMES].sort());
    // Logged in first (a read: the auditor's own password), so the reads below reach the system.
    expect((await dispatch(rt.handlers, 'session:login', all['session:login'])).ok).toBe(true);

    const writes: string[] = [];
    for (const channel of CHANNEL_NAMES) {
      const access: string = CHANNEL_ACCESS[channel];
      const request = all[channel] as { operation?: string };
      const writing = access === 'write' || (access === 'operation' && getOperation(request.operation as 'PUT /nodes/isns').writes);
      const answer = await dispatch(rt.handlers, channel, request);
      if (writing) {
        writes.push(channel);
        expect(answer, channel).toEqual({ ok: false, error: { code: 'managed', message: expect.stringContaining(REASON) } });
      } else {
        // A request the channel understands (its handler really ran), not refused by the policy.
        expect(CONTRACT[channel].request.safeParse(request).success, channel).toBe(true);
        if (!answer.ok) expect(answer.error.code, `${channel}: ${answer.error.message}`).not.toBe('managed');
      }
    }
    expect(writes.sort()).toEqual(['alertrules:set', 'alerts:notify', 'bulk:retry', 'bulk:start', 'compliance:unwaive', 'compliance:waive', 'demo:whatif', 'forward:set', 'op:call', 'sites:add', 'sites:edit', 'sites:import', 'sites:pause', 'sites:remove', 'sites:trust']);

    // Whatever the channels are called, nothing was recorded, no site changed, no rule changed.
    expect(rt.actionLog.count()).toBe(logBefore);
    expect(JSON.stringify(rt.sites.list())).toBe(sitesBefore);
    expect(JSON.stringify(rt.alerts.rules().overrides)).toBe(rulesBefore);

    // A read operation goes through; a write below IPC is refused too (the CLI's path).
    const read = await dispatch(rt.handlers, 'op:call', { site: site.name, system, operation: 'GET /nodes/list' });
    expect(read.ok).toBe(true);
    await expect(rt.fleet.call(rt.sites.list()[0]!.id, system, 'PUT /nodes/isns', { body: { Address: '10.0.0.2' } })).rejects.toThrow(REASON);
    expect(() => rt.actionLog.recordLocal({ user: 'x', operation: 'test', params: {} as never, message: '' as never })).toThrow(REASON);
    await expect(rt.fleet.forgetSite(rt.sites.list()[0]!.id)).rejects.toThrow(REASON);
    expect(rt.sites.list()).toHaveLength(1);
    expect(rt.actionLog.count()).toBe(logBefore);

    // The window is told why.
    const info = await dispatch(rt.handlers, 'app:info', {});
    expect(info.ok && (info.value as { policy?: { readOnly?: string } }).policy?.readOnly).toBe(REASON);
  });

  it('exports, previews and imports a site list through IPC when the workstation may write', async () => {
    const rt = await world.reopen({});
    const exported = await dispatch(rt.handlers, 'sites:export', {});
    if (!exported.ok) throw new Error(exported.error.message);
    const file = exported.value as { kind: string; content: string; fileName: string };
    expect(file).toMatchObject({ kind: 'download', fileName: expect.stringMatching(/^fleetdeck-sites-.*\.json$/) });
    expect(file.content).not.toContain(PASSWORD);
    expect(JSON.parse(file.content)).toMatchObject({ format: 'fleetdeck-site-list', sites: [{ name: world.site(0).name }] });

    const preview = await dispatch(rt.handlers, 'sites:preview', { fileName: 'team.json', text: LIST });
    expect(preview).toMatchObject({ ok: true, value: { applied: false, steps: [{ action: 'add', name: 'Other' }] } });
    expect(rt.sites.get('Other')).toBeUndefined();
    const done = await dispatch(rt.handlers, 'sites:import', { fileName: 'team.json', text: LIST });
    expect(done).toMatchObject({ ok: true, value: { applied: true, steps: [{ action: 'add', name: 'Other' }] } });
    expect(rt.sites.get('Other')?.baseUrl).toBe('http://127.0.0.1:9');
    const secret = await dispatch(rt.handlers, 'sites:import', { fileName: 'bad.json', text: LIST.replace('"username":"u"', '"username":"u","password":"p4ss"') });
    expect(secret).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringContaining('sites[0].password') } });
    expect(JSON.stringify(secret)).not.toContain('p4ss');
  });
});
