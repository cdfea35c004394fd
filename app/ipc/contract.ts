import { z } from 'zod';
import { bulkJobSchema } from '../domain/bulk.js';
import { alertFilterSchema, alertSchema } from '../alerts/alert.js';
import { ruleOverrideSchema, ruleScopeSchema, ruleSettingsSchema, scopedOverrideSchema } from '../alerts/rules.js';
import { ACTION_EXPORT_FORMATS, actionEntrySchema, actionLogExportSchema, actionLogFilterSchema, actionLogPageSchema, actionLogVerificationSchema } from '../domain/action.js';
import { forwardSettingSchema, forwardStatusSchema } from '../domain/syslog-forward.js';
import { siteEditSchema, siteImportNoticeSchema, siteInputSchema, siteViewSchema, systemStatusSchema } from '../domain/site.js';
import { policyViewSchema } from '../policy/machine-policy.js';
import { importPlanSchema } from '../domain/site-transfer.js';
import { healthBriefSchema, healthSummarySchema } from '../health/system-summary.js';
import { OPERATION_KEYS } from '../catalog/operations.js';
import { fileExportSchema, reportDiffSchema, reportExportSchema, reportFormatSchema, reportKindSchema, reportModelSchema, reportSummarySchema } from '../reports/schema.js';
import { searchAnswerSchema } from '../search/entries.js';
import { fleetComplianceSchema, scorePointSchema } from '../compliance/results.js';
import { fixPlanSchema } from '../compliance/fix.js';
import { waiverSchema } from '../compliance/waivers.js';
import type { ChannelName, EventNameList } from './channels.js';

/**
 * The IPC contract: every channel the renderer may call, with its request and response schemas,
 * and the events main pushes. The Electron preload, the browser shell and the handlers in main are
 * all built from this one map. Tokens and passwords never appear in a response schema.
 */

/**
 * Built on first use, then kept. A start would otherwise build every channel's request and
 * response schemas (about 90 zod schemas) before it serves: main parses only the requests of the
 * calls a window makes, and the responses are read by the tests.
 */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}

/** An object whose properties are built by their functions on first read, then kept (plain data properties from then on). */
function lazily<T extends Record<string, () => unknown>>(builders: T): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const out = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const key of Object.keys(builders) as Array<keyof T & string>) {
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get: () => {
        const value = builders[key]?.() as ReturnType<T[typeof key]>;
        Object.defineProperty(out, key, { value, enumerable: true, writable: false, configurable: false });
        return value;
      },
    });
  }
  return out;
}

/** A channel's request and response schemas, each built on its first read. */
function channel<Req extends z.ZodType, Res extends z.ZodType>(request: () => Req, response: () => Res): { readonly request: Req; readonly response: Res } {
  return lazily({ request, response });
}

const name = z.string().min(1).max(200);
const siteRef = z.string().min(1).max(200);
const isoTime = z.string().max(40);
const params = z.record(z.string().max(200), z.unknown());
/** A catalog operation key: a window names operations exactly as the catalog spells them. */
// A short message of its own: zod's default would list all 129 keys in every refusal.
const operationKey = once(() => z.enum(OPERATION_KEYS, { error: 'not an operation of the catalog (write it as "METHOD /path", as the catalog spells it)' }));

/** A site as the renderer sees it (`app/domain/site.ts`). */
export const siteSchema = siteViewSchema;
export type { SiteView } from '../domain/site.js';
export { systemStatusSchema };
/** A system's status as the renderer sees it: the same shape main keeps. */
export type SystemStatusView = z.infer<typeof systemStatusSchema>;

export const presentedCertificateSchema = z.object({
  sha256: z.string(),
  subject: z.string(),
  issuer: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
});

const ok = z.object({ ok: z.literal(true) });

const reportId = z.number().int().min(1);
const alertIds = z.array(z.number().int().min(1)).min(1).max(10_000);
/** The alert rules as the rule editor shows them. */
const alertRules = once(() => z.object({ defaults: ruleSettingsSchema, overrides: z.array(scopedOverrideSchema), notify: z.boolean() }));
/**
 * Main writes an export only where the admin chose in a dialog main showed: a path named by the
 * window is refused, whatever it holds.
 */
const refusedPath = (): z.ZodOptional<z.ZodNever> =>
  z.never({ error: 'a window cannot name where main writes: exports are saved where you choose in the save dialog, or downloaded' }).optional();
/** A site-list file the admin picked in the window: its name (for messages) and text. */
const siteImportRequest = once(() => z.object({ fileName: z.string().min(1).max(255), text: z.string().max(50_000_000), replace: z.boolean().default(false) }));
/** One table of a fleet view, to be exported; a cell is what a view shows, never a secret. */
const tableExportSchema = once(() =>
  z.object({
    file: refusedPath(),
    format: z.enum(['csv', 'json']),
    title: z.string().max(200),
    columns: z.array(z.string().max(200)).min(1).max(200),
    rows: z.array(z.array(z.union([z.string().max(100_000), z.number(), z.boolean(), z.null()])).max(200)).max(200_000),
  }),
);
export type TableExport = z.output<ReturnType<typeof tableExportSchema>>;

/** A report with its place in the history. */
const storedReport = once(() => z.object({ id: z.number().int(), summary: reportSummarySchema, model: reportModelSchema }));

/** What the demo fleet's "what if" panel can make happen on a simulated system or site. */
export const WHAT_IF_ACTIONS = ['fail-drive', 'fill-pool', 'lag-replication', 'stop-site', 'start-site'] as const;
export type WhatIfAction = (typeof WHAT_IF_ACTIONS)[number];

/** channel → { request, response }. Channel names are `domain:verb`. */
export const CONTRACT = {
  'app:info': channel(
    () => z.object({}),
    () => z.object({
      version: z.string(),
      scopedSite: z.string().optional(),
      simulated: z.boolean(),
      /** The embedded demo fleet (`--demo`): `demo:whatif` answers only then. */
      demo: z.boolean().optional(),
      keychain: z.enum(['keychain', 'memory']),
      keychainWarning: z.string().optional(),
      /** Data files moved aside and rebuilt, kept in memory, or unusable (an action log that refuses writes), one sentence each. */
      storeWarnings: z.array(z.string()).optional(),
      /** What became of an earlier Fleetdeck's sites.json (imported, or why not), until dismissed with `notices:dismiss`. */
      siteImport: siteImportNoticeSchema.optional(),
      /** The machine policy: what it manages, and why writes are refused when the workstation is read-only. */
      policy: policyViewSchema.optional(),
    }),
  ),
  /** The admin has read a notice: main remembers it, so no window (nor a reload, nor the next start) tells it again. */
  'notices:dismiss': channel(
    () => z.object({ notice: z.enum(['site-import']) }),
    () => ok,
  ),
  'sites:list': channel(
    () => z.object({}),
    () => z.array(siteSchema),
  ),
  'sites:probe': channel(
    () => z.object({ baseUrl: z.string().min(1).max(2000) }),
    () => presentedCertificateSchema,
  ),
  'sites:add': channel(
    () => siteInputSchema,
    () => siteSchema,
  ),
  'sites:edit': channel(
    () => z.object({
      site: siteRef,
      patch: siteEditSchema,
    }),
    () => siteSchema,
  ),
  'sites:remove': channel(
    () => z.object({ site: siteRef }),
    () => ok,
  ),
  'sites:trust': channel(
    () => z.object({ site: siteRef, sha256: z.string().min(1).max(200) }),
    () => z.object({ sha256: z.string() }),
  ),
  'sites:pause': channel(
    () => z.object({ site: siteRef, paused: z.boolean() }),
    () => ok,
  ),
  /**
   * The site list as a file to move to another workstation (no secret): every site of this window,
   * or those named. Saved where the admin chooses (Electron) or handed to the window to download.
   */
  'sites:export': channel(
    () => z.object({ file: refusedPath(), sites: z.array(siteRef).max(10_000).optional() }),
    () => fileExportSchema,
  ),
  /** What importing a site-list file (its text, as the admin picked it) would do: nothing is changed. */
  'sites:preview': channel(
    () => siteImportRequest(),
    () => importPlanSchema,
  ),
  /** Imports a site-list file, all or nothing: refused whole when malformed; conflicts skipped, or replaced with `replace`. */
  'sites:import': channel(
    () => siteImportRequest(),
    () => importPlanSchema,
  ),
  /**
   * Logs in the site's systems (or only `system`). A code goes with one login only, since one-time
   * codes are accepted once: the systems that then ask for a code of their own are in `needCode`,
   * each to be logged in with `system` and the next code.
   */
  'session:login': channel(
    () => z.object({ site: siteRef, password: z.string().max(1000).optional(), code: z.string().regex(/^\d{6,8}$/).optional(), system: name.optional() }),
    () => z.object({ ok: z.literal(true), loggedIn: z.array(z.string()), needCode: z.array(z.string()) }),
  ),
  'session:logout': channel(
    () => z.object({ site: siteRef }),
    () => ok,
  ),
  'fleet:status': channel(
    () => z.object({ site: siteRef.optional() }),
    () => z.array(z.object({ siteId: z.string(), error: z.string().optional(), systems: z.array(systemStatusSchema) })),
  ),
  'fleet:refresh': channel(
    () => z.object({ sites: z.array(siteRef).max(1000).optional(), systems: z.array(name).max(1000).optional(), force: z.boolean().optional() }),
    () => z.array(systemStatusSchema),
  ),
  'op:call': channel(
    () => z.object({
      site: siteRef,
      system: name.optional(),
      /** `METHOD /path` of a catalog operation, spelt exactly as the catalog does (`OperationKey`). */
      operation: operationKey(),
      query: params.optional(),
      body: z.unknown().optional(),
      headers: params.optional(),
      /** Names the call for `op:cancel` (unique per window, e.g. a random UUID). */
      callId: z.string().min(1).max(100).optional(),
    }),
    () => z.object({ result: z.unknown() }),
  ),
  /**
   * Cancels an `op:call` still running. A read stops; a write already sent is recorded as
   * "outcome unknown" (it may still run on the system), one not yet sent as refused.
   */
  'op:cancel': channel(
    () => z.object({ callId: z.string().min(1).max(100) }),
    () => z.object({ cancelled: z.boolean() }),
  ),
  /**
   * Starts a bulk change: one write, the same parameters, on several systems, run by main (so a
   * closed view loses no outcome; progress comes as `bulk:progress` events). Each system's write
   * goes through the same path as `op:call` and is in the action log.
   */
  'bulk:start': channel(
    () => z.object({
      operation: operationKey(),
      targets: z.array(z.object({ site: siteRef, system: name })).min(1).max(500),
      query: params.optional(),
      body: z.unknown().optional(),
      headers: params.optional(),
      /** Systems sent to at once (default 4). */
      maxInFlight: z.number().int().min(1).max(16).optional(),
      /** After the first refused or unknown outcome, start no other system. */
      stopOnFailure: z.boolean().optional(),
    }),
    () => bulkJobSchema,
  ),
  /** The bulk changes main keeps (this window's sites only), newest first. */
  'bulk:list': channel(
    () => z.object({}),
    () => z.array(bulkJobSchema),
  ),
  /** Sends again to the systems that refused or were not sent to; never to one whose outcome is unknown. */
  'bulk:retry': channel(
    () => z.object({ id: z.string().min(1).max(100) }),
    () => bulkJobSchema,
  ),
  /** Starts no further system; writes already sent finish. */
  'bulk:cancel': channel(
    () => z.object({ id: z.string().min(1).max(100) }),
    () => bulkJobSchema,
  ),
  'cache:read': channel(
    () => z.object({ site: siteRef, system: name, operation: operationKey(), query: params.optional() }),
    () => z.object({ value: z.unknown(), at: z.string(), stale: z.boolean() }).nullable(),
  ),
  /**
   * Fleet search over the cached data, answered from main's index: the first `limit` matches, how
   * many match in all, and how many systems are still to be read into the index (this window's
   * sites only).
   */
  'search:query': channel(
    () => z.object({ query: z.string().max(1000), limit: z.number().int().min(1).max(1000).default(200) }),
    () => searchAnswerSchema,
  ),
  /**
   * Every known system's health brief (`app/health/system-summary.ts` `healthBriefSchema`: level,
   * dimensions, HA, the capacity figures of the fleet totals, counts of unhealthy drives and lagging
   * pairs, data age; a few hundred bytes each), what the tree's and overview's first frame show: all
   * of them, or with `since` only those computed after that sequence number. It shares its sequence
   * numbers with `health:summaries`, which has the details. A scoped window gets its site's systems only.
   */
  'health:briefs': channel(
    () => z.object({ since: z.number().int().min(0).optional() }),
    () => z.object({ seq: z.number().int(), systems: z.array(healthBriefSchema) }),
  ),
  /**
   * Every known system's health summary (roll-up with pools and forecasts, unhealthy drives, lagging
   * replication, recent errors, data age: `app/health/system-summary.ts`), kept by main: all of them,
   * or with `since` only those computed after that sequence number (the `seq` of an earlier answer).
   * The window reads it after its first frame, which `health:briefs` fills. A scoped window gets its
   * site's systems only.
   */
  'health:summaries': channel(
    () => z.object({ since: z.number().int().min(0).optional() }),
    () => z.object({ seq: z.number().int(), systems: z.array(healthSummarySchema) }),
  ),
  'log:list': channel(
    () => z.object({ site: siteRef.optional(), since: isoTime.optional(), until: isoTime.optional(), limit: z.number().int().min(1).max(100_000).optional() }),
    () => z.array(actionEntrySchema),
  ),
  'log:verify': channel(
    () => z.object({}),
    () => actionLogVerificationSchema,
  ),
  /**
   * One page of the action log, newest first, filtered in main (site by name or id; a scoped
   * window sees its site only), with the number of matching writes and the time it was read.
   */
  'log:query': channel(
    () => actionLogFilterSchema.omit({ siteId: true }).extend({
      site: siteRef.optional(),
      offset: z.number().int().min(0).max(100_000_000).default(0),
      limit: z.number().int().min(1).max(1000).default(200),
    }),
    () => actionLogPageSchema,
  ),
  /** Audit-trail forwarding to syslog: target, last record acknowledged, queue length, last error. */
  'forward:status': channel(
    () => z.object({}),
    () => forwardStatusSchema,
  ),
  /**
   * Sets where the action log is forwarded (`null`: off), recorded in the action log. Refused when
   * the organisation's policy manages it, and in a window scoped to one site (it is the workstation's).
   */
  'forward:set': channel(
    () => z.object({ setting: forwardSettingSchema.nullable() }),
    () => forwardStatusSchema,
  ),
  /**
   * Exports every write matching the filter as CSV or JSON: to a file chosen in a save dialog
   * (Electron), or as the file's text for the window to download (browser shell).
   */
  'log:export': channel(
    () => actionLogFilterSchema.omit({ siteId: true }).extend({ site: siteRef.optional(), format: z.enum(ACTION_EXPORT_FORMATS) }),
    () => actionLogExportSchema,
  ),
  /** The report history, newest first (without models). */
  'reports:list': channel(
    () => z.object({}),
    () => z.array(reportSummarySchema),
  ),
  /**
   * Builds and stores a report. Refreshes the sites first unless `offline`; unreachable systems are
   * reported from the offline cache with their data ages. `sites` defaults to every site (the
   * scoped site in a scoped window); `since`/`until` bound the action log part (ISO).
   */
  'reports:generate': channel(
    () => z.object({
      kind: reportKindSchema,
      sites: z.array(siteRef).max(1000).optional(),
      offline: z.boolean().optional(),
      since: isoTime.optional(),
      until: isoTime.optional(),
    }),
    () => storedReport(),
  ),
  /** Reopens a stored report. */
  'reports:open': channel(
    () => z.object({ id: reportId }),
    () => storedReport(),
  ),
  /** Configuration changes between two stored config or audit reports: rows added, removed, changed. */
  'reports:diff': channel(
    () => z.object({ from: reportId, to: reportId }),
    () => reportDiffSchema,
  ),
  /**
   * Exports a stored report in the chosen formats plus manifest.json with the SHA-256 of every
   * file: to a new folder inside the one chosen in main's folder dialog (Electron), or as one ZIP
   * for the window to download (browser shell).
   */
  'reports:export': channel(
    () => z.object({ id: reportId, formats: z.array(reportFormatSchema).min(1).max(4), dir: refusedPath() }),
    () => reportExportSchema,
  ),
  /** Alerts matching the filters, newest first, and how many are open (not acknowledged, not snoozed, not cleared). */
  'alerts:list': channel(
    () => alertFilterSchema,
    () => z.object({ alerts: z.array(alertSchema), openCount: z.number() }),
  ),
  /** Acknowledges alerts (cleared ones stay as they were); answers them as they are now. */
  'alerts:ack': channel(
    () => z.object({ ids: alertIds }),
    () => z.array(alertSchema),
  ),
  /** Snoozes alerts until a time after now (ISO), or ends their snooze with `null`. */
  'alerts:snooze': channel(
    () => z.object({ ids: alertIds, until: isoTime.nullable() }),
    () => z.array(alertSchema),
  ),
  /** The default rules, every stored override with its scope, and whether new alerts raise desktop notifications. */
  'alertrules:get': channel(
    () => z.object({}),
    () => alertRules(),
  ),
  /** Replaces the override at one scope (`null` removes it); recorded in the action log; alerts are evaluated again at once. */
  'alertrules:set': channel(
    () => z.object({ scope: ruleScopeSchema, override: ruleOverrideSchema.nullable() }),
    () => alertRules(),
  ),
  /** Turns desktop notifications of new alerts on or off (recorded in the action log). */
  'alerts:notify': channel(
    () => z.object({ notify: z.boolean() }),
    () => ok,
  ),
  /**
   * Exports one table a fleet view shows (capacity planning, version drift, a configuration
   * comparison) as CSV or JSON: to a file chosen in main's save dialog (Electron), or as the
   * file's text for the window to download (browser shell).
   */
  'table:export': channel(
    () => tableExportSchema(),
    () => fileExportSchema,
  ),
  /**
   * Every cached system of the window's sites (or of `site`) against the compliance baseline in
   * force, evaluated from the offline cache as `fleetdeck compliance` does: each check's result,
   * evidence and waiver, counts and scores, the waivers recorded and the scope's kept scores. Each
   * call is an evaluation whose scores are kept.
   */
  'compliance:evaluate': channel(
    () => z.object({ site: siteRef.optional() }),
    () => fleetComplianceSchema,
  ),
  /** The kept compliance scores of one system, oldest first. */
  'compliance:history': channel(
    () => z.object({ site: siteRef, system: name }),
    () => z.array(scorePointSchema),
  ),
  /**
   * Waives a check for one system, every system of a site (no `system`) or the fleet (neither),
   * with a reason and an end (ISO, in the future): a record of the action log's hash chain. A window
   * scoped to one site waives for its site only. Alerts are evaluated again at once.
   */
  'compliance:waive': channel(
    () => z.object({ check: name, site: siteRef.optional(), system: name.optional(), reason: z.string().max(500), until: isoTime }),
    () => waiverSchema,
  ),
  /** Revokes the waiver of a check at exactly that scope (recorded in the action log). */
  'compliance:unwaive': channel(
    () => z.object({ check: name, site: siteRef.optional(), system: name.optional() }),
    () => ok,
  ),
  /**
   * The preview of a check's fix on the systems where it fails (the window's sites, or `site`):
   * the exact writes, grouped into bulk changes the window starts with `bulk:start` once the admin
   * confirms. Sends nothing.
   */
  'compliance:fixplan': channel(
    () => z.object({ check: name, site: siteRef.optional() }),
    () => fixPlanSchema,
  ),
  /**
   * Demo fleet only (`--demo`): makes something happen in the embedded simulator (fail a drive,
   * fill a pool, lag a replication pair, stop or start a site), then refreshes what it touched.
   * `system` is required by the system actions. Refused in any other window, and for a site that
   * is not simulated. Answers what happened, in a sentence.
   */
  'demo:whatif': channel(
    () => z.object({ action: z.enum(WHAT_IF_ACTIONS), site: siteRef, system: name.optional() }),
    () => z.object({ message: z.string() }),
  ),
} as const;

export type Channel = keyof typeof CONTRACT;
// Compile-time proof that the contract and the preload's name list agree, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const channelsAgree: Same<Channel, ChannelName> = true;
const eventsAgree: Same<keyof typeof EVENTS, EventNameList> = true;
void channelsAgree;
void eventsAgree;
export type Request<C extends Channel> = z.input<(typeof CONTRACT)[C]['request']>;
export type Response<C extends Channel> = z.output<(typeof CONTRACT)[C]['response']>;
export const CHANNELS = Object.keys(CONTRACT) as Channel[];

/** Events main pushes to the renderer. */
export const EVENTS = lazily({
  'fleet:status': () => systemStatusSchema,
  'fleet:notifications': () => z.object({ siteId: z.string(), system: z.string(), count: z.number() }),
  /** A bulk change moved (a system started or ended, the job ended). */
  'bulk:progress': () => bulkJobSchema,
  /**
   * An evaluation raised or cleared alerts of a system (each new alert raises a desktop notification
   * when that is on): what it raised and cleared, and how many alerts are open fleet-wide (in the
   * window's scope).
   */
  'alerts:changed': () => z.object({ siteId: z.string(), system: z.string(), raised: z.array(alertSchema), cleared: z.array(alertSchema), openCount: z.number() }),
  /** The admin clicked a desktop notification of an alert (Electron): the window opens its system. */
  'alerts:open': () => z.object({ siteId: z.string(), system: z.string() }),
});
export type EventName = keyof typeof EVENTS;
export type EventPayload<E extends EventName> = z.output<(typeof EVENTS)[E]>;

/** An error as it crosses the boundary: a stable code and a message without secrets. */
export const ipcErrorSchema = z.object({ code: z.string(), message: z.string() });
export type IpcError = z.infer<typeof ipcErrorSchema>;

/**
 * Every answer from main, on both transports (Electron IPC and the browser shell's HTTP), as JSON
 * text: a value, or an error with a stable code and a message without secrets.
 */
export type IpcEnvelope<T = unknown> = { ok: true; value: T } | { ok: false; error: IpcError };

/**
 * What the preload exposes and the browser shell's HTTP client implements: each call answers the
 * {@link IpcEnvelope} as JSON text, a cached answer spliced in as it was stored. The renderer
 * decodes that text in one place (`renderer/lib/api.ts`) whichever transport carried it.
 */
export interface FleetdeckTransport {
  call(channel: string, request: unknown): Promise<string>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** The typed API the renderer calls (built on a transport; tests hand the renderer a fake). */
export interface FleetdeckApi {
  invoke<C extends Channel>(channel: C, request: Request<C>): Promise<Response<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
