import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_KINDS } from '../../../app/alerts/rules.js';
import { SECURE_BASELINE } from '../../../app/compliance/secure-baseline.js';
import { systemLevel } from '../../../app/health/connection.js';
import type { HealthBriefWire } from '../../../app/health/system-summary.js';
import { startMetricsEndpoint, type MetricsEndpoint } from '../../../main/metrics/endpoint.js';
import { openRuntime, type Runtime } from '../../../main/runtime.js';
import { generateCertificate } from '../../../simulator/tls.js';
import { startSimulator, type SimulatorHandle } from '../../../simulator/index.js';
import { dashboardExprs, eventually, HAS_PROMETHEUS, metricNames, MISSING_PROMETHEUS, promtool, readRules, RULES_FILE, startPrometheus, type PrometheusServer } from './prometheus-support.js';

/**
 * The endpoint, the shipped rules and the shipped dashboard with Debian's Prometheus: promtool
 * checks the rules and the page; a real server scrapes a runtime watching the simulator (plainly,
 * and over TLS with basic auth) and the series, alerts and dashboard queries are read back through
 * its HTTP API.
 */

if (!HAS_PROMETHEUS) console.warn(MISSING_PROMETHEUS);

const USER = 'prometheus';
const PASSWORD = 'scrape-pw-7%:x';

let sim: SimulatorHandle;
let dir: string;
let rt: Runtime;
let plain: MetricsEndpoint;
let secured: MetricsEndpoint;
let prom: PrometheusServer | undefined;
let page = '';

beforeAll(async () => {
  if (!HAS_PROMETHEUS) return;
  sim = await startSimulator({ demo: true, controlServer: false });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-prometheus-'));
  // The shipped checks with one made critical and one low: the rule's levels and its minimum severity are compared too.
  const severity: Record<string, string> = { 'pool-free-space': 'critical', 'users-two-step': 'low' };
  fs.mkdirSync(path.join(dir, 'data'));
  fs.writeFileSync(path.join(dir, 'data', 'compliance-baseline.json'), JSON.stringify({ ...SECURE_BASELINE, checks: SECURE_BASELINE.checks.map((c) => ({ ...c, severity: severity[c.id] ?? c.severity })) }));
  rt = await openRuntime({ dataDir: path.join(dir, 'data'), memorySecrets: true, timeoutMs: 10_000 });
  for (const s of sim.manifest.sites) await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
  await rt.fleet.refresh({ force: true });
  // Conditions for more of the rules than the demo fleet shows: a full pool, a pair behind, a site down.
  sim.control.fillPool({ site: 0 });
  const lagged = [0, 1].find((site) => {
    try {
      return !!sim.control.lagReplication({ site });
    } catch {
      return false;
    }
  });
  expect(lagged).toBeDefined();
  // A waiver in force: its check fails on every system of the site, and no alert is raised for it.
  rt.compliance.waive({ check: 'host-chap', siteId: rt.sites.list()[0]!.id, system: '', reason: 'accepted for the test', until: new Date(Date.now() + 86_400_000).toISOString() });
  await sim.control.siteDown(2);
  await rt.fleet.refresh({ force: true });
  plain = await startMetricsEndpoint(rt, { listen: '127.0.0.1:0' });
  page = await (await fetch(plain.url)).text();

  const cert = await generateCertificate();
  fs.writeFileSync(path.join(dir, 'server.crt'), cert.cert);
  fs.writeFileSync(path.join(dir, 'server.key'), cert.key, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'web.yml'), `tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  ${USER}: ${bcrypt.hashSync(PASSWORD, 8)}\n`);
  secured = await startMetricsEndpoint(rt, { listen: '127.0.0.1:0', webConfigFile: path.join(dir, 'web.yml') });
  fs.writeFileSync(path.join(dir, 'password'), PASSWORD);
  fs.copyFileSync(RULES_FILE, path.join(dir, 'rules.yml'));
  const target = (u: string): string => new URL(u).host;
  fs.writeFileSync(
    path.join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'rule_files: [rules.yml]',
      'scrape_configs:',
      `  - job_name: plain`,
      `    static_configs: [{ targets: ['${target(plain.url)}'] }]`,
      `  - job_name: secured`,
      `    scheme: https`,
      `    tls_config: { ca_file: server.crt }`,
      `    basic_auth: { username: ${USER}, password_file: password }`,
      `    static_configs: [{ targets: ['${target(secured.url)}'] }]`,
      `  - job_name: wrong-password`,
      `    scheme: https`,
      `    tls_config: { ca_file: server.crt }`,
      `    basic_auth: { username: ${USER}, password: not-the-password }`,
      `    static_configs: [{ targets: ['${target(secured.url)}'] }]`,
      '',
    ].join('\n'),
  );
  prom = await startPrometheus(path.join(dir, 'prometheus.yml'), dir);
}, 180_000);

afterAll(async () => {
  await prom?.stop();
  await plain?.close();
  await secured?.close();
  await rt?.close();
  await sim?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAS_PROMETHEUS)('metrics with Debian Prometheus', { timeout: 120_000 }, () => {
  it('promtool accepts the shipped rules', () => {
    const r = promtool(['check', 'rules', RULES_FILE]);
    expect(r.output).toContain(`SUCCESS: ${RULE_KINDS.length} rules found`);
    expect(r.status).toBe(0);
  });

  it("promtool check metrics passes on the endpoint's page of the simulated fleet", () => {
    expect(page).toMatch(/^fleetdeck_drive_status\{/m);
    const r = promtool(['check', 'metrics'], page);
    expect(r.output.trim()).toBe('');
    expect(r.status).toBe(0);
  });

  it('promtool check metrics catches a page that breaks the conventions (the check can fail)', () => {
    const r = promtool(['check', 'metrics'], `${page}# HELP fleetdeck_bad_count a counter named wrong\n# TYPE fleetdeck_bad_count counter\nfleetdeck_bad_count 1\n`);
    expect(r.status).not.toBe(0);
  });

  it('every metric the rules and the dashboard read is on the page', () => {
    const served = new Set([...page.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) => (type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name as string])));
    const exprs = [...readRules().map((r) => r.expr), ...dashboardExprs()];
    const named = new Set(exprs.flatMap(metricNames));
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((n) => !served.has(n))).toEqual([]);
  });

  it('Prometheus scrapes the plain and the TLS + basic auth endpoints, and refuses a wrong password', async () => {
    const p = prom!;
    const targets = await eventually('every target scraped once', async () => {
      const t = await p.targets();
      return t.length === 3 && t.every((x) => x.health !== 'unknown') ? t : undefined;
    });
    const health = Object.fromEntries(targets.map((t) => [t.labels.job, t]));
    expect(health.plain?.health, health.plain?.lastError).toBe('up');
    expect(health.secured?.health, health.secured?.lastError).toBe('up');
    expect(health['wrong-password']?.health).toBe('down');
    expect(health['wrong-password']?.lastError).toContain('401');
  });

  it("reads back each system's level as the views show it, through Prometheus's query API", async () => {
    const p = prom!;
    const briefs = JSON.parse(rt.summaries.summaries({ form: 'brief' }).json) as HealthBriefWire[];
    const states = new Map(rt.fleet.status().map((s) => [`${s.siteId}/${s.system}`, s.state]));
    const expected = Object.fromEntries(briefs.map((r) => [`${r.siteId}/${r.system}`, systemLevel(r.rollup, states.get(`${r.siteId}/${r.system}`))]));
    expect(Object.keys(expected)).toHaveLength(9);
    for (const job of ['plain', 'secured']) {
      const result = await eventually(`levels of ${job}`, async () => {
        const r = await p.query(`fleetdeck_system_level{job="${job}"} == 1`);
        return r.length === 9 ? r : undefined;
      });
      expect(Object.fromEntries(result.map((s) => [`${s.metric.site}/${s.metric.system}`, s.metric.level]))).toEqual(expected);
    }
  });

  it('every dashboard query is PromQL Prometheus accepts', async () => {
    const p = prom!;
    for (const expr of dashboardExprs()) expect(await p.queryRaw(expr), expr).toMatchObject({ status: 'success' });
  });

  it("the shipped rules fire for the simulated fleet exactly the built-in rules' alerts, at the same levels", async () => {
    const p = prom!;
    // What each alert is about, where a Prometheus alert names it too (a notification's record and a system's state do not).
    const SUBJECT: Partial<Record<string, (l: Record<string, string>) => string>> = {
      drive: (l) => `${l.node}/${l.drive}`,
      'pool-used': (l) => l.pool ?? '',
      'pool-full-days': (l) => l.pool ?? '',
      replication: (l) => `${l.application}/${l.volume}/${l.remote}`,
      compliance: (l) => l.check ?? '',
    };
    const builtIn = new Set(rt.alerts.list({ state: 'active' }).map((a) => `${a.rule} ${a.siteId}/${a.system} ${SUBJECT[a.rule] ? a.subject : ''} ${a.level}`));
    // The fleet shows what the comparison is worth: connection, drive, pool, replication, notification and compliance rules all see something.
    expect(new Set([...builtIn].map((a) => a.split(' ')[0]))).toEqual(new Set(['unreachable', 'drive', 'pool-used', 'pool-full-days', 'replication', 'notification', 'compliance']));
    const fired = await eventually('the rules evaluated', async () => {
      const a = (await p.alerts()).filter((x) => x.labels.job === 'plain' && x.state === 'firing');
      return a.length > 0 ? a : undefined;
    });
    // Evaluations continue while we wait: read again once every rule group has been evaluated twice more.
    for (let round = 0; round < 2; round++) {
      const before = await p.lastEvaluations();
      expect(before.size).toBeGreaterThan(0);
      await eventually('a rule evaluation', async () => {
        const now = await p.lastEvaluations();
        return [...before].every(([group, at]) => (now.get(group) ?? 0) > at) ? true : undefined;
      });
    }
    const again = (await p.alerts()).filter((x) => x.labels.job === 'plain' && x.state === 'firing');
    expect(again.length).toBeGreaterThanOrEqual(fired.length);
    const compliance = [...builtIn].filter((a) => a.startsWith('compliance '));
    expect(compliance.some((a) => a.startsWith('compliance ') && a.endsWith(' critical'))).toBe(true);
    expect(compliance.filter((a) => a.includes(' users-two-step ') || a.startsWith(`compliance ${rt.sites.list()[0]!.id}/`) && a.includes(' host-chap '))).toEqual([]);
    expect(compliance.some((a) => a.includes(' host-chap '))).toBe(true);
    const prometheus = new Set(again.map((a) => `${a.labels.fleetdeck_rule} ${a.labels.site}/${a.labels.system} ${SUBJECT[a.labels.fleetdeck_rule ?? '']?.(a.labels) ?? ''} ${a.labels.severity}`));
    if ([...prometheus].sort().join() !== [...builtIn].sort().join()) console.log('built-in:\n' + [...builtIn].sort().join('\n') + '\nprometheus:\n' + [...prometheus].sort().join('\n'));
    expect([...prometheus].sort()).toEqual([...builtIn].sort());
  });
});

describe('every built-in alert rule has its Prometheus rule', () => {
  it('maps each rule kind to one rule of the shipped file, with a severity', () => {
    const rules = readRules();
    for (const kind of RULE_KINDS) {
      const mine = rules.filter((r) => r.labels.fleetdeck_rule === kind);
      expect(mine, kind).toHaveLength(1);
      expect(mine[0]?.labels.severity, kind).toBeTruthy();
    }
    expect(rules).toHaveLength(RULE_KINDS.length);
  });
});
