import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Node } from '../../../app/catalog/resources.js';
import { listOf } from '../../../app/health/system-health.js';
import { SUMMARY_READS, type HealthSummaryWire } from '../../../app/health/system-summary.js';
import { MetricsEndpointError, startMetricsEndpoint, type MetricsEndpoint } from '../../../main/metrics/endpoint.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { generateCertificate } from '../../../simulator/tls.js';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';

/** The endpoint against a runtime watching the simulator: formats, what the series say, access control. */

const PASSWORD = 'metrics-reader-pw';
let sim: SimulatorHandle;
let dir: string;
let rt: Runtime;
let ep: MetricsEndpoint;
let siteIds: string[] = [];
let cert: { cert: string; key: string };

/** The samples of `name` on a page: labels and value. */
function samples(page: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  return [...page.matchAll(new RegExp(`^${name}\\{(.*)\\} (\\S+)$`, 'gm'))].map(([, labels, value]) => ({
    labels: Object.fromEntries([...(labels as string).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v])),
    value: Number(value),
  }));
}

function getTls(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca: cert.cert, headers }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  sim = await startSimulator({ sites: 2, systems: 2, controlServer: false, seed: 'metrics-endpoint' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-metrics-'));
  rt = await openRuntime({ dataDir: path.join(dir, 'data'), memorySecrets: true, timeoutMs: 10_000 });
  siteIds = [];
  for (const s of sim.manifest.sites) siteIds.push((await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password })).id);
  await rt.fleet.refresh({ force: true });
  ep = await startMetricsEndpoint(rt, { listen: '127.0.0.1:0' });
  cert = await generateCertificate();
  fs.writeFileSync(path.join(dir, 'server.crt'), cert.cert);
  fs.writeFileSync(path.join(dir, 'server.key'), cert.key);
}, 120_000);

afterAll(async () => {
  await ep?.close();
  await rt?.close();
  await sim?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the metrics endpoint', { timeout: 120_000 }, () => {
  it('listens on loopback and serves the Prometheus text format unless OpenMetrics is asked for', async () => {
    expect(ep.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const prom = await fetch(ep.url, { headers: { accept: 'text/plain' } });
    expect(prom.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await prom.text();
    expect(text).toContain('# TYPE fleetdeck_requests_total counter\n');
    expect(text).not.toContain('# EOF');
    const om = await fetch(ep.url, { headers: { accept: 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' } });
    expect(om.headers.get('content-type')).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    const omText = await om.text();
    expect(omText.endsWith('\n# EOF\n')).toBe(true);
    expect(omText).toContain('# TYPE fleetdeck_requests counter\n');
    expect(omText).toContain('# UNIT fleetdeck_pool_usable_bytes bytes\n');
    expect(omText).toMatch(/^fleetdeck_requests_total\{site="[^"]+",outcome="success"\} \d+$/m);
  });

  it('puts HELP and TYPE on every family', async () => {
    const text = await (await fetch(ep.url)).text();
    const typed = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    const helped = new Set([...text.matchAll(/^# HELP (\S+) /gm)].map((m) => m[1]));
    expect(typed).toEqual(helped);
    for (const line of text.split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const name = /^[a-z_]+/.exec(line)?.[0] ?? '';
      expect(typed.has(name) || typed.has(name.replace(/_(bucket|sum|count)$/, '')), line).toBe(true);
    }
  });

  it('compresses the page when the scraper accepts gzip', async () => {
    const { request } = await import('undici');
    const r = await request(ep.url, { headers: { 'accept-encoding': 'gzip' } });
    expect(r.headers['content-encoding']).toBe('gzip');
    const text = gunzipSync(Buffer.from(await r.body.arrayBuffer())).toString();
    expect(text).toContain('fleetdeck_system_level{');
  });

  it("says each system's drives, pools and data age as its summary and cached lists say them", async () => {
    const text = await (await fetch(ep.url)).text();
    const summaries = JSON.parse(rt.summaries.summaries().json) as HealthSummaryWire[];
    expect(summaries.length).toBe(4);
    for (const s of summaries) {
      const mine = (name: string) => samples(text, name).filter((x) => x.labels.site === s.siteId && x.labels.system === s.system);
      const nodes = listOf<Node>(rt.fleet.cached(s.siteId, s.system, SUMMARY_READS.resources.op, SUMMARY_READS.resources.query)?.value);
      const drives = mine('fleetdeck_drive_status');
      expect(drives).toHaveLength(nodes.reduce((n, node) => n + (node.Drives?.length ?? 0), 0));
      // The drive rule's SMART reading: every drive not failing by its status has one after a full refresh.
      expect(drives.filter((d) => d.labels.level === 'ok').every((d) => ['ok', 'unknown', 'warning', 'critical'].includes(d.labels.smart_risk ?? ''))).toBe(true);
      expect(mine('fleetdeck_pool_usable_bytes').map((x) => [x.labels.pool, x.value])).toEqual(s.rollup.capacity.pools.filter((p) => p.usable !== undefined).map((p) => [p.name, p.usable]));
      const age = mine('fleetdeck_system_data_age_seconds')[0]?.value ?? NaN;
      expect(Math.abs(age - (Date.now() - Date.parse(s.at ?? '')) / 1000)).toBeLessThan(30);
    }
  });

  it("keeps each drive's SMART reading through steady polls that do not read the drives again", async () => {
    const risks = async () => samples(await (await fetch(ep.url)).text(), 'fleetdeck_drive_status').map((d) => `${d.labels.system}/${d.labels.node}/${d.labels.drive} ${d.labels.smart_risk} ${d.labels.level}`);
    const before = await risks();
    expect(before.filter((r) => / (ok|warning|critical) /.test(r)).length).toBeGreaterThan(before.length / 2);
    await rt.fleet.refresh({ mode: 'steady' });
    expect(await risks()).toEqual(before);
    await rt.fleet.refresh({ mode: 'steady' });
    expect(await risks()).toEqual(before);
  });

  it('shows a drive that failed after the next refresh, at the level the views give it', async () => {
    const failed = sim.control.failDrive({ site: 0 });
    await rt.fleet.refresh({ force: true });
    const text = await (await fetch(ep.url)).text();
    const drive = samples(text, 'fleetdeck_drive_status').find((x) => x.labels.system === failed.system && x.labels.node === failed.node && x.labels.drive === failed.name);
    expect(drive?.labels.level).toBe('critical');
    expect(drive?.labels.status).toBe('Failed');
  });

  it("counts Fleetdeck's requests by site and outcome, and times its polls", async () => {
    const before = samples(await (await fetch(ep.url)).text(), 'fleetdeck_requests_total');
    await sim.control.siteDown(1);
    await rt.fleet.refresh({ force: true });
    const text = await (await fetch(ep.url)).text();
    const after = samples(text, 'fleetdeck_requests_total');
    const count = (list: typeof after, site: string, outcome: string) => list.find((x) => x.labels.site === site && x.labels.outcome === outcome)?.value ?? 0;
    expect(count(after, siteIds[0] as string, 'success')).toBeGreaterThan(count(before, siteIds[0] as string, 'success'));
    expect(count(after, siteIds[1] as string, 'unreachable')).toBeGreaterThan(0);
    expect(samples(text, 'fleetdeck_poll_failures_total').find((x) => x.labels.site === siteIds[1])?.value).toBeGreaterThan(0);
    const polls = samples(text, 'fleetdeck_poll_duration_seconds_count').find((x) => x.labels.site === siteIds[0] && x.labels.mode === 'full');
    expect(polls?.value).toBeGreaterThanOrEqual(3);
    const states = samples(text, 'fleetdeck_system_connection_state').filter((x) => x.labels.site === siteIds[1] && x.value === 1);
    expect(states.map((x) => x.labels.state)).toEqual(['unreachable', 'unreachable']);
    await sim.control.siteUp(1);
  });

  it('answers 404 off /metrics and 405 to other methods', async () => {
    expect((await fetch(ep.url.replace('/metrics', '/other'))).status).toBe(404);
    const post = await fetch(ep.url, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers no page that reached it by DNS rebinding: only an address or localhost as Host, when anyone may read', async () => {
    const get = (host: string): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        http
          .get(ep.url, { headers: { host } }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    const port = new URL(ep.url).port;
    for (const host of [`rebind.attacker.example:${port}`, 'rebind.attacker.example', `127.0.0.1.nip.io:${port}`, `localhost.attacker.example:${port}`]) {
      const r = await get(host);
      expect(r.status, host).toBe(403);
      expect(r.body, host).not.toContain('fleetdeck_');
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, '127.0.0.1']) {
      const r = await get(host);
      expect(r.status, host).toBe(200);
      expect(r.body, host).toContain('fleetdeck_site_info{');
    }
  });

  it('refuses an address off loopback without TLS and access control, before listening', async () => {
    await expect(startMetricsEndpoint(rt, { listen: '0.0.0.0:0' })).rejects.toThrow(/not loopback.*TLS/);
    fs.writeFileSync(path.join(dir, 'auth-only.yml'), `basic_auth_users:\n  reader: ${bcrypt.hashSync(PASSWORD, 4)}\n`);
    await expect(startMetricsEndpoint(rt, { listen: '0.0.0.0:0', webConfigFile: path.join(dir, 'auth-only.yml') })).rejects.toBeInstanceOf(MetricsEndpointError);
    fs.writeFileSync(path.join(dir, 'tls-only.yml'), 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n');
    await expect(startMetricsEndpoint(rt, { listen: '0.0.0.0:0', webConfigFile: path.join(dir, 'tls-only.yml') })).rejects.toThrow(/access control/);
    await expect(startMetricsEndpoint(rt, { listen: 'localhost:99999' })).rejects.toThrow(/not ADDR:PORT/);
  });

  it('names what is wrong in a web config, never echoing a password pasted instead of a hash', async () => {
    const bad = async (yaml: string): Promise<string> => {
      fs.writeFileSync(path.join(dir, 'bad.yml'), yaml);
      const err = await startMetricsEndpoint(rt, { listen: '127.0.0.1:0', webConfigFile: path.join(dir, 'bad.yml') }).then(
        () => new Error('accepted'),
        (e: unknown) => e as Error,
      );
      expect(err).toBeInstanceOf(MetricsEndpointError);
      return err.message;
    };
    expect(await bad('basic_auth_users:\n  reader: hunter2-plain\n')).toMatch(/basic_auth_users\.reader is not a bcrypt hash/);
    expect(await bad('basic_auth_users:\n  reader: hunter2-plain\n')).not.toContain('hunter2');
    expect(await bad('tls_server_config:\n  cert_file: missing.crt\n  key_file: server.key\n')).toMatch(/cert_file: .*missing\.crt cannot be read \(ENOENT\)/);
    expect(await bad('tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  cipher_suites: [x]\n')).toMatch(/cipher_suites is not supported/);
    expect(await bad('basic_auth_user: {}\n')).toMatch(/unknown key "basic_auth_user"/);
    expect(await bad('tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS10\n')).toMatch(/min_version must be TLS12 or TLS13/);
    expect(await bad(': : :\n  - [')).toMatch(/is not YAML/);
  });

  it('serves over TLS with basic auth off loopback, and answers 401 with WWW-Authenticate to wrong credentials', async () => {
    fs.writeFileSync(path.join(dir, 'web.yml'), `tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  reader: ${bcrypt.hashSync(PASSWORD, 4)}\n`);
    const secured = await startMetricsEndpoint(rt, { listen: '0.0.0.0:0', webConfigFile: path.join(dir, 'web.yml') });
    try {
      const url = secured.url.replace('0.0.0.0', '127.0.0.1');
      expect(url).toMatch(/^https:/);
      const basic = (user: string, pw: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}` });
      for (const headers of [{}, basic('reader', 'wrong'), basic('nobody', PASSWORD), { authorization: 'Bearer x' }]) {
        const r = await getTls(url, headers);
        expect(r.status).toBe(401);
        expect(r.headers['www-authenticate']).toBe('Basic realm="Fleetdeck metrics", charset="UTF-8"');
        expect(r.body).not.toContain('fleetdeck_');
      }
      for (let i = 0; i < 2; i++) {
        const ok = await getTls(url, basic('reader', PASSWORD));
        expect(ok.status).toBe(200);
        expect(ok.body).toContain('fleetdeck_system_level{');
      }
    } finally {
      await secured.close();
    }
  });
});
