import { hasUnsafeChars } from '../safe-text.js';

/** A site: one management endpoint of the storage interface. Holds no secret. */
export interface Site {
  /** Stable id (slug of the first name); accounts in the keychain are keyed by it. */
  id: string;
  /** Unique display name, used on the command line (`--site NAME`). */
  name: string;
  /** Base URL, may carry a path prefix. */
  baseUrl: string;
  username: string;
  group?: string | undefined;
  tags: string[];
  tls: SiteTls;
  /** Explicit opt-in to plain http for a non-loopback host. */
  allowHttp: boolean;
  polling: SitePolling;
  /** What the site's login taught Fleetdeck (no secret): absent until something differed from the document. */
  auth?: SiteAuth | undefined;
  createdAt: string;
  updatedAt: string;
}

export interface SiteTls {
  /** Pinned SHA-256 of the site's certificate (lowercase hex), confirmed by the admin. */
  pinSha256?: string | undefined;
  /** The pinned certificate (PEM), its own trust root when self-signed. Public data. */
  pinnedCertPem?: string | undefined;
  /** Optional CA bundle (PEM) trusted for this site only. */
  caBundlePem?: string | undefined;
}

/**
 * How a site wants its session token: the document's `Authorization: Bearer <token>`, or the token
 * alone (`raw`), learned when a fresh session's token was refused as Bearer and accepted bare.
 */
export interface SiteAuth {
  tokenScheme: 'bearer' | 'raw';
  /** ISO time it was learned. */
  learnedAt: string;
}

export interface SitePolling {
  /** Seconds between automatic refreshes while a view is open; 0 = on demand only. */
  intervalSeconds: number;
  /** A paused site is never contacted. */
  paused: boolean;
  /** Requests in flight to this endpoint at most (its controllers also serve production I/O). */
  maxInFlight: number;
}

/**
 * What a system's session and data look like to every view. `protocol-error`: the system answers,
 * but some answer of its last refresh had a shape the app does not recognise; what it could not
 * read is named in `lastError` and was neither shown nor cached (views keep older data, with its age).
 */
export type SystemState = 'ok' | 'refreshing' | 'stale' | 'unreachable' | 'login-required' | 'certificate-changed' | 'paused' | 'protocol-error';

export const SYSTEM_STATES: readonly SystemState[] = ['ok', 'refreshing', 'stale', 'unreachable', 'login-required', 'certificate-changed', 'paused', 'protocol-error'];

export interface SystemStatus {
  siteId: string;
  system: string;
  state: SystemState;
  /** ISO time of the last complete refresh. */
  lastSuccessAt?: string | undefined;
  /** ISO time of the last failure and its message (already redacted). */
  lastErrorAt?: string | undefined;
  lastError?: string | undefined;
  /** Refresh progress while refreshing: reads done / planned. */
  progress?: { done: number; total: number } | undefined;
  /** What the last refresh left out to stay within its limits (drives over the SMART cap, answers over the byte budget). */
  truncated?: string | undefined;
}

/** Lowercase, dash-separated id from a name. */
export function siteIdFromName(name: string): string {
  const id = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id || 'site';
}

/**
 * Site names: 1–64 printable characters, no leading/trailing space. Control and bidirectional
 * formatting characters are refused: a right-to-left override makes a name read as another in
 * every list, log line and report.
 */
export function siteNameProblem(name: string): string | undefined {
  if (name.trim() !== name || name.length === 0) return 'a site name cannot be empty or start/end with a space';
  if (name.length > 64) return 'a site name has at most 64 characters';
  if (hasUnsafeChars(name)) return 'a site name cannot contain control or text-direction characters';
  return undefined;
}
