import type { Alert } from './alert.js';
import { terminalField } from '../safe-text.js';

/**
 * Desktop notifications of new alerts, the same in both shells (Electron's main, the browser
 * shell's page): grouped, capped and cleaned. A refresh that raises thousands of alerts on one
 * system shows one notification per level of that system; past `cap` notifications within
 * `windowMs`, the rest are counted into one summary shown when the window ends. Titles and bodies
 * come from systems (names, messages): control, line-breaking, bidirectional and markup characters
 * are removed, since a notification daemon may render markup and a right-to-left override or a new
 * line could make one read as another ("sysB‮\nFleetdeck ok: all healthy").
 */

/** One desktop notification to show; `key` names its group (a newer one of the same key replaces it). */
export interface DesktopNotice {
  key: string;
  title: string;
  body: string;
  siteId: string;
  system: string;
}

export interface NoticeTimers {
  now(): number;
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const NOTICE_LIMITS = {
  /** Notifications shown within one window before the rest are summed up. */
  cap: 5,
  windowMs: 60_000,
  titleChars: 80,
  bodyChars: 240,
} as const;

/** Beyond what terminalField drops: invisible formatting characters, and markup some notification daemons render. */
const INVISIBLE_OR_MARKUP = /[\u00ad\u180e\u200b-\u200d\u2060-\u2065\u206a-\u206f\ufeff\ufff9-\ufffb<>&]/gu;

/** Text from a system made safe for a notification: one line, no control, bidi or markup character, at most `max` characters. */
export function noticeText(text: string, max: number): string {
  // NEL breaks a line too: a space, as terminalField makes the other breaks.
  const clean = terminalField(text.replace(/\u0085/g, ' '))
    .replace(INVISIBLE_OR_MARKUP, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  const chars = [...clean];
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join('')}…`;
}

const LEVELS_WORST_FIRST: readonly string[] = ['critical', 'warning'];

/** One notice per level among the alerts a system's evaluation raised, worst level first. */
export function groupedNotices(change: { siteId: string; system: string; raised: readonly Pick<Alert, 'level' | 'message'>[] }): DesktopNotice[] {
  const byLevel = new Map<string, string[]>();
  for (const a of change.raised) {
    const list = byLevel.get(a.level) ?? [];
    list.push(a.message);
    byLevel.set(a.level, list);
  }
  const levels = [...byLevel.keys()].sort((a, b) => rank(LEVELS_WORST_FIRST, a) - rank(LEVELS_WORST_FIRST, b));
  return levels.map((level) => {
    const messages = byLevel.get(level) as string[];
    const first = messages[0] ?? '';
    const body = messages.length === 1 ? first : `${messages.length.toLocaleString('en-US')} new ${level} alerts: ${first} (and ${(messages.length - 1).toLocaleString('en-US')} more)`;
    return {
      key: JSON.stringify([change.siteId, change.system, level]),
      title: noticeText(`Fleetdeck ${level}: ${change.system}`, NOTICE_LIMITS.titleChars),
      body: noticeText(body, NOTICE_LIMITS.bodyChars),
      siteId: change.siteId,
      system: change.system,
    };
  });
}

function rank(order: readonly string[], level: string): number {
  const i = order.indexOf(level);
  return i < 0 ? order.length : i;
}

/**
 * Shows the notices of each alert change, at most `cap` within a window; the others are summed up
 * in one notice when the window ends ("12 more new alerts on 7 systems"), which opens the first of
 * them.
 */
export class NoticeGate {
  private windowEnds = 0;
  private shownInWindow = 0;
  private held: { alerts: number; systems: Set<string>; first: DesktopNotice } | undefined;
  private flushHandle: unknown;
  private readonly cap: number;
  private readonly windowMs: number;

  constructor(
    private readonly o: {
      show: (notice: DesktopNotice) => void;
      timers: NoticeTimers;
      cap?: number;
      windowMs?: number;
    },
  ) {
    this.cap = o.cap ?? NOTICE_LIMITS.cap;
    this.windowMs = o.windowMs ?? NOTICE_LIMITS.windowMs;
  }

  /** The alerts one evaluation of a system raised. */
  offer(change: { siteId: string; system: string; raised: readonly Pick<Alert, 'level' | 'message'>[] }): void {
    const now = this.o.timers.now();
    if (now >= this.windowEnds && this.held === undefined) {
      this.windowEnds = now + this.windowMs;
      this.shownInWindow = 0;
    }
    for (const notice of groupedNotices(change)) {
      const alerts = change.raised.filter((a) => JSON.stringify([change.siteId, change.system, a.level]) === notice.key).length;
      if (this.held === undefined && this.shownInWindow < this.cap) {
        this.shownInWindow++;
        this.o.show(notice);
        continue;
      }
      this.held ??= { alerts: 0, systems: new Set(), first: notice };
      this.held.alerts += alerts;
      this.held.systems.add(JSON.stringify([change.siteId, change.system]));
      this.flushHandle ??= this.o.timers.setTimeout(() => this.flush(), Math.max(0, this.windowEnds - now));
    }
  }

  /** Drops what is held and its timer (the window closes, or notifications were turned off). */
  dispose(): void {
    if (this.flushHandle !== undefined) this.o.timers.clearTimeout(this.flushHandle);
    this.flushHandle = undefined;
    this.held = undefined;
  }

  private flush(): void {
    this.flushHandle = undefined;
    const held = this.held;
    this.held = undefined;
    if (!held) return;
    // The summary opens a new window, as the first notice shown in it.
    this.windowEnds = this.o.timers.now() + this.windowMs;
    this.shownInWindow = 1;
    const systems = held.systems.size;
    this.o.show({
      key: 'summary',
      title: 'Fleetdeck: more new alerts',
      body: `${held.alerts.toLocaleString('en-US')} more new alert${held.alerts === 1 ? '' : 's'} on ${systems.toLocaleString('en-US')} system${systems === 1 ? '' : 's'}: see the alert centre`,
      siteId: held.first.siteId,
      system: held.first.system,
    });
  }
}
