/**
 * Fleetdeck's own work, counted where it ends: the HTTP client counts each request it handed to the
 * network (by site and outcome), the fleet refresh times each site's poll. One process-wide record,
 * so the hooks cost a map lookup and an addition and need no wiring; the metrics endpoint reads it.
 * Counters count from the process's start, as Prometheus expects of a counter.
 */

/** Upper bounds of the poll duration histogram, seconds: a site's poll takes from a fraction of a second to minutes. */
export const POLL_BUCKETS_SECONDS: readonly number[] = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 60, 120, 300];

/** A histogram's counts: `buckets[i]` counts observations ≤ the i-th bound (not cumulative; the writer sums). */
export interface HistogramCounts {
  buckets: number[];
  count: number;
  sum: number;
}

export class SelfMetrics {
  /** Requests by site, then by outcome (`success` or the client error's code). */
  readonly requests = new Map<string, Map<string, number>>();
  /** Poll durations by site and mode (`full`: a refresh an admin or a start asked for; `steady`: a background poll). */
  readonly polls = new Map<string, Map<string, HistogramCounts>>();
  /** Polls by site whose site list could not be read (the site's systems were not refreshed). */
  readonly pollFailures = new Map<string, number>();

  /** Counts one request to `siteId` that was handed to the network, with how it ended. */
  request(siteId: string, outcome: string): void {
    let bySite = this.requests.get(siteId);
    if (!bySite) this.requests.set(siteId, (bySite = new Map()));
    bySite.set(outcome, (bySite.get(outcome) ?? 0) + 1);
  }

  /** Records one poll of a site that took `seconds`. */
  poll(siteId: string, mode: string, seconds: number): void {
    let bySite = this.polls.get(siteId);
    if (!bySite) this.polls.set(siteId, (bySite = new Map()));
    let h = bySite.get(mode);
    if (!h) bySite.set(mode, (h = { buckets: POLL_BUCKETS_SECONDS.map(() => 0), count: 0, sum: 0 }));
    const i = POLL_BUCKETS_SECONDS.findIndex((b) => seconds <= b);
    if (i >= 0) h.buckets[i] = (h.buckets[i] ?? 0) + 1;
    h.count++;
    h.sum += seconds;
  }

  /** Counts a poll of `siteId` that could not read the site's system list. */
  pollFailed(siteId: string): void {
    this.pollFailures.set(siteId, (this.pollFailures.get(siteId) ?? 0) + 1);
  }
}

/** The process's record of its own requests and polls. */
export const selfMetrics = new SelfMetrics();

/** The outcome label of a request that ended with `err`: its stable error code, or `error`. */
export function outcomeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z][a-z0-9-]{0,40}$/.test(code) ? code : 'error';
}
