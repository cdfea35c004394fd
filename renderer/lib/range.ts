import { formatDateTime } from '../../app/catalog/index.js';

export type RangeId = '1h' | '24h' | '7d' | '30d';

/** Chart ranges and their sampling interval (minutes), chosen to stay near 100 points per series. */
export const RANGES: ReadonlyArray<{ id: RangeId; label: string; spanMs: number; interval: number }> = [
  { id: '1h', label: '1 hour', spanMs: 3_600_000, interval: 1 },
  { id: '24h', label: '24 hours', spanMs: 86_400_000, interval: 15 },
  { id: '7d', label: '7 days', spanMs: 7 * 86_400_000, interval: 60 },
  { id: '30d', label: '30 days', spanMs: 30 * 86_400_000, interval: 360 },
];

/** The history query of a range ending at `now`: fromDate/toDate as the interface writes them, interval in minutes. */
export function rangeQuery(id: RangeId, now: number): { fromDate: string; toDate: string; interval: number } {
  const r = RANGES.find((x) => x.id === id) ?? (RANGES[0] as (typeof RANGES)[number]);
  return { fromDate: formatDateTime(new Date(now - r.spanMs)), toDate: formatDateTime(new Date(now)), interval: r.interval };
}
