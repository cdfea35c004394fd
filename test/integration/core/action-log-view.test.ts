// The action log as the app's view reads it — writes made against the
// simulator found by each filter, exported without secrets, and a tampered record named by verify.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActionLogPage } from '../../../app/domain/action.js';
import { dispatch } from '../../../main/ipc/handlers.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { openLogDatabase } from '../../../main/store/index.js';
import type { SimulatorHandle } from '../../../simulator/index.js';
import { useSimulatedFleet } from '../support/simulated-fleet.js';
import { answeringDialogs } from '../../support/save-dialogs.js';

const PASSWORD = 'MARKER-SITE-PASSWORD-a14c';
const USER_PASSWORD = 'MARKER-NEW-USER-PW-5e0b';

describe('the action log view against the simulator', { timeout: 120_000 }, () => {
  const world = useSimulatedFleet({ simulator: { sites: 2, systems: 2, seed: 'action-log-view', password: PASSWORD }, prefix: 'fd-log-view-' });
  let sim: SimulatorHandle;
  let rt: Runtime;
  let dir: string;
  const ipc = async (channel: string, payload: unknown): Promise<unknown> => {
    const answer = await dispatch(rt.handlers, channel, payload);
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.code} ${answer.error.message}`);
    return answer.value;
  };
  const query = async (filter: Record<string, unknown>): Promise<ActionLogPage> => (await ipc('log:query', filter)) as ActionLogPage;
  const ops = (page: ActionLogPage): string[] => page.records.map((r) => `${r.system} ${r.operation} ${r.result}`);
  const site = (i: number): { name: string; system: (j: number) => string } => {
    const s = sim.manifest.sites[i];
    if (!s) throw new Error(`no site ${i}`);
    return { name: s.name, system: (j) => s.systems[j] as string };
  };
  let between = '';

  beforeAll(async () => {
    ({ sim, rt, dir } = world);
    await rt.fleet.refresh({ force: true });
    const user = { Name: 'auditor1', Password: USER_PASSWORD, Role: 'Viewer', Email: 'auditor1@example.com' };
    await ipc('op:call', { site: site(0).name, system: site(0).system(0), operation: 'POST /users/create', body: user });
    // The same user again: the system refuses it.
    await expect(ipc('op:call', { site: site(0).name, system: site(0).system(0), operation: 'POST /users/create', body: user })).rejects.toThrow(/already exists/);
    between = (await query({})).records[0]?.at ?? '';
    await ipc('op:call', { site: site(1).name, system: site(1).system(1), operation: 'POST /hosts/create', body: { Name: 'log-view-host', Wwns: ['10:00:00:00:c9:aa:bb:01'] } });
  });

  it('finds the writes by site, system, operation, outcome and period, newest first, with their data age', async () => {
    const all = await query({});
    expect(all.total).toBe(3);
    expect(ops(all)).toEqual([`${site(1).system(1)} POST /hosts/create ok`, `${site(0).system(0)} POST /users/create refused`, `${site(0).system(0)} POST /users/create ok`]);
    expect(Number.isNaN(Date.parse(all.at))).toBe(false);
    expect(ops(await query({ site: site(1).name }))).toEqual([`${site(1).system(1)} POST /hosts/create ok`]);
    expect((await query({ system: site(0).system(0) })).total).toBe(2);
    expect((await query({ operation: 'users/CREATE' })).total).toBe(2);
    expect(ops(await query({ results: ['refused'] }))).toEqual([`${site(0).system(0)} POST /users/create refused`]);
    expect((await query({ results: ['unknown', 'error'] })).total).toBe(0);
    // The refused write's time: since is inclusive, until exclusive.
    expect(ops(await query({ since: between }))).toEqual([`${site(1).system(1)} POST /hosts/create ok`, `${site(0).system(0)} POST /users/create refused`]);
    expect(ops(await query({ until: between }))).toEqual([`${site(0).system(0)} POST /users/create ok`]);
    // Paged in main.
    const second = await query({ offset: 1, limit: 1 });
    expect([second.total, second.offset, ops(second)]).toEqual([3, 1, [`${site(0).system(0)} POST /users/create refused`]]);
    // The parameters and the system's answer, redacted.
    const created = (await query({ results: ['ok'], operation: 'users' })).records[0];
    expect(created).toMatchObject({ params: { body: { Name: 'auditor1', Password: '[redacted]' } }, message: expect.stringContaining("User 'auditor1' created") });
    expect(JSON.stringify(all)).not.toContain(USER_PASSWORD);
  });

  it('refuses a filter it cannot read with a clear error, never an empty page', async () => {
    expect(await dispatch(rt.handlers, 'log:query', { since: 'last tuesday' })).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringContaining('since: not a valid time') } });
    expect(await dispatch(rt.handlers, 'log:query', { results: ['maybe'] })).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(await dispatch(rt.handlers, 'log:query', { site: 'no-such-site' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    // The older listing channel reads the same times: a time it cannot read is the caller's to correct.
    expect(await dispatch(rt.handlers, 'log:list', { until: 'after lunch' })).toMatchObject({ ok: false, error: { code: 'validation', message: expect.stringContaining('until: not a valid time') } });
  });

  it('exports the filtered writes as CSV and JSON for the window to download, without the password', async () => {
    const csv = (await ipc('log:export', { operation: 'users/create', format: 'csv' })) as { kind: string; fileName: string; content: string; count: number };
    expect(csv).toMatchObject({ kind: 'download', count: 2, fileName: expect.stringMatching(/^fleetdeck-actions-.*\.csv$/) });
    expect(csv.content.trimEnd().split('\r\n')).toHaveLength(3);
    expect(csv.content).toContain('auditor1');
    const json = (await ipc('log:export', { site: site(1).name, format: 'json' })) as { kind: string; content: string };
    expect(JSON.parse(json.content)).toMatchObject({ count: 1, filter: { siteId: rt.sites.get(site(1).name)?.id }, records: [{ operation: 'POST /hosts/create', siteName: site(1).name }] });
    for (const text of [csv.content, json.content]) {
      expect(text).not.toContain(USER_PASSWORD);
      expect(text).not.toContain(PASSWORD);
    }
  });

  it('in a window scoped to one site, lists and exports that site only; in Electron, saves where the admin chose', async () => {
    const siteId = rt.sites.get(site(1).name)?.id as string;
    const chosen = join(dir, 'actions.json');
    const dialogs = answeringDialogs([chosen, undefined]);
    const scoped = await openRuntime({ dataDir: dir, memorySecrets: true, scopedSite: siteId, saveFile: dialogs });
    try {
      const page = (await dispatch(scoped.handlers, 'log:query', {})) as { ok: true; value: ActionLogPage };
      expect(page.value.records.map((r) => r.operation)).toEqual(['POST /hosts/create']);
      expect(await dispatch(scoped.handlers, 'log:query', { site: site(0).name })).toMatchObject({ ok: false, error: { code: 'not-found' } });
      expect(await dispatch(scoped.handlers, 'log:export', { format: 'json' })).toEqual({ ok: true, value: { kind: 'saved', path: chosen, count: 1 } });
      expect(JSON.parse(readFileSync(chosen, 'utf8'))).toMatchObject({ count: 1, records: [{ siteId }] });
      expect(statSync(chosen).mode & 0o777).toBe(0o600);
      expect(await dispatch(scoped.handlers, 'log:export', { format: 'csv' })).toEqual({ ok: true, value: { kind: 'cancelled' } });
    } finally {
      await scoped.close();
    }
  });

  it('verify names the first broken record, its time and why, after a record is edited in actions.db', async () => {
    expect(await ipc('log:verify', {})).toEqual({ ok: true, count: 6, writes: 3, problems: [] });
    const target = (await query({ results: ['refused'] })).records[0];
    if (!target) throw new Error('no refused write');
    const db = openLogDatabase(dir);
    try {
      db.exec('DROP TRIGGER action_log_no_update');
      db.prepare("UPDATE action_log SET message = 'ok, nothing to see' WHERE intent_seq = ?").run(target.seq);
    } finally {
      db.close();
    }
    const verified = (await ipc('log:verify', {})) as { ok: boolean; problems: Array<{ seq: number; at?: string; reason: string }> };
    expect(verified.ok).toBe(false);
    expect(verified.problems[0]).toEqual({ seq: target.seq + 1, at: expect.any(String), reason: expect.stringContaining('was edited') });
    expect(Date.parse(verified.problems[0]?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(target.at));
  });
});
