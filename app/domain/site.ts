import { z } from 'zod';

/*
 * A site and a system's state are declared once here, as schemas; every variant (what the store
 * keeps, what an admin gives to add or edit one, what the renderer sees) is derived from them.
 */

/** A site's TLS settings. Certificates are public data. */
export const siteTlsSchema = z.object({
  /** Pinned SHA-256 of the site's certificate (lowercase hex), confirmed by the admin. */
  pinSha256: z.string().optional(),
  /** The pinned certificate (PEM), its own trust root when self-signed. */
  pinnedCertPem: z.string().optional(),
  /** Optional CA bundle (PEM) trusted for this site only. */
  caBundlePem: z.string().optional(),
});
export type SiteTls = z.infer<typeof siteTlsSchema>;

/**
 * How a site wants its session token: the document's `Authorization: Bearer <token>`, or the token
 * alone (`raw`), learned when a fresh session's token was refused as Bearer and accepted bare.
 */
export const siteAuthSchema = z.object({
  tokenScheme: z.enum(['bearer', 'raw']),
  /** ISO time it was learned. */
  learnedAt: z.string(),
});
export type SiteAuth = z.infer<typeof siteAuthSchema>;

export { DEFAULT_POLL_INTERVAL_SECONDS, isPolled, pollingText } from './polling.js';

export const sitePollingSchema = z.object({
  /** Seconds between background polls of the site while the app runs; 0 = on demand only. */
  intervalSeconds: z.number().int().min(0),
  /** A paused site is never contacted. */
  paused: z.boolean(),
  /** Requests in flight to this endpoint at most (its controllers also serve production I/O). */
  maxInFlight: z.number().int().min(1),
  /**
   * Hours a drive's SMART reading stays current: a background poll re-reads it only when older (or
   * when the drive's status changed). Absent: {@link DEFAULT_SMART_MAX_AGE_HOURS}. A manual Refresh reads all.
   */
  smartMaxAgeHours: z.number().int().min(1).max(8760).optional(),
});
export type SitePolling = z.infer<typeof sitePollingSchema>;

/** A site: one management endpoint of the storage interface, as stored. Holds no secret. */
export const siteSchema = z.object({
  /** Stable id (slug of the first name); accounts in the keychain are keyed by it. */
  id: z.string().min(1),
  /** Unique display name, used on the command line (`--site NAME`). */
  name: z.string(),
  /** Base URL, may carry a path prefix. */
  baseUrl: z.string(),
  username: z.string(),
  group: z.string().optional(),
  tags: z.array(z.string()),
  tls: siteTlsSchema,
  /** Explicit opt-in to plain http for a non-loopback host. */
  allowHttp: z.boolean(),
  polling: sitePollingSchema,
  /** What the site's login taught Fleetdeck (no secret): absent until something differed from the document. */
  auth: siteAuthSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Site = z.infer<typeof siteSchema>;

/** What is needed to add a site to the store. Never carries a secret: passwords go to the secret store. */
export const newSiteSchema = siteSchema
  .pick({ name: true, baseUrl: true, username: true, group: true })
  .extend({
    /** Default: slug of the name, suffixed `-2`, `-3`… when already taken. */
    id: siteSchema.shape.id.optional(),
    tags: siteSchema.shape.tags.optional(),
    tls: siteTlsSchema.optional(),
    allowHttp: siteSchema.shape.allowHttp.optional(),
    polling: sitePollingSchema.partial().optional(),
  });
export type NewSite = z.infer<typeof newSiteSchema>;

/** Changes to a stored site. `tls` replaces the whole TLS settings; `polling` is merged; `group: null` clears it; `auth: null` forgets what was learned. */
export const sitePatchSchema = newSiteSchema
  .omit({ id: true })
  .partial()
  .extend({ group: z.string().nullable().optional(), auth: siteAuthSchema.nullable().optional() });
export type SitePatch = z.infer<typeof sitePatchSchema>;

/** What an admin gives to add a site (IPC `sites:add`, the CLI), with the bounds a request may have. */
export const siteInputSchema = z.object({
  name: z.string().min(1).max(64),
  baseUrl: z.string().min(1).max(2000),
  username: z.string().min(1).max(200),
  /** Sent once, stored in the OS keychain by main, never returned. */
  password: z.string().max(1000).optional(),
  group: z.string().max(100).optional(),
  tags: z.array(z.string().max(50)).max(50).optional(),
  allowHttp: z.boolean().optional(),
  /** The fingerprint the admin confirmed (trust on first use). */
  trustSha256: z.string().max(200).optional(),
  caBundlePem: z.string().max(1_000_000).optional(),
});
export type SiteInput = z.infer<typeof siteInputSchema>;

/** What an admin may change from the app (IPC `sites:edit`): the input's plain fields and the polling settings. */
export const siteEditSchema = siteInputSchema
  .pick({ name: true, baseUrl: true, username: true, group: true, tags: true, allowHttp: true })
  .partial()
  .extend({
    intervalSeconds: sitePollingSchema.shape.intervalSeconds.max(86_400).optional(),
    maxInFlight: sitePollingSchema.shape.maxInFlight.max(64).optional(),
    smartMaxAgeHours: sitePollingSchema.shape.smartMaxAgeHours,
  });
export type SiteEdit = z.infer<typeof siteEditSchema>;

/** A site as the renderer sees it: no certificate text, whether it is the embedded simulator's. */
export const siteViewSchema = siteSchema.omit({ tls: true, createdAt: true, updatedAt: true }).extend({
  tls: z.object({
    pinSha256: siteTlsSchema.shape.pinSha256,
    hasCaBundle: z.boolean(),
    /** End of the pinned certificate's validity (ISO), when known. */
    validTo: z.string().optional(),
    /** Set when the pinned certificate has expired: it is still trusted by its pin, and the site says so. */
    expiredSince: z.string().optional(),
  }),
  simulated: z.boolean(),
  /** Preset by the machine policy: managed by the organisation, not edited or removed in the app. */
  managed: z.boolean().optional(),
});
export type SiteView = z.infer<typeof siteViewSchema>;

/**
 * What became of an earlier Fleetdeck's `sites.json` when this data directory's site list was
 * created: imported (and renamed aside), or not imported because it could not be read. Told in the
 * window until the admin dismisses it. The message is the one sentence the admin reads.
 */
export const siteImportNoticeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('imported'), file: z.string(), sites: z.number().int().min(0), renamedTo: z.string().optional(), message: z.string() }),
  z.object({ kind: z.literal('not-imported'), file: z.string(), message: z.string() }),
]);
export type SiteImportNotice = z.infer<typeof siteImportNoticeSchema>;

/**
 * What a system's session and data look like to every view. `protocol-error`: the system answers,
 * but some answer of its last refresh had a shape the app does not recognise; what it could not
 * read is named in `lastError` and was neither shown nor cached (views keep older data, with its age).
 * `unlisted`: a system the app knew that its site's `GET /systems/list` no longer lists, since
 * `unlistedSince`, with the list's `Message` in `lastError`; shown from the cache, never refreshed.
 */
export const SYSTEM_STATES = ['ok', 'refreshing', 'stale', 'unreachable', 'login-required', 'certificate-changed', 'paused', 'protocol-error', 'unlisted'] as const;
export const systemStateSchema = z.enum(SYSTEM_STATES);
export type SystemState = z.infer<typeof systemStateSchema>;

const isoTime = z.string().max(40);

export const systemStatusSchema = z.object({
  siteId: z.string(),
  system: z.string(),
  state: systemStateSchema,
  /** ISO time of the last complete refresh. */
  lastSuccessAt: isoTime.optional(),
  /** ISO time of the last failure and its message (already redacted). */
  lastErrorAt: isoTime.optional(),
  lastError: z.string().optional(),
  /** ISO time of the first list of the site that left this system out (state `unlisted`). */
  unlistedSince: isoTime.optional(),
  /** Refresh progress while refreshing: reads done / planned. */
  progress: z.object({ done: z.number(), total: z.number() }).optional(),
  /** ISO time before which a system that asked to slow down (HTTP 429 or 503) is not read again by polls. */
  nextTryAt: isoTime.optional(),
  /** What the last refresh left out to stay within its limits (drives over the SMART cap, answers over the byte budget); the views show it. */
  truncated: z.string().optional(),
  /** The system's clock minus true time (ms), when it differs beyond the tolerance: its zone-less times were moved by it; views and reports say so. */
  clockOffsetMs: z.number().optional(),
  /** What told the clock offset: the nodes' `Time`, the stamps of fresh records, or the HTTP `Date` header. */
  clockSource: z.enum(['node-time', 'records', 'date-header']).optional(),
  /** The scale of the system's percentages where its answers showed it surely (sizes, a value over 1): `fraction` is 0–1. */
  percentScale: z.enum(['percent', 'fraction']).optional(),
  /** Whether the system writes slashed dates day first, as its answers showed. */
  dayFirst: z.boolean().optional(),
  /**
   * Main's status sequence number: which status change (counted from main's start) set this status,
   * 0 for one known from the cache and unchanged since. A newer status of the system has a larger
   * one, whichever way it reached the window (an event, a `fleet:status` or `fleet:refresh`
   * answer): the window keeps the newer ({@link supersedes}).
   */
  seq: z.number().int().nonnegative().optional(),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;

// In their own module, without zod, for the window's first script; main imports them from here.
export { DEFAULT_SMART_MAX_AGE_HOURS, refreshEnded, siteNameProblem, supersedes } from './site-rules.js';

/** Lowercase, dash-separated id from a name. */
export function siteIdFromName(name: string): string {
  const id = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id || 'site';
}

