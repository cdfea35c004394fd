/**
 * Notification levels. The interface leaves the numbers unshown; these are the simulator's and the
 * usual logging scale (0 Verbose … 5 Critical). Unknown numbers are shown as `Level n`.
 */
export const LEVEL_NAMES: readonly string[] = ['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Critical'];

export function levelName(level: number | undefined): string {
  if (level === undefined) return '—';
  return LEVEL_NAMES[level] ?? `Level ${level}`;
}

export function levelTone(level: number | undefined): 'ok' | 'info' | 'warning' | 'critical' {
  if (level === undefined || level < 2) return 'ok';
  if (level === 2) return 'info';
  if (level === 3) return 'warning';
  return 'critical';
}
