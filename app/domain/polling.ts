// A site's polling in words and the default interval, apart from the site schemas (site.ts) so the
// window's views can show them without zod.

/** What of a site's polling settings says whether and how often it is read. */
export interface PollingChoice {
  intervalSeconds: number;
  paused: boolean;
}

/**
 * Seconds between polls of a site added without an interval: live by default. A steady poll reads
 * about 8 requests per system; at 60 s, 200 systems cost main about 3-4 % of a core, so 300 s keeps
 * 1,000 systems there. "On demand" (0) is a choice an admin makes, and the site says so.
 */
export const DEFAULT_POLL_INTERVAL_SECONDS = 300;

/** A site's polling in words: `paused`, `every 300 s`, `on demand`. */
export function pollingText(polling: PollingChoice): string {
  if (polling.paused) return 'paused';
  return polling.intervalSeconds > 0 ? `every ${polling.intervalSeconds} s` : 'on demand';
}

/** Whether the app reads the site by itself while it runs: not paused and not on demand. */
export function isPolled(polling: PollingChoice): boolean {
  return !polling.paused && polling.intervalSeconds > 0;
}

/**
 * The interval a site is polled at under an organisation's minimum (machine policy): never more
 * often than `minSeconds`; on demand (0) stays on demand.
 */
export function effectiveInterval(intervalSeconds: number, minSeconds: number | undefined): number {
  return minSeconds !== undefined && intervalSeconds > 0 && intervalSeconds < minSeconds ? minSeconds : intervalSeconds;
}
