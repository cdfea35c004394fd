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
}

/**
 * Desktop notifications of new alerts in the Electron shell: one per alert an evaluation raised,
 * when the setting is on and the desktop supports them; a click opens the system. Shown ones are
 * kept referenced until clicked or closed, or the garbage collector may drop them and their click.
 */
export function alertNotifier(o: AlertNotifierOptions): (change: EventPayload<'alerts:changed'>) => void {
  const shown = new Set<NotificationLike>();
  return (change) => {
    if (!change.raised.length || !o.enabled() || !o.Notification.isSupported()) return;
    for (const a of change.raised) {
      const n = new o.Notification({ title: `Fleetdeck ${a.level}: ${a.system}`, body: a.message });
      shown.add(n);
      n.on('click', () => {
        shown.delete(n);
        o.open(a.siteId, a.system);
      });
      n.on('close', () => shown.delete(n));
      n.show();
    }
  };
}
