export { LEVEL_NAMES, levelName } from '../../app/health/notification-level.js';

/** The colour family a notification level is shown in (always with its name, never colour alone). */
export function levelTone(level: number | undefined): 'ok' | 'info' | 'warning' | 'critical' {
  if (level === undefined || level < 2) return 'ok';
  if (level === 2) return 'info';
  if (level === 3) return 'warning';
  return 'critical';
}
