import { describe, expect, it } from 'vitest';
import { alertNotifier, type NotificationLike } from '../../../../main/electron/alert-notifications.js';
import { FakeTimers } from '../core/fake-timers.js';

/** Electron's Notification as the notifier uses it, recording what was shown and closed. */
function fakeNotifications() {
  const made: Array<{ options: { title: string; body: string }; shown: boolean; closed: boolean; listeners: Map<string, () => void> }> = [];
  class Notification implements NotificationLike {
    static supported = true;
    static isSupported(): boolean {
      return Notification.supported;
    }
    readonly record: (typeof made)[number];
    constructor(options: { title: string; body: string }) {
      this.record = { options, shown: false, closed: false, listeners: new Map() };
      made.push(this.record);
    }
    on(event: 'click' | 'close', listener: () => void): void {
      this.record.listeners.set(event, listener);
    }
    show(): void {
      this.record.shown = true;
    }
    close(): void {
      this.record.closed = true;
      this.record.listeners.get('close')?.();
    }
  }
  return { Notification, made };
}

const alert = (id: number, system: string, level: 'warning' | 'critical' = 'critical') => ({
  id,
  rule: 'drive' as const,
  siteId: 'paris',
  system,
  subject: `n1/d${id}`,
  level,
  message: `drive ${id} failed`,
  state: 'open' as const,
  raisedAt: 't',
  lastSeenAt: 't',
});
const change = (system: string, raised: ReturnType<typeof alert>[]) => ({ siteId: 'paris', system, raised, cleared: [], openCount: raised.length });

describe('alertNotifier', () => {
  it('one refresh raising 3,000 alerts on a system shows one notification per level, not 3,000', () => {
    const { Notification, made } = fakeNotifications();
    const notify = alertNotifier({ Notification, enabled: () => true, open: () => undefined, timers: new FakeTimers() });
    notify(change('sysA', [...Array.from({ length: 2999 }, (_, i) => alert(i, 'sysA')), alert(5000, 'sysA', 'warning')]));
    expect(made.map((n) => [n.options.title, n.options.body, n.shown])).toEqual([
      ['Fleetdeck critical: sysA', '2,999 new critical alerts: drive 0 failed (and 2,998 more)', true],
      ['Fleetdeck warning: sysA', 'drive 5000 failed', true],
    ]);
  });

  it('replaces the notification of the same system and level, and sums up a flood of systems in one', () => {
    const { Notification, made } = fakeNotifications();
    const timers = new FakeTimers();
    const opened: string[] = [];
    const notify = alertNotifier({ Notification, enabled: () => true, open: (s, sys) => opened.push(`${s}/${sys}`), timers });
    notify(change('sysA', [alert(1, 'sysA')]));
    notify(change('sysA', [alert(2, 'sysA')]));
    expect(made.map((n) => n.closed)).toEqual([true, false]);
    for (let i = 0; i < 1000; i++) notify(change(`sys${i}`, [alert(i, `sys${i}`)]));
    expect(made).toHaveLength(5);
    timers.advance(60_000);
    expect(made).toHaveLength(6);
    expect(made[5]!.options).toEqual({ title: 'Fleetdeck: more new alerts', body: '997 more new alerts on 997 systems: see the alert centre' });
    made[5]!.listeners.get('click')?.();
    expect(opened).toEqual(['paris/sys3']);
  });

  it('shows nothing while the setting is off or the desktop has no notifications, including a held summary', () => {
    const { Notification, made } = fakeNotifications();
    const timers = new FakeTimers();
    let on = true;
    const notify = alertNotifier({ Notification, enabled: () => on, open: () => undefined, timers });
    for (let i = 0; i < 10; i++) notify(change(`sys${i}`, [alert(i, `sys${i}`)]));
    expect(made).toHaveLength(5);
    on = false;
    timers.advance(60_000);
    notify(change('late', [alert(99, 'late')]));
    expect(made).toHaveLength(5);
    on = true;
    Notification.supported = false;
    notify(change('late', [alert(99, 'late')]));
    expect(made).toHaveLength(5);
  });
});
