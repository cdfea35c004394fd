import type { Alert, AlertFilter } from '../../app/alerts/alert.js';
import { NoticeGate } from '../../app/alerts/desktop-notices.js';
import type { RuleOverride, RuleScope } from '../../app/alerts/rules.js';
import type { EventPayload, Response } from '../../app/ipc/contract.js';
import { api } from '../lib/api.js';
import { errorText, isoOf } from '../lib/format.js';

export type AlertRules = Response<'alertrules:get'>;
export type AlertChange = EventPayload<'alerts:changed'>;

/** The browser's Notification API, as far as the alert centre uses it (tests hand a fake). */
export interface BrowserNotifications {
  readonly permission: 'default' | 'denied' | 'granted';
  requestPermission(): Promise<'default' | 'denied' | 'granted'>;
  show(title: string, body: string, onclick: () => void): void;
}

/** The page's Notification API, when it has one. */
export function pageNotifications(): BrowserNotifications | undefined {
  if (typeof Notification === 'undefined') return undefined;
  return {
    get permission() {
      return Notification.permission;
    },
    requestPermission: () => Notification.requestPermission(),
    show: (title, body, onclick) => {
      const n = new Notification(title, { body, tag: title });
      n.onclick = () => {
        window.focus();
        onclick();
      };
    },
  };
}


/**
 * The alert centre's state: the open count of the header badge, the list with its filters, the
 * rules, and desktop notifications in the browser shell (in Electron, main shows them). Lives as
 * long as the window.
 */
export class AlertsState {
  alerts = $state.raw<Alert[]>([]);
  openCount = $state(0);
  /**
   * Whether `openCount` comes from main (a read or a change event): until then the badge says the
   * count is not known rather than showing 0 (the first read waits for the window's first frame).
   */
  countKnown = $state(false);
  filter = $state<AlertFilter>({ state: 'active' });
  loaded = $state(false);
  error = $state<string | undefined>();
  /** When the list was last read (ISO): the data age the view shows. */
  readAt = $state<string | undefined>();
  rules = $state.raw<AlertRules | undefined>();
  rulesError = $state<string | undefined>();
  busy = $state(false);
  #loading: Promise<void> | undefined;
  /** The browser shell's desktop notifications, grouped, capped and cleaned as Electron's (see NoticeGate). */
  readonly #notices = new NoticeGate({
    show: (n) => this.browser?.show(n.title, n.body, () => this.openSystem(n.siteId, n.system)),
    timers: { now: () => this.clock(), setTimeout: (fire, ms) => setTimeout(fire, ms), clearTimeout: (handle) => clearTimeout(handle as number) },
  });

  constructor(
    /** Shows a new alert on the desktop; undefined in Electron (main does it) or without the API. */
    private readonly browser: BrowserNotifications | undefined,
    /** Opens a system, from a notification's click. */
    private readonly openSystem: (siteId: string, system: string) => void,
    /** Milliseconds since the epoch (tests pass a fixed one). */
    private readonly clock: () => number = () => Date.now(),
  ) {}

  /** Reads the list with the current filters (and the open count). */
  async load(): Promise<void> {
    this.#loading ??= (async () => {
      try {
        const r = await api().invoke('alerts:list', { ...this.filter, limit: 500 });
        this.alerts = r.alerts;
        this.openCount = r.openCount;
        this.countKnown = true;
        this.readAt = isoOf(this.clock());
        this.error = undefined;
      } catch (err) {
        this.error = errorText(err);
      } finally {
        this.loaded = true;
        this.#loading = undefined;
      }
    })();
    return this.#loading;
  }

  setFilter(change: Partial<AlertFilter>): Promise<void> {
    const next: AlertFilter = { ...this.filter, ...change };
    for (const k of Object.keys(next) as Array<keyof AlertFilter>) if (next[k] === undefined || next[k] === '') delete next[k];
    this.filter = next;
    return this.load();
  }

  /** Listens to main's alert events: the badge and list follow, and each new alert is shown on the desktop when that is on. */
  listen(): () => void {
    return api().on('alerts:changed', (c) => {
      this.openCount = c.openCount;
      this.countKnown = true;
      void this.load();
      if (c.raised.length && this.browser && this.rules?.notify && this.browser.permission === 'granted') this.#notices.offer(c);
    });
  }

  async acknowledge(ids: number[]): Promise<void> {
    await this.#act(() => api().invoke('alerts:ack', { ids }));
  }

  /** Snoozes for `hours` from now; 0 ends the snooze. */
  async snooze(ids: number[], hours: number): Promise<void> {
    const until = hours > 0 ? isoOf(this.clock() + hours * 3_600_000) : null;
    await this.#act(() => api().invoke('alerts:snooze', { ids, until }));
  }

  async loadRules(): Promise<void> {
    try {
      this.rules = await api().invoke('alertrules:get', {});
      this.rulesError = undefined;
    } catch (err) {
      this.rulesError = errorText(err);
    }
  }

  async setRules(scope: RuleScope, override: RuleOverride | null): Promise<boolean> {
    try {
      this.rules = await api().invoke('alertrules:set', { scope, override });
      this.rulesError = undefined;
      await this.load();
      return true;
    } catch (err) {
      this.rulesError = errorText(err);
      return false;
    }
  }

  /**
   * Turns desktop notifications on or off. In the browser shell, turning them on asks the page's
   * permission (only then, on the admin's click); a refusal leaves the setting off and says so.
   */
  async setNotify(on: boolean): Promise<void> {
    try {
      if (on && this.browser && this.browser.permission !== 'granted') {
        const answer = await this.browser.requestPermission();
        if (answer !== 'granted') {
          this.rulesError = 'the browser does not allow notifications from this page: allow them in its site settings, then turn them on again';
          return;
        }
      }
      await api().invoke('alerts:notify', { notify: on });
      await this.loadRules();
    } catch (err) {
      this.rulesError = errorText(err);
    }
  }

  async #act(task: () => Promise<unknown>): Promise<void> {
    this.busy = true;
    try {
      await task();
      this.error = undefined;
    } catch (err) {
      this.error = errorText(err);
    } finally {
      this.busy = false;
    }
    await this.load();
  }
}
