import { z } from 'zod';
import { siteInputSchema, sitePollingSchema } from './site.js';

/*
 * The file that moves a site list between workstations (`fleetdeck site export` / `site import`):
 * versioned, strict, and without a secret. What travels is what makes a site the same site
 * elsewhere: name, URL, user name, group, tags, trust (pin, pinned certificate, CA bundle) and
 * polling. What belongs to one workstation stays: passwords and tokens (its keychain), what a login
 * taught, creation times.
 */

/** `format` of a site-list file. */
export const SITE_LIST_FORMAT = 'fleetdeck-site-list';
/** Version of the site-list file format. */
export const SITE_LIST_VERSION = 1;

const pem = z.string().max(1_000_000);

/** One site in a site-list file. */
export const transferSiteSchema = z.strictObject({
  id: z.string().min(1).max(64),
  name: siteInputSchema.shape.name,
  baseUrl: siteInputSchema.shape.baseUrl,
  username: siteInputSchema.shape.username,
  group: siteInputSchema.shape.group,
  tags: z.array(z.string().max(50)).max(50),
  allowHttp: z.boolean(),
  tls: z.strictObject({ pinSha256: z.string().max(200).optional(), pinnedCertPem: pem.optional(), caBundlePem: pem.optional() }),
  polling: z.strictObject({
    intervalSeconds: sitePollingSchema.shape.intervalSeconds.max(86_400),
    paused: z.boolean(),
    maxInFlight: sitePollingSchema.shape.maxInFlight.max(64),
    smartMaxAgeHours: sitePollingSchema.shape.smartMaxAgeHours,
  }),
});
export type TransferSite = z.infer<typeof transferSiteSchema>;

/** A site-list file. Entries are checked one by one (each bad one is named), so `sites` is a list of anything here. */
export const siteListFileSchema = z.strictObject({
  format: z.literal(SITE_LIST_FORMAT),
  version: z.literal(SITE_LIST_VERSION),
  /** ISO time of the export. */
  exportedAt: z.string().max(40).optional(),
  /** Who exported it and from where, for the reader (free text). */
  exportedBy: z.string().max(200).optional(),
  sites: z.array(z.unknown()).max(10_000),
});

/** What happens to one entry of an import. */
export const IMPORT_ACTIONS = ['add', 'replace', 'skip', 'unchanged'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];

/** One entry of an import plan: the action, the local site it meets, and why (the conflicts found). */
export const importStepSchema = z.object({
  action: z.enum(IMPORT_ACTIONS),
  /** The entry's name in the file. */
  name: z.string(),
  /** The local site it meets (by name, or by URL). */
  local: z.string().optional(),
  /** Each conflict: `same name, different URL`, `same URL, different name`, `pin differs`… */
  conflicts: z.array(z.string()),
  /** What else the admin should know: why it stays skipped with replace (a managed site), or what a replacement forgot. */
  note: z.string().optional(),
});
export type ImportStep = z.infer<typeof importStepSchema>;

/** An import, planned (a dry run) or done. */
export const importPlanSchema = z.object({
  file: z.string(),
  steps: z.array(importStepSchema),
  /** Whether the list was changed (false for a dry run, or nothing to do). */
  applied: z.boolean(),
});
export type ImportPlan = z.infer<typeof importPlanSchema>;
