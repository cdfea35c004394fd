import { changeKind, checkStates, type KeptChange } from '../../app/compliance/changes.js';
import { fixPlan, type FixPlan } from '../../app/compliance/fix.js';
import type { CheckChange, FleetComplianceView, SystemComplianceView } from '../../app/compliance/results.js';
import { complianceScore, countEffective, type Waiver, type WaiverGrant, type WaiverScope } from '../../app/compliance/waivers.js';
import type { Site } from '../../app/domain/site.js';
import { refreshRead } from '../../app/fleet/refresh-plan.js';
import { InputError } from '../../app/errors.js';
import type { ActionLog } from '../store/action-log.js';
import type { OfflineCache } from '../store/offline-cache.js';
import type { WrittenAnswers } from '../core/written-answers.js';
import { fieldsRead } from '../../app/compliance/baseline.js';
import { baselineMeta, shippedBaseline, type BaselineSource } from './baseline-source.js';
import { evaluateCachedSystem, evaluateFleet } from './fleet-compliance.js';
import { systemKey, type ScoreHistory } from './score-history.js';
import { WaiverLog } from './waiver-log.js';

export interface ComplianceServiceOptions {
  cache: OfflineCache;
  /** The saved sites, as they are now. */
  sites: () => readonly Site[];
  actionLog: ActionLog;
  /** The OS user: who grants a waiver. */
  user: string;
  /** The baseline in force (default: the shipped secure baseline). */
  baseline?: BaselineSource;
  /** Where each evaluation's scores are kept; none kept without it. */
  history?: ScoreHistory | undefined;
  clock?: () => Date;
}

/** What an evaluation covers: every site, or the sites given (`scope` names a window's or the CLI's selection for the kept score). */
export interface EvaluateOptions {
  /** Only these sites (ids). */
  siteIds?: ReadonlySet<string> | undefined;
  /** Keep the scores of this evaluation (default true). */
  keep?: boolean;
}

/**
 * Compliance of the fleet with one baseline, the same for the window, the CLI, the audit pack and
 * the alert engine: evaluated from the offline cache, waivers read from the action log, scores kept
 * per evaluation.
 */
export class ComplianceService {
  readonly source: BaselineSource;
  readonly waivers: WaiverLog;
  private readonly clock: () => Date;
  private fields: { baseline: object; names: ReadonlySet<string> } | undefined;
  private readsOf: { baseline: object; reads: ReadonlyArray<{ op: string; query: Record<string, unknown> }> } | undefined;

  constructor(private readonly o: ComplianceServiceOptions) {
    this.source = o.baseline ?? shippedBaseline();
    this.clock = o.clock ?? (() => new Date());
    this.waivers = new WaiverLog(o.actionLog, o.user, this.clock);
  }

  /** The same service (cache, log, history) with another baseline: the CLI's `--baseline FILE`. */
  withBaseline(source: BaselineSource): ComplianceService {
    return new ComplianceService({ ...this.o, baseline: source });
  }

  /** Every cached system of the sites in scope against the baseline, with waivers, counts, score and the scope's history. */
  evaluate(options: EvaluateOptions = {}): FleetComplianceView {
    const now = this.clock();
    const waivers = this.waivers.list();
    const systems = evaluateFleet({ baseline: this.source.baseline, cache: this.o.cache, sites: this.o.sites(), ...(options.siteIds ? { siteIds: options.siteIds } : {}), waivers, now });
    const counts = countEffective(systems.flatMap((s) => s.checks));
    const score = complianceScore(counts);
    const scopeId = scopeIdOf(options.siteIds);
    const entries = [{ siteId: scopeId, system: '', counts, score }, ...systems.map((s) => ({ siteId: s.siteId, system: s.system, counts: s.counts, score: s.score, results: checkStates(s.checks) }))];
    const history = this.o.history;
    const kept = !history ? new Map<string, KeptChange>() : options.keep !== false ? history.record(now, this.source.sha256, entries).changes : history.changesOf(now, this.source.sha256, entries);
    const inScope = (w: Waiver): boolean => !options.siteIds || options.siteIds.has(w.siteId) || w.siteId === '';
    return {
      baseline: baselineMeta(this.source),
      evaluatedAt: now.toISOString(),
      counts,
      ...(score !== undefined ? { score } : {}),
      systems,
      waivers: waivers.filter(inScope),
      history: this.o.history?.of(scopeId, '') ?? [],
      changes: this.changesOf(systems, kept),
    };
  }

  /** Each system's last change, one row per check, newest first; a check the baseline no longer has is left out. */
  private changesOf(systems: readonly SystemComplianceView[], kept: ReadonlyMap<string, KeptChange>): CheckChange[] {
    const checks = new Map(this.source.baseline.checks.map((c, i) => [c.id, { c, i }]));
    const out: Array<{ row: CheckChange; order: number }> = [];
    for (const s of systems) {
      const change = kept.get(systemKey(s.siteId, s.system));
      if (!change) continue;
      for (const moved of change.checks) {
        const known = checks.get(moved.check);
        if (!known) continue;
        const { title, severity } = known.c;
        out.push({ row: { siteId: s.siteId, site: s.site, system: s.system, check: moved.check, title, severity, kind: changeKind(moved.to), from: moved.from, to: moved.to, since: change.since, at: change.at }, order: known.i });
      }
    }
    return out.sort((a, b) => b.row.at.localeCompare(a.row.at) || a.row.site.localeCompare(b.row.site) || a.row.system.localeCompare(b.row.system) || a.order - b.order).map((x) => x.row);
  }

  /** The kept scores of one system, oldest first. */
  historyOf(siteId: string, system: string): FleetComplianceView['history'] {
    return this.o.history?.of(siteId, system) ?? [];
  }

  /**
   * One system from its cached answers, with waivers (the alert engine's input); undefined for a
   * site not saved. `written`: what its refresh or poll just wrote, read instead of the cache.
   */
  system(siteId: string, system: string, written?: WrittenAnswers): SystemComplianceView | undefined {
    const site = this.o.sites().find((s) => s.id === siteId);
    if (!site) return undefined;
    return evaluateCachedSystem({ baseline: this.source.baseline, cache: this.o.cache, waivers: this.waivers.list(), now: this.clock(), written }, site, system);
  }

  /** The cached reads the baseline looks at, each under the refresh plan's query: one list per baseline, not to be changed. */
  reads(): ReadonlyArray<{ op: string; query: Record<string, unknown> }> {
    if (this.readsOf?.baseline !== this.source.baseline) {
      const ops = new Set(this.source.baseline.checks.flatMap((c) => [c.rule.read, ...(c.rule.when ? [c.rule.when.read] : [])]));
      this.readsOf = { baseline: this.source.baseline, reads: [...ops].map((op) => refreshRead(op)) };
    }
    return this.readsOf.reads;
  }

  /** Every field name the baseline's checks look at ({@link fieldsRead}). */
  fieldsRead(): ReadonlySet<string> {
    if (this.fields?.baseline !== this.source.baseline) this.fields = { baseline: this.source.baseline, names: fieldsRead(this.source.baseline) };
    return this.fields.names;
  }

  /** The next time (ms) a waiver ends after `now`: results change then with nothing else changing. */
  nextChange(now: number): number | undefined {
    let next: number | undefined;
    for (const w of this.waivers.list()) {
      const t = Date.parse(w.until);
      if (t > now && (next === undefined || t < next)) next = t;
    }
    return next;
  }

  /** What a check's scope matches of a site (name, group, tags), as text: a system's results change with it. */
  scopeOf(siteId: string): string {
    const site = this.o.sites().find((s) => s.id === siteId);
    return JSON.stringify(site ? [site.name, site.group ?? null, site.tags] : null);
  }

  /** Changes whenever a result could change other than by a cached answer: the baseline or a waiver. */
  revision(): string {
    return `${this.source.sha256}:${this.waivers.revision()}`;
  }

  /**
   * Records a waiver of a check of the baseline.
   * @throws InputError for a check the baseline does not have, a site not saved, a reason missing or an expiry past
   */
  waive(grant: WaiverGrant): Waiver {
    this.knownCheck(grant.check);
    if (grant.siteId !== '' && !this.o.sites().some((s) => s.id === grant.siteId)) throw new InputError(`no saved site with id "${grant.siteId}"`, 'not-found');
    return this.waivers.waive(grant, this.namer());
  }

  /** Revokes a waiver. @throws InputError as {@link waive}, or when no such waiver is recorded */
  unwaive(scope: WaiverScope): void {
    this.waivers.unwaive(scope, this.namer());
  }

  /**
   * The preview of a check's fix over the systems in scope: the exact writes, grouped into bulk changes.
   * @throws InputError for a check the baseline does not have or that has no fix
   */
  fixPlan(check: string, options: EvaluateOptions = {}): FixPlan {
    const c = this.knownCheck(check);
    const plan = fixPlan(c, this.evaluate({ ...options, keep: false }).systems);
    if (!plan) throw new InputError(`check ${check} has no fix Fleetdeck can send: change it on the system`);
    return plan;
  }

  private knownCheck(id: string) {
    const c = this.source.baseline.checks.find((x) => x.id === id);
    if (!c) throw new InputError(`the baseline ${this.source.baseline.name} has no check "${id}"`, 'not-found');
    return c;
  }

  private namer(): (siteId: string, system: string) => string {
    const sites = new Map(this.o.sites().map((s) => [s.id, s.name]));
    return (siteId, system) => {
      if (siteId === '') return 'every system';
      const site = sites.get(siteId) ?? siteId;
      return system === '' ? `every system of ${site}` : `${system} of ${site}`;
    };
  }
}

/** The kept fleet score's key: '' for every site, else the site ids evaluated. */
function scopeIdOf(siteIds: ReadonlySet<string> | undefined): string {
  return siteIds ? [...siteIds].sort().join(',') : '';
}
