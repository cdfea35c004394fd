// Days until full in words, apart from the forecast (forecast.ts) so a view's first frame can show
// them without carrying the fit.

/**
 * What "full" measures: `free` — the free space (usable − allocated) used up at the growth of
 * consumed data; `consumed` — consumed data reaching usable (no allocated figure); `state` — the
 * system judges the pool full now (its provisioning state, or under 1 % free).
 */
export type ForecastBasis = 'free' | 'consumed' | 'state';

/** What of a forecast its words read. */
export interface ForecastWords {
  status: 'full' | 'growing' | 'not-growing' | 'insufficient-data';
  basis: ForecastBasis;
  capacity: number;
  days?: number | undefined;
  samples: number;
}

/** Whole days as a short phrase: `1 day`, `12 days`, `> 10 years`, `∞`. */
export function daysPhrase(days: number): string {
  if (!Number.isFinite(days)) return '∞';
  if (days > 3650) return '> 10 years';
  const d = Math.round(days);
  return `${d} day${d === 1 ? '' : 's'}`;
}

/** A forecast's days as every table cell shows them: `full now`, `31 days`, `not growing`, `not enough history`, `usable unknown`. */
export function daysText(f: ForecastWords): string {
  switch (f.status) {
    case 'full':
      return 'full now';
    case 'growing':
      return daysPhrase(f.days ?? 0);
    case 'not-growing':
      return 'not growing';
    case 'insufficient-data':
      return f.capacity > 0 ? 'not enough history' : 'usable unknown';
  }
}

/** What a forecast's days measure, in words: every view and report states it beside the days. */
export function forecastBasis(f: Pick<ForecastWords, 'basis' | 'samples'>): string {
  const growth = `the growth of consumed data (least-squares line through ${f.samples} sample${f.samples === 1 ? '' : 's'})`;
  switch (f.basis) {
    case 'free':
      return `free space (usable − allocated) used up at ${growth}`;
    case 'consumed':
      return `consumed data reaching usable at ${growth}; no allocated figure`;
    case 'state':
      return 'the system judges the pool full now (its state, or under 1 % free)';
  }
}
