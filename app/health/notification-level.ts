/**
 * Notification levels. The interface leaves the numbers unshown; these are the simulator's and the
 * usual logging scale (0 Verbose … 5 Critical). The views, the filters, the notification targets and
 * the health report all name them from here.
 */
export const LEVEL_NAMES: readonly string[] = ['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Critical'];

/** The level's name; `Level n` for a number off the scale, `absent` when there is none. */
export function levelName(level: number | undefined, absent = '—'): string {
  if (level === undefined) return absent;
  return LEVEL_NAMES[level] ?? `Level ${level}`;
}
