import { hasUnsafeChars } from '../safe-text.js';

// Rules of site.ts the window's first script needs (the fleet store, the site dialogs), kept apart
// from its zod schemas so that script does not carry zod. site.ts exports them too; this module
// imports nothing from it (the status fields it reads are spelt out below).

/** The fields of a system's status (`SystemStatus` in site.ts) these rules read. */
interface StatusTimes {
  state: string;
  lastSuccessAt?: string | undefined;
  lastErrorAt?: string | undefined;
}

/** SMART age a background poll keeps when the site sets none: once a day. */
export const DEFAULT_SMART_MAX_AGE_HOURS = 24;

/**
 * Whether a system's cached answers may have changed between two of its statuses: a refresh ended,
 * or a background poll did (a poll sends no 'refreshing' status, only its end: a new success or
 * error time). What the window's data versions and main's health summaries both follow.
 */
export function refreshEnded(prev: StatusTimes | undefined, next: StatusTimes): boolean {
  if (prev === undefined) return false;
  const finished = prev.state === 'refreshing' && next.state !== 'refreshing';
  return finished || prev.lastSuccessAt !== next.lastSuccessAt || prev.lastErrorAt !== next.lastErrorAt;
}

/**
 * Whether `next` may replace `kept` as a system's status in the window: unless both carry main's
 * sequence number (`seq`) and `next`'s is not larger. An answer read before an event can reach the
 * window after it (in Electron the early `fleet:status` answer and the statuses the preload kept;
 * the store's batched events and a `fleet:refresh` answer): whatever the order of arrival, the
 * newest status stays, and the same status again (an event replayed) changes nothing.
 */
export function supersedes(next: { seq?: number | undefined }, kept: { seq?: number | undefined } | undefined): boolean {
  return kept?.seq === undefined || next.seq === undefined || next.seq > kept.seq;
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
