import type { Site } from '../../app/domain/site.js';
import type { Timers } from './deadline.js';

/** What the scheduler needs of the fleet; passed in so tests drive it with a fake clock. */
export interface PollSchedulerDeps {
  /** The sites now (the site list is read at each decision, so edits take effect). */
  sites(): readonly Site[];
  /** One background (steady) refresh of a site; never overlaps another refresh of it (FleetRefresh). */
  poll(siteId: string): Promise<unknown>;
  /** Until when (ms since the epoch) the site backs off after failures, if it does (FleetState's backoff). */
  backoffUntil(siteId: string): number | undefined;
  timers: Timers;
  /** Uniform in [0, 1); injected so tests pin the jitter. */
  random?: () => number;
  /** Jitter as a share of the interval, each way (default 0.1: ±10 %). */
  jitter?: number;
  /** Moves each poll onto the shared grid of {@link coalescedDue} (default true; tests of exact times turn it off). */
  coalesce?: boolean;
}

/** The largest step of the grid polls are moved onto (see {@link coalescedDue}). */
export const MAX_COALESCE_STEP_MS = 10_000;

/**
 * When a poll due at `dueMs` starts: at the nearest point of a grid every site shares, one step a
 * sixth of its interval and at most {@link MAX_COALESCE_STEP_MS} (polls every minute: every 10 s),
 * so it moves by at most half a step (a twelfth of its interval). Polls that fall due close
 * together then start together, and a fleet of a hundred sites polled every minute wakes the
 * process a few times a minute instead of a hundred. A wake-up from idle costs more than the work
 * it starts suggests (on a virtual machine the first milliseconds after it run several times
 * slower; a laptop's CPU leaves its sleep states), so fewer wake-ups cost less CPU. The polls of
 * one step share the fleet's and each site's caps on requests in flight, as a first refresh does.
 */
export function coalescedDue(dueMs: number, intervalSeconds: number): number {
  const step = Math.min(MAX_COALESCE_STEP_MS, Math.round((intervalSeconds * 1000) / 6));
  return step > 0 ? Math.round(dueMs / step) * step : dueMs;
}

interface Entry {
  intervalSeconds: number;
  handle?: unknown;
  /** A poll of this site is running now. */
  polling: boolean;
  /** When the timer falls due, ms since the epoch. */
  dueAt?: number;
  /** Asked to poll now while a poll ran: the next one follows it at once. */
  again?: boolean;
}

/**
 * Polls each site at its `polling.intervalSeconds` (0 = on demand only), jittered so that sites
 * added together do not poll together, then moved onto a grid so that polls due close together
 * start together ({@link coalescedDue}); paused sites are not polled. After failures the next poll
 * waits for the site's backoff (the one kept by the refresh, not a second one). The next interval
 * starts when a poll ends, so polls of one site never pile up. Runs in the app shells only, never
 * for the CLI's one-shot commands.
 */
export class PollScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly random: () => number;
  private readonly jitter: number;
  private readonly coalesce: boolean;
  private running = false;
  private scope: ReadonlySet<string> | undefined;

  constructor(private readonly d: PollSchedulerDeps) {
    this.random = d.random ?? Math.random;
    this.jitter = d.jitter ?? 0.1;
    this.coalesce = d.coalesce ?? true;
  }

  /**
   * Starts polling every site (or only `siteIds`, a window scoped to one site). The first poll of
   * a site comes one (jittered) interval from now: the shells refresh everything once at start.
   */
  start(siteIds?: readonly string[]): void {
    this.running = true;
    this.scope = siteIds ? new Set(siteIds) : undefined;
    this.resync();
  }

  /** True between {@link start} and {@link stop}. */
  get started(): boolean {
    return this.running;
  }

  /**
   * Applies the site list now: new sites are scheduled, removed and paused ones dropped, a changed
   * interval restarts from now. Called after every site change (add, edit, pause, remove).
   */
  resync(): void {
    if (!this.running) return;
    const wanted = new Map<string, Site>();
    for (const site of this.d.sites()) {
      if (this.scope && !this.scope.has(site.id)) continue;
      if (site.polling.paused || site.polling.intervalSeconds <= 0) continue;
      wanted.set(site.id, site);
    }
    for (const [id, entry] of this.entries) {
      if (!wanted.has(id)) {
        this.cancel(entry);
        this.entries.delete(id);
      }
    }
    for (const [id, site] of wanted) {
      const entry = this.entries.get(id);
      if (entry && entry.intervalSeconds === site.polling.intervalSeconds) continue;
      if (entry) {
        this.cancel(entry);
        entry.intervalSeconds = site.polling.intervalSeconds;
        // A poll running now schedules the next one itself when it ends.
        if (!entry.polling) this.schedule(id, entry);
      } else {
        const fresh: Entry = { intervalSeconds: site.polling.intervalSeconds, polling: false };
        this.entries.set(id, fresh);
        this.schedule(id, fresh);
      }
    }
  }

  /** When the site's next poll is due (ms since the epoch), or undefined when it is not scheduled. */
  nextPollAt(siteId: string): number | undefined {
    return this.entries.get(siteId)?.dueAt;
  }

  /**
   * Polls the site now instead of at its next interval (after a login from the window, which the
   * site was waiting for); the interval restarts when that poll ends. A poll running now is
   * followed at once by another. Nothing happens for a site that is not polled.
   */
  pollNow(siteId: string): void {
    const entry = this.entries.get(siteId);
    if (!this.running || !entry) return;
    if (entry.polling) {
      entry.again = true;
      return;
    }
    this.cancel(entry);
    this.schedule(siteId, entry, 0);
  }

  /** Stops every timer; a poll in flight finishes, and schedules nothing. */
  stop(): void {
    this.running = false;
    for (const entry of this.entries.values()) this.cancel(entry);
    this.entries.clear();
  }

  /** One interval, jittered uniformly within ±`jitter` of it, in ms. */
  private jittered(intervalSeconds: number): number {
    const ms = intervalSeconds * 1000;
    return Math.round(ms * (1 + this.jitter * (2 * this.random() - 1)));
  }

  /**
   * Sets the entry's timer: one jittered interval from now, on the shared grid (or `delayMs` from
   * now, as asked), not before the site's backoff ends.
   */
  private schedule(siteId: string, entry: Entry, delayMs?: number): void {
    const now = this.d.timers.now();
    let next = now + (delayMs ?? this.jittered(entry.intervalSeconds));
    if (delayMs === undefined && this.coalesce) next = coalescedDue(next, entry.intervalSeconds);
    const dueAt = Math.max(next, this.d.backoffUntil(siteId) ?? 0);
    entry.dueAt = dueAt;
    entry.handle = this.d.timers.setTimeout(() => void this.fire(siteId, entry), dueAt - now);
  }

  private cancel(entry: Entry): void {
    if (entry.handle !== undefined) this.d.timers.clearTimeout(entry.handle);
    entry.handle = undefined;
    entry.dueAt = undefined;
  }

  private async fire(siteId: string, entry: Entry): Promise<void> {
    entry.handle = undefined;
    entry.dueAt = undefined;
    // Sites changed by another process sharing the data dir (the CLI, a --site window) are
    // picked up here: added ones scheduled, removed or paused ones (this one too) dropped.
    this.resync();
    if (!this.running || this.entries.get(siteId) !== entry) return;
    const backoff = this.d.backoffUntil(siteId);
    if (backoff !== undefined && backoff > this.d.timers.now()) {
      // Backing off after failures: wait for its end rather than ask a site that does not answer.
      entry.dueAt = backoff;
      entry.handle = this.d.timers.setTimeout(() => void this.fire(siteId, entry), backoff - this.d.timers.now());
      return;
    }
    entry.polling = true;
    try {
      await this.d.poll(siteId);
    } catch {
      // The refresh records its own failures in each system's status; the schedule goes on.
    } finally {
      entry.polling = false;
    }
    const again = entry.again === true;
    entry.again = false;
    if (this.running && this.entries.get(siteId) === entry) this.schedule(siteId, entry, again ? 0 : undefined);
  }
}
