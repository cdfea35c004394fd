import { ALERT_STATES, type Alert } from '../../app/alerts/alert.js';
import { poolDaysLeft, poolUsedPercent, type ComplianceFinding } from '../../app/alerts/evaluate.js';
import { RULE_KINDS } from '../../app/alerts/rules.js';
import { timeMs } from '../../app/answers/time.js';
import { checkLevel, complianceScore, countEffective, effectiveResult } from '../../app/compliance/waivers.js';
import type { Application, Node, NotificationRecord } from '../../app/catalog/resources.js';
import { SYSTEM_STATES, type SystemStatus } from '../../app/domain/site.js';
import { systemLevel } from '../../app/health/connection.js';
import { LEVELS_BY_RANK, type Level } from '../../app/health/level.js';
import { notificationRank } from '../../app/health/notification-level.js';
import { driveLevel, pairLevel } from '../../app/health/states.js';
import { listOf } from '../../app/health/system-health.js';
import { SUMMARY_READS, type HealthSummaryWire } from '../../app/health/system-summary.js';
import { smartRead } from '../../app/fleet/refresh-plan.js';
import { SMART_KEY_PREFIX } from '../core/smart-keys.js';
import { cacheKey } from '../store/offline-cache.js';
import { exposition, histogramSamples, labelPairs, labelValue, sampleValue, type FamilySpec, type Format } from './exposition.js';
import { POLL_BUCKETS_SECONDS, selfMetrics, type SelfMetrics } from './self-metrics.js';

/**
 * The fleet's metrics, read from what the views read: each system's health summary (its roll-up,
 * pools with their forecasts, HA), its status, its cached drive, replication and notification
 * lists, and the alert store. Levels come from `systemLevel` and `app/health/states.ts`, pool
 * figures and forecasts from the capacity assessment the summary holds, the shares and days the
 * alert rules compare from the alert evaluation's own functions: no value is computed a second way.
 *
 * A system's series that depend only on its answers are written once per change of its summary (its
 * `seq`), in the background after its refresh or poll, and kept (its drive, pair and notification
 * lines while those lists' cache versions stand); a scrape adds those that move with time or status
 * (level, connection state, data age) and joins them, family by family.
 */

/** What the metrics read; a runtime (`main/runtime.ts`) is one. */
export interface MetricsSource {
  fleet: {
    /** Every system's status (or a site's); `'any'` order when the caller only looks them up. */
    status(siteId?: string, order?: 'sorted' | 'any'): SystemStatus[];
    cached(siteId: string, system: string, opKey: string, query?: Record<string, unknown>, options?: { recordUse?: boolean }): { value: unknown; at: string } | undefined;
    /** Fleet events: after a refresh or poll, the changed systems' series are written again in the background, not at the next scrape. */
    on?(listener: (e: { type: string }) => void): () => void;
    /** The content version of each cached answer of a system: lists whose versions did not change are not read again. */
    cachedVersions?(siteId: string, system: string): ReadonlyMap<string, number>;
  };
  summaries: { summaries(options: { since?: number }): { seq: number; json: string } };
  alerts: {
    list(filter: { state: 'active' }): Alert[];
    /** The SMART verdicts the drive rule read at its last evaluation of a system (the alert engine's), by cache key. */
    smartVerdictsOf(siteId: string, system: string): ReadonlyMap<string, { readonly verdict: { readonly risk: string } | undefined }> | undefined;
    /** The compliance checks (with waivers) the compliance rule read at its last evaluation of a system (the alert engine's). */
    complianceOf?(siteId: string, system: string): readonly ComplianceFinding[] | undefined;
  };
  sites: { list(): ReadonlyArray<{ id: string; name: string }> };
}

/** Every family served, in the order of the page. */
export const FAMILIES = {
  build: { name: 'fleetdeck_build_info', type: 'info', help: 'The Fleetdeck version serving these metrics; always 1.' },
  site: { name: 'fleetdeck_site_info', type: 'info', help: 'A configured site (management endpoint): its id (the site label everywhere) and its name; always 1.' },
  systemLevel: {
    name: 'fleetdeck_system_level',
    type: 'gauge',
    help: 'A system\'s level as every view shows it (its health roll-up made worse by its connection state): 1 for its level, 0 for the others. Levels: critical, unknown (data missing or not understood; ranks above warning), warning, ok.',
  },
  connection: { name: 'fleetdeck_system_connection_state', type: 'gauge', help: 'A system\'s connection state: 1 for its state, 0 for the others (ok, refreshing, stale, unreachable, login-required, certificate-changed, paused, protocol-error, unlisted).' },
  dataAge: { name: 'fleetdeck_system_data_age_seconds', type: 'gauge', unit: 'seconds', help: 'Age of the system\'s cached health record (when it was read from the system); absent when none is cached.' },
  detailAge: {
    name: 'fleetdeck_system_detail_age_seconds',
    type: 'gauge',
    unit: 'seconds',
    help: 'Age of the cached detail list a system\'s series come from, by detail: nodes (HA), drives (drive status), pools (pool figures and level: the older of pool capacity and provisioning). Background polls read them less often than the health record. Absent when none is cached.',
  },
  lastSuccess: { name: 'fleetdeck_system_last_refresh_success_timestamp_seconds', type: 'gauge', unit: 'seconds', help: 'When the system\'s last complete refresh ended, Unix time; absent when none has since its cache was made.' },
  ha: { name: 'fleetdeck_system_ha_status', type: 'gauge', help: 'The system\'s high availability (normal, taken over, degraded, not reported) and its level; always 1, absent when no node list is cached.' },
  notification: {
    name: 'fleetdeck_system_notification_last_timestamp_seconds',
    type: 'gauge',
    unit: 'seconds',
    help: 'Time of the newest cached notification of the system at level error (4) or critical (5 and above), Unix time; a notification whose time cannot be read counts at the time the list was read. Absent when there is none.',
  },
  poolUsable: { name: 'fleetdeck_pool_usable_bytes', type: 'gauge', unit: 'bytes', help: 'A pool\'s usable capacity; absent when the system reports nothing to derive it from.' },
  poolAllocated: { name: 'fleetdeck_pool_allocated_bytes', type: 'gauge', unit: 'bytes', help: 'Space allocated in a pool; absent when not reported.' },
  poolConsumed: { name: 'fleetdeck_pool_consumed_bytes', type: 'gauge', unit: 'bytes', help: 'Data consumed in a pool; absent when not reported.' },
  poolRatio: { name: 'fleetdeck_pool_allocated_ratio', type: 'gauge', unit: 'ratio', help: 'Allocated share of a pool\'s usable capacity (0 to 1): the share the pool-used alert rule compares; absent when it cannot be told.' },
  poolUntilFull: {
    name: 'fleetdeck_pool_time_until_full_seconds',
    type: 'gauge',
    unit: 'seconds',
    help: 'Time until a pool is full by the capacity forecast, in whole days (0: full now). Absent when the forecast cannot tell (too little history, usable unknown) or the pool is not growing: fleetdeck_pool_forecast_status says which.',
  },
  poolForecast: { name: 'fleetdeck_pool_forecast_status', type: 'gauge', help: 'The status of a pool\'s capacity forecast (full, growing, not-growing, insufficient-data); always 1, one series per pool.' },
  poolLevel: { name: 'fleetdeck_pool_level', type: 'gauge', help: 'A pool\'s level (the worse of its provisioning state and its forecast: critical, unknown, warning, ok); always 1, one series per pool.' },
  drive: {
    name: 'fleetdeck_drive_status',
    type: 'gauge',
    help: 'A drive\'s status as the system reports it, its level (a status not understood is unknown) and the SMART risk the drive rule last read (ok, unknown, warning, critical; empty when none was read); always 1. The series ends and another starts when one of them changes.',
  },
  pair: { name: 'fleetdeck_replication_pair_status', type: 'gauge', help: 'A replication pair\'s connection status as reported and its level (below 100 % in sync is at least a warning); always 1.' },
  pairSync: { name: 'fleetdeck_replication_pair_sync_ratio', type: 'gauge', unit: 'ratio', help: 'Share of a replication pair in sync (0 to 1), as the system reports it; the interface reports no lag time. Absent when not reported.' },
  complianceCheck: {
    name: 'fleetdeck_compliance_check',
    type: 'gauge',
    help: 'A check of the baseline in force on a system, as the compliance alert rule last read it: its severity, its effective result (pass, fail, waived, cannot-tell, not-applicable) and its level (critical for a failing critical check, warning for another failing one, unknown when it cannot tell, else ok); always 1.',
  },
  complianceScore: { name: 'fleetdeck_compliance_score_ratio', type: 'gauge', unit: 'ratio', help: 'A system\'s compliance score (0 to 1): checks passing or waived among those that apply, a check that cannot tell counting against it. Absent when no check applies.' },
  alerts: { name: 'fleetdeck_alerts', type: 'gauge', help: 'Fleetdeck\'s alerts not cleared, by rule, level (warning, unknown, critical) and state (open, acknowledged, snoozed).' },
  requests: { name: 'fleetdeck_requests_total', type: 'counter', help: 'Requests Fleetdeck sent to a site, by outcome: success, or the error\'s code (api, auth, unreachable, transient, protocol, certificate, cancelled...).' },
  polls: { name: 'fleetdeck_poll_duration_seconds', type: 'histogram', unit: 'seconds', help: 'Duration of a site\'s poll, from its system list to its last system\'s end, by mode (full: asked for; steady: background).' },
  pollFailures: { name: 'fleetdeck_poll_failures_total', type: 'counter', help: 'Polls of a site whose system list could not be read.' },
} as const satisfies Record<string, FamilySpec>;

type FamilyKey = keyof typeof FAMILIES;
const KEYS = Object.keys(FAMILIES) as FamilyKey[];

const ALERT_LEVELS = ['warning', 'unknown', 'critical'] as const;
const NO_USE = { recordUse: false } as const;
const DAY_SECONDS = 86_400;
/** How long after a status change the changed systems are read: polls that end together are read together. */
const BACKGROUND_DELAY_MS = 1000;
/** The longest the background update holds the event loop at once, ms. */
const SLICE_MS = 20;

/** A system's series that depend only on its answers, by family, and what the scrape adds to. */
interface SystemModel {
  seq: number;
  /** `site="…",system="…"`. */
  labels: string;
  rollupLevel: Level;
  /** When the health record was read, ms; undefined when none is cached. */
  at: number | undefined;
  /** When each detail list was read, ms (see `DetailsAt`). */
  detailsAt: ReadonlyArray<readonly [string, number]>;
  lines: Partial<Record<FamilyKey, string>>;
  /** The drive, pair and notification lines with the cache versions they were written from. */
  lists: { signature: string | undefined; smart: object | undefined; lines: Partial<Record<FamilyKey, string>> };
  /** The level and connection statesets as last written, with the state and level they were written for. */
  sets?: { state: string; level: Level; levels: string; states: string };
}

/** A system's level and connection statesets; those kept in `m` while its state and level are the same (kept there anew otherwise). */
function statesets(m: SystemModel | undefined, labels: string, status: SystemStatus): NonNullable<SystemModel['sets']> {
  const level = systemLevel({ level: m?.rollupLevel ?? 'unknown' }, status.state);
  if (m?.sets?.state === status.state && m.sets.level === level) return m.sets;
  const sets = { state: status.state, level, levels: stateset(FAMILIES.systemLevel.name, labels, 'level', LEVELS_BY_RANK, level), states: stateset(FAMILIES.connection.name, labels, 'state', SYSTEM_STATES, status.state) };
  if (m) m.sets = sets;
  return sets;
}

const stateset = (name: string, labels: string, label: string, values: readonly string[], on: string): string => {
  let out = '';
  for (const v of values) out += `${name}{${labels},${label}="${v}"} ${v === on ? 1 : 0}\n`;
  return out;
};

/** Collects the fleet's metrics for the endpoint. */
export class FleetMetrics {
  private readonly models = new Map<string, SystemModel>();
  /** Each system's compliance lines with the checks they were written from (the alert engine's, kept until it reads them again). */
  private readonly compliance = new Map<string, { checks: readonly ComplianceFinding[]; lines: string; score: string }>();
  private seq = -1;

  private unsubscribe: (() => void) | undefined;
  private pending: ReturnType<typeof setTimeout> | undefined;
  /** The background update running: the summaries it read (up to `seq`) and how far it has written them. */
  private background: { seq: number; queue: HealthSummaryWire[]; next: number; statuses: ReadonlyMap<string, SystemStatus> } | undefined;
  private slice: ReturnType<typeof setImmediate> | undefined;
  /** A status changed while the background update ran: another follows it. */
  private again = false;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly source: MetricsSource,
    private readonly o: { version: string; self?: SelfMetrics; clock?: () => number },
  ) {}

  /**
   * Keeps the series up to date between scrapes: every system's now, then those changed by each
   * refresh or poll, a second after it (polls ending together are read together). This background
   * work runs in slices of at most {@link SLICE_MS}, so that a start over a large cache neither
   * holds up the polls nor a scrape for long; a scrape that comes before it is done finishes it. A
   * scrape then only joins what is written, whenever it comes.
   */
  start(): void {
    if (this.unsubscribe || !this.source.fleet.on) return;
    this.unsubscribe = this.source.fleet.on((e) => {
      if (e.type !== 'status') return;
      if (this.background) this.again = true;
      else this.schedule(BACKGROUND_DELAY_MS);
    });
    this.schedule(0);
  }

  /** Resolves once every system's series known at the call are written in the background (or when stopped). */
  ready(): Promise<void> {
    if (!this.background && !this.pending && this.seq >= this.source.summaries.summaries({ since: Number.MAX_SAFE_INTEGER }).seq) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.waiting.push(resolve));
    // Summaries may have changed without a status event (one computed when first asked for).
    if (!this.background) this.schedule(0);
    return done;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.pending) clearTimeout(this.pending);
    this.pending = undefined;
    if (this.slice) clearImmediate(this.slice);
    this.slice = undefined;
    this.background = undefined;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private schedule(ms: number): void {
    if (this.pending || this.background) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.backgroundStep();
    }, ms);
    this.pending.unref?.();
  }

  /** One slice of the background update: the summaries changed since the last, read once, written a few systems at a time. */
  private backgroundStep(): void {
    this.slice = undefined;
    try {
      if (!this.background) {
        const { seq, json } = this.source.summaries.summaries({ since: this.seq });
        const queue = json === '[]' ? [] : (JSON.parse(json) as HealthSummaryWire[]);
        const statuses = new Map(queue.length ? this.source.fleet.status(undefined, 'any').map((st) => [key(st.siteId, st.system), st] as const) : []);
        this.background = { seq, queue, next: 0, statuses };
      }
      const bg = this.background;
      const end = performance.now() + SLICE_MS;
      while (bg.next < bg.queue.length && performance.now() < end) {
        const summary = bg.queue[bg.next++] as HealthSummaryWire;
        this.write(summary);
        // What a scrape adds for the status as it is now is made here too: kept while it holds.
        const k = key(summary.siteId, summary.system);
        const status = bg.statuses.get(k);
        const m = this.models.get(k);
        if (status && m) {
          statesets(m, m.labels, status);
          this.complianceLines(k, status.siteId, status.system, m.labels);
        }
      }
      if (bg.next < bg.queue.length) {
        // Not unref'd: an unref'd immediate waits until something else wakes the event loop.
        this.slice = setImmediate(() => this.backgroundStep());
        return;
      }
      this.seq = Math.max(this.seq, bg.seq);
    } catch {
      // The next scrape reads them again, and answers its error if it fails too.
    }
    this.background = undefined;
    if (this.again) {
      this.again = false;
      this.schedule(BACKGROUND_DELAY_MS);
    } else {
      for (const resolve of this.waiting.splice(0)) resolve();
    }
  }

  /** A system's series from its summary, unless those written are of this summary or a later one. */
  private write(s: HealthSummaryWire): void {
    const k = key(s.siteId, s.system);
    const previous = this.models.get(k);
    if (previous && previous.seq >= s.seq) return;
    this.models.set(k, this.model(s, previous));
  }

  /** The page in `format`. */
  scrape(format: Format): string {
    const now = (this.o.clock ?? Date.now)();
    this.update();
    const chunks = Object.fromEntries(KEYS.map((k) => [k, [] as string[]])) as Record<FamilyKey, string[]>;
    chunks.build.push(`fleetdeck_build_info{version="${labelValue(this.o.version)}"} 1\n`);
    for (const s of this.source.sites.list()) chunks.site.push(`fleetdeck_site_info{${labelPairs({ site: s.id, name: s.name })}} 1\n`);
    const known = new Set<string>();
    for (const status of this.source.fleet.status()) {
      const k = key(status.siteId, status.system);
      known.add(k);
      const m = this.models.get(k);
      const labels = m?.labels ?? labelPairs({ site: status.siteId, system: status.system });
      const sets = statesets(m, labels, status);
      chunks.systemLevel.push(sets.levels);
      chunks.connection.push(sets.states);
      if (m?.at !== undefined) chunks.dataAge.push(`${FAMILIES.dataAge.name}{${labels}} ${sampleValue(Math.max(0, (now - m.at) / 1000))}\n`);
      if (m) for (const [detail, at] of m.detailsAt) chunks.detailAge.push(`${FAMILIES.detailAge.name}{${labels},detail="${detail}"} ${sampleValue(Math.max(0, (now - at) / 1000))}\n`);
      const ok = timeMs(status.lastSuccessAt);
      if (ok !== undefined) chunks.lastSuccess.push(`${FAMILIES.lastSuccess.name}{${labels}} ${sampleValue(ok / 1000)}\n`);
      if (m) for (const f in m.lines) chunks[f as FamilyKey].push(m.lines[f as FamilyKey] as string);
      const c = this.complianceLines(k, status.siteId, status.system, labels);
      if (c) {
        chunks.complianceCheck.push(c.lines);
        chunks.complianceScore.push(c.score);
      }
    }
    for (const k of this.models.keys()) if (!known.has(k)) this.models.delete(k);
    for (const k of this.compliance.keys()) if (!known.has(k)) this.compliance.delete(k);
    this.alertLines(chunks.alerts);
    this.selfLines(chunks);
    return exposition(
      KEYS.map((k) => ({ spec: FAMILIES[k], samples: chunks[k].join('') })),
      format,
    );
  }

  /** Reads the summaries changed since the last scrape, and the lists of those systems (those the background has not written yet). */
  private update(): void {
    const { seq, json } = this.source.summaries.summaries({ since: this.seq });
    if (json !== '[]') for (const s of JSON.parse(json) as HealthSummaryWire[]) this.write(s);
    this.seq = Math.max(this.seq, seq);
  }

  private model(s: HealthSummaryWire, previous: SystemModel | undefined): SystemModel {
    const labels = labelPairs({ site: s.siteId, system: s.system });
    const lines: Partial<Record<FamilyKey, string>> = {};
    const add = (k: FamilyKey, line: string): void => {
      lines[k] = (lines[k] ?? '') + line;
    };
    const read = (r: { op: string; query: Record<string, unknown> }): { value: unknown; at: string } | undefined => {
      try {
        return this.source.fleet.cached(s.siteId, s.system, r.op, r.query, NO_USE);
      } catch {
        // A damaged answer counts as not cached, as the summary counts it.
        return undefined;
      }
    };
    const ha = s.rollup.ha;
    if (ha) add('ha', `${FAMILIES.ha.name}{${labels},${labelPairs({ status: ha.label, level: ha.level })}} 1\n`);
    for (const p of s.rollup.capacity.pools) {
      const pl = `${labels},pool="${labelValue(p.name)}"`;
      if (p.usable !== undefined) add('poolUsable', `${FAMILIES.poolUsable.name}{${pl}} ${sampleValue(p.usable)}\n`);
      if (p.allocated !== undefined) add('poolAllocated', `${FAMILIES.poolAllocated.name}{${pl}} ${sampleValue(p.allocated)}\n`);
      if (p.consumed !== undefined) add('poolConsumed', `${FAMILIES.poolConsumed.name}{${pl}} ${sampleValue(p.consumed)}\n`);
      const used = poolUsedPercent(p);
      if (used !== undefined) add('poolRatio', `${FAMILIES.poolRatio.name}{${pl}} ${sampleValue(used / 100)}\n`);
      const days = poolDaysLeft(p.forecast);
      if (days !== undefined) add('poolUntilFull', `${FAMILIES.poolUntilFull.name}{${pl}} ${sampleValue(days * DAY_SECONDS)}\n`);
      add('poolForecast', `${FAMILIES.poolForecast.name}{${pl},status="${p.forecast.status}"} 1\n`);
      add('poolLevel', `${FAMILIES.poolLevel.name}{${pl},level="${p.level}"} 1\n`);
    }
    const lists = this.lists(s, labels, read, previous?.lists);
    for (const f in lists.lines) add(f as FamilyKey, lists.lines[f as FamilyKey] as string);
    const detailsAt = (['nodes', 'drives', 'pools'] as const).flatMap((d) => {
      const at = timeMs(s.detailsAt?.[d]);
      return at === undefined ? [] : [[d, at] as const];
    });
    return { seq: s.seq, labels, rollupLevel: s.rollup.level, at: timeMs(s.at), detailsAt, lines, lists };
  }

  /** The drive, pair and notification lines of a system; those of `previous` when the lists and SMART answers they come from have not changed. */
  private lists(s: HealthSummaryWire, labels: string, read: (r: { op: string; query: Record<string, unknown> }) => { value: unknown; at: string } | undefined, previous: SystemModel['lists'] | undefined): SystemModel['lists'] {
    const versions = this.source.fleet.cachedVersions?.(s.siteId, s.system);
    const verdicts = this.source.alerts.smartVerdictsOf(s.siteId, s.system);
    let signature: string | undefined;
    if (versions) {
      let smart = 0;
      for (const [k, v] of versions) if (k.startsWith(SMART_KEY_PREFIX) && v > smart) smart = v;
      const v = (r: { op: string; query: Record<string, unknown> }): string => String(versions.get(cacheKey(r.op, r.query)) ?? '-');
      signature = `${v(SUMMARY_READS.resources)} ${smart} ${v(SUMMARY_READS.replication)} ${v(SUMMARY_READS.notifications)}`;
      if (previous && previous.signature === signature && previous.smart === verdicts) return previous;
    }
    const lines: Partial<Record<FamilyKey, string>> = {};
    const add = (k: FamilyKey, line: string): void => {
      lines[k] = (lines[k] ?? '') + line;
    };
    for (const n of listOf<Node>(read(SUMMARY_READS.resources)?.value)) {
      for (const d of n.Drives ?? []) {
        const drive = d.Name ?? (d.Id !== undefined ? String(d.Id) : '');
        const r = n.Name && typeof d.Id === 'number' ? smartRead(n.Name, d.Id) : undefined;
        const verdict = r ? verdicts?.get(cacheKey(r.op, r.query))?.verdict : undefined;
        add('drive', `${FAMILIES.drive.name}{${labels},${labelPairs({ node: n.Name ?? '', drive, status: d.ResourceStatus ?? '', level: driveLevel(d, verdict), smart_risk: verdict?.risk ?? '' })}} 1\n`);
      }
    }
    for (const a of listOf<Application>(read(SUMMARY_READS.replication)?.value)) {
      for (const v of a.Volumes ?? []) {
        for (const p of v.Replication?.ReplicationPairs ?? []) {
          const pl = `${labels},${labelPairs({ application: a.Application ?? v.Application ?? '', volume: v.Volume ?? '', remote: p.RemoteSystemName ?? `pair ${p.ReplicationId ?? '?'}` })}`;
          add('pair', `${FAMILIES.pair.name}{${pl},${labelPairs({ status: p.ConnectionStatus ?? '', level: pairLevel(p) })}} 1\n`);
          if (typeof p.SyncInPercentage === 'number') add('pairSync', `${FAMILIES.pairSync.name}{${pl}} ${sampleValue(p.SyncInPercentage / 100)}\n`);
        }
      }
    }
    const notifications = read(SUMMARY_READS.notifications);
    if (notifications) {
      const readAt = timeMs(notifications.at);
      const newest: Record<'error' | 'critical', number | undefined> = { error: undefined, critical: undefined };
      for (const r of listOf<NotificationRecord>(notifications.value)) {
        const rank = notificationRank(r.Level, -1);
        if (rank < 4) continue;
        const level = rank >= 5 ? 'critical' : 'error';
        const t = timeMs(r.Timestamp) ?? readAt;
        if (t !== undefined && (newest[level] ?? -Infinity) < t) newest[level] = t;
      }
      for (const level of ['error', 'critical'] as const) {
        const t = newest[level];
        if (t !== undefined) add('notification', `${FAMILIES.notification.name}{${labels},level="${level}"} ${sampleValue(t / 1000)}\n`);
      }
    }
    return { signature, smart: verdicts, lines };
  }

  /** A system's compliance lines, written again only when the alert engine read its checks again. */
  private complianceLines(k: string, siteId: string, system: string, labels: string): { lines: string; score: string } | undefined {
    const checks = this.source.alerts.complianceOf?.(siteId, system);
    if (!checks) {
      this.compliance.delete(k);
      return undefined;
    }
    const kept = this.compliance.get(k);
    if (kept?.checks === checks) return kept;
    let lines = '';
    for (const f of checks) lines += `${FAMILIES.complianceCheck.name}{${labels},${labelPairs({ check: f.id, check_severity: f.severity, result: effectiveResult(f), level: checkLevel(f) })}} 1\n`;
    // The score the views show (percent, one decimal) as a ratio, without float noise.
    const score = complianceScore(countEffective(checks));
    const c = { checks, lines, score: score === undefined ? '' : `${FAMILIES.complianceScore.name}{${labels}} ${sampleValue(Math.round(score * 10) / 1000)}\n` };
    this.compliance.set(k, c);
    return c;
  }

  private alertLines(out: string[]): void {
    const counts = new Map<string, number>();
    for (const a of this.source.alerts.list({ state: 'active' })) {
      const k = `${a.rule}\u0000${a.level}\u0000${a.state}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    // Every combination, 0 included: a dashboard shows 0, not "no data", and a rule sees a count fall.
    for (const rule of RULE_KINDS) {
      for (const level of ALERT_LEVELS) {
        for (const state of ALERT_STATES) {
          if (state === 'cleared') continue;
          out.push(`${FAMILIES.alerts.name}{rule="${rule}",level="${level}",state="${state}"} ${counts.get(`${rule}\u0000${level}\u0000${state}`) ?? 0}\n`);
        }
      }
    }
  }

  private selfLines(chunks: Record<FamilyKey, string[]>): void {
    const self = this.o.self ?? selfMetrics;
    for (const [site, byOutcome] of self.requests) {
      for (const [outcome, n] of byOutcome) chunks.requests.push(`${FAMILIES.requests.name}{${labelPairs({ site, outcome })}} ${n}\n`);
    }
    for (const [site, byMode] of self.polls) {
      for (const [mode, h] of byMode) chunks.polls.push(histogramSamples(FAMILIES.polls.name, labelPairs({ site, mode }), POLL_BUCKETS_SECONDS, h));
    }
    for (const [site, n] of self.pollFailures) chunks.pollFailures.push(`${FAMILIES.pollFailures.name}{${labelPairs({ site })}} ${n}\n`);
  }
}

const key = (siteId: string, system: string): string => `${siteId}\u0000${system}`;
