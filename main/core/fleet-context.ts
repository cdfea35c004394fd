import type { Operation } from '../../app/catalog/index.js';
import type { Site } from '../../app/domain/site.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { ActionLog } from '../store/action-log.js';
import type { OfflineCache } from '../store/offline-cache.js';
import type { SiteStore } from '../store/site-store.js';
import type { SelectionScopes } from '../store/selection-scopes.js';
import type { SystemOutcomes } from '../store/system-outcomes.js';
import type { Deadline, Timers } from './deadline.js';
import type { FleetState } from './fleet-state.js';
import type { Limiter } from './limiter.js';
import type { RetryPolicy } from './retry.js';
import type { SiteConnection } from './site-connection.js';

export interface FleetOptions {
  sites: SiteStore;
  secrets: SecretStore;
  cache: OfflineCache;
  actionLog: ActionLog;
  /** Each system's last refresh outcome, shared by every process of the data dir (none: this process's alone). */
  outcomes?: SystemOutcomes;
  /** What each site showed of its selection, shared by every process of the data dir (none: learned by each process). */
  selectionScopes?: SelectionScopes;
  /** Who performs writes, for the action log (OS user). */
  user: string;
  /** Per-request timeout, ms (default 15 s). */
  timeoutMs?: number;
  /** Limit of one call, whatever its retries (default twice the request timeout, so a read can retry once after a timeout). */
  callDeadlineMs?: number;
  /** Limit of one system's refresh, all its reads and retries included (default 60 s). */
  refreshDeadlineMs?: number;
  /**
   * A background (steady) poll re-reads slow-moving configuration once in this span, ms (default
   * 15 min): on the system's own read window (`spreadReads`), at the latest when its cached answer
   * is this old.
   */
  slowReadMaxAgeMs?: number;
  /**
   * A steady poll reads a detail list the health answer summarises (nodes, drives, pool capacity,
   * provisioning) at the latest once its cached answer is this old, ms (default 5 min), even when
   * the health answer and the notifications say nothing changed.
   */
  detailMaxAgeMs?: number;
  /** Drives whose SMART is read per system and refresh (default 256); failing drives first. */
  maxSmartDrives?: number;
  /** Bytes of answers one system's refresh may read (default 32 MiB); a larger answer is dropped. */
  maxSystemBytes?: number;
  /** Bytes of answers a system's refresh holds before writing them to the cache in one transaction (default 4 MiB); all of them at its end. */
  cacheBatchBytes?: number;
  /**
   * Requests in flight across the whole fleet (default {@link FLEET_LIMITS}`.globalMaxInFlight`): a
   * backstop on sockets and memory, set above what the sites' own caps add up to in a large fleet,
   * so each site's cap is what bounds a refresh and no site waits for another's slots.
   */
  globalMaxInFlight?: number;
  /** System refreshes running at once across the fleet (default {@link FLEET_LIMITS}`.systemsAtOnce`); see {@link FleetContext.systemSlots}. */
  maxSystemsAtOnce?: number;
  retry?: RetryPolicy;
  /**
   * Whether another process polls this data dir now (a monitor holds its lock). When it says so
   * at a background poll's turn, the poll reads nothing from the systems: it takes the statuses
   * that process recorded (the cache it fills is shared). A Refresh always reads the systems.
   */
  polledElsewhere?: () => Promise<boolean>;
  clock?: () => Date;
  /** Uniform in [0, 1): the poll schedule's jitter (tests pin it). */
  random?: () => number;
  /**
   * Slow and detail reads due on each system's own read windows (`dueAgain`; default true), so a
   * fleet refreshed at once does not re-read everything in one minute: off for tests of exact ages.
   */
  spreadReads?: boolean;
  /** Polls moved onto the schedule's shared grid (`coalescedDue`; default true): off for tests of exact poll times. */
  coalescePolls?: boolean;
  /** Clock and timers of deadlines; injected so tests use a fake clock. */
  timers?: Timers;
}

/**
 * Defaults of the bounds above. The fleet-wide ones are backstops, not what bounds a large fleet's
 * refresh: at a site cap `c` the fleet keeps ⌊systemsAtOnce / ⌈c/2⌉⌋ · c requests in flight (96 at
 * the default cap of 4), which at latency `L` answer 96 / L requests a second, 3,800 at 25 ms. That
 * is more than main serves while its CPU per request exceeds `L / 96` (0.26 ms at 25 ms), so main's
 * CPU bounds the refresh, and no site ever exceeds its own cap. More systems at once would only hold
 * more answers in memory (a monitor's is bounded, see BENCHMARKS.md); fewer leave main idle while
 * answers are on their way.
 */
export const FLEET_LIMITS = { timeoutMs: 15_000, refreshDeadlineMs: 60_000, maxSmartDrives: 256, maxSystemBytes: 32 * 1024 * 1024, cacheBatchBytes: 4 * 1024 * 1024, slowReadMaxAgeMs: 15 * 60_000, detailMaxAgeMs: 5 * 60_000, globalMaxInFlight: 512, systemsAtOnce: 48 } as const;

/** What the fleet's jobs (calls, refresh, site administration) share. */
export interface FleetContext {
  readonly o: FleetOptions;
  readonly state: FleetState;
  readonly clock: () => Date;
  readonly timers: Timers;
  readonly timeoutMs: number;
  /** @throws InputError (`not-found`) when no site has this id or name. */
  site(idOrName: string): Site;
  /** The site's connection, opened on first use. */
  connection(site: Site): SiteConnection;
  /** The site's connection if one is open. */
  liveConnection(siteId: string): SiteConnection | undefined;
  /** Closes and forgets the site's connection, if one is open. */
  dropConnection(siteId: string): Promise<void>;
  callDeadline(site: Site, system: string | undefined, op: Operation, timeoutMs: number | undefined): Deadline;
  /**
   * System refreshes running at once across the fleet. A system's refresh deadline starts when it
   * gets one, so a thousand systems queue here instead of all starting at once and sharing the
   * process's CPU and the request slots until every one of them runs out of time together; it also
   * bounds the answers held in memory. Each site takes at most half its request cap of them (at
   * least one), enough to keep its own request slots busy, so the slots spread over many sites
   * rather than filling a few: the sites' own caps bound a refresh, not this.
   */
  readonly systemSlots: Limiter;
}
