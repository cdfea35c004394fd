import type { z, ZodError } from 'zod';
import { getOperation, type OperationKey } from '../../app/catalog/index.js';
import { CHANNEL_ACCESS } from '../../app/ipc/channels.js';
import { PolicyGuard } from '../policy/policy-guard.js';
import { InputError } from '../../app/errors.js';
import { CONTRACT, type Channel, type IpcError, type Response, type SiteView, type WhatIfAction } from '../../app/ipc/contract.js';
import type { Site, SiteImportNotice } from '../../app/domain/site.js';
import { bulkInScopeOf, type BulkJobView } from '../../app/domain/bulk.js';
import { nestedDeeperThan } from '../../app/nesting.js';
import { maskSecrets, redact, secretValues, type Redacted } from '../../app/redact.js';
import { CancelledError } from '../client/errors.js';
import { pinnedValidity, probeCertificate } from '../client/tls.js';
import { ipcErrorCode } from '../../app/errors.js';
import type { Fleet } from '../core/fleet.js';
import type { LoginProgress } from '../core/site-connection.js';
import type { BulkJobs } from '../core/bulk.js';
import { join } from 'node:path';
import type { ReportService } from '../reports/service.js';
import type { AlertEngine } from '../alerts/alert-engine.js';
import type { HealthSummaries } from '../core/health-summaries.js';
import type { StartGate } from '../core/start-gate.js';
import { tableFile } from '../reports/table-export.js';
import { sha256 } from '../reports/manifest.js';
import { makePrivateDir, type SaveDialogs } from '../reports/save-grants.js';
import { zipStored } from '../reports/zip.js';
import { RawJson } from './raw-json.js';
import type { ActionLog } from '../store/action-log.js';
import type { ActionLogFilter } from '../../app/domain/action.js';
import { actionLogFile, fileStamp, type ActionLogFile } from '../reports/action-log-export.js';
import type { SiteStore } from '../store/site-store.js';
import { exportSiteList } from '../store/site-transfer.js';
import type { SearchIndex } from '../search/search-index.js';
import type { SearchAnswer } from '../../app/search/entries.js';
import type { ForwardSetting, ForwardStatus } from '../../app/domain/syslog-forward.js';
import type { ComplianceService } from '../compliance/compliance-service.js';

export interface HandlerContext {
  fleet: Fleet;
  sites: SiteStore;
  actionLog: ActionLog;
  version: string;
  keychain: 'keychain' | 'memory';
  keychainWarning?: string | undefined;
  /** What happened to the data files on opening (rebuilt, in memory, log unusable). */
  storeWarnings?: readonly string[] | undefined;
  /** Ids of sites served by the embedded simulator (labelled as simulated). */
  simulatedSiteIds: ReadonlySet<string>;
  /** When launched with `--site NAME`: every channel is limited to that site. */
  scopedSite?: string | undefined;
  /** Reports (history, generation, export); the `reports:*` channels fail without it. */
  reports?: ReportService | undefined;
  /** Bulk changes; the `bulk:*` channels fail without it. */
  bulk?: BulkJobs | undefined;
  /** Alerts and their rules; the `alerts:*` channels fail without it. */
  alerts?: AlertEngine | undefined;
  /** Compliance with the baseline in force; the `compliance:*` channels fail without it. */
  compliance?: ComplianceService | undefined;
  /** The fleet search index; `search:query` fails without it. */
  search?: SearchIndex | undefined;
  /** Every system's health summary; `health:summaries` fails without it. */
  summaries?: HealthSummaries | undefined;
  /** Told when a window reads every health brief (its first frame): background start-up work waits for it. */
  startGate?: Pick<StartGate, 'firstFrameServed'> | undefined;
  /**
   * Main's save and folder dialogs (Electron): an export is written only where the admin chose in
   * one of them. Without them (browser shell, tests) an export is handed to the window to download.
   */
  saveFile?: SaveDialogs | undefined;
  /**
   * The demo fleet's simulator, driven by `demo:whatif`: present
   * only in a `--demo` window; the channel is refused without it.
   */
  whatIf?: WhatIf | undefined;
  /** The OS user named in exports. */
  user?: string | undefined;
  /**
   * A login made by the monitor polling this data directory, undefined when none does (see
   * `loginThroughMonitor`); absent in the monitor itself.
   */
  monitorLogin?: ((login: { site: string; system?: string; code?: string; password?: string }) => Promise<LoginProgress | undefined>) | undefined;
  /** Source of "now" for exports and data ages. */
  clock?: (() => Date) | undefined;
  /** Audit-trail forwarding (the `forward:*` channels fail without it). */
  forwarding?: Forwarding | undefined;
}

/** What the `forward:*` channels use: the state shown, and a change of the admin's setting. */
export interface Forwarding {
  status(): ForwardStatus;
  /** @throws InputError when managed by the policy or invalid; StoreError when it cannot be written */
  set(setting: ForwardSetting | undefined): ForwardStatus;
}

/** Makes a "what if" happen in the embedded simulator; what happened, in a sentence. */
export type WhatIf = (request: { action: WhatIfAction; siteId: string; system?: string | undefined }) => Promise<string>;

/** A request after its schema parsed it (defaults applied, unknown keys dropped). */
export type Parsed<C extends Channel> = z.output<(typeof CONTRACT)[C]['request']>;
/**
 * Answers that carry what a system sent, as their handlers must give them: through `redact`, so an
 * answer that was not redacted fails `tsc` instead of reaching the window.
 */
interface RedactedAnswers {
  'op:call': { result: Redacted<unknown> };
  'search:query': Redacted<SearchAnswer>;
  /** The summaries as HealthSummaries keeps them: one JSON array text, redacted when computed. */
  'health:summaries': { seq: number; systems: RawJson };
  'compliance:evaluate': Redacted<Response<'compliance:evaluate'>>;
  'compliance:fixplan': Redacted<Response<'compliance:fixplan'>>;
  'health:briefs': { seq: number; systems: RawJson };
}
/** What the handler of a channel answers: the contract's response, redacted where it carries a system's data. */
export type HandlerAnswer<C extends Channel> = C extends keyof RedactedAnswers ? RedactedAnswers[C] : Response<C>;
/** Exactly one handler per channel: the compiler refuses a missing or extra one. */
export type Handlers = { [C in Channel]: (request: Parsed<C>) => Promise<HandlerAnswer<C>> };

/** A site as the renderer sees it: no certificate bodies, no secrets. */
export function toSiteView(site: Site, simulated: boolean, now: Date = new Date(), managed = false): SiteView {
  const validity = site.tls.pinSha256 ? pinnedValidity(site.tls.pinnedCertPem, now) : undefined;
  return {
    id: site.id,
    name: site.name,
    baseUrl: site.baseUrl,
    username: site.username,
    ...(site.group ? { group: site.group } : {}),
    tags: site.tags,
    tls: {
      ...(site.tls.pinSha256 ? { pinSha256: site.tls.pinSha256 } : {}),
      hasCaBundle: Boolean(site.tls.caBundlePem),
      ...(validity ? { validTo: validity.validTo } : {}),
      ...(validity?.expiredSince ? { expiredSince: validity.expiredSince } : {}),
    },
    allowHttp: site.allowHttp,
    polling: site.polling,
    ...(site.auth ? { auth: { ...site.auth } } : {}),
    simulated,
    ...(managed ? { managed: true } : {}),
  };
}

/** Builds the one handler per channel. Each receives a request already parsed by its schema. */
export function createHandlers(ctx: HandlerContext): Handlers {
  const { fleet, sites } = ctx;
  // The site list carries the machine policy (a test's stand-in for the list may not: no policy then).
  const policy = (sites as Partial<SiteStore>).policy ?? new PolicyGuard();
  const siteOf = (ref: string): Site => {
    const site = sites.get(ref);
    // One answer for another site's name and for no site's: which sites exist is not a scoped window's to learn.
    if (ctx.scopedSite && site?.id !== ctx.scopedSite) throw new ScopeError(`this window is scoped to site "${ctx.scopedSite}"`);
    if (!site) throw new ScopeError(`no site named "${ref}"`);
    return site;
  };
  const inScopeSites = (): Site[] => sites.list().filter((s) => !ctx.scopedSite || s.id === ctx.scopedSite);
  const view = (site: Site): SiteView => toSiteView(site, ctx.simulatedSiteIds.has(site.id), new Date(), policy.isManaged(site.id));
  const ok = { ok: true as const };
  const alertEngine = (): AlertEngine => {
    if (!ctx.alerts) throw new Error('alerts are not available in this process');
    return ctx.alerts;
  };
  const forwarding = (): Forwarding => {
    if (!ctx.forwarding) throw ctx.actionLog.unusable ?? new Error('syslog forwarding is not available in this process');
    return ctx.forwarding;
  };
  /** The ids, once each names an alert of this window's scope. */
  const alertsInScope = (ids: readonly number[]): number[] => {
    if (!ctx.scopedSite) return [...ids];
    const own = new Set(alertEngine().list({ site: ctx.scopedSite }).map((a) => a.id));
    // Counted, never listed: which ids exist at other sites is not this window's to know.
    const foreign = ids.filter((id) => !own.has(id)).length;
    if (foreign) throw new ScopeError(`this window is scoped to site "${ctx.scopedSite}": ${foreign === 1 ? '1 of these alerts is' : `${foreign} of these alerts are`} not of this site; nothing was changed`);
    return [...ids];
  };
  const rulesInScope = (): ReturnType<AlertEngine['rules']> => {
    const rules = alertEngine().rules();
    return ctx.scopedSite ? { ...rules, overrides: rules.overrides.filter((o) => o.scope.level === 'fleet' || o.scope.siteId === ctx.scopedSite) } : rules;
  };
  const now = ctx.clock ?? (() => new Date());
  /** A log filter from a request: the site named by name or id, and a scoped window's own site whatever was asked. */
  const logFilter = (r: Omit<ActionLogFilter, 'siteId'> & { site?: string | undefined }): ActionLogFilter => {
    const siteId = r.site ? siteOf(r.site).id : ctx.scopedSite;
    return {
      ...(siteId ? { siteId } : {}),
      ...(r.system ? { system: r.system } : {}),
      ...(r.operation ? { operation: r.operation } : {}),
      ...(r.results ? { results: r.results } : {}),
      ...(r.since ? { since: checkedTime(r.since, 'since') } : {}),
      ...(r.until ? { until: checkedTime(r.until, 'until') } : {}),
    };
  };
  /** The sites.json import notice, unless dismissed; a site list that cannot be read says so elsewhere (every site read fails). */
  const siteImportNotice = (): { siteImport?: SiteImportNotice } => {
    try {
      const notice = ctx.sites.importNotice();
      return notice ? { siteImport: notice } : {};
    } catch {
      return {};
    }
  };
  /** Calls running under a renderer's callId, so `op:cancel` can stop them. */
  const running = new Map<string, AbortController>();
  const bulkInScope = bulkInScopeOf(ctx.scopedSite);
  return guardWrites(policy, {
    'app:info': async () => ({
      version: ctx.version,
      ...(ctx.scopedSite ? { scopedSite: ctx.scopedSite } : {}),
      simulated: ctx.simulatedSiteIds.size > 0,
      ...(ctx.whatIf ? { demo: true } : {}),
      keychain: ctx.keychain,
      ...(ctx.keychainWarning ? { keychainWarning: ctx.keychainWarning } : {}),
      ...(ctx.storeWarnings?.length ? { storeWarnings: [...ctx.storeWarnings] } : {}),
      ...siteImportNotice(),
      policy: policy.view(),
    }),
    'notices:dismiss': async () => {
      ctx.sites.dismissImportNotice();
      return ok;
    },
    'sites:list': async () => inScopeSites().map(view),
    'sites:probe': async (r) => {
      const c = await probeCertificate(r.baseUrl);
      return { sha256: c.sha256, subject: c.subject, issuer: c.issuer, validFrom: c.validFrom, validTo: c.validTo };
    },
    'sites:add': async (r) => {
      if (ctx.scopedSite) throw new ScopeError('a window scoped to one site cannot add sites');
      return view(await fleet.addSite(r));
    },
    'sites:edit': async (r) => {
      const site = siteOf(r.site);
      const { intervalSeconds, maxInFlight, smartMaxAgeHours, ...rest } = r.patch;
      // Through the fleet: a new URL forgets the site's password, sessions and pin (Fleet.editSite).
      const updated = await fleet.editSite(site.id, {
        ...rest,
        polling: { ...site.polling, ...(intervalSeconds !== undefined ? { intervalSeconds } : {}), ...(maxInFlight !== undefined ? { maxInFlight } : {}), ...(smartMaxAgeHours !== undefined ? { smartMaxAgeHours } : {}) },
      });
      return view(updated);
    },
    'sites:remove': async (r) => {
      await fleet.forgetSite(siteOf(r.site).id);
      // Its alerts can never clear by themselves now.
      ctx.alerts?.evaluateAll();
      return ok;
    },
    'sites:trust': async (r) => fleet.trust(siteOf(r.site).id, r.sha256),
    'sites:pause': async (r) => {
      await fleet.setPaused(siteOf(r.site).id, r.paused);
      return ok;
    },
    'sites:export': async (r) => {
      const chosen = r.sites?.length ? r.sites.map(siteOf) : inScopeSites();
      const file = { fileName: `fleetdeck-sites-${fileStamp(now())}.json`, mimeType: 'application/json', content: `${JSON.stringify(exportSiteList(chosen, { exportedAt: now(), ...(ctx.user ? { exportedBy: ctx.user } : {}) }), null, 2)}\n` };
      const digest = { bytes: Buffer.byteLength(file.content), sha256: sha256(file.content) };
      const out = await deliver(file);
      return out.kind === 'cancelled' ? out : { ...out, ...digest };
    },
    'sites:preview': async (r) => {
      if (ctx.scopedSite) throw new ScopeError('a window scoped to one site cannot import sites');
      return fleet.importSites(r.fileName, r.text, { replace: r.replace, dryRun: true });
    },
    'sites:import': async (r) => {
      if (ctx.scopedSite) throw new ScopeError('a window scoped to one site cannot import sites');
      return fleet.importSites(r.fileName, r.text, { replace: r.replace, dryRun: false });
    },
    'session:login': async (r) => {
      const site = siteOf(r.site);
      const credentials = {
        ...(r.password !== undefined ? { password: r.password } : {}),
        ...(r.code ? { code: r.code } : {}),
        ...(r.system !== undefined ? { system: r.system } : {}),
      };
      // While a monitor polls this data directory, this window's polls take what it records: the
      // login must reach its sessions first (a refused one is not tried again here).
      const monitor = await ctx.monitorLogin?.({ site: site.id, ...credentials });
      if (monitor && r.code) {
        // A code is accepted once, and it went to the monitor, which polls. The window's own calls
        // log in again when they need to.
        fleet.loggedInElsewhere(site.id, r.system, monitor);
        return { ...ok, loggedIn: monitor.loggedIn, needCode: monitor.needCode };
      }
      const progress = await fleet.login(site.id, credentials);
      return { ...ok, loggedIn: progress.loggedIn, needCode: progress.needCode };
    },
    'session:logout': async (r) => {
      await fleet.logout(siteOf(r.site).id);
      return ok;
    },
    'fleet:status': async (r) => {
      const list = r.site ? [siteOf(r.site)] : inScopeSites();
      return list.map((s) => {
        const error = fleet.siteError(s.id);
        return { siteId: s.id, ...(error ? { error } : {}), systems: fleet.status(s.id) };
      });
    },
    'fleet:refresh': async (r) => {
      // No sites named: every site this window shows (a scoped window's own), never another's.
      const ids = r.sites ? r.sites.map((ref) => siteOf(ref).id) : inScopeSites().map((s) => s.id);
      return fleet.refresh({ siteIds: ids, ...(r.systems ? { systems: r.systems } : {}), ...(r.force !== undefined ? { force: r.force } : {}) });
    },
    'op:call': async (r) => {
      const site = siteOf(r.site);
      if (r.callId !== undefined && running.has(r.callId)) throw new ScopeError(`a call named "${r.callId}" is already running`);
      const control = new AbortController();
      if (r.callId !== undefined) running.set(r.callId, control);
      try {
        // The window's operation is any of the catalog's: its answer is read as unknown, and redacted below.
        const result = await fleet.call(site.id, r.system, getOperation(r.operation), {
          ...(r.query ? { query: r.query } : {}),
          ...(r.body !== undefined ? { body: r.body } : {}),
          ...(r.headers ? { headers: r.headers } : {}),
          signal: control.signal,
        });
        // A read is cached: the search index reads the system again when it is one of its answers.
        if (r.system !== undefined) ctx.search?.noteCachedRead(site.id, r.system, r.operation, r.query ?? {});
        // Secrets never reach the renderer, even if a system echoes one (by field or by value).
        return { result: redact(result, secretValues(r.body)) };
      } finally {
        if (r.callId !== undefined && running.get(r.callId) === control) running.delete(r.callId);
      }
    },
    'op:cancel': async (r) => {
      const control = running.get(r.callId);
      control?.abort(new CancelledError('cancelled by the user'));
      return { cancelled: control !== undefined };
    },
    'bulk:start': async (r) => {
      // A job is listed (bulk:list) with its parameters: what JSON cannot carry (a BigInt from a
      // structured clone) would make every later listing fail, so it is refused here.
      try {
        JSON.stringify([r.query, r.headers, r.body]);
      } catch {
        throw new InputError('the parameters of a bulk change must be JSON values');
      }
      return bulkJobs().start({
        operation: r.operation,
        targets: r.targets.map((t) => ({ siteId: siteOf(t.site).id, system: t.system })),
        params: { query: r.query, headers: r.headers, body: r.body },
        maxInFlight: r.maxInFlight,
        stopOnFailure: r.stopOnFailure,
      });
    },
    'bulk:list': async () => bulkJobs().list().filter(bulkInScope),
    'bulk:retry': async (r) => bulkJobs().retry(bulkOfWindow(r.id).id),
    'bulk:cancel': async (r) => bulkJobs().cancel(bulkOfWindow(r.id).id),
    'cache:read': async (r) => {
      const hit = fleet.cachedText(siteOf(r.site).id, r.system, r.operation, r.query ?? {});
      // The cache redacts every value before it is written (OfflineCache.put), so it is served as
      // stored: as its JSON text, which the browser shell sends without parsing it here.
      return hit ? { value: new RawJson(hit.json), at: hit.at, stale: hit.stale } : null;
    },
    'search:query': async (r) => {
      if (!ctx.search) throw new Error('the fleet search is not available in this process');
      // Built from the cache, which holds redacted answers only; redacted again as everything leaving main.
      return redact(ctx.search.query(r.query, r.limit, ctx.scopedSite));
    },
    'health:briefs': async (r) => {
      if (!ctx.summaries) throw new Error('health summaries are not available in this process');
      const { seq, json } = ctx.summaries.summaries({ siteId: ctx.scopedSite, since: r.since, form: 'brief' });
      // The window's first frame reads every roll-up: the search index waits until it has painted it.
      if (r.since === undefined) ctx.startGate?.firstFrameServed();
      // Kept as redacted JSON text (HealthSummaries), spliced into the answer as it is.
      return { seq, systems: new RawJson(json) };
    },
    'health:summaries': async (r) => {
      if (!ctx.summaries) throw new Error('health summaries are not available in this process');
      const { seq, json } = ctx.summaries.summaries({ siteId: ctx.scopedSite, since: r.since });
      return { seq, systems: new RawJson(json) };
    },
    'log:list': async (r) => {
      const siteId = r.site ? siteOf(r.site).id : ctx.scopedSite;
      return ctx.actionLog.list({
        ...(siteId ? { siteId } : {}),
        ...(r.since ? { since: checkedTime(r.since, 'since') } : {}),
        ...(r.until ? { until: checkedTime(r.until, 'until') } : {}),
        ...(r.limit ? { limit: r.limit } : {}),
      });
    },
    'log:verify': async () => ctx.actionLog.verify(ctx.scopedSite),
    'forward:status': async () => forwarding().status(),
    'forward:set': async (r) => {
      if (ctx.scopedSite) throw new ScopeError(`this window is scoped to site "${ctx.scopedSite}": syslog forwarding is the workstation's setting, changed in an unscoped window`);
      return forwarding().set(r.setting ?? undefined);
    },
    'log:query': async (r) => ctx.actionLog.page(logFilter(r), { offset: r.offset, limit: r.limit }),
    'log:export': async (r) => {
      const filter = logFilter(r);
      const records = ctx.actionLog.list({ ...filter, newestFirst: true });
      const file = actionLogFile(r.format, records, { filter, exportedAt: now(), exportedBy: ctx.user ?? '', siteName: (id) => sites.get(id)?.name });
      const out = await deliver(file);
      return out.kind === 'cancelled' ? out : { ...out, count: records.length };
    },
    'reports:list': async () => reportService().list().filter(inScope),
    'reports:generate': async (r) => {
      const refs = r.sites?.length ? r.sites.map((ref) => siteOf(ref).id) : ctx.scopedSite ? [ctx.scopedSite] : undefined;
      const g = await reportService().generate({ kind: r.kind, sites: refs, offline: r.offline, since: r.since, until: r.until });
      return { id: g.id, summary: g.summary, model: g.model };
    },
    'reports:open': async (r) => {
      const stored = storedInScope(r.id);
      return { id: r.id, summary: stored.summary, model: stored.model };
    },
    'reports:diff': async (r) => {
      storedInScope(r.from);
      storedInScope(r.to);
      return reportService().diff(r.from, r.to);
    },
    'reports:export': async (r) => {
      // Its listing says its sites: the model is read (and checked, redacted) once, by the export.
      checkReportScope(r.id, reportService().summary(r.id));
      const folderName = `fleetdeck-report-${r.id}-${fileStamp(now())}`;
      if (ctx.saveFile) {
        const grant = await ctx.saveFile.chooseFolder({ title: `Export report ${r.id}`, folderName });
        if (!grant) return { kind: 'cancelled' };
        // A new folder of its own, so its manifest describes every file in it.
        const dir = join(ctx.saveFile.grants.take(grant, 'folder'), folderName);
        await makePrivateDir(dir);
        const written = await reportService().export(r.id, dir, r.formats);
        return { kind: 'saved', dir: written.dir, files: written.manifest.files, manifestSha256: written.manifestSha256 };
      }
      const built = await reportService().files(r.id, r.formats);
      const zip = zipStored(built.files.map((f) => ({ path: `${folderName}/${f.path}`, data: f.data })), now());
      return { kind: 'download', fileName: `${folderName}.zip`, mimeType: 'application/zip', base64: zip.toString('base64'), files: built.manifest.files, manifestSha256: built.manifestSha256 };
    },
    'alerts:list': async (r) => {
      const site = r.site !== undefined ? siteOf(r.site).id : ctx.scopedSite;
      const filter = { ...r, ...(site !== undefined ? { site } : {}) };
      return { alerts: alertEngine().list(filter), openCount: alertEngine().list({ state: 'open', ...(site !== undefined ? { site } : {}) }).length };
    },
    'alerts:ack': async (r) => alertEngine().acknowledge(alertsInScope(r.ids)),
    'alerts:snooze': async (r) => {
      const until = r.until === null ? null : new Date(r.until);
      if (until && Number.isNaN(until.getTime())) throw new InputError(`not a time: ${r.until}`);
      return alertEngine().snooze(alertsInScope(r.ids), until);
    },
    'alertrules:get': async () => rulesInScope(),
    'alertrules:set': async (r) => {
      if (r.scope.level === 'fleet') {
        if (ctx.scopedSite) throw new ScopeError(`this window is scoped to site "${ctx.scopedSite}": it sets rules of its site or its systems only`);
        alertEngine().setRules(r.scope, r.override);
      } else {
        alertEngine().setRules({ ...r.scope, siteId: siteOf(r.scope.siteId).id }, r.override);
      }
      return rulesInScope();
    },
    'alerts:notify': async (r) => {
      alertEngine().setNotify(r.notify);
      return ok;
    },
    'table:export': async (r) => {
      const file = tableFile(r, now());
      const digest = { bytes: Buffer.byteLength(file.content), sha256: sha256(file.content) };
      const out = await deliver(file);
      return out.kind === 'cancelled' ? out : { ...out, ...digest };
    },
    'compliance:evaluate': async (r) => redact(complianceOf().evaluate(complianceScope(r.site))),
    'compliance:history': async (r) => complianceOf().historyOf(siteOf(r.site).id, r.system),
    'compliance:waive': async (r) => {
      const scope = waiverScopeOf(r);
      const waiver = complianceOf().waive({ ...scope, reason: r.reason, until: r.until });
      // Cleared at once rather than at the system's next refresh.
      ctx.alerts?.evaluateAll();
      return waiver;
    },
    'compliance:unwaive': async (r) => {
      complianceOf().unwaive(waiverScopeOf(r));
      ctx.alerts?.evaluateAll();
      return ok;
    },
    'compliance:fixplan': async (r) => redact(complianceOf().fixPlan(r.check, complianceScope(r.site))),
    'demo:whatif': async (r) => {
      if (!ctx.whatIf) throw new ScopeError('"what if" drives the simulated demo fleet only: start Fleetdeck with --demo');
      const site = siteOf(r.site);
      if (!ctx.simulatedSiteIds.has(site.id)) throw new ScopeError(`site "${site.name}" is not simulated: "what if" changes only the demo fleet`);
      const onSystem = r.action === 'fail-drive' || r.action === 'fill-pool';
      if (onSystem && !r.system) throw new InputError(`choose a system of "${site.name}" to ${r.action.replace('-', ' ')}`);
      const message = await ctx.whatIf({ action: r.action, siteId: site.id, system: r.system });
      // Shown at once rather than at the next poll; a stopped site is found unreachable.
      await fleet.refresh({ siteIds: [site.id], ...(onSystem && r.system ? { systems: [r.system] } : {}), force: true }).catch(() => undefined);
      return { message };
    },
  });

  /** A one-file export: written where the admin chooses in main's save dialog, or handed to the window to download. */
  async function deliver(file: ActionLogFile): Promise<({ kind: 'download' } & ActionLogFile) | { kind: 'saved'; path: string } | { kind: 'cancelled' }> {
    if (!ctx.saveFile) return { kind: 'download', ...file };
    const grant = await ctx.saveFile.chooseFile({ fileName: file.fileName });
    return grant ? { kind: 'saved', path: await ctx.saveFile.grants.writeFile(grant, file.content) } : { kind: 'cancelled' };
  }

  function complianceOf(): ComplianceService {
    if (!ctx.compliance) throw new ScopeError('compliance is not available in this window');
    return ctx.compliance;
  }
  /** The sites a compliance call covers: the one named, else a scoped window's own, else all. */
  function complianceScope(site: string | undefined): { siteIds?: ReadonlySet<string> } {
    const id = site !== undefined ? siteOf(site).id : ctx.scopedSite;
    return id !== undefined ? { siteIds: new Set([id]) } : {};
  }
  /** A waiver's scope from a request: a scoped window waives for its own site, never for the fleet. */
  function waiverScopeOf(r: { check: string; site?: string | undefined; system?: string | undefined }): { check: string; siteId: string; system: string } {
    if (r.system !== undefined && r.site === undefined) throw new InputError('name the site of the system');
    if (r.site === undefined && ctx.scopedSite) throw new ScopeError(`this window is scoped to site "${ctx.scopedSite}": it waives checks of its site or its systems only`);
    return { check: r.check, siteId: r.site !== undefined ? siteOf(r.site).id : '', system: r.system ?? '' };
  }
  function bulkJobs(): BulkJobs {
    if (!ctx.bulk) throw new ScopeError('bulk changes are not available in this window');
    return ctx.bulk;
  }
  function bulkOfWindow(id: string): BulkJobView {
    const job = bulkJobs().get(id);
    if (!bulkInScope(job)) throw new ScopeError(`bulk change ${id} covers sites outside this window's scope`);
    return job;
  }
  function reportService(): ReportService {
    if (!ctx.reports) throw new ScopeError('reports are not available in this window');
    return ctx.reports;
  }
  /** In a window scoped to one site, only reports about that site alone are visible. */
  function inScope(summary: { siteIds: readonly string[] }): boolean {
    return !ctx.scopedSite || (summary.siteIds.length > 0 && summary.siteIds.every((id) => id === ctx.scopedSite));
  }
  function checkReportScope(id: number, summary: { siteIds: readonly string[] }): void {
    if (!inScope(summary)) throw new ScopeError(`report ${id} covers sites outside this window's scope`);
  }
  function storedInScope(id: number): ReturnType<ReportService['open']> {
    const stored = reportService().open(id);
    checkReportScope(id, stored.summary);
    return stored;
  }
}

/** A time a window sent, as ISO text; a time that does not parse is the user's to correct. */
function checkedTime(text: string, field: string): string {
  const t = new Date(text);
  if (Number.isNaN(t.getTime())) throw new InputError(`${field}: not a valid time: ${text.slice(0, 40)}`);
  return t.toISOString();
}

/**
 * The handlers with the machine policy's read-only mode in front of every channel that writes
 * ({@link CHANNEL_ACCESS}): a `write` channel, or an `operation` channel naming an operation the
 * catalog marks as writing, is refused before its handler runs. The stores refuse the same writes
 * again below (defence in depth, and the CLI's path).
 */
export function guardWrites(policy: PolicyGuard, handlers: Handlers): Handlers {
  const out = { ...handlers } as Record<Channel, (r: unknown) => Promise<unknown>>;
  for (const channel of Object.keys(handlers) as Channel[]) {
    const access: string = CHANNEL_ACCESS[channel];
    if (access === 'read' || access === 'local') continue;
    const handler = handlers[channel] as (r: unknown) => Promise<unknown>;
    out[channel] = async (r: unknown) => {
      const op = access === 'operation' ? (r as { operation: string }).operation : undefined;
      if (op === undefined || getOperation(op as OperationKey).writes) policy.assertWritable(op ?? channel);
      return handler(r);
    };
  }
  return out as Handlers;
}

/** A request outside this window's scope, or naming nothing that exists. */
export class ScopeError extends InputError {
  override readonly name = 'ScopeError';
  constructor(message: string) {
    super(message, 'not-found');
  }
}

/**
 * The single entry both shells use: parse the request with its schema, run the handler, and turn any
 * failure into `{ code, message }` without secrets. Unknown channels are refused.
 */
export async function dispatch(
  handlers: Handlers,
  channel: string,
  payload: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; error: IpcError }> {
  if (!Object.hasOwn(CONTRACT, channel)) return { ok: false, error: { code: 'unknown-channel', message: `unknown channel "${String(channel).slice(0, 80)}"` } };
  const c = channel as Channel;
  if (nestedDeeperThan(payload, MAX_DEPTH)) {
    return { ok: false, error: { code: 'validation', message: `malformed request: nested deeper than ${MAX_DEPTH} levels (or cyclic)` } };
  }
  const parsed = CONTRACT[c].request.safeParse(payload ?? {});
  if (!parsed.success) return { ok: false, error: { code: 'validation', message: describeZod(parsed.error) } };
  try {
    const handler = handlers[c] as (r: unknown) => Promise<unknown>;
    const value = await handler(parsed.data);
    return { ok: true, value };
  } catch (err) {
    // Whatever the failure says, the secrets of this very request (a password, a CHAP secret) stay out.
    return { ok: false, error: toIpcError(err, secretValues(parsed.data)) };
  }
}

/**
 * Deepest nesting a request may have. The contract's requests are a few levels deep; a payload
 * nested thousands deep (or cyclic, which Electron's structured clone can deliver) would exhaust
 * the stack of recursive walkers further in (redaction, JSON serialisation of the action log).
 */
const MAX_DEPTH = 64;

/** `{ code, message }` of a failure, with `secrets` (values sent in the request) masked in the message. */
export function toIpcError(err: unknown, secrets: readonly string[] = []): IpcError {
  const code = ipcErrorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  return { code, message: maskSecrets(message, secrets).slice(0, 2000) };
}

function describeZod(err: ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || 'request'}: ${i.message}`)
    .join('; ');
}
