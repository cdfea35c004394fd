import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_POLL_RETRY_AFTER_MS } from '../../../main/core/refresh.js';
import { FakeTimers } from '../../unit/main/core/fake-timers.js';
import { until } from '../../support/until.js';
import { json, RecordingServer, type Recorded } from '../../support/recording-server.js';
import { useFleetsOnDisk } from '../support/simulated-fleet.js';

/**
 * Polling an endpoint that asks to wait in ways a rate-limited system does not: a Retry-After no
 * clock can reach, and a proxy's 502 page that says when to come back. On a fake clock; requests
 * are the endpoint's own count.
 */

const servers: RecordingServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
const fleetOnDisk = useFleetsOnDisk('fd-throttle-hostile-');

/** Logs in and lists one system, "alpha"; every other read is answered by `read`. */
async function endpoint(read: (req: Recorded, res: ServerResponse) => void) {
  const server = new RecordingServer();
  servers.push(server);
  server.responder = (req, res) => {
    if (req.url.endsWith('/login')) return json(res, 200, { SessionToken: 'tok-1', Status: 'Ok', UserEmailAddress: '', Details: '' });
    if (req.url.includes('/systems/list')) return json(res, 200, { Systems: [{ Name: 'alpha' }] });
    if (req.url.includes('/systems/select')) return json(res, 200, 'selected');
    read(req, res);
  };
  const baseUrl = await server.start();
  const timers = new FakeTimers(Date.now());
  const f = await fleetOnDisk({ clock: () => new Date(timers.now()), timers, random: () => 0.5 }, [{ name: 'edge', baseUrl, username: 'admin', password: 'pw-edge-1234', systems: ['alpha'] } as never]);
  return { server, timers, f, siteId: f.siteIds[0]! };
}

function answer(res: ServerResponse, status: number, retryAfter: string, body: string, type: string): void {
  res.writeHead(status, { 'content-type': type, 'retry-after': retryAfter, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

describe('polling an endpoint that asks to wait', { timeout: 60_000 }, () => {
  it('a Retry-After no date can hold is honoured for an hour at most, shown, and polling goes on after it', async () => {
    const e = await endpoint((_req, res) => answer(res, 429, '99999999999999', '"Too many requests"', 'application/json'));
    await e.f.fleet.refresh({ mode: 'steady' });
    const [status] = e.f.fleet.status(e.siteId);
    expect(status?.state).toBe('stale');
    expect(status?.lastError).toMatch(/^throttled by the system \(HTTP 429\), next try at /);
    expect(Date.parse(status?.nextTryAt ?? '')).toBe(e.timers.now() + MAX_POLL_RETRY_AFTER_MS);

    const before = e.server.requests.length;
    e.timers.advance(MAX_POLL_RETRY_AFTER_MS - 1000);
    await e.f.fleet.refresh({ mode: 'steady' });
    expect(e.server.requests.length - before, 'a poll within the hour').toBeLessThanOrEqual(1);
    e.timers.advance(2000);
    await e.f.fleet.refresh({ mode: 'steady' });
    expect(e.server.requests.filter((r) => !r.url.includes('/systems/')).length).toBeGreaterThan(1);
  });

  it('a proxy’s 502 page with Retry-After stops the poll at once and holds the next one off, as a 429 does', async () => {
    const e = await endpoint((_req, res) => answer(res, 502, '45', '<html><title>502 Bad Gateway</title></html>', 'text/html'));
    const site = e.f.sites.get(e.siteId)!;
    await e.f.fleet.editSite(e.siteId, { polling: { ...site.polling, intervalSeconds: 10 } });
    e.f.fleet.startPolling();
    for (let left = 60_000; left > 0; left -= 1000) {
      e.timers.advance(1000);
      await until(() => e.f.fleet.nextPollAt(e.siteId) !== undefined, () => 'the poll to end');
    }
    const reads = e.server.requests.filter((r) => !r.url.includes('/systems/') && !r.url.endsWith('/login'));
    // The reads in flight when the first refusal came, twice in the minute (45 s, then 60 s of
    // backoff): not every read, each retried, every 10 s.
    expect(reads.length).toBeLessThanOrEqual(2 * site.polling.maxInFlight);
    const [status] = e.f.fleet.status(e.siteId);
    expect(status?.state).toBe('stale');
    expect(status?.lastError).toMatch(/next try at .*HTTP 502/);
    expect(status?.nextTryAt).toBeDefined();
  });
});
