/**
 * Notification levels. The interface leaves the numbers unshown; these are the simulator's and the
 * usual logging scale (0 Verbose … 5 Critical, .NET's LogLevel and Serilog's). The views, the
 * filters, the notification targets and the health report all name them from here.
 *
 * A system may send the level as a name (`"Fatal"`, `"error"`, `"WARN"`): {@link readLevel} maps
 * the usual names of logging scales, in any case, onto the numbers. A level that is neither a
 * number nor a known name is kept as sent (text) and is **not understood**: it ranks as
 * {@link NOT_UNDERSTOOD_RANK} (possibly serious), so it is listed and alerted, never dropped.
 */
export const LEVEL_NAMES: readonly string[] = ['Verbose', 'Debug', 'Information', 'Warning', 'Error', 'Critical'];

/** The names logging scales use for each level, lower case, without separators. */
const NAMED: ReadonlyMap<string, number> = new Map([
  ...['verbose', 'trace', 'all', 'finest', 'finer'].map((n) => [n, 0] as const),
  ...['debug', 'dbg', 'fine', 'config'].map((n) => [n, 1] as const),
  ...['information', 'informational', 'info', 'inf', 'notice', 'note'].map((n) => [n, 2] as const),
  ...['warning', 'warn', 'wrn'].map((n) => [n, 3] as const),
  ...['error', 'err', 'severe', 'major'].map((n) => [n, 4] as const),
  ...['critical', 'crit', 'fatal', 'ftl', 'emergency', 'emerg', 'alert', 'panic'].map((n) => [n, 5] as const),
]);

/** The rank of a level that was sent but not understood: counted with errors (possibly serious). */
export const NOT_UNDERSTOOD_RANK = 4;

/**
 * A level as an answer sent it, read: a number (or numeric text) as it is, a known name as its
 * number, other text kept as sent (not understood); undefined when nothing was sent.
 */
export function readLevel(raw: unknown): number | string | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : String(raw);
  if (typeof raw !== 'string') return raw === undefined || raw === null ? undefined : JSON.stringify(raw);
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^[+-]?\d+$/.test(text)) return Number(text);
  return NAMED.get(text.toLowerCase().replace(/[\s_-]+/g, '')) ?? text;
}

/** Whether a level was sent but is not understood (text that names no known level). */
export function isUnknownLevel(level: unknown): level is string {
  return typeof level === 'string';
}

/**
 * The level's place on the scale for every comparison (high-level lists, alert thresholds,
 * report filters): the number itself, {@link NOT_UNDERSTOOD_RANK} for a level not understood,
 * `absent` (default 0) when none was sent.
 */
export function notificationRank(level: unknown, absent = 0): number {
  if (typeof level === 'number') return level;
  if (typeof level === 'string') return NOT_UNDERSTOOD_RANK;
  return absent;
}

/** The level's name; `Level n` for a number off the scale, `"x" (not understood)` for other text, `absent` when there is none. */
export function levelName(level: unknown, absent = '—'): string {
  if (level === undefined || level === null) return absent;
  if (typeof level === 'string') return `"${level.slice(0, 40)}" (not understood)`;
  if (typeof level !== 'number') return absent;
  return LEVEL_NAMES[level] ?? `Level ${level}`;
}
