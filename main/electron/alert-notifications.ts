import { NoticeGate, type DesktopNotice, type NoticeTimers } from '../../app/alerts/desktop-notices.js';
import type { EventPayload } from '../../app/ipc/contract.js';

/** The part of Electron's `Notification` class the app uses. */
export interface NotificationLike {
  show(): void;
  close(): void;
  on(event: 'click' | 'close', listener: () => void): unknown;
}
export interface NotificationClass {
  new (options: { title: string; body: string; silent?: boolean }): NotificationLike;
  isSupported(): boolean;
}

export interface AlertNotifierOptions {
  Notification: NotificationClass;
  /** The setting "desktop notification for each new alert" (read at each alert: the admin may change it any time). */
  enabled: () => boolean;
  /** Brings the window forward and opens the alert's system. */
  open: (siteId: string, system: string) => void;
  /** Defaults to the process's; tests pass a fake clock. */
  timers?: NoticeTimers;
}

const PROCESS_TIMERS: NoticeTimers = {
  now: () => Date.now(),
  setTimeout: (fire, ms) => setTimeout(fire, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Desktop notifications of new alerts in the Electron shell, when the setting is on and the desktop
 * supports them: grouped per system and level, capped with a summary, and cleaned of control, bidi
 * and markup characters (see `NoticeGate`); a click opens the system. A newer notification of a
 * group replaces the one shown. Shown ones are kept referenced until clicked or closed, or the
 * garbage collector may drop them and their click.
 */
export function alertNotifier(o: AlertNotifierOptions): (change: EventPayload<'alerts:changed'>) => void {
  const shown = new Map<string, NotificationLike>();
  const show = (notice: DesktopNotice): void => {
    if (!o.enabled() || !o.Notification.isSupported()) return;
    shown.get(notice.key)?.close();
    const n = new o.Notification({ title: notice.title, body: notice.body });
    shown.set(notice.key, n);
    const forget = (): void => {
      if (shown.get(notice.key) === n) shown.delete(notice.key);
    };
    n.on('click', () => {
      forget();
      o.open(notice.siteId, notice.system);
    });
    n.on('close', forget);
    n.show();
  };
  const gate = new NoticeGate({ show, timers: o.timers ?? PROCESS_TIMERS });
  return (change) => {
    if (!change.raised.length || !o.enabled() || !o.Notification.isSupported()) return;
    gate.offer(change);
  };
}
