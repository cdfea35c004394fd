import type { SystemsList } from '../../app/catalog/index.js';
import type { SystemState, SystemStatus } from '../../app/domain/site.js';
import { cacheKey, type OfflineCache } from '../store/offline-cache.js';
import type { SystemOutcomes } from '../store/system-outcomes.js';
import type { WrittenAnswers } from './written-answers.js';

/** The order of {@link FleetState.status}: by site then system, or as kept (for lookups). */
export type StatusOrder = 'sorted' | 'any';

export type FleetEvent =
  /** `written`: what the refresh or poll that ends with this status wrote, for the readers that follow it (never sent on). */
  | { type: 'status'; status: SystemStatus; written?: WrittenAnswers | undefined }
  | { type: 'notifications'; siteId: string; system: string; count: number };

/**
 * How long a recorded `ok` stays ok for a process that did not refresh the system itself: long
 * enough for a report after `fleetdeck refresh`, or a second window; older data is stale.
 */
export const RECORDED_OK_MS = 60 * 60_000;

/** Cache key of the site's system list (kept under the pseudo-system ''). */
export const SYSTEMS_KEY = cacheKey('GET /systems/list', {});

/**
 * What the fleet knows of every system between calls: its status, each site's backoff and last
 * error, and who listens to changes. Shared by the fleet's jobs (calls, refresh, site administration).
 */
export class FleetState {
  /** Per site, per system: a poll of one site reads and writes its own systems' statuses, never walks the fleet's. */
  private readonly statuses = new Map<string, Map<string, SystemStatus>>();
  readonly backoff = new Map<string, { failures: number; until: number }>();
  readonly siteErrors = new Map<string, { message: string; code: string }>();
  /**
   * Per site, per system: the system asked to slow down (429 or 503) this many polls in a row, and
   * is not read again before `until` (ms since the epoch) unless forced. Kept between polls.
   */
  readonly throttled = new Map<string, Map<string, { failures: number; until: number }>>();
  private readonly listeners = new Set<(e: FleetEvent) => void>();
  /** Status changes made so far: the last one's `seq` (see {@link SystemStatus.seq}). */
  private statusSeq = 0;

  /**
   * @param outcomes each system's last refresh outcome, recorded by whichever process refreshed it:
   *   the statuses start from them, and every outcome set here is recorded there
   * @param now when this process starts, to tell a recent `ok` from an old one ({@link RECORDED_OK_MS})
   */
  constructor(
    private readonly cache: OfflineCache,
    private readonly outcomes?: SystemOutcomes,
    now: Date = new Date(),
  ) {
    // Systems known from the cache start as stale until refreshed, unless a refresh recorded more.
    for (const s of cache.systems()) {
      if (s.system === '') continue;
      this.put({ siteId: s.siteId, system: s.system, state: 'stale', lastSuccessAt: s.at, seq: 0 });
    }
    for (const recorded of this.recorded()) this.put({ ...carriedOver(recorded, now.getTime()), seq: 0 });
  }

  private recorded(): SystemStatus[] {
    try {
      return this.outcomes?.all() ?? [];
    } catch {
      // Unreadable outcomes leave the cache's view (stale until refreshed).
      return [];
    }
  }

  /** Subscribes to status changes and new notifications; returns the unsubscribe function. */
  on(listener: (e: FleetEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Every known system's status, sorted by site then system; `'any'` order for a caller that only
   * looks them up (a start's: sorting by localeCompare loads ICU's collation data, tens of ms).
   */
  status(siteId?: string, order: StatusOrder = 'sorted'): SystemStatus[] {
    const found = siteId === undefined ? [...this.statuses.values()].flatMap((m) => [...m.values()]) : [...(this.statuses.get(siteId)?.values() ?? [])];
    return order === 'any' ? found : found.sort((a, b) => a.siteId.localeCompare(b.siteId) || a.system.localeCompare(b.system));
  }

  /** Systems of a site as last listed (from the cache when offline). */
  systemsOf(siteId: string): string[] {
    // Main's own bookkeeping, not a view's read: no write per read (a start marks every paused site).
    const cached = this.cache.get(siteId, '', SYSTEMS_KEY, { recordUse: false })?.value as SystemsList | undefined;
    return (cached?.Systems ?? []).map((s) => s.Name).filter((n): n is string => typeof n === 'string');
  }

  get(siteId: string, system: string): SystemStatus | undefined {
    return this.statuses.get(siteId)?.get(system);
  }

  isStale(siteId: string, system: string): boolean {
    return this.get(siteId, system)?.state !== 'ok';
  }

  /**
   * After a list of the site: every system known before (`known`, and every status kept) that it
   * does not show is `unlisted`, since the first list that left it out, with the list's message; one
   * listed again that this refresh does not read is stale until it does. Never forgotten silently.
   */
  markUnlisted(siteId: string, listed: readonly string[], known: readonly string[], message: string | undefined, at: string): void {
    const listedSet = new Set(listed);
    const systems = new Set([...known, ...this.status(siteId, 'any').map((s) => s.system)]);
    for (const system of systems) {
      const prev = this.get(siteId, system);
      let next: SystemStatus | undefined;
      if (!listedSet.has(system)) {
        const since = prev?.unlistedSince ?? at;
        const why = `not listed by the site since ${since}${message?.trim() ? `; the list says: ${message.trim()}` : ''}`;
        next = { siteId, system, state: 'unlisted', unlistedSince: since, lastSuccessAt: prev?.lastSuccessAt, lastErrorAt: prev?.lastErrorAt, lastError: why };
      } else if (prev?.state === 'unlisted') {
        next = { siteId, system, state: 'stale', lastSuccessAt: prev.lastSuccessAt };
      }
      if (next && !(prev && sameStatus(prev, next))) this.setStatus(next);
    }
  }

  /** Until when (ms since the epoch) a system is left alone after asking to slow down, if it is. */
  throttledUntil(siteId: string, system: string): number | undefined {
    return this.throttled.get(siteId)?.get(system)?.until;
  }

  /** Forgets every state of a site. */
  forgetSite(siteId: string): void {
    this.statuses.delete(siteId);
    this.backoff.delete(siteId);
    this.record(() => this.outcomes?.deleteSite(siteId));
    this.throttled.delete(siteId);
  }

  markSite(siteId: string, state: SystemState, message: string | undefined): void {
    // In any order: a start marks every paused site before serving (see `status`).
    const systems = new Set([...this.systemsOf(siteId), ...this.status(siteId, 'any').map((s) => s.system)]);
    for (const system of systems) {
      const prev = this.get(siteId, system);
      const next: SystemStatus = { siteId, system, state, lastSuccessAt: prev?.lastSuccessAt, lastErrorAt: prev?.lastErrorAt, lastError: message ?? prev?.lastError };
      // The same status again (a start's first refresh of a site paused since the last run, a second
      // logout) is no change: no event, so no listener re-evaluates the fleet for nothing.
      if (prev && sameStatus(prev, next)) continue;
      this.setStatus(next);
    }
  }

  /**
   * Sets a system's status, numbered with the next status sequence number (its `seq`, any given
   * replaced), and sends it to the listeners, with what the refresh or poll it ends wrote. Its
   * outcome is recorded, unless `recorded`: its caller wrote it already ({@link recordOutcome}).
   */
  setStatus(status: SystemStatus, written?: WrittenAnswers, options: { recorded?: boolean } = {}): void {
    const numbered = { ...status, seq: ++this.statusSeq };
    this.put(numbered);
    if (!options.recorded) this.record(() => this.outcomes?.put(numbered));
    this.emit(written ? { type: 'status', status: numbered, written } : { type: 'status', status: numbered });
  }

  /**
   * Takes the site's statuses as another process recorded them (a monitor polling the data dir):
   * each one that differs from this process's is set and sent to the listeners, as a refresh of
   * this process would, but not recorded again. A recorded `paused` is left to the site's setting.
   */
  adoptRecorded(siteId: string, now: Date): void {
    let recorded: SystemStatus[];
    try {
      recorded = this.outcomes?.ofSite(siteId) ?? [];
    } catch {
      return;
    }
    for (const r of recorded) {
      if (r.state === 'paused') continue;
      const next = carriedOver(r, now.getTime());
      const prev = this.get(siteId, r.system);
      if (prev && (prev.state === 'refreshing' || sameStatus(prev, next))) continue;
      const numbered = { ...next, seq: ++this.statusSeq };
      this.put(numbered);
      this.emit({ type: 'status', status: numbered });
    }
  }

  /**
   * Records a status's outcome, as {@link setStatus} would, for a caller that writes it in the
   * transaction of the system's answers (the outcomes are kept on the cache's connection): the
   * caller then sets the status with `recorded`. Nothing is set or sent here.
   * @throws what the write throws (the caller's transaction then writes nothing)
   */
  recordOutcome(status: SystemStatus): void {
    this.outcomes?.put(status);
  }

  /** Writes to the recorded outcomes: a convenience for later processes, never a reason for this one to fail. */
  private record(write: () => void): void {
    try {
      write();
    } catch {
      // A closed or read-only cache: this process's statuses stand; a later one starts from the cache.
    }
  }

  private put(status: SystemStatus): void {
    const site = this.statuses.get(status.siteId) ?? new Map<string, SystemStatus>();
    this.statuses.set(status.siteId, site);
    site.set(status.system, status);
  }

  /** Events sent so far, and how many are being sent now (nested: one sent by a listener of another). */
  private sent = 0;
  private sending = 0;

  /**
   * While the listeners of an event run, a number naming that moment (undefined between events): what
   * they read of the cache in it may be shared among them (`Fleet.cachedVersions`). An event sent by a
   * listener has its own, and the rest of the outer one gets a new one, as the inner may have changed
   * what they read.
   */
  get sendingId(): number | undefined {
    return this.sending > 0 ? this.sent : undefined;
  }

  emit(e: FleetEvent): void {
    this.sent++;
    this.sending++;
    try {
      for (const l of this.listeners) l(e);
    } finally {
      this.sending--;
      if (this.sending > 0) this.sent++;
    }
  }
}

/**
 * A recorded outcome as another process starts from it: as recorded, except that an `ok` older than
 * {@link RECORDED_OK_MS} is stale by now, and `paused` is the site's setting, marked again from it.
 */
function carriedOver(recorded: SystemStatus, nowMs: number): SystemStatus {
  if (recorded.state === 'paused') return { ...recorded, state: 'stale' };
  if (recorded.state !== 'ok') return recorded;
  const at = recorded.lastSuccessAt ? Date.parse(recorded.lastSuccessAt) : Number.NaN;
  return Number.isFinite(at) && nowMs - at <= RECORDED_OK_MS ? recorded : { ...recorded, state: 'stale' };
}

/** Whether two statuses of one system say the same (every field but their sequence numbers, an absent one equal to undefined). */
function sameStatus(a: SystemStatus, b: SystemStatus): boolean {
  const fields = new Set([...Object.keys(a), ...Object.keys(b)] as Array<keyof SystemStatus>);
  fields.delete('seq');
  return [...fields].every((f) => JSON.stringify(a[f]) === JSON.stringify(b[f]));
}
