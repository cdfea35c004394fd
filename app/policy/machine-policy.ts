import { z } from 'zod';
import { isSecretField } from '../redact.js';

/*
 * The machine policy: one JSON file IT deploys to each workstation. It presets sites, forces
 * settings and can make the workstation read-only. This module is its format and its parser; main
 * finds the file, checks who owns it and applies it (main/policy/). The rule: a policy is applied
 * whole or not at all; a malformed one is named (file, field, reason) and refused whole.
 */

/** Format version of the policy file. */
export const POLICY_VERSION = 1;

/** Highest minimum poll interval a policy may force: one day, as the longest interval a site may have. */
export const MAX_POLICY_INTERVAL_SECONDS = 86_400;

const hostPort = z
  .string()
  .min(3)
  .max(300)
  .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be HOST:PORT (an IPv6 address in brackets)')
  .refine((s) => {
    const m = /:(\d{1,5})$/.exec(s);
    return !m || (Number(m[1]) >= 1 && Number(m[1]) <= 65_535);
  }, 'the port must be from 1 to 65535');

const sha256Hex = z
  .string()
  .max(200)
  .refine((s) => /^[0-9a-f]{64}$/i.test(s.replace(/:/g, '')), 'must be a SHA-256 fingerprint (64 hex digits, colons allowed)');

const pem = z.string().max(1_000_000).refine((s) => s.includes('-----BEGIN CERTIFICATE-----') && !s.includes('PRIVATE KEY'), 'must be PEM certificate text, with no private key');

const httpsUrl = z
  .string()
  .max(2000)
  // app/ has no URL class: main parses it again before use (machine-policy-file.ts).
  .regex(/^https:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i, 'must be https (an https:// URL, no user, query or fragment)');

/** A site IT presets: what `site add` takes, with its id fixed by IT and its trust given (pin or CA). */
export const presetSiteSchema = z.strictObject({
  /** Stable id (lowercase letters, digits, dashes): the site's keychain accounts are keyed by it. */
  id: z.string().max(64).regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lowercase letters, digits and dashes'),
  name: z.string().min(1).max(64),
  baseUrl: z.string().min(1).max(2000),
  username: z.string().min(1).max(200),
  group: z.string().max(100).optional(),
  tags: z.array(z.string().max(50)).max(50).optional(),
  allowHttp: z.boolean().optional(),
  tls: z
    .strictObject({
      pinSha256: sha256Hex.optional(),
      pinnedCertPem: pem.optional(),
      caBundlePem: pem.optional(),
    })
    .optional(),
  polling: z
    .strictObject({
      intervalSeconds: z.number().int().min(0).max(MAX_POLICY_INTERVAL_SECONDS).optional(),
      maxInFlight: z.number().int().min(1).max(64).optional(),
      smartMaxAgeHours: z.number().int().min(1).max(8760).optional(),
    })
    .optional(),
});
export type PresetSite = z.infer<typeof presetSiteSchema>;

/** The audit trail's collector, as the policy forces it (RFC 5424 over TCP, optionally TLS). */
export const policySyslogSchema = z.strictObject({
  /** The collector, `HOST:PORT`. */
  target: hostPort,
  /** `tcp` (plain, octet-counted) or `tls`. Default: `tls`. */
  transport: z.enum(['tcp', 'tls']).optional(),
  /** TLS only: trust exactly this certificate (SHA-256 of it), as a pinned site is trusted. */
  pinSha256: sha256Hex.optional(),
  /** TLS only: CA certificates (PEM) that verify the collector. */
  caBundlePem: pem.optional(),
});
export type PolicySyslog = z.infer<typeof policySyslogSchema>;

/** The `/metrics` endpoint, as the policy forces it. */
export const policyMetricsSchema = z.strictObject({
  /** Where the endpoint listens, `HOST:PORT` (loopback unless IT says otherwise). */
  listen: hostPort,
  /**
   * A Prometheus web configuration file (exporter-toolkit's `web.yml`: TLS certificate and key,
   * basic-auth users with bcrypt hashes), by absolute path: the policy holds no secret itself.
   */
  webConfigFile: z.string().min(2).max(4096).refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path').optional(),
});
export type PolicyMetrics = z.infer<typeof policyMetricsSchema>;

/** The machine policy file. Every field is optional; `{ "version": 1 }` sets nothing. */
export const machinePolicySchema = z.strictObject({
  /** Format version; absent reads as 1 (the first policy files named only the update feed). */
  version: z.literal(POLICY_VERSION).optional(),
  /** The workstation is an auditor's: main refuses every write (storage systems, site list, action log). */
  readOnly: z.boolean().optional(),
  /** What the window and the CLI say a refused write was refused for (default: a sentence naming the policy). */
  readOnlyReason: z.string().min(1).max(300).optional(),
  /** Sites every user of the workstation has, managed: they cannot be edited or removed in the app. */
  sites: z.array(presetSiteSchema).max(5000).optional(),
  /** No site is polled more often than this (seconds); a shorter interval is refused when set. */
  minPollIntervalSeconds: z.number().int().min(1).max(MAX_POLICY_INTERVAL_SECONDS).optional(),
  /** The update feed (electron-updater's generic provider), https only. */
  updateUrl: httpsUrl.optional(),
  syslog: policySyslogSchema.optional(),
  metrics: policyMetricsSchema.optional(),
});
export type MachinePolicy = z.infer<typeof machinePolicySchema>;

/** One reason a policy file is refused: the field (a dotted path, `top level` for the file) and why. */
export interface PolicyProblem {
  field: string;
  reason: string;
}

export type PolicyParse = { ok: true; policy: MachinePolicy } | { ok: false; problems: PolicyProblem[] };

/** Field names that look like a secret, beyond the interface's own ({@link isSecretField}). */
const SECRET_LOOKING = /pass(word|phrase)|secret|token|credential|private.?key|api.?key/i;

/** Whether a field name holds, or looks like it holds, a secret (password, token, private key…). */
export function isSecretLooking(name: string): boolean {
  return isSecretField(name) || SECRET_LOOKING.test(name);
}

/** Every field at any depth whose name looks like a secret and whose value is not empty, as dotted paths. */
export function secretLookingFields(value: unknown, at = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const where = Array.isArray(value) ? `${at}[${k}]` : at ? `${at}.${k}` : k;
    if (isSecretLooking(k) && v !== undefined && v !== null && v !== '') out.push(where);
    else out.push(...secretLookingFields(v, where));
  }
  return out;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[') || 'top level';
}

/**
 * Parses a policy file's text. Every problem is reported, not just the first: bad JSON, a newer
 * version, an unknown field, a wrong type, a value out of range, a secret, two preset sites with one
 * id or name. The caller applies the policy only when `ok`.
 */
export function parseMachinePolicy(text: string): PolicyParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [{ field: 'top level', reason: `not JSON (${err instanceof Error ? err.message : String(err)})` }] };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, problems: [{ field: 'top level', reason: 'must be a JSON object' }] };
  const version = (data as { version?: unknown }).version;
  if (typeof version === 'number' && version > POLICY_VERSION) {
    return { ok: false, problems: [{ field: 'version', reason: `format ${version} is newer than this Fleetdeck reads (${POLICY_VERSION}); update Fleetdeck` }] };
  }
  const secrets = secretLookingFields(data);
  if (secrets.length > 0) return { ok: false, problems: secrets.map((field) => ({ field, reason: 'looks like a secret; a policy never holds one (passwords stay in each user\'s keychain)' })) };
  const parsed = machinePolicySchema.safeParse(data);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => {
        const keys = i.code === 'unrecognized_keys' ? i.keys : [];
        if (keys.length > 0) return { field: pathText([...i.path, keys[0] ?? '']), reason: `unknown field${keys.length > 1 ? `s ${keys.join(', ')}` : ''}` };
        return { field: pathText(i.path), reason: i.message };
      }),
    };
  }
  const problems: PolicyProblem[] = [];
  const seen = new Map<string, number>();
  parsed.data.sites?.forEach((s, i) => {
    for (const key of [s.id.toLowerCase(), s.name.toLowerCase()]) {
      const first = seen.get(key);
      if (first !== undefined && first !== i) problems.push({ field: `sites[${i}]`, reason: `its id or name "${key}" is already used by sites[${first}]` });
      seen.set(key, i);
    }
    if (s.tls?.pinSha256 === undefined && s.tls?.caBundlePem === undefined && /^https:/i.test(s.baseUrl.trim())) {
      problems.push({ field: `sites[${i}].tls`, reason: 'an https site IT presets is trusted by its pin (tls.pinSha256) or its CA (tls.caBundlePem): a user cannot confirm a managed site\'s certificate' });
    }
  });
  if (parsed.data.syslog?.transport === 'tcp' && (parsed.data.syslog.pinSha256 !== undefined || parsed.data.syslog.caBundlePem !== undefined)) {
    problems.push({ field: 'syslog.transport', reason: 'a pin or CA is given, so the transport must be tls' });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, policy: parsed.data };
}

/** A policy problem as one line: `field: reason`. */
export function problemText(p: PolicyProblem): string {
  return `${p.field}: ${p.reason}`;
}

/**
 * The machine policy as the window sees it: whether one applies, the read-only reason, and what it
 * manages, so the window can show them as "managed by your organisation".
 */
export const policyViewSchema = z.object({
  /** `none`: no policy file; `applied`; `refused`: malformed or not trusted (the workstation is then read-only). */
  status: z.enum(['none', 'applied', 'refused']),
  /** The policy file's path. */
  file: z.string(),
  /** Set when main refuses every write: why, in the sentence the window shows. */
  readOnly: z.string().optional(),
  /** Why a refused policy was refused, one `field: reason` each. */
  problems: z.array(z.string()).optional(),
  /** Settings the policy forces, in words (`minimum poll interval` → `300 s`). */
  managed: z.array(z.object({ setting: z.string(), value: z.string() })),
  /** Ids of the sites the policy presets. */
  managedSites: z.array(z.string()),
  minPollIntervalSeconds: z.number().int().optional(),
});
export type PolicyView = z.infer<typeof policyViewSchema>;

/**
 * The published JSON Schema of the policy file (`app/policy/policy.schema.json`), generated from the
 * zod schema so the two cannot drift (a test compares them; write it again with
 * `npx tsx scripts/write-policy-schema.ts`). Rules checked in code are stated in the description.
 */
export function policyJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://fleetdeck.example/schemas/machine-policy-1.json',
    title: 'Fleetdeck machine policy (format 1)',
    description:
      'Deployed by IT, owned by an administrator. Preset site ids and names are unique; an https preset site has tls.pinSha256 or tls.caBundlePem; no field may hold a secret (password, token, private key). A file that breaks any rule is refused whole, and the workstation starts read-only.',
    ...z.toJSONSchema(machinePolicySchema, { target: 'draft-2020-12', io: 'input' }),
  };
}
