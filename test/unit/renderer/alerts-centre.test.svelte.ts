import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../app/alerts/alert.js';
import { DEFAULT_RULES } from '../../../app/alerts/rules.js';
import { AlertsState, type BrowserNotifications } from '../../../renderer/alerts/alerts.svelte.js';
import { setApi } from '../../../renderer/lib/api.js';
import { sent, withChannels } from './support/channels.js';
import { fakeApi, settle } from './support/fake-api.js';

const alert = (id: number, over: Partial<Alert> = {}): Alert => ({
  id,
  rule: 'drive',
  siteId: 'lab',
  system: 'tundra-01',
  subject: 'n1/d1',
  level: 'critical',
  message: `drive ${id} failed`,
  state: 'open',
  raisedAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

/** A page Notification API that records what it showed and what it was asked. */
function fakeNotifications(permission: BrowserNotifications['permission'], answer: BrowserNotifications['permission'] = 'granted') {
  const shown: Array<{ title: string; body: string; click: () => void }> = [];
  let asked = 0;
  const n: BrowserNotifications = {
    get permission() {
      return permission;
    },
    requestPermission: async () => {
      asked++;
      permission = answer;
      return answer;
    },
    show: (title, body, onclick) => void shown.push({ title, body, click: onclick }),
  };
  return { n, shown, asked: () => asked };
}

function setup(notify: boolean, browser: BrowserNotifications | undefined) {
  const fake = fakeApi({});
  let rules = { defaults: DEFAULT_RULES, overrides: [], notify };
  setApi(
    withChannels(fake, {
      'alerts:list': () => ({ alerts: [alert(1)], openCount: 1 }),
      'alertrules:get': () => rules,
      'alerts:notify': (r) => {
        rules = { ...rules, notify: r.notify };
        return { ok: true };
      },
      'alerts:ack': (r) => r.ids.map((id) => alert(id, { state: 'acknowledged' })),
      'alerts:snooze': (r) => r.ids.map((id) => alert(id, { state: 'snoozed', snoozedUntil: r.until ?? undefined })),
    }),
  );
  const opened: string[] = [];
  const state = new AlertsState(browser, (siteId, system) => opened.push(`${siteId}/${system}`), () => Date.parse('2026-01-01T12:00:00.000Z'));
  return { fake, state, opened };
}

describe('the alert centre in the browser shell', () => {
  it('does not claim a count before main has given one: known after the first read or a change event', async () => {
    const { state } = setup(false, undefined);
    expect(state.countKnown).toBe(false);
    await state.load();
    expect([state.countKnown, state.openCount]).toEqual([true, 1]);
    const other = setup(false, undefined);
    expect(other.state.countKnown).toBe(false);
    const stop = other.state.listen();
    other.fake.emit('alerts:changed', { siteId: 'lab', system: 'tundra-01', raised: [], cleared: [], openCount: 4 });
    expect([other.state.countKnown, other.state.openCount]).toEqual([true, 4]);
    stop();
  });

  it('shows each new alert on the desktop when the setting is on and the page may; a click opens the system', async () => {
    const browser = fakeNotifications('granted');
    const { fake, state, opened } = setup(true, browser.n);
    await state.loadRules();
    const off = state.listen();
    fake.emit('alerts:changed', { siteId: 'lab', system: 'tundra-01', raised: [alert(7)], cleared: [], openCount: 3 });
    await settle();
    expect(browser.shown.map((s) => [s.title, s.body])).toEqual([['Fleetdeck critical: tundra-01', 'drive 7 failed']]);
    expect(state.openCount).toBe(1);
    browser.shown[0]?.click();
    expect(opened).toEqual(['lab/tundra-01']);
    // Cleared only: nothing to show.
    fake.emit('alerts:changed', { siteId: 'lab', system: 'tundra-01', raised: [], cleared: [alert(7)], openCount: 1 });
    expect(browser.shown).toHaveLength(1);
    off();
  });

  it('groups a flood of new alerts into one notification per system and level, cleaned of line breaks, bidi and markup', async () => {
    const browser = fakeNotifications('granted');
    const { fake, state } = setup(true, browser.n);
    await state.loadRules();
    const off = state.listen();
    const spoof = 'sysB\u202E\nFleetdeck ok: <i>all healthy</i>';
    fake.emit('alerts:changed', { siteId: 'lab', system: spoof, raised: Array.from({ length: 3000 }, (_, i) => ({ ...alert(i), system: spoof })), cleared: [], openCount: 3000 });
    await settle();
    expect(browser.shown.map((s) => [s.title, s.body])).toEqual([['Fleetdeck critical: sysB Fleetdeck ok: iall healthy/i', '3,000 new critical alerts: drive 0 failed (and 2,999 more)']]);
    off();
  });

  it('shows nothing with the setting off, and never asks permission on its own', async () => {
    const browser = fakeNotifications('default');
    const { fake, state } = setup(true, browser.n);
    await state.loadRules();
    state.listen();
    fake.emit('alerts:changed', { siteId: 'lab', system: 'tundra-01', raised: [alert(8)], cleared: [], openCount: 2 });
    expect(browser.shown).toEqual([]);
    expect(browser.asked()).toBe(0);

    const off = fakeNotifications('granted');
    const second = setup(false, off.n);
    await second.state.loadRules();
    second.state.listen();
    second.fake.emit('alerts:changed', { siteId: 'lab', system: 'tundra-01', raised: [alert(9)], cleared: [], openCount: 2 });
    expect(off.shown).toEqual([]);
  });

  it('asks permission when the admin turns notifications on, and keeps them off when the browser refuses', async () => {
    const refused = fakeNotifications('default', 'denied');
    const a = setup(false, refused.n);
    await a.state.setNotify(true);
    expect(refused.asked()).toBe(1);
    expect(sent(a.fake, 'alerts:notify')).toEqual([]);
    expect(a.state.rulesError).toMatch(/does not allow notifications/);

    const allowed = fakeNotifications('default', 'granted');
    const b = setup(false, allowed.n);
    await b.state.setNotify(true);
    expect(sent(b.fake, 'alerts:notify')).toEqual([{ notify: true }]);
    expect(b.state.rules?.notify).toBe(true);
  });

  it('acknowledges, and snoozes until a time counted from its clock', async () => {
    const { fake, state } = setup(true, undefined);
    await state.acknowledge([1]);
    await state.snooze([1], 8);
    await state.snooze([1], 0);
    expect(sent(fake, 'alerts:ack')).toEqual([{ ids: [1] }]);
    expect(sent(fake, 'alerts:snooze')).toEqual([
      { ids: [1], until: '2026-01-01T20:00:00.000Z' },
      { ids: [1], until: null },
    ]);
    expect(state.alerts.map((a) => a.id)).toEqual([1]);
  });
});
