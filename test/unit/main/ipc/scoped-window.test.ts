// A window scoped to one site (`--site`) shares the data directory with the fleet's window: what it
// changes, the errors it gives and what it verifies stay within its site, or say they do not.
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../../main/ipc/handlers.js';
import type { Runtime } from '../../../../main/runtime.js';
import { openAlertsDatabase } from '../../../../main/store/open.js';
import { addParisAndLyon, useRuntimes } from '../../../support/runtimes.js';
import { useTempDirs } from '../store/temp-dir.js';

const tempDir = useTempDirs();

describe('a window scoped to one site', () => {
  const open = useRuntimes();
  const call = async (rt: Runtime, channel: string, payload: unknown = {}): Promise<unknown> => {
    const answer = await dispatch(rt.handlers, channel, payload);
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value;
  };

  /** A data directory with sites Paris and Lyon, each with one open alert (Lyon's is id 4242). */
  async function fleet(): Promise<{ dir: string; fleetWindow: Runtime }> {
    const dir = tempDir();
    const fleetWindow = await open(dir);
    await addParisAndLyon(fleetWindow);
    const db = openAlertsDatabase(dir);
    try {
      const insert = db.prepare("INSERT INTO alerts (id, rule, site_id, system, subject, level, message, raised_at, last_seen_at) VALUES (?, 'drive', ?, 'sys1', '', 'warning', 'a drive failed', ?, ?)");
      const at = new Date().toISOString();
      insert.run(7, 'paris', at, at);
      insert.run(4242, 'lyon', at, at);
    } finally {
      db.close();
    }
    return { dir, fleetWindow };
  }

  it('answers a name of another site as it answers a name of no site: which sites exist is not its to learn', async () => {
    const { dir } = await fleet();
    const paris = await open(dir, { scopedSite: 'paris' });
    const asks: Array<[string, (site: string) => unknown]> = [
      ['fleet:status', (site) => ({ site })],
      ['session:logout', (site) => ({ site })],
      ['cache:read', (site) => ({ site, system: 'sys1', operation: 'GET /hosts/list' })],
      ['log:list', (site) => ({ site })],
      ['alerts:list', (site) => ({ site })],
      ['compliance:history', (site) => ({ site, system: 'sys1' })],
      ['sites:pause', (site) => ({ site, paused: true })],
      ['fleet:refresh', (site) => ({ sites: [site] })],
    ];
    for (const [channel, payload] of asks) {
      const other = await dispatch(paris.handlers, channel, payload('Lyon'));
      const none = await dispatch(paris.handlers, channel, payload('Nowhere'));
      expect(other, channel).toMatchObject({ ok: false, error: { message: 'this window is scoped to site "paris"' } });
      expect(none, channel).toEqual(other);
    }
  });

  it("turns desktop notifications off for its site's windows only, never for the fleet or another site", async () => {
    const { dir, fleetWindow } = await fleet();
    const paris = await open(dir, { scopedSite: 'paris' });
    const lyon = await open(dir, { scopedSite: 'lyon' });
    await call(paris, 'alerts:notify', { notify: false });
    expect(paris.alerts.notify).toBe(false);
    expect(await call(paris, 'alertrules:get')).toMatchObject({ notify: false });
    expect(fleetWindow.alerts.notify).toBe(true);
    expect(await call(fleetWindow, 'alertrules:get')).toMatchObject({ notify: true });
    expect(lyon.alerts.notify).toBe(true);
    // Another window of the same site follows its site's choice.
    expect((await open(dir, { scopedSite: 'paris' })).alerts.notify).toBe(false);
    // The fleet's choice holds for the sites that made none.
    await call(fleetWindow, 'alerts:notify', { notify: false });
    expect(lyon.alerts.notify).toBe(false);
    await call(paris, 'alerts:notify', { notify: true });
    expect(paris.alerts.notify).toBe(true);
    expect(fleetWindow.alerts.notify).toBe(false);
  });

  it("refuses to acknowledge another site's alert without naming its id, and changes nothing", async () => {
    const { dir, fleetWindow } = await fleet();
    const paris = await open(dir, { scopedSite: 'paris' });
    const answer = await dispatch(paris.handlers, 'alerts:ack', { ids: [7, 4242] });
    expect(answer).toMatchObject({ ok: false, error: { message: expect.stringMatching(/scoped to site "paris": 1 of these alerts is not of this site; nothing was changed/) } });
    expect(JSON.stringify(answer)).not.toContain('4242');
    const alerts = (await call(fleetWindow, 'alerts:list', {})) as { alerts: Array<{ id: number; acknowledgedAt?: string }> };
    expect(alerts.alerts.every((a) => a.acknowledgedAt === undefined)).toBe(true);
    expect(await call(paris, 'alerts:ack', { ids: [7] })).toMatchObject([{ id: 7, acknowledgedAt: expect.any(String) }]);
  });

  it("verifies the whole chain and says how many of its records are the site's", async () => {
    const { dir, fleetWindow } = await fleet();
    const paris = await open(dir, { scopedSite: 'paris' });
    await call(paris, 'alerts:notify', { notify: false });
    await call(fleetWindow, 'alertrules:set', { scope: { level: 'site', siteId: 'lyon' }, override: null });
    await call(fleetWindow, 'alerts:notify', { notify: true });
    expect(await call(paris, 'log:verify')).toEqual({ ok: true, count: 3, writes: 0, problems: [], site: { id: 'paris', count: 1 } });
    expect(await call(fleetWindow, 'log:verify')).toEqual({ ok: true, count: 3, writes: 0, problems: [] });
  });
});
