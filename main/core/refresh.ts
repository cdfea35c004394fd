import { describeIncomplete, incompleteOf } from '../../app/answers/incomplete.js';
import { freshRecordOffset, timeMs } from '../../app/answers/time.js';
import { getOperation } from '../../app/catalog/index.js';
import { DEFAULT_SMART_MAX_AGE_HOURS, type Site, type SystemState, type SystemStatus } from '../../app/domain/site.js';
import { redact } from '../../app/redact.js';
import { AnswerTooLargeError, ApiError, CertificateError, isThrottling, ProtocolError, UnrecognisedAnswerError, UnreachableError, type ByteBudget, type TransientHttpError } from '../client/index.js';
import { cacheKey, type CacheRow } from '../store/offline-cache.js';
import { Deadline, formatMs } from './deadline.js';
import { ipcErrorCode } from '../../app/errors.js';
import { LoginRequiredError, SelectionMovedError, SitePausedError } from './errors.js';
import { FLEET_LIMITS, type FleetContext } from './fleet-context.js';
import { SYSTEMS_KEY } from './fleet-state.js';
import { listedSystems, type UnreadableSystem } from '../../app/fleet/listed-systems.js';
import { Limiter } from './limiter.js';
import { isVolatileKey, stableDigest } from './answer-digests.js';
import { WrittenAnswers } from './written-answers.js';
import { smartKey } from './smart-keys.js';
import { driveSkeleton, driveStatuses, dueAgain, healthStates, REFRESH_READS, readPhase, refreshPlan, type DriveSkeleton, type PlannedRead, refreshRead, smartDrivesToRead, smartDueAfter, smartRead, type RefreshMode } from '../../app/fleet/refresh-plan.js';
import { MAX_NOTIFICATION_PAGES, MERGED_NOTIFICATIONS_KEY, NOTIFICATIONS_OP, notificationMark, readNotifications, type FreshRecordClock, type NotificationMark, type NotificationPaging } from './notifications.js';
import type { ReadScope, SiteConnection } from './site-connection.js';
import { selfMetrics } from '../metrics/self-metrics.js';

const MAX_BACKOFF_MS = 10 * 60_000;
/** First wait after a system asks to slow down without saying how long; doubles with each poll refused, up to {@link MAX_BACKOFF_MS}. */
const THROTTLE_BASE_MS = 30_000;
/**
 * The longest Retry-After background polls honour. A system may ask for more (a broken or hostile
 * one: `Retry-After: 99999999999999`), but a monitor blind to it for days would show stale data
 * as its latest; past this its polls try again and say so.
 */
export const MAX_POLL_RETRY_AFTER_MS = 60 * 60_000;
/** A Retry-After in ms as background polls honour it: bounded by {@link MAX_POLL_RETRY_AFTER_MS}. */
function pollRetryAfter(ms: number | undefined): number {
  return Math.min(ms ?? 0, MAX_POLL_RETRY_AFTER_MS);
}
const RESOURCES = refreshRead('GET /resources/list');
const RESOURCES_KEY = cacheKey(RESOURCES.op, RESOURCES.query);
const HEALTH_OP = 'GET /monitoring/health/current';
const NODES_OP = 'GET /nodes/list';
/** The reads a steady poll decides on after the health answer (see {@link PlannedRead.detail}). */
const DETAIL_READS = REFRESH_READS.filter((r) => r.detail !== undefined);
/** The cache keys of the plan's fixed reads, spelt once (a poll asks for each several times). */
const PLANNED_KEYS: ReadonlyMap<PlannedRead, string> = new Map(REFRESH_READS.map((r) => [r, cacheKey(r.op, r.cacheQuery ?? r.query)]));
const keyOf = (r: PlannedRead): string => PLANNED_KEYS.get(r) ?? cacheKey(r.op, r.cacheQuery ?? r.query);
/**
 * Site errors and system states that wait for the admin: a background poll leaves them alone (a
 * refused password tried again every interval could lock the account; a changed certificate must
 * be confirmed first). A Refresh still tries.
 */
const SITE_WAITS_FOR_ADMIN: ReadonlySet<string> = new Set(['login-required', 'certificate']);
const SYSTEM_WAITS_FOR_ADMIN: ReadonlySet<SystemState> = new Set(['login-required', 'certificate-changed']);

/**
 * What a system's last refresh left for the next poll to compare with: the mark of the merged
 * notifications, the drive list's {@link driveSkeleton} (its drives' statuses, and what a poll
 * that does not read the list again plans its SMART reads from), and per detail read (cache key)
 * the health answer's states of its parts when it was last read whole. Kept in memory (small) so
 * that a poll does not read and parse the drive list and the notifications back from the cache;
 * valid only for what this process wrote, so a poll without it (the first one, or after a
 * failure) reads the cache and every detail, as a full refresh does.
 */
interface PollMemo {
  notifications: NotificationMark | undefined;
  drives: DriveSkeleton | undefined;
  details: ReadonlyMap<string, string>;
}

const NO_USE = { recordUse: false } as const;

/** Resolves in the event loop's next check phase: the I/O callbacks already due run before what follows. */
function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** What one refresh asks for: which sites and systems, whether to try a backing-off site, full or steady. */
export interface RefreshOptions {
  siteIds?: readonly string[];
  systems?: readonly string[];
  force?: boolean;
  /** `full` (default): everything; `steady`: a background poll (see {@link RefreshMode}). */
  mode?: RefreshMode;
}

/**
 * The fleet's refresh: lists each site's systems, then reads everything the views need for each
 * system under its deadline and byte budget; unreachable sites back off. One refresh of a site at
 * a time: a background poll arriving while one runs joins it; a full refresh follows it.
 */
export class FleetRefresh {
  /** The refresh running (or queued last) per site id. */
  private readonly running = new Map<string, Promise<void>>();
  /** The deadlines of the work running now (site listings, system refreshes): {@link close} abandons them. */
  private readonly deadlines = new Set<Deadline>();
  private closing = false;
  /** Per site, per system: what its last refresh left (see {@link PollMemo}). */
  private readonly memo = new Map<string, Map<string, PollMemo>>();

  constructor(private readonly f: FleetContext) {}

  /**
   * Refreshes sites (all by default): lists each site's systems, then reads everything the views
   * need for each system. Unreachable sites back off unless `force`; paused sites are skipped.
   * @returns the statuses afterwards.
   */
  async refresh(options: RefreshOptions = {}): Promise<SystemStatus[]> {
    // A poll names its site: only that one is looked up (the whole list was copied per poll).
    const sites = options.siteIds ? [...new Set(options.siteIds)].flatMap((id) => this.f.o.sites.get(id) ?? []).filter((s) => options.siteIds?.includes(s.id)) : this.f.o.sites.list();
    await Promise.all(sites.map((site) => this.serialised(site.id, options.systems, options.force ?? false, options.mode ?? 'full')));
    // A poll's own site's statuses: not a walk over the fleet's.
    if (sites.length === 1 && sites[0]) return this.f.state.status(sites[0].id);
    return this.f.state.status().filter((s) => sites.some((site) => site.id === s.siteId));
  }

  /**
   * Ends every refresh and poll running: nothing new starts, the running ones are abandoned (their
   * requests and retry waits end on their deadline's signal) and leave no status, alert or cache
   * write behind. Resolves once they have settled, or after `boundMs` on the fleet's timers.
   */
  async close(boundMs: number): Promise<void> {
    this.closing = true;
    for (const d of this.deadlines) d.abandon();
    let handle: unknown;
    const bound = new Promise<void>((resolve) => (handle = this.f.timers.setTimeout(resolve, boundMs)));
    await Promise.race([Promise.all(this.running.values()), bound]);
    this.f.timers.clearTimeout(handle);
  }

  /** A deadline {@link close} can abandon; already abandoned when closing. */
  private tracked(d: Deadline): Deadline {
    this.deadlines.add(d);
    if (this.closing) d.abandon();
    return d;
  }

  private serialised(siteId: string, onlySystems: readonly string[] | undefined, force: boolean, mode: RefreshMode): Promise<void> {
    const current = this.running.get(siteId);
    // A poll while a refresh runs would read the same answers again: it joins.
    if (current && mode === 'steady') return current;
    const run = async (): Promise<void> => {
      await current;
      // Read again: the site may have been edited, paused or removed while the earlier one ran.
      const site = this.f.o.sites.get(siteId);
      if (site && !this.closing) await this.refreshSite(site, onlySystems, force, mode);
    };
    const next = run().catch(() => undefined);
    this.running.set(siteId, next);
    void next.then(() => {
      if (this.running.get(siteId) === next) this.running.delete(siteId);
    });
    return next;
  }

  private async refreshSite(site: Site, onlySystems: readonly string[] | undefined, force: boolean, mode: RefreshMode): Promise<void> {
    const state = this.f.state;
    if (site.polling.paused) return state.markSite(site.id, 'paused', undefined);
    const wait = state.backoff.get(site.id);
    if (wait && !force && wait.until > this.f.clock().getTime()) return;
    if (mode === 'steady' && SITE_WAITS_FOR_ADMIN.has(state.siteErrors.get(site.id)?.code ?? '')) return;
    const nowMs = this.f.clock().getTime();
    const throttled = (system: string): boolean => !force && (state.throttledUntil(site.id, system) ?? 0) > nowMs;
    // Every system known asked to slow down: not even the list is asked for before the first may be read.
    const before = state.systemsOf(site.id);
    if (mode === 'steady' && before.length > 0 && before.every(throttled)) return;
    // A poll is timed from the site's list to its last system's end (a skipped site is no poll).
    const started = performance.now();
    const conn = this.f.connection(site);
    let systems: string[];
    let unreadable: UnreadableSystem[] = [];
    let known: string[];
    let message: string | undefined;
    const deadline = this.tracked(this.f.callDeadline(site, undefined, getOperation('GET /systems/list'), undefined));
    try {
      const list = await conn.listSystems({ deadline, failWhenThrottled: true });
      const listed = listedSystems(list);
      systems = listed.readable;
      unreadable = listed.unreadable;
      message = list.Message;
      // No system and a message: the site says something is wrong, it is not a site without systems.
      if (!systems.length && !unreadable.length && message?.trim()) throw new ApiError(`the site lists no systems and says: ${message.trim()}`);
      known = state.systemsOf(site.id);
      this.f.o.cache.put(site.id, '', SYSTEMS_KEY, list, this.f.clock());
      state.backoff.delete(site.id);
      state.siteErrors.delete(site.id);
    } catch (err) {
      selfMetrics.pollFailed(site.id);
      selfMetrics.poll(site.id, mode, (performance.now() - started) / 1000);
      if (!this.closing) this.siteFailed(site, err);
      return;
    } finally {
      deadline.dispose();
      this.deadlines.delete(deadline);
    }
    if (this.closing) return;
    const at = this.f.clock().toISOString();
    state.markUnlisted(site.id, [...systems, ...unreadable.map((u) => u.system)], known, message, at);
    // Listed but not to be told apart: said on each, never read (what is cached stays, with its age).
    for (const u of unreadable) {
      const prev = state.get(site.id, u.system);
      if (prev?.state !== 'protocol-error' || prev.lastError !== u.why) {
        state.setStatus({ siteId: site.id, system: u.system, state: 'protocol-error', lastSuccessAt: prev?.lastSuccessAt, lastErrorAt: at, lastError: u.why });
      }
    }
    const memo = this.memo.get(site.id);
    if (memo) for (const system of memo.keys()) if (!systems.includes(system)) memo.delete(system);
    const targets = systems.filter(
      (s) => (!onlySystems || onlySystems.includes(s)) && !throttled(s) && !(mode === 'steady' && SYSTEM_WAITS_FOR_ADMIN.has(state.get(site.id, s)?.state ?? 'ok')),
    );
    if (conn.selectionScope === 'unknown') await this.learnSelection(site, conn, [...targets, ...systems.filter((s) => !targets.includes(s))]);
    if (this.closing) return;
    // A few systems at a time per site and across the fleet (see FleetContext.systemSlots): a
    // system's deadline, and its keychain lookups, start when its own refresh does, not while
    // thousands queue behind. Each system queues its reads at once, so two systems keep four
    // request slots busy. One at a time where one system's select moves the others' sessions.
    const slots = new Limiter(conn.oneSystemAtATime ? 1 : Math.max(1, Math.ceil(site.polling.maxInFlight / 2)));
    await Promise.all(targets.map((system) => slots.run(() => this.f.systemSlots.run(() => this.refreshSystem(site, conn, system, mode)))));
    selfMetrics.poll(site.id, mode, (performance.now() - started) / 1000);
  }

  /**
   * Before a site's systems are refreshed together: whether its selection is each session's own,
   * learned on two of its systems. A failure here (a login that wants a code) leaves it unknown:
   * each system's reads are then checked after they are done.
   */
  private async learnSelection(site: Site, conn: SiteConnection, systems: readonly string[]): Promise<void> {
    const [first, second] = systems;
    if (first === undefined || second === undefined) return;
    const deadline = this.tracked(this.f.callDeadline(site, undefined, getOperation('GET /systems/list'), undefined));
    try {
      await conn.learnSelection(first, second, { deadline });
    } catch {
      // Each system's own refresh meets the same failure and reports it.
    } finally {
      deadline.dispose();
      this.deadlines.delete(deadline);
    }
  }

  /**
   * Reads everything the views need for one system, within one deadline (`refreshDeadlineMs`) for
   * all its reads, logins and retries, and a byte budget (`maxSystemBytes`) for all its answers.
   * SMART is read for at most `maxSmartDrives` drives (failing ones first). What was left out
   * shows as `truncated` in the system's status.
   *
   * A steady poll reads the health answer, new notifications, evacuations and replication every
   * time; the detail lists the health answer summarises when its states for them changed, new
   * records arrived, they are `detailMaxAgeMs` old or were not read whole last time (see
   * {@link PollMemo}); slow-moving configuration once its cached answer is older than
   * `slowReadMaxAgeMs`; and SMART of a drive once its reading is older than the site's SMART age or
   * its status changed. What it does not re-read keeps its own (older) time in the cache. It is
   * quiet: no `refreshing` progress, only the final status, so views do not turn read-only every
   * interval.
   */
  private async refreshSystem(site: Site, conn: SiteConnection, system: string, mode: RefreshMode): Promise<void> {
    const { o, state } = this.f;
    const previous = state.get(site.id, system);
    const steady = mode === 'steady';
    const nowMs = this.f.clock().getTime();
    // When each cached answer was read (held in memory by the cache once it has read or written the system).
    const readAt = steady ? o.cache.readTimes(site.id, system) : undefined;
    const siteMemo = this.memo.get(site.id) ?? new Map<string, PollMemo>();
    this.memo.set(site.id, siteMemo);
    // A poll compares with what this process's last refresh of the system left (while the cache
    // still holds the merged notifications it marks); a full refresh, or a poll without it, reads
    // the cache. Dropped now: only a refresh that ends well leaves a new one.
    const kept = steady && readAt?.has(MERGED_NOTIFICATIONS_KEY) ? siteMemo.get(system) : undefined;
    siteMemo.delete(system);
    // The refresh's own look at what it cached before is no view's use: no write per read (LRU).
    let heldNotifications: { value: unknown; at: string | undefined } | undefined;
    const heldEntry = (): { value: unknown; at: string | undefined } => {
      if (!heldNotifications) {
        const entry = o.cache.get(site.id, system, MERGED_NOTIFICATIONS_KEY, NO_USE);
        heldNotifications = { value: entry?.value, at: entry?.at };
      }
      return heldNotifications;
    };
    const previousNotifications = (): unknown => heldEntry().value;
    const mark = kept ? kept.notifications : notificationMark(previousNotifications());
    const since = mark?.since;
    const ageOf = (key: string): number | undefined => {
      const at = readAt?.get(key);
      return at === undefined || Number.isNaN(at) ? undefined : nowMs - at;
    };
    const slowMaxAge = o.slowReadMaxAgeMs ?? FLEET_LIMITS.slowReadMaxAgeMs;
    const detailMaxAge = o.detailMaxAgeMs ?? FLEET_LIMITS.detailMaxAgeMs;
    // Due before the health answer is in: slow reads by age; a detail by age, or when this
    // process's last refresh of the system did not read it whole. The other details wait for the
    // health answer and the notifications (see `later` below). Age counts on the system's own read
    // windows (`dueAgain`): a fleet refreshed at once re-reads over the next window, not in one minute.
    const phase = o.spreadReads === false ? undefined : readPhase(site.id, system);
    const dueByAge = (key: string, maxAgeMs: number): boolean => dueAgain(readAt?.get(key), nowMs, maxAgeMs, phase);
    const plan = refreshPlan(this.f.clock(), since, mode, (r) =>
      r.slow ? dueByAge(keyOf(r), slowMaxAge) : kept?.details.get(keyOf(r)) === undefined || dueByAge(keyOf(r), detailMaxAge),
    );
    // Detail reads a steady poll has not planned yet.
    const later = steady ? DETAIL_READS.filter((r) => !plan.includes(r)) : [];
    // The drive list before this poll (its skeleton): which drives changed status, and SMART's plan when the list is not read again.
    const previousSkeleton = !steady ? undefined : (kept?.drives ?? driveSkeleton(o.cache.get(site.id, system, RESOURCES_KEY, NO_USE)?.value));
    let done = 0;
    let answered = 0;
    let total = plan.length;
    const deadline = this.tracked(new Deadline(o.refreshDeadlineMs ?? FLEET_LIMITS.refreshDeadlineMs, `refresh of ${site.name}/${system}`, this.f.timers));
    // Once the system has failed, its other reads are cancelled (deadline.abandon()) and their late
    // answers ignored: they must neither flip its state back to 'refreshing' nor overwrite the cache
    // after the verdict.
    const signal = deadline.signal;
    const maxBytes = o.maxSystemBytes ?? FLEET_LIMITS.maxSystemBytes;
    const budget: ByteBudget = { remaining: maxBytes, total: maxBytes };
    // Progress is said in tenths of the reads planned (and at the start): an event per read reached
    // every listener of the fleet's statuses once per request, for a bar that moves no faster.
    let saidTenth = -1;
    const progress = (): void => {
      if (signal.aborted || steady) return;
      const tenth = Math.floor((done * 10) / Math.max(1, total));
      if (tenth === saidTenth) return;
      saidTenth = tenth;
      state.setStatus({ ...(previous ?? { siteId: site.id, system }), siteId: site.id, system, state: 'refreshing', progress: { done, total } });
    };
    progress();
    const failures: string[] = [];
    // Answers in a shape the client does not recognise: the system answers, we cannot read it.
    const notUnderstood: string[] = [];
    const truncated: string[] = [];
    // A system's answers are written in one transaction when its refresh or poll ends (each with
    // the time it arrived): one commit per system rather than one per answer, which was main's
    // largest cost per answer. Views re-read a system's answers only when its refresh has ended,
    // so they see the same. Each answer of a full refresh waits as its stored text, not parsed (a
    // fleet's refresh holds dozens of systems' answers at once); a poll's few small answers keep their
    // values too (`OfflineCache.rowOf`). What was written goes with the status event to its readers
    // (`WrittenAnswers`). A system whose texts pass `cacheBatchBytes` writes what it holds then, so
    // what waits stays bounded in memory.
    const pending: CacheRow[] = [];
    let pendingBytes = 0;
    // The digests of the volatile answers, taken while their values are in hand (see AnswerDigests).
    const digests = new Map<string, string>();
    // Answers that may yet turn out another system's wait for the check after the reads, unwritten.
    const checked = !conn.readsNeedCheck;
    // The rows of the last write: handed to the readers of the status event (an earlier batch's are not held).
    let written: CacheRow[] = [];
    // The last write of a refresh or poll carries the system's outcome (`outcome`): the answers it
    // writes and the outcome they led to commit together, so another process (a window, the CLI, a
    // report) never reads this write's answers with the outcome before them, nor the reverse, and a
    // failure leaves neither. Earlier batches of a large refresh commit before, as their answers do.
    const flush = (outcome?: SystemStatus): void => {
      pendingBytes = 0;
      const rows = pending.splice(0);
      o.cache.putRows(site.id, system, rows, outcome && (() => state.recordOutcome(outcome)));
      written = rows;
    };
    const handOver = (): WrittenAnswers => new WrittenAnswers(written, digests);
    const batchBytes = o.cacheBatchBytes ?? FLEET_LIMITS.cacheBatchBytes;
    // New notification records were merged (the merged list is put, not only renewed).
    let recordsArrived = false;
    // The cache keys of the answers read whole (not partial) now.
    const whole = new Set<string>();
    const cache = {
      // An answer the same as the one held: only its read time moves (no value to write).
      renew: (_siteId: string, _sys: string, key: string, at: Date): void => void pending.push(o.cache.renewRow(key, at)),
      put: (_siteId: string, _sys: string, key: string, value: unknown, at: Date): void => {
        // The drive list stays in hand to the system's end anyway (SMART is planned from it): its
        // row keeps it for the readers of the status event, who would parse its text again.
        const row = o.cache.rowOf(key, value, at, steady || key === RESOURCES_KEY);
        if (isVolatileKey(key) && row.json !== undefined) digests.set(key, stableDigest(row.json));
        if (key === MERGED_NOTIFICATIONS_KEY) recordsArrived = true;
        pending.push(row);
        pendingBytes += row.bytes;
        if (checked && pendingBytes >= batchBytes) flush();
      },
    };
    // Zone-less stamps of the notification records read (as UTC): fresh ones teach the clock.
    const stamps = new WeakMap<object, number>();
    const onRecordStamp = (record: Record<string, unknown>, ms: number): void => void stamps.set(record, ms);
    // A clock learned from fresh records by an earlier process holds until fresh records say otherwise.
    if (previous?.clockSource === 'records' && previous.clockOffsetMs !== undefined) conn.learnFromRecords(system, previous.clockOffsetMs, true);
    // So are the scale of its percentages and the order of its dates.
    conn.percentScale(system, previous?.percentScale);
    conn.dateOrder(system, previous?.dayFirst);
    const read = async (opKey: string, query: Record<string, unknown>, storeKey: string | null = cacheKey(opKey, query)): Promise<unknown> => {
      try {
        // A "slow down" fails the system's refresh at once (see throttledStatus), never retried per read.
        const value = await conn.read(system, getOperation(opKey), { query, deadline, budget, failWhenThrottled: true, ...(opKey === NOTIFICATIONS_OP ? { onRecordStamp } : {}) });
        if (signal.aborted) return undefined;
        answered++;
        // A list that says it is partial: said on the system (its pages are not asked for).
        const incomplete = opKey === NOTIFICATIONS_OP ? undefined : incompleteOf(value);
        if (incomplete) truncated.push(`${opKey} ${describeIncomplete(incomplete)}`);
        if (storeKey !== null) cache.put(site.id, system, storeKey, value, this.f.clock());
        if (storeKey !== null && !incomplete) whole.add(storeKey);
        return value;
      } catch (err) {
        if (err instanceof UnreachableError || err instanceof CertificateError || err instanceof LoginRequiredError || err instanceof SitePausedError) throw err;
        if (err instanceof AnswerTooLargeError) truncated.push(`${opKey} (answer over the limit, not read)`);
        else if (err instanceof ProtocolError) {
          notUnderstood.push(err instanceof UnrecognisedAnswerError ? err.summary : `${opKey}: ${err.message}`);
          return undefined;
        }
        failures.push(`${opKey}: ${(err as Error).message}`);
        return undefined;
      } finally {
        done++;
        progress();
      }
    };
    // New records are announced once the reads are known to be the system's own.
    const announced: Array<Parameters<typeof state.emit>[0]> = [];
    const notificationDeps = { cache, clock: this.f.clock, emit: (e: Parameters<typeof state.emit>[0]) => void announced.push(e) };
    // When the records held were last read (a poll since renews it): fresh records were stamped after it.
    const heldAt = steady ? readAt?.get(MERGED_NOTIFICATIONS_KEY) : undefined;
    const freshClock: FreshRecordClock = {
      stampOf: (r) => stamps.get(r),
      sinceMs: () => heldAt ?? timeMs(heldEntry().at),
      learn: (stampsMs, sinceMs) => conn.learnFromRecords(system, freshRecordOffset(stampsMs, sinceMs, this.f.clock().getTime())),
    };
    let scope: ReadScope | undefined;
    try {
      let marked = mark;
      scope = await conn.beginReads(system, { deadline });
      // The nodes' answer teaches the system's clock: notifications, whose times alerts judge, wait for it.
      let clockRead: Promise<unknown> = Promise.resolve();
      // Of the answers, only the drive list (for SMART) and the health answer (for the details due)
      // are read again here; the others wait as text alone.
      const values = new Map<string, unknown>();
      const readPlanned = (p: PlannedRead): Promise<void> => {
        const answer = read(p.op, p.query, keyOf(p));
        // Settled to nothing: the nodes' parsed answer is not held while the other reads run.
        if (p.op === NODES_OP) clockRead = answer.then(() => undefined, () => undefined);
        return answer.then((value) => void ((p.op === RESOURCES.op || p.op === HEALTH_OP) && values.set(p.op, value)));
      };
      await Promise.all(
        plan.map((p) => {
          if (p.op === NOTIFICATIONS_OP) {
            const paging: NotificationPaging = {
              olderThan: (utc) => ({ ...p.query, endTimestamp: utc }),
              onSkipped: (n) => void truncated.push(`notifications: more arrived since the last poll than ${MAX_NOTIFICATION_PAGES} pages hold; at least ${n} not read`),
            };
            return clockRead.then(() =>
              readNotifications(notificationDeps, site, system, read, p.query, previousNotifications, mark, paging, freshClock).then((m) => void (marked = m)),
            );
          }
          return readPlanned(p);
        }),
      );
      // The health answer's states, to compare each detail with the states it was last read at.
      const states = healthStates(values.get(HEALTH_OP));
      const statesOf = (r: PlannedRead): string | undefined => states && r.detail?.map((part) => states[part]).join('\n');
      // A detail not due by age is read when new records arrived, when the health answer says its
      // states changed, or when there is no health answer to tell.
      const second = later.filter((r) => recordsArrived || statesOf(r) === undefined || statesOf(r) !== kept?.details.get(keyOf(r)));
      total += second.length;
      await Promise.all(second.map(readPlanned));
      // A drive list not read now stands in as its skeleton (SMART by age alone).
      const resourcesRead = !steady || [...plan, ...second].some((r) => r.op === RESOURCES.op);
      const resources = resourcesRead ? values.get(RESOURCES.op) : previousSkeleton;
      values.clear();
      // No drive list, no SMART reads: said, so that zero reads are not taken for zero drives.
      const smartSkipped = resourcesRead && resources === undefined ? 'SMART not read: the drive list (GET /resources/list) could not be read' : undefined;
      const smartMaxAgeMs = (site.polling.smartMaxAgeHours ?? DEFAULT_SMART_MAX_AGE_HOURS) * 3_600_000;
      const smartAge = (d: { node: string; driveid: number }): number | undefined => ageOf(smartKey(d.node, d.driveid));
      // A drive list read again: a drive whose status changed is due too. One not read: by age alone.
      const due = !previousSkeleton ? undefined : resourcesRead ? smartDueAfter(resources, driveStatuses(previousSkeleton), smartAge, smartMaxAgeMs) : (d: { node: string; driveid: number }) => (smartAge(d) ?? Infinity) >= smartMaxAgeMs;
      const smart = smartDrivesToRead(resources, o.maxSmartDrives ?? FLEET_LIMITS.maxSmartDrives, due);
      if (smart.drives.length < smart.total) truncated.push(`SMART read for ${smart.drives.length} of ${smart.total} drives (failing drives first)`);
      total += smart.drives.length;
      // A drive that cannot report SMART is a fact about that drive, not a failed refresh.
      const before = failures.length;
      await Promise.all(smart.drives.map((d) => {
        const r = smartRead(d.node, d.driveid);
        return read(r.op, r.query, smartKey(d.node, d.driveid)).then(() => undefined);
      }));
      failures.splice(before);
      // Kept only if the session still works on this system (while the site may move it).
      await scope.check();
      // The system's end, its cache write and then its status event's readers (summary, alert
      // engine, digests), is main's longest synchronous work of a refresh: it waits for a turn of the
      // event loop, so answers already in hand are handled (their next requests sent) first. Write and
      // status stay in one turn: a close can never come between them (a write no reader has seen).
      await nextTurn();
      // Closed meanwhile: its reads were cut short by the close, not by the system.
      if (this.closing) return;
      const now = this.f.clock().toISOString();
      const cut = truncated.length ? truncated.join('; ') : undefined;
      const offset = conn.clockOffset(system);
      const scale = conn.percentScale(system);
      const dayFirst = conn.dateOrder(system);
      const clock = {
        ...(offset ? { clockOffsetMs: offset, clockSource: conn.clockSource(system) } : {}),
        ...(scale?.strong ? { percentScale: scale.scale } : {}),
        ...(dayFirst !== undefined ? { dayFirst } : {}),
      };
      const problems = [
        ...(notUnderstood.length ? [`protocol error: ${notUnderstood[0]}${notUnderstood.length > 1 ? ` (and ${notUnderstood.length - 1} more answer(s) not understood)` : ''}`] : []),
        ...(failures.length ? [`${failures.length} read(s) failed: ${failures.slice(0, 3).join('; ')}`] : []),
        ...(smartSkipped ? [smartSkipped] : []),
      ];
      const outcome: SystemStatus = problems.length
        ? {
            siteId: site.id,
            system,
            state: notUnderstood.length ? 'protocol-error' : 'stale',
            lastSuccessAt: previous?.lastSuccessAt,
            lastErrorAt: now,
            lastError: redact(problems.join('; ')),
            truncated: cut,
            ...clock,
          }
        : { siteId: site.id, system, state: 'ok', lastSuccessAt: now, truncated: cut, ...clock };
      flush(outcome);
      for (const e of announced) state.emit(e);
      // What the cache now holds, for the next poll: an unread drive list leaves the one held; a
      // detail read now holds this health answer's states, unless it was not read whole.
      const drives = !resourcesRead || resources === undefined ? previousSkeleton : driveSkeleton(resources);
      const details = new Map<string, string>();
      for (const r of DETAIL_READS) {
        const key = keyOf(r);
        const readNow = !steady || plan.includes(r) || second.includes(r);
        const held = readNow ? (whole.has(key) ? statesOf(r) : undefined) : kept?.details.get(key);
        if (held !== undefined) details.set(key, held);
      }
      siteMemo.set(system, { notifications: marked, drives, details });
      state.throttled.get(site.id)?.delete(system);
      state.setStatus(outcome, handOver(), { recorded: true });
    } catch (err) {
      deadline.abandon();
      if (this.closing) return;
      const why = deadline.expired
        ? new UnreachableError(
            `refresh of ${site.name}/${system} did not finish within ${formatMs(deadline.ms)} (${answered} of ${total} reads answered); stopped there, it is tried again at the next refresh`,
            'timeout',
          )
        : err;
      const outcome = isThrottling(why) ? this.throttledStatus(site, system, why, previous) : this.failedStatus(site, system, why, previous);
      let recorded = false;
      try {
        // Unchecked answers may be another system's: dropped with the failure. Without answers
        // left (none, or a failed write of them brought the refresh here) the outcome goes alone.
        if (checked && !(err instanceof SelectionMovedError) && pending.length) {
          flush(outcome);
          recorded = true;
        }
      } catch {
        // The system's own failure is the verdict; what answered before it is lost with the store
        // (its outcome is then recorded alone, as far as the store lets it).
      }
      state.setStatus(outcome, handOver(), { recorded });
    } finally {
      scope?.end();
      deadline.dispose();
      this.deadlines.delete(deadline);
    }
  }

  private siteFailed(site: Site, err: unknown): void {
    const state = this.f.state;
    const systems = state.systemsOf(site.id);
    if (err instanceof UnreachableError) {
      const failures = (state.backoff.get(site.id)?.failures ?? 0) + 1;
      // A site that said how long to wait is not asked before then.
      const delay = Math.max(Math.min(MAX_BACKOFF_MS, 15_000 * 2 ** (failures - 1)), isThrottling(err) ? pollRetryAfter(err.retryAfterMs) : 0);
      state.backoff.set(site.id, { failures, until: this.f.clock().getTime() + delay });
    }
    state.siteErrors.set(site.id, { message: redact((err as Error).message), code: ipcErrorCode(err) });
    for (const system of systems) this.systemFailed(site, system, err, state.get(site.id, system));
  }

  /**
   * The status of a system that asked to slow down, its backoff set: its data stays (stale), and
   * polls leave it alone until its Retry-After (seconds or a date; an hour at most) or, without one,
   * a backoff doubling from 30 s per refused poll up to 10 min, whichever is later. A Refresh still
   * tries; a read that answers ends the backoff.
   */
  private throttledStatus(site: Site, system: string, err: TransientHttpError, previous: SystemStatus | undefined): SystemStatus {
    const state = this.f.state;
    const now = this.f.clock().getTime();
    const perSite = state.throttled.get(site.id) ?? new Map<string, { failures: number; until: number }>();
    state.throttled.set(site.id, perSite);
    const failures = (perSite.get(system)?.failures ?? 0) + 1;
    const until = now + Math.max(pollRetryAfter(err.retryAfterMs), Math.min(MAX_BACKOFF_MS, THROTTLE_BASE_MS * 2 ** (failures - 1)));
    perSite.set(system, { failures, until });
    const nextTryAt = new Date(until).toISOString();
    return {
      siteId: site.id,
      system,
      state: 'stale',
      lastSuccessAt: previous?.lastSuccessAt,
      lastErrorAt: new Date(now).toISOString(),
      lastError: redact(`throttled by the system (HTTP ${err.status}), next try at ${nextTryAt.replace(/\.\d+Z$/, 'Z')}: ${err.message}`),
      nextTryAt,
    };
  }

  private systemFailed(site: Site, system: string, err: unknown, previous: SystemStatus | undefined): void {
    this.f.state.setStatus(this.failedStatus(site, system, err, previous));
  }

  /** The status of a system whose refresh failed with `err`. */
  private failedStatus(site: Site, system: string, err: unknown, previous: SystemStatus | undefined): SystemStatus {
    const state: SystemState =
      err instanceof CertificateError
        ? 'certificate-changed'
        : err instanceof LoginRequiredError
          ? 'login-required'
          : err instanceof SitePausedError
            ? 'paused'
            : err instanceof UnreachableError
              ? 'unreachable'
              : err instanceof ProtocolError && !(err instanceof AnswerTooLargeError) && !(err instanceof SelectionMovedError)
                ? 'protocol-error'
                : 'stale';
    const message =
      err instanceof CertificateError && site.tls.pinSha256
        ? `${err.message}${err.presentedSha256 ? '' : ': the certificate no longer matches the pinned fingerprint'}; confirm the new fingerprint to continue`
        : err instanceof UnrecognisedAnswerError
          ? `protocol error: ${err.summary}`
          : (err as Error).message;
    return {
      siteId: site.id,
      system,
      state,
      lastSuccessAt: previous?.lastSuccessAt,
      lastErrorAt: this.f.clock().toISOString(),
      lastError: redact(message),
    };
  }
}
