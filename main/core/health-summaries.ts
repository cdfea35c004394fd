import { refreshEnded, type SystemStatus } from '../../app/domain/site.js';
import { briefOf, healthSummaryOf, summaryHistory, summaryNodes, summaryNotifications, SUMMARY_READS, type CachedRead } from '../../app/health/system-summary.js';
import { redactedJson } from '../../app/redact.js';
import type { FleetEvent, StatusOrder } from './fleet-state.js';
import type { Database } from '../store/driver.js';
import { SmartVerdicts } from './smart-verdicts.js';
import { smartStamp } from './smart-keys.js';
import type { WrittenAnswers } from './written-answers.js';
import { cacheKey, readKey } from '../store/offline-cache.js';
import { INCOMPLETE_FIELD } from '../../app/answers/incomplete.js';
import { listOf } from '../../app/health/system-health.js';
import { smartRisksOf, unhealthyDrives } from '../../app/health/rollup.js';
import type { Node } from '../../app/catalog/resources.js';
import type { SmartLookup } from '../../app/smart/verdict.js';

/** The part of the fleet the summaries read: status events, statuses and cached answers. */
export interface SummarySource {
  on(listener: (e: FleetEvent) => void): () => void;
  status(siteId?: string, order?: StatusOrder): SystemStatus[];
  cached(siteId: string, system: string, opKey: string, query?: Record<string, unknown>, options?: { recordUse?: boolean }): { value: unknown; at: string } | undefined;
  /** The content version of each cached answer of a system: a SMART text unchanged since it was last parsed is not read again. */
  cachedVersions?(siteId: string, system: string): ReadonlyMap<string, number>;
  /** When each cached answer of a system was read (ms): a kept part of an answer read again unchanged takes its new read time. */
  cachedReadTimes?(siteId: string, system: string): ReadonlyMap<string, number>;
}

export interface HealthSummariesOptions {
  fleet: SummarySource;
  /** The offline cache's connection: summaries live beside the answers they are computed from. */
  db: Database;
  clock?: () => Date;
  /** Where a summary that could not be computed or stored is reported (a refresh never fails for it). */
  warn?: (message: string) => void;
  /**
   * Runs `write` later (default: {@link STORE_DELAY_MS} on an unref'd timer), when the summaries
   * computed after polls are stored together in one transaction; {@link HealthSummaries.stop} stores
   * what is still waiting at once.
   */
  defer?: (write: () => void) => void;
  /** The drives' SMART verdicts, when shared with other readers (default: the summaries' own). */
  smart?: SmartVerdicts;
}

/**
 * How long summaries computed after polls wait to be stored together: one commit for the few
 * systems whose polls ended meanwhile instead of one per system (a commit was a third of a summary's
 * cost). The stored rows only speed up a cold start; a crash in this window leaves the previous
 * summary of those systems, shown with its own (older) data age until their next poll.
 */
export const STORE_DELAY_MS = 2000;

/**
 * Version of what a stored summary holds: raise it when `healthSummaryOf` or `briefOf` changes what it
 * computes, and summaries stored by an earlier version are computed again from the cache when first
 * asked for. A row stores the health brief's JSON, a newline (which JSON text never holds outside
 * its strings), then the summary's JSON. Format 4 rates drives by their SMART text too; a format-1
 * row (the summary alone) gets its roll-up computed from it at load, without reading the answers again.
 */
export const SUMMARY_FORMAT = 4;

/** A summary as kept: its wire JSON and its health brief's (both redacted, without seq), and its sequence number. */
interface Kept {
  json: string;
  brief: string;
  seq: number;
}

/** The health brief of a summary, as JSON text. */
function briefJson(siteId: string, system: string, summary: Parameters<typeof briefOf>[0]): string {
  const json = redactedJson({ siteId, system, ...briefOf(summary) });
  if (typeof json !== 'string') throw new TypeError('the health brief is not JSON-serialisable');
  return json;
}

const NO_USE = { recordUse: false } as const;
const RESOURCES_KEY = cacheKey(SUMMARY_READS.resources.op, SUMMARY_READS.resources.query);

/**
 * What a summary reads of a drive list (`healthSummaryOf`: its drives whose level is not ok, by
 * status or by the SMART risks `smart` gives, and its `Incomplete`), as a drive list of those
 * drives alone: the summary computed from it is the one computed from the whole list.
 */
export function summaryDrives(value: unknown, smart: SmartLookup | undefined): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const risks = smart && smartRisksOf(smart);
  const nodes: Array<Record<string, unknown>> = [];
  for (const n of listOf<Node>(value)) {
    const drives = unhealthyDrives([n], risks).map((d) => d.drive);
    if (drives.length) nodes.push({ ...(n.Name !== undefined ? { Name: n.Name } : {}), Drives: drives });
  }
  const incomplete = (value as Record<string, unknown>)[INCOMPLETE_FIELD];
  return { Data: nodes, ...(incomplete !== undefined ? { [INCOMPLETE_FIELD]: incomplete } : {}) };
}

const key = (siteId: string, system: string): string => `${siteId}\u0000${system}`;
/**
 * The answers a poll seldom writes (the merged notifications, the capacity history, and the detail
 * lists a steady poll reads only on a change or by age), by cache key, with what a summary reads of
 * them: that part is kept per content version.
 */
const KEPT_PARTS: ReadonlyMap<string, (value: unknown) => unknown> = new Map<string, (value: unknown) => unknown>([
  [cacheKey(SUMMARY_READS.notifications.op, SUMMARY_READS.notifications.query), summaryNotifications],
  [cacheKey(SUMMARY_READS.history.op, SUMMARY_READS.history.query), (value) => internedHistory(summaryHistory(value))],
  [cacheKey(SUMMARY_READS.nodes.op, SUMMARY_READS.nodes.query), summaryNodes],
  // Small (a record per pool): kept whole.
  [cacheKey(SUMMARY_READS.pools.op, SUMMARY_READS.pools.query), (value) => value],
  [cacheKey(SUMMARY_READS.provisioning.op, SUMMARY_READS.provisioning.query), (value) => value],
]);

/**
 * The texts of the kept histories' rows (days, pool names) are the same across a fleet: kept once,
 * a thousand systems' histories take a few MB, not tens. Bounded: forgotten past {@link MAX_INTERNED}.
 */
const interned = new Map<string, string>();
const MAX_INTERNED = 20_000;
function intern(text: string): string {
  const held = interned.get(text);
  if (held !== undefined) return held;
  if (interned.size >= MAX_INTERNED) interned.clear();
  interned.set(text, text);
  return text;
}
function internedHistory(h: ReturnType<typeof summaryHistory>): ReturnType<typeof summaryHistory> {
  for (const r of h.PerformanceStatstics) {
    if (r.PoolName !== undefined) r.PoolName = intern(r.PoolName);
    if (r.Time !== undefined) r.Time = intern(r.Time);
  }
  return h;
}

/**
 * Every system's health summary (`app/health/system-summary.ts`), kept by main: computed when a
 * system's refresh or poll ends (its status event, whoever refreshed: the rule the window's data
 * versions follow, `refreshEnded`), kept in memory as redacted JSON and in the cache database's
 * `system_summaries` table, so a cold start loads small rows instead of parsing every system's
 * answers. The window reads them all in one call, then only those changed since (`seq`).
 */
export class HealthSummaries {
  private readonly kept = new Map<string, Kept>();
  /** Each system's last status, to tell a refresh's or poll's end from any other status event. */
  private readonly last = new Map<string, SystemStatus>();
  private seq = 0;
  private readonly clock: () => Date;
  private unsubscribe: (() => void) | undefined;
  private readonly stmts: ReturnType<typeof prepare>;
  /** Summaries computed after polls and not stored yet, by system. */
  private readonly unstored = new Map<string, { siteId: string; system: string; stored: string }>();
  private storeScheduled = false;
  private readonly smart: SmartVerdicts;
  /**
   * Per system and {@link KEPT_PARTS} key, what its summary read of that answer (a few notification
   * records, the history's samples) with the answer's content version: while it stands, the answer
   * (up to a thousand notifications) is neither read from the cache nor parsed again.
   */
  private readonly parts = new Map<string, Map<string, { version: number; read: CachedRead }>>();
  /**
   * Per system, what its summary read of its drive list ({@link summaryDrives}) with the list's
   * content version and its SMART texts' versions: while both stand (a poll that did not store the
   * list again), the list is neither read from the cache nor parsed.
   */
  private readonly drives = new Map<string, { version: number; smartCount: number; smartMax: number; read: CachedRead }>();

  constructor(private readonly o: HealthSummariesOptions) {
    this.clock = o.clock ?? (() => new Date());
    this.stmts = prepare(o.db);
    this.smart = o.smart ?? new SmartVerdicts(o.fleet);
    this.loadStored();
  }

  /** Starts listening to the fleet: must run before the shells forward status events, so a window told of a finished refresh reads the new summary. */
  start(): void {
    if (this.unsubscribe) return;
    for (const s of this.o.fleet.status(undefined, 'any')) this.last.set(key(s.siteId, s.system), s);
    this.unsubscribe = this.o.fleet.on((e) => {
      if (e.type !== 'status') return;
      const k = key(e.status.siteId, e.status.system);
      const prev = this.last.get(k);
      this.last.set(k, e.status);
      // A system first heard of (listed by this refresh) may have answers cached at its first status that is not 'refreshing'.
      if (refreshEnded(prev, e.status) || (prev === undefined && e.status.state !== 'refreshing')) this.compute(e.status.siteId, e.status.system, true, e.written);
    });
  }

  /** Stops listening, and stores the summaries still waiting. */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.storeWaiting();
  }

  /**
   * The summaries of the known systems (of `siteId` only, when given) changed after `since` (all
   * without it), as one JSON array text, and the newest sequence number. A system never summarised
   * yet (answers cached by an earlier version) is computed now, once. `form` 'brief' gives the
   * health briefs (`health:briefs`, a few hundred bytes each) instead of the whole ones.
   */
  summaries(options: { siteId?: string | undefined; since?: number | undefined; form?: 'summary' | 'brief' } = {}): { seq: number; json: string } {
    const since = options.since ?? -1;
    const brief = options.form === 'brief';
    const parts: string[] = [];
    for (const s of this.o.fleet.status(options.siteId)) {
      const k = key(s.siteId, s.system);
      const kept = this.kept.get(k) ?? this.compute(s.siteId, s.system);
      if (kept && kept.seq > since) parts.push(`{"seq":${kept.seq},${(brief ? kept.brief : kept.json).slice(1)}`);
    }
    return { seq: this.seq, json: `[${parts.join(',')}]` };
  }

  /**
   * Computes a system's summary and stores it (later, with others, when `batched`: after a poll),
   * from what its refresh or poll just wrote (`written`) and the cache for the rest.
   */
  private compute(siteId: string, system: string, batched = false, written?: WrittenAnswers): Kept | undefined {
    try {
      const versions = this.o.fleet.cachedVersions?.(siteId, system);
      const cached = (r: { op: string; query: Record<string, unknown> }, k: string): CachedRead => {
        try {
          return written?.get(k) ?? this.o.fleet.cached(siteId, system, r.op, r.query, NO_USE);
        } catch {
          // A damaged answer counts as not cached, as a view reading it alone would show.
          return undefined;
        }
      };
      const smart = this.smart.lookup(siteId, system, versions, written);
      // A kept part of an answer read again unchanged (its version stands) takes the answer's read time now.
      let times: ReadonlyMap<string, number> | undefined;
      const readNow = (k: string, hit: CachedRead): CachedRead => {
        if (!hit) return hit;
        times ??= this.o.fleet.cachedReadTimes?.(siteId, system);
        const at = times?.get(k);
        if (at === undefined || Number.isNaN(at)) return hit;
        const iso = new Date(at).toISOString();
        return iso === hit.at ? hit : { value: hit.value, at: iso };
      };
      const read = (r: { op: string; query: Record<string, unknown> }): CachedRead => {
        const k = readKey(r);
        if (k === RESOURCES_KEY) return readNow(k, this.drivesOf(siteId, system, versions, smart, () => cached(r, k)));
        const part = KEPT_PARTS.get(k);
        return part ? readNow(k, this.partOf(siteId, system, k, part, versions, () => cached(r, k))) : cached(r, k);
      };
      const summary = healthSummaryOf(read, this.clock().getTime(), smart, written);
      // The answers were redacted before they were cached; redacted again, as everything leaving main.
      const json = redactedJson({ siteId, system, ...summary });
      if (typeof json !== 'string') throw new TypeError('the summary is not JSON-serialisable');
      const kept: Kept = { json, brief: briefJson(siteId, system, summary), seq: ++this.seq };
      this.kept.set(key(siteId, system), kept);
      const stored = `${kept.brief}\n${json}`;
      if (batched) {
        this.unstored.set(key(siteId, system), { siteId, system, stored });
        this.scheduleStore();
      } else {
        this.unstored.delete(key(siteId, system));
        this.stmts.upsert.run(siteId, system, SUMMARY_FORMAT, stored);
      }
      return kept;
    } catch (err) {
      this.o.warn?.(`the health summary of ${siteId}/${system} could not be computed or stored: ${err instanceof Error ? err.message : String(err)}`);
      return this.kept.get(key(siteId, system));
    }
  }

  /** What the summary reads of the system's drive list: kept while its content version and the SMART texts' stand (see {@link drives}). */
  private drivesOf(siteId: string, system: string, versions: ReadonlyMap<string, number> | undefined, smart: SmartLookup, read: () => CachedRead): CachedRead {
    const k = key(siteId, system);
    const version = versions?.get(RESOURCES_KEY);
    const stamp = smartStamp(versions);
    const held = this.drives.get(k);
    if (version !== undefined && held?.version === version && held.smartCount === stamp.count && held.smartMax === stamp.max) return held.read;
    const hit = read();
    const part: CachedRead = hit && { value: summaryDrives(hit.value, smart), at: hit.at };
    if (version === undefined || !part) this.drives.delete(k);
    else this.drives.set(k, { version, smartCount: stamp.count, smartMax: stamp.max, read: part });
    return part;
  }

  /** What the summary reads of one of the system's {@link KEPT_PARTS} answers: kept while its content version stands. */
  private partOf(siteId: string, system: string, cacheKey: string, partOf: (value: unknown) => unknown, versions: ReadonlyMap<string, number> | undefined, read: () => CachedRead): CachedRead {
    const k = key(siteId, system);
    const version = versions?.get(cacheKey);
    const kept = this.parts.get(k);
    const held = kept?.get(cacheKey);
    if (version !== undefined && held?.version === version) return held.read;
    const hit = read();
    const part: CachedRead = hit && { value: partOf(hit.value), at: hit.at };
    if (version === undefined || !part) kept?.delete(cacheKey);
    else if (kept) kept.set(cacheKey, { version, read: part });
    else this.parts.set(k, new Map([[cacheKey, { version, read: part }]]));
    return part;
  }

  private scheduleStore(): void {
    if (this.storeScheduled) return;
    this.storeScheduled = true;
    const write = (): void => {
      this.storeScheduled = false;
      this.storeWaiting();
    };
    if (this.o.defer) this.o.defer(write);
    else setTimeout(write, STORE_DELAY_MS).unref();
  }

  /** Stores the summaries computed after polls, in one transaction. */
  private storeWaiting(): void {
    if (this.unstored.size === 0) return;
    const rows = [...this.unstored.values()];
    this.unstored.clear();
    try {
      this.o.db.transaction(() => {
        for (const r of rows) this.stmts.upsert.run(r.siteId, r.system, SUMMARY_FORMAT, r.stored);
      })();
    } catch (err) {
      this.o.warn?.(`the health summaries of ${rows.length} system(s) could not be stored: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Stored summaries of systems still known; those of an unknown format or of forgotten systems are
   * dropped (computed again when asked for). A format-1 row gets its health brief from its own
   * JSON, and is stored again in the current format.
   */
  private loadStored(): void {
    const known = new Set(this.o.fleet.status(undefined, 'any').map((s) => key(s.siteId, s.system)));
    const stale: Array<[string, string]> = [];
    const upgraded: Array<[string, string, string]> = [];
    for (const row of this.stmts.all.iterate()) {
      const k = key(row.site_id, row.system);
      const kept = known.has(k) ? keptOf(row) : undefined;
      if (!kept) {
        stale.push([row.site_id, row.system]);
        continue;
      }
      this.kept.set(k, { ...kept, seq: ++this.seq });
      if (row.format !== SUMMARY_FORMAT) upgraded.push([row.site_id, row.system, `${kept.brief}\n${kept.json}`]);
    }
    if (stale.length === 0 && upgraded.length === 0) return;
    try {
      this.o.db.transaction(() => {
        for (const [siteId, system] of stale) this.stmts.delete.run(siteId, system);
        for (const [siteId, system, stored] of upgraded) this.stmts.upsert.run(siteId, system, SUMMARY_FORMAT, stored);
      })();
    } catch (err) {
      this.o.warn?.(`the stored health summaries could not be updated: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** A stored row as kept (without seq), or undefined when it is of an unknown format or cannot be read. */
function keptOf(row: { site_id: string; system: string; format: number; summary: string }): Omit<Kept, 'seq'> | undefined {
  if (row.format === SUMMARY_FORMAT) {
    const nl = row.summary.indexOf('\n');
    return nl < 0 ? undefined : { brief: row.summary.slice(0, nl), json: row.summary.slice(nl + 1) };
  }
  if (row.format !== 1) return undefined;
  try {
    // The summary's wire form carries what briefOf reads (roll-up, data age, the lists it counts).
    const summary = JSON.parse(row.summary) as Parameters<typeof briefOf>[0];
    return { json: row.summary, brief: briefJson(row.site_id, row.system, summary) };
  } catch {
    return undefined;
  }
}

function prepare(db: Database) {
  return {
    all: db.prepare<[], { site_id: string; system: string; format: number; summary: string }>('SELECT site_id, system, format, summary FROM system_summaries'),
    upsert: db.prepare<[string, string, number, string]>(
      `INSERT INTO system_summaries (site_id, system, format, summary) VALUES (?, ?, ?, ?)
       ON CONFLICT (site_id, system) DO UPDATE SET format = excluded.format, summary = excluded.summary`,
    ),
    delete: db.prepare<[string, string]>('DELETE FROM system_summaries WHERE site_id = ? AND system = ?'),
  };
}
