import { notificationRank } from '../../app/health/notification-level.js';

export { LEVEL_NAMES, levelName } from '../../app/health/notification-level.js';

/** The colour family a notification level is shown in (always with its name, never colour alone); a level not understood is possibly serious. */
export function levelTone(raw: unknown): 'ok' | 'info' | 'warning' | 'critical' {
  if (raw === undefined) return 'ok';
  const level = notificationRank(raw);
  if (level < 2) return 'ok';
  if (level === 2) return 'info';
  if (level === 3) return 'warning';
  return 'critical';
}
