import type { Site } from '../../app/domain/site.js';
import type { ComplianceService } from '../compliance/compliance-service.js';
import { InputError } from '../../app/errors.js';
import { buildReport } from '../../app/reports/build.js';
import { diffReports, type ReportDiff } from '../../app/reports/diff.js';
import type { Redacted } from '../../app/redact.js';
import type { ReportKind, ReportModel } from '../../app/reports/model.js';
import type { ReportSummary } from '../../app/reports/schema.js';
import type { Fleet } from '../core/fleet.js';
import type { ActionLog } from '../store/action-log.js';
import type { SiteStore } from '../store/site-store.js';
import { collectActions, collectSystems } from './collect.js';
import { exportReport, reportFiles, type ExportFormat, type ExportResult, type ReportFiles } from './export.js';
import type { ReportStore, StoredReport } from './store.js';

/** Dependencies of {@link ReportService}. */
export interface ReportServiceOptions {
  fleet: Fleet;
  sites: SiteStore;
  actionLog: ActionLog;
  store: ReportStore;
  /** OS user, recorded as the report's author. */
  user: string;
  appVersion: string;
  /** Compliance with the baseline in force: the compliance section (and the audit pack's) is evaluated with it. */
  compliance?: ComplianceService | undefined;
  clock?: () => Date;
}

/** What to generate. */
export interface GenerateRequest {
  kind: ReportKind;
  /** Site names or ids; every site when empty or absent. */
  sites?: readonly string[] | undefined;
  /** Build from the offline cache only, without contacting any system. */
  offline?: boolean | undefined;
  /** Action log period, ISO times (since inclusive, until exclusive). */
  since?: string | undefined;
  until?: string | undefined;
}

/** A report and its place in the history. */
export interface GeneratedReport {
  id: number;
  summary: ReportSummary;
  model: Redacted<ReportModel>;
}

/** A request naming something that does not exist (site, report id: `not-found`) or a bad value (`validation`). */
export class ReportRequestError extends InputError {
  override readonly name = 'ReportRequestError';
  constructor(message: string, code: 'not-found' | 'validation' = 'not-found') {
    super(message, code);
  }
}

/**
 * Reports for audits: generate (after a refresh, or from the offline cache only), keep every
 * report in the history, reopen, compare two configuration snapshots, export with a manifest.
 * Used by the CLI and the IPC handlers.
 */
export class ReportService {
  private readonly clock: () => Date;
  /**
   * The report this service generated last: exporting it right after (the audit pack's usual
   * path) takes the model as built, already redacted, instead of reading, validating and redacting
   * its stored JSON again (a quarter of a second per 200 systems).
   */
  private latest: GeneratedReport | undefined;

  constructor(private readonly o: ReportServiceOptions) {
    this.clock = o.clock ?? (() => new Date());
  }

  /**
   * Builds a report and stores it. Unless `offline`, the sites in scope are refreshed first
   * (ignoring any backoff); a site that cannot be reached then is reported from the cache, with
   * its data ages and a note. Never fails because systems are down.
   * @throws ReportRequestError for an unknown site or an invalid time.
   */
  async generate(req: GenerateRequest): Promise<GeneratedReport> {
    const sites = this.resolveSites(req.sites);
    const period = { since: isoOrNull(req.since, 'since'), until: isoOrNull(req.until, 'until') };
    if (period.since && period.until && period.since >= period.until) throw new ReportRequestError('the period is empty: since must be before until', 'validation');
    const siteProblems: Array<{ siteName: string; message: string }> = [];
    if (!req.offline && sites.length) {
      await this.o.fleet.refresh({ siteIds: sites.map((s) => s.id), force: true });
      for (const s of sites) {
        const error = this.o.fleet.siteError(s.id);
        if (error) siteProblems.push({ siteName: s.name, message: `could not be refreshed for this report (${error}); its data comes from the offline cache` });
      }
    }
    const { systems, unknownSites } = collectSystems(this.o.fleet, sites);
    for (const s of unknownSites) siteProblems.push({ siteName: s.name, message: 'no system of this site has ever been refreshed, so nothing of it is cached' });
    const explicit = req.sites && req.sites.length > 0;
    const model = buildReport(req.kind, {
      generatedAt: this.clock().toISOString(),
      generatedBy: this.o.user,
      appVersion: this.o.appVersion,
      source: req.offline ? 'cache' : 'fresh',
      sites: sites.map((s) => ({ id: s.id, name: s.name })),
      systems,
      siteProblems,
      period,
      actions: collectActions(this.o.actionLog, period, explicit ? sites.map((s) => s.id) : undefined),
      ...(this.o.compliance && (req.kind === 'compliance' || req.kind === 'audit') ? { compliance: this.o.compliance.evaluate(explicit ? { siteIds: new Set(sites.map((s) => s.id)) } : {}) } : {}),
    });
    const summary = this.o.store.save(model);
    this.latest = { id: summary.id, summary, model };
    return this.latest;
  }

  /** The history, newest first. */
  list(): ReportSummary[] {
    return this.o.store.list();
  }

  /** A stored report's listing, without reading its model. @throws ReportRequestError when there is none with this id. */
  summary(id: number): ReportSummary {
    const s = this.o.store.summary(id);
    if (!s) throw new ReportRequestError(`there is no report ${id}; "fleetdeck report list" shows the history`);
    return s;
  }

  /** A stored report. @throws ReportRequestError when there is none with this id. */
  open(id: number): StoredReport {
    const r = this.o.store.get(id);
    if (!r) throw new ReportRequestError(`there is no report ${id}; "fleetdeck report list" shows the history`);
    return r;
  }

  /** What changed in the configuration between two stored reports (config or audit). */
  diff(fromId: number, toId: number): ReportDiff {
    const a = this.open(fromId);
    const b = this.open(toId);
    try {
      return diffReports({ ...a.model, id: fromId }, { ...b.model, id: toId });
    } catch (err) {
      throw new ReportRequestError(err instanceof Error ? err.message : String(err), 'validation');
    }
  }

  /** Writes a stored report to a new or empty directory in the given formats, with its manifest. */
  async export(id: number, dir: string, formats: readonly ExportFormat[]): Promise<ExportResult> {
    return exportReport(this.model(id), { dir, formats, reportId: id, exportedBy: this.o.user, exportedAt: this.clock() });
  }

  /** A stored report's files in the given formats with its manifest, written nowhere (for a download). */
  async files(id: number, formats: readonly ExportFormat[]): Promise<ReportFiles> {
    return reportFiles(this.model(id), { formats, reportId: id, exportedBy: this.o.user, exportedAt: this.clock() });
  }

  private model(id: number): StoredReport['model'] {
    return this.latest?.id === id ? this.latest.model : this.open(id).model;
  }

  private resolveSites(refs: readonly string[] | undefined): Site[] {
    if (!refs || !refs.length) return this.o.sites.list();
    const out: Site[] = [];
    for (const ref of refs) {
      const site = this.o.sites.get(ref);
      if (!site) throw new ReportRequestError(`no site named "${ref}"`);
      if (!out.some((s) => s.id === site.id)) out.push(site);
    }
    return out;
  }
}

function isoOrNull(text: string | undefined, what: string): string | null {
  if (text === undefined || text === '') return null;
  const t = Date.parse(text);
  if (!Number.isFinite(t)) throw new ReportRequestError(`${what}: "${text}" is not an ISO 8601 time (e.g. 2025-01-31 or 2025-01-31T12:00:00Z)`, 'validation');
  return new Date(t).toISOString();
}
