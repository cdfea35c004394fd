import type { SystemState } from '../domain/site.js';
import { worse, type Level } from './level.js';

/**
 * How a system's connection state weighs in its level, and when it cannot take writes. Apart from
 * the roll-up of its cached answers (system-health.ts) so the window's first frame (the tree's state
 * badges, the overview's levels) carries neither the capacity assessment nor the refresh plan.
 */

/** States in which the system cannot take writes, and why: views open read-only from the cache. */
const READ_ONLY: Readonly<Partial<Record<SystemState, string>>> = {
  unreachable: 'the system is unreachable',
  paused: 'polling of this site is paused',
  'login-required': 'the session needs a new login',
  'certificate-changed': "the site's certificate changed and is not trusted",
  unlisted: 'the site no longer lists this system',
};

/** Why writes are disabled in this state, or undefined when they are allowed. */
export function readOnlyReason(state: string | undefined): string | undefined {
  return state && Object.hasOwn(READ_ONLY, state) ? READ_ONLY[state as SystemState] : undefined;
}

/**
 * A connection problem counts at least as a warning: the data shown may be old. A system that does
 * not answer, or answers behind a certificate not trusted, is critical (as its alert is). Answers
 * the app cannot read count as unknown: part of the system's data is missing, worse than a warning.
 */
export function connectionLevel(state: string | undefined): Level {
  if (state === 'certificate-changed' || state === 'unreachable') return 'critical';
  if (state === 'protocol-error') return 'unknown';
  return readOnlyReason(state) ? 'warning' : 'ok';
}

/** What a system is shown as: its roll-up made worse by its connection state. */
export function systemLevel(rollup: { readonly level: Level }, state: string | undefined): Level {
  return worse(rollup.level, connectionLevel(state));
}

/** Why the connection state weighs in the system's level, in words; undefined when it does not. */
export function connectionReason(state: string | undefined): string | undefined {
  if (state === 'protocol-error') return 'answers the app cannot read';
  return readOnlyReason(state);
}

/** The reasons of a system's level: its connection's first (when it weighs in), then its roll-up's. */
export function systemReasons(rollup: { readonly reasons: readonly string[] }, state: string | undefined): string[] {
  const why = connectionReason(state);
  return why ? [why, ...rollup.reasons] : [...rollup.reasons];
}
