import { z } from 'zod';
import { InputError } from '../errors.js';
import { normalizeFingerprint } from '../fingerprint.js';

/**
 * Audit-trail forwarding to a syslog collector: the setting (where to send, how to trust it) and
 * the state every process shows. One shape for the settings file, IPC and the CLI's `--json`.
 */

/** Where the action log is forwarded: `tcp://HOST:PORT` or `tls://HOST:PORT`, with the TLS trust. */
export const forwardSettingSchema = z.object({
  target: z.string().min(1).max(300),
  /** TLS: the collector's certificate is pinned by this SHA-256 (hex), any other refused. */
  pinSha256: z.string().max(100).optional(),
  /** TLS: PEM trust roots for the collector only (else the system's roots). */
  ca: z.string().max(200_000).optional(),
});
export type ForwardSetting = z.infer<typeof forwardSettingSchema>;

/** A setting forced by the machine policy: a target, or forwarding forced off. */
export type ForwardPolicy = ForwardSetting | 'off';

/** The forwarder's state as shown: what it sends to, how far the collector confirmed, what failed. */
export const forwardStatusSchema = z.object({
  /** The target in force (undefined: forwarding is off). */
  target: z.string().optional(),
  /** How the collector is trusted: 'none' (tcp), 'pinned', 'ca' (a given CA) or 'system' (the system's roots). */
  trust: z.enum(['none', 'pinned', 'ca', 'system']).optional(),
  /** The pinned fingerprint, as set. */
  pinSha256: z.string().optional(),
  /** Set by the organisation's policy: shown, not editable. */
  managed: z.boolean(),
  /**
   * `off`; `connecting` (or waiting to retry after an error); `sending`; `idle` (everything sent is
   * confirmed); `standby` (another Fleetdeck process on this data directory forwards);
   * `not-running` (as a command sees it: no Fleetdeck process forwards now, the records wait).
   */
  state: z.enum(['off', 'connecting', 'sending', 'idle', 'standby', 'not-running']),
  /** This log's id on the collector. */
  logId: z.string(),
  /** Highest seq the collector confirmed (0: none), and when. */
  ackedSeq: z.number().int(),
  ackedAt: z.string().optional(),
  /** Records waiting for confirmation. */
  queued: z.number().int(),
  lastError: z.string().optional(),
  lastErrorAt: z.string().optional(),
});
export type ForwardStatus = z.infer<typeof forwardStatusSchema>;

/** A parsed target. */
export interface ForwardTarget {
  protocol: 'tcp' | 'tls';
  host: string;
  port: number;
}

/**
 * Reads `tcp://HOST:PORT` or `tls://HOST:PORT` (IPv6 in brackets).
 * @throws InputError naming the forms accepted
 */
export function parseForwardTarget(text: string): ForwardTarget {
  const m = /^(tcp|tls):\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : 0;
  if (!m || port < 1 || port > 65535) throw new InputError(`"${text}" is not a syslog target: write tcp://HOST:PORT or tls://HOST:PORT (e.g. tls://logs.example.com:6514)`);
  return { protocol: m[1] as 'tcp' | 'tls', host: (m[2] as string).replace(/^\[|\]$/g, ''), port };
}

/**
 * A setting checked and normalised: a valid target, trust only with TLS, a fingerprint of 64 hex
 * digits, not both a pin and a CA.
 * @throws InputError saying what is wrong
 */
export function checkForwardSetting(input: ForwardSetting): ForwardSetting {
  const target = parseForwardTarget(input.target);
  const pin = input.pinSha256 === undefined || input.pinSha256 === '' ? undefined : normalizeFingerprint(input.pinSha256);
  if (input.pinSha256 && !pin) throw new InputError(`"${input.pinSha256}" is not a SHA-256 fingerprint (64 hex digits, colons allowed)`);
  const ca = input.ca === '' ? undefined : input.ca;
  if (target.protocol === 'tcp' && (pin || ca)) throw new InputError('a certificate pin or CA applies to tls:// targets only: tcp:// sends in clear');
  if (pin && ca) throw new InputError('give either a pinned fingerprint or a CA, not both');
  if (ca && !ca.includes('-----BEGIN CERTIFICATE-----')) throw new InputError('the CA must be PEM (-----BEGIN CERTIFICATE-----)');
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return { target: `${target.protocol}://${host}:${target.port}`, ...(pin ? { pinSha256: pin } : {}), ...(ca ? { ca } : {}) };
}

/**
 * The setting in force: the policy's when it sets one (managed: shown, not editable; `'off'`
 * forces forwarding off), else the admin's own.
 */
export function effectiveForward(policy: ForwardPolicy | undefined, own: ForwardSetting | undefined): { setting: ForwardSetting | undefined; managed: boolean } {
  if (policy === 'off') return { setting: undefined, managed: true };
  if (policy) return { setting: policy, managed: true };
  return { setting: own, managed: false };
}
