import { hash } from 'node:crypto';
import type { Alert, AlertFilter } from '../../app/alerts/alert.js';
import { redact } from '../../app/redact.js';
import { FIELDS_NO_RULE_READS, dataRulesApply, evaluateAlerts, notificationWindowEnd, type AlertInput, type ComplianceFinding } from '../../app/alerts/evaluate.js';
import { DEFAULT_RULES, effectiveRules, scopeText, type RuleOverride, type RuleScope, type RuleSettings, type ScopedOverride } from '../../app/alerts/rules.js';
import type { SystemStatus } from '../../app/domain/site.js';
import { NOTIFICATIONS_CACHE } from '../../app/fleet/refresh-plan.js';
import { ROLLUP_READS, rollupAnswers } from '../../app/health/system-health.js';
import { AnswerDigests } from '../core/answer-digests.js';
import { SmartVerdicts } from '../core/smart-verdicts.js';
import { SMART_KEY_PREFIX, smartStamp } from '../core/smart-keys.js';
import type { FleetEvent } from '../core/fleet-state.js';
import type { WrittenAnswers } from '../core/written-answers.js';
import type { ActionLog } from '../store/action-log.js';
import { cacheKey, readKey } from '../store/offline-cache.js';
import { SEEN_PRECISION_MS, type AlertStore, type Reconciled } from './alert-store.js';

/** The part of the fleet the engine reads: its status events, statuses and cached answers. */
export interface AlertFleet {
  on(listener: (e: FleetEvent) => void): () => void;
  status(siteId?: string): SystemStatus[];
  cached(siteId: string, system: string, opKey: string, query?: Record<string, unknown>, options?: { recordUse?: boolean }): { value: unknown; at: string } | undefined;
  /**
   * The content version of each cached answer of a system, by cache key (moves only when an answer
   * changed): a system whose answers, state and rules are as at its last evaluation is not evaluated
   * again, and a SMART text is parsed again only when it changed. Without it, every status event is
   * evaluated in full.
   */
  cachedVersions?(siteId: string, system: string): ReadonlyMap<string, number>;
  /** A cached answer as its stored JSON text (with {@link cachedVersions}: what the rules see of the node and drive lists is compared on it, unparsed). */
  cachedText?(siteId: string, system: string, opKey: string, query?: Record<string, unknown>, options?: { recordUse?: boolean }): { json: string } | undefined;
}

/** The engine's reads are not a view's: they do not count as use of a cache entry (no write per read). */
const NO_USE = { recordUse: false } as const;

/** What the engine tells its listeners after an evaluation changed something. */
export interface AlertChange extends Reconciled {
  siteId: string;
  system: string;
  /** Alerts open now (not acknowledged, not snoozed), fleet-wide. */
  openCount: number;
}

export interface AlertEngineOptions {
  store: AlertStore;
  fleet: AlertFleet;
  actionLog: ActionLog;
  /** The OS user, recorded on acknowledgements and rule changes. */
  user: string;
  /** Ids of the saved sites: alerts of a removed site are cleared by {@link AlertEngine.evaluateAll}. */
  siteIds: () => readonly string[];
  clock?: () => Date;
  /** Where an evaluation that failed is reported (a refresh must never fail because of alerts). */
  warn?: (message: string) => void;
  /**
   * How long an unchanged input may go without evaluation (default {@link SEEN_PRECISION_MS}):
   * forecasts ("days until full") move with time alone, and an alert's last-seen time is kept to
   * within that.
   */
  maxUnchangedMs?: number;
  /** What the rules see of the volatile answers, when shared with other readers (default: the engine's own, from `fleet.cachedText`). */
  digests?: AnswerDigests;
  /** The site of a window scoped to one: its desktop notifications are that site's setting, not the fleet's. */
  scopedSite?: string | undefined;
  /** The drives' SMART verdicts, when shared with other readers (default: the engine's own). */
  smart?: SmartVerdicts;
  /** Compliance with the baseline in force: the compliance rule reads it; without it the rule sees nothing. */
  compliance?: AlertCompliance | undefined;
}

/** What the compliance rule needs: one system's checks with waivers, what they read, and what else moves them. */
export interface AlertCompliance {
  /** `written`: what the system's refresh or poll just wrote, read instead of the cache. */
  system(siteId: string, system: string, written?: WrittenAnswers): { checks: readonly ComplianceFinding[] } | undefined;
  /** The cached reads the baseline looks at (their versions are part of what an evaluation depends on). */
  reads(): ReadonlyArray<{ op: string; query: Record<string, unknown> }>;
  /** Moves when the baseline or a waiver changed. */
  revision(): string;
  /** Every field name the baseline's checks look at: a field it names is never left out of what the engine compares. */
  fieldsRead?(): ReadonlySet<string>;
  /** What a check's scope matches of a site (its name, group and tags): checks of its systems change with it. */
  scopeOf?(siteId: string): string;
  /** The next time (ms) a result changes with time alone (a waiver ends), if any. */
  nextChange?(now: number): number | undefined;
}

/**
 * What the rule and the metrics read of a check, and no more: held for every system between
 * evaluations, a check's evidence (its values, per item) would be kept alive with it.
 */
function findingOf(c: ComplianceFinding): ComplianceFinding {
  return { id: c.id, title: c.title, severity: c.severity, result: c.result, reason: c.reason, ...(c.waiver ? { waiver: { active: c.waiver.active } } : {}) };
}

/** What an evaluation's compliance checks depend on besides the clock ({@link AlertEngine.complianceSeen}). */
interface ComplianceSeen {
  revision: string;
  scope: string | null;
  reads: ReadonlyArray<{ op: string; query: Record<string, unknown> }>;
  seen: Array<string | number | null>;
}

/** Every cached answer the rules read, besides SMART texts: what an evaluation depends on. */
const ENGINE_READS = [...Object.values(ROLLUP_READS), NOTIFICATIONS_CACHE];
const ENGINE_KEYS = ENGINE_READS.map((r) => cacheKey(r.op, r.query));
const UNREAD = new Set(FIELDS_NO_RULE_READS);

/**
 * What an evaluation depended on, as kept per system: the digest of its text, which runs to
 * kilobytes (the rules, every answer's key, one per drive), megabytes for a fleet.
 */
function signatureOf(input: unknown): string {
  return hash('sha256', JSON.stringify(input), 'base64');
}

/**
 * Evaluates the alert rules after every refresh of a system: it listens to the fleet's `status`
 * event, which ends each system's refresh whoever started it (a click, the CLI, the scheduler),
 * and reconciles the store with what the rules see. Listeners hear of alerts raised and cleared.
 */
export class AlertEngine {
  private readonly clock: () => Date;
  private readonly listeners = new Set<(c: AlertChange) => void>();
  private unsubscribe: (() => void) | undefined;
  /** Each drive's SMART verdict, parsed once per text (shared with the health summaries in the app). */
  private readonly smart: SmartVerdicts;
  /**
   * Per system, what its last evaluation depended on (state, error, rules, answer versions) and until
   * when the same input gives the same result: a steady poll that changed nothing costs one index read.
   */
  private readonly lastInput = new Map<string, { signature: string; until: number }>();
  /** What the rules see of the node and drive lists and the health answer (shared with the search index in the app). */
  private readonly digests: AnswerDigests | undefined;
  private readonly maxUnchangedMs: number;
  /** Per system, the compliance checks the rule read at its last evaluation that read data (the metrics serve them). */
  private readonly compliance = new Map<string, readonly ComplianceFinding[]>();
  /**
   * Per system, what its compliance checks were last evaluated from (the baseline's reads as the
   * engine compares them, the baseline and waivers) and until when the same input gives the same
   * checks: a poll that moved only what the baseline does not read evaluates no check again.
   */
  private readonly complianceInput = new Map<string, { signature: string; until: number }>();

  constructor(private readonly o: AlertEngineOptions) {
    this.clock = o.clock ?? (() => new Date());
    this.maxUnchangedMs = o.maxUnchangedMs ?? SEEN_PRECISION_MS;
    const fleet = o.fleet;
    this.digests = o.digests ?? (fleet.cachedText ? new AnswerDigests({ cachedText: (...a) => fleet.cachedText?.(...a) }) : undefined);
    this.smart = o.smart ?? new SmartVerdicts(fleet);
  }

  /** Starts listening to the fleet. */
  start(): void {
    this.unsubscribe ??= this.o.fleet.on((e) => {
      if (e.type !== 'status' || e.status.state === 'refreshing') return;
      try {
        this.evaluate(e.status, e.written);
      } catch (err) {
        this.o.warn?.(`alerts of ${e.status.siteId}/${e.status.system} could not be evaluated: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Hears of every evaluation that raised or cleared an alert; returns the unsubscribe. */
  on(listener: (c: AlertChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Evaluates one system from its status and cached answers and applies the result to the store;
   * skipped (nothing parsed, nothing written) when its state, error, rules and what the rules see of
   * its answers are those of its last evaluation, no notification has left a rule's window since,
   * and that evaluation is younger than `maxUnchangedMs`. `written` is what the refresh or poll that
   * ended with this status wrote: read from there, the rest from the cache.
   */
  evaluate(status: SystemStatus, written?: WrittenAnswers): Reconciled {
    const now = this.clock();
    const rules = effectiveRules(this.o.store.overrides(), status.siteId, status.system);
    const systemKey = JSON.stringify([status.siteId, status.system]);
    // A paused (or logged-out, unreachable…) system is judged by its state alone: none of its
    // answers is read. A start marks every system of a paused site so, and must not read them all.
    const readsData = dataRulesApply(status.state);
    const versions = readsData ? this.o.fleet.cachedVersions?.(status.siteId, status.system) : new Map<string, number>();
    const complianceSeen = readsData && versions ? this.complianceSeen(status, versions, written) : undefined;
    const signature = versions && signatureOf([status.state, status.lastError ?? null, rules, readsData ? this.seen(status, versions, written, complianceSeen) : null, readsData ? [complianceSeen?.revision ?? null, complianceSeen?.scope ?? null] : null]);
    const last = this.lastInput.get(systemKey);
    if (signature !== undefined && last?.signature === signature && now.getTime() <= last.until) return { raised: [], cleared: [] };
    this.lastInput.delete(systemKey);
    // A waiver no longer applies from its end on: the same result holds until the moment before.
    const waiverEnd = readsData ? this.o.compliance?.nextChange?.(now.getTime()) : undefined;
    const input = readsData ? this.inputOf(status, now.getTime(), versions, written, complianceSeen, waiverEnd) : { state: status.state, lastError: status.lastError, rollup: {}, now: now.getTime() };
    const result = this.o.store.reconcile(status.siteId, status.system, evaluateAlerts(input, rules), now);
    if (signature !== undefined) {
      const windowEnd = notificationWindowEnd(input, rules);
      this.lastInput.set(systemKey, { signature, until: Math.min(now.getTime() + this.maxUnchangedMs, windowEnd ?? Infinity, waiverEnd === undefined ? Infinity : waiverEnd - 1) });
    }
    if (result.raised.length || result.cleared.length) {
      const change: AlertChange = { ...result, siteId: status.siteId, system: status.system, openCount: this.o.store.openCount(now.getTime()) };
      for (const l of this.listeners) l(change);
    }
    return result;
  }

  /**
   * Evaluates every known system as it stands (the CLI, after a rule change or a site removed), and
   * clears the alerts of a removed site and of a system its site no longer lists. A site of which
   * nothing is known (its cache rebuilt, never listed) keeps its alerts: absence of data is no
   * evidence that a condition ended.
   */
  evaluateAll(): void {
    // Everything afresh: the alerts of a system cleared here must come back if it is listed again.
    this.lastInput.clear();
    this.complianceInput.clear();
    this.digests?.clear();
    const systems = this.o.fleet.status();
    const sites = new Set(this.o.siteIds());
    const known = new Map<string, Set<string>>();
    for (const s of systems) known.set(s.siteId, (known.get(s.siteId) ?? new Set()).add(s.system));
    const gone = (siteId: string, system: string): boolean => !sites.has(siteId) || (known.has(siteId) && !known.get(siteId)?.has(system));
    this.o.store.clearWhere(gone, this.clock());
    for (const k of this.compliance.keys()) if (gone(...(JSON.parse(k) as [string, string]))) this.compliance.delete(k);
    for (const s of systems) if (s.state !== 'refreshing') this.evaluate(s);
  }

  list(filter: AlertFilter = {}): Alert[] {
    return this.o.store.list(filter, this.clock().getTime());
  }

  /** The SMART verdicts last read for a system's drives, by the SMART answer's cache key ({@link SmartVerdicts.verdictsOf}). */
  smartVerdictsOf(siteId: string, system: string): ReturnType<SmartVerdicts['verdictsOf']> {
    return this.smart.verdictsOf(siteId, system);
  }

  /** The compliance checks (with waivers) the compliance rule read at the last evaluation of a system that read its data; undefined before one or without compliance. */
  complianceOf(siteId: string, system: string): readonly ComplianceFinding[] | undefined {
    return this.compliance.get(JSON.stringify([siteId, system]));
  }

  openCount(): number {
    return this.o.store.openCount(this.clock().getTime());
  }

  acknowledge(ids: readonly number[]): Alert[] {
    return this.o.store.acknowledge(ids, this.o.user, this.clock());
  }

  snooze(ids: readonly number[], until: Date | null): Alert[] {
    return this.o.store.snooze(ids, until, this.clock());
  }

  /** The defaults, the stored overrides, and whether new alerts raise desktop notifications. */
  rules(): { defaults: RuleSettings; overrides: ScopedOverride[]; notify: boolean } {
    return { defaults: DEFAULT_RULES, overrides: [...this.o.store.overrides()], notify: this.notify };
  }

  /**
   * Replaces the override at one scope (`null` removes it) and re-evaluates every system with it.
   * Recorded in the action log first: a change the log cannot record is not made.
   * @throws StoreError when the action log cannot record it
   */
  setRules(scope: RuleScope, override: RuleOverride | null): void {
    this.o.actionLog.recordLocal({
      user: this.o.user,
      siteId: scope.level === 'fleet' ? '' : scope.siteId,
      system: scope.level === 'system' ? scope.system : '',
      operation: 'alerts rules set',
      params: redact({ scope, override }),
      message: redact(override === null ? `alert rules of ${scopeText(scope)} reset to the wider scope` : `alert rules of ${scopeText(scope)} changed`),
    });
    this.o.store.setOverride(scope, override);
    this.evaluateAll();
  }

  /**
   * Turns desktop notifications of new alerts on or off for this engine's windows: the fleet's, or
   * in a window scoped to one site that site's windows only. Recorded in the action log like a rule change.
   */
  setNotify(on: boolean): void {
    const site = this.o.scopedSite;
    const where = site === undefined ? '' : ` in windows of site ${site}`;
    this.o.actionLog.recordLocal({ user: this.o.user, siteId: site, operation: 'alerts notifications set', params: redact({ notify: on }), message: redact(`desktop notifications of new alerts turned ${on ? 'on' : 'off'}${where}`) });
    if (site === undefined) this.o.store.notify = on;
    else this.o.store.setNotifyOf(site, on);
  }

  /** Whether new alerts raise desktop notifications in this engine's windows (see {@link setNotify}). */
  get notify(): boolean {
    return this.o.scopedSite === undefined ? this.o.store.notify : this.o.store.notifyOf(this.o.scopedSite);
  }

  /**
   * What the rules see of a system's answers, unparsed: the version of each answer they read, but
   * of the node and drive lists and the health answer the digest of their text without what no rule reads (taken again
   * only when their version moved), and each SMART text's version.
   */
  private seen(status: SystemStatus, versions: ReadonlyMap<string, number>, written: WrittenAnswers | undefined, complianceSeen: ComplianceSeen | undefined): Array<[string, string | number | null]> {
    const out: Array<[string, string | number | null]> = ENGINE_READS.map((r, i) => {
      const key = ENGINE_KEYS[i] as string;
      return [key, this.digests ? this.digests.seen(status.siteId, status.system, r, versions, written) : (versions.get(key) ?? null)];
    });
    // The SMART texts by their stamp: it moves whenever a text is stored or dropped, as their versions would.
    const smart = smartStamp(versions);
    out.push([SMART_KEY_PREFIX, `${smart.count}:${smart.max}`]);
    if (complianceSeen) {
      for (const [i, r] of complianceSeen.reads.entries()) out.push([readKey(r), complianceSeen.seen[i] ?? null]);
    }
    return out;
  }

  /**
   * What the compliance checks depend on, read once per evaluation: the baseline and waivers, the
   * site's scope, and what they see of the baseline's reads: as the rules see them ({@link seen}),
   * but by content version alone when the baseline looks at a field the digests leave out.
   * Undefined without compliance.
   */
  private complianceSeen(status: SystemStatus, versions: ReadonlyMap<string, number>, written: WrittenAnswers | undefined): ComplianceSeen | undefined {
    const compliance = this.o.compliance;
    if (!compliance) return undefined;
    const reads = compliance.reads();
    const fields = compliance.fieldsRead?.();
    const digests = fields && [...UNREAD].some((f) => fields.has(f)) ? undefined : this.digests;
    return {
      revision: compliance.revision(),
      scope: compliance.scopeOf?.(status.siteId) ?? null,
      reads,
      seen: reads.map((r) => (digests ? digests.seen(status.siteId, status.system, r, versions, written) : (versions.get(cacheKey(r.op, r.query)) ?? null))),
    };
  }

  /**
   * The system's compliance checks: those of its last evaluation while what they read, the baseline
   * and the waivers are the same (`seen`, undefined when that cannot be told) and it is younger than
   * `maxUnchangedMs`; `waiverEnd`, when the next waiver ends.
   */
  private complianceChecks(status: SystemStatus, now: number, written: WrittenAnswers | undefined, systemKey: string, seen: ComplianceSeen | undefined, waiverEnd: number | undefined): readonly ComplianceFinding[] | undefined {
    const compliance = this.o.compliance;
    if (!compliance) return undefined;
    const signature = seen && signatureOf([seen.revision, seen.scope, seen.seen]);
    const last = this.complianceInput.get(systemKey);
    const held = this.compliance.get(systemKey);
    if (signature !== undefined && held && last?.signature === signature && now <= last.until) return held;
    this.complianceInput.delete(systemKey);
    const checks = compliance.system(status.siteId, status.system, written)?.checks.map(findingOf);
    if (signature !== undefined && checks) this.complianceInput.set(systemKey, { signature, until: Math.min(now + this.maxUnchangedMs, waiverEnd === undefined ? Infinity : waiverEnd - 1) });
    return checks;
  }

  private inputOf(status: SystemStatus, now: number, versions: ReadonlyMap<string, number> | undefined, written: WrittenAnswers | undefined, complianceSeen: ComplianceSeen | undefined, waiverEnd: number | undefined): AlertInput {
    const { siteId, system } = status;
    const systemKey = JSON.stringify([siteId, system]);
    const compliance = this.complianceChecks(status, now, written, systemKey, complianceSeen, waiverEnd);
    if (compliance) this.compliance.set(systemKey, compliance);
    else this.compliance.delete(systemKey);
    const read = (r: { op: string; query: Record<string, unknown> }): unknown => (written?.get(readKey(r)) ?? this.o.fleet.cached(siteId, system, r.op, r.query, NO_USE))?.value;
    return {
      state: status.state,
      lastError: status.lastError,
      rollup: rollupAnswers(read, undefined, written),
      notifications: read(NOTIFICATIONS_CACHE),
      smart: this.smart.lookup(siteId, system, versions, written),
      compliance,
      now,
    };
  }
}
