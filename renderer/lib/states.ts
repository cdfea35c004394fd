export { readOnlyReason } from '../../app/health/connection.js';
import type { SystemState } from '../../app/domain/site.js';

/** How a system state looks: always an icon and text, never colour alone. */
export interface StateLook {
  label: string;
  /** Longer explanation for tooltips and the read-only banner. */
  description: string;
  tone: 'ok' | 'info' | 'warning' | 'critical' | 'muted';
  icon: 'check' | 'sync' | 'clock' | 'cross' | 'lock' | 'shield' | 'pause' | 'question';
}

export const STATE_LOOK: Readonly<Record<SystemState, StateLook>> = {
  ok: { label: 'ok', description: 'Connected; data is current.', tone: 'ok', icon: 'check' },
  refreshing: { label: 'refreshing', description: 'Reading the system now.', tone: 'info', icon: 'sync' },
  stale: { label: 'stale', description: 'Showing the last data read; it may be out of date.', tone: 'warning', icon: 'clock' },
  unreachable: { label: 'unreachable', description: 'The management endpoint does not answer.', tone: 'critical', icon: 'cross' },
  'login-required': { label: 'login required', description: 'The session ended; log in to the site again.', tone: 'warning', icon: 'lock' },
  'certificate-changed': { label: 'certificate changed', description: 'The site presents a different certificate than the one trusted.', tone: 'critical', icon: 'shield' },
  paused: { label: 'paused', description: 'Polling of this site is paused; it is not contacted.', tone: 'muted', icon: 'pause' },
  unlisted: {
    label: 'not listed by the site',
    description: "The site's system list no longer shows this system; it is not refreshed, and the views show what was read before with its time.",
    tone: 'warning',
    icon: 'question',
  },
  'protocol-error': {
    label: 'answers not understood',
    description: 'The system answers, but not in a shape Fleetdeck understands; what it could not read is not shown, and the views keep older data with its time.',
    tone: 'critical',
    icon: 'question',
  },
};

/** Look of a state string from main; unknown strings get a neutral look with their own text. */
export function stateLook(state: string | undefined): StateLook {
  if (state && state in STATE_LOOK) return STATE_LOOK[state as SystemState];
  return { label: state ?? 'unknown', description: 'No status yet.', tone: 'muted', icon: 'clock' };
}
