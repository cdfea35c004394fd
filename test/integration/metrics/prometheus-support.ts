import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';

/**
 * Debian's Prometheus for the tests: `promtool` and a `prometheus` server on a loopback port with
 * a temporary config and storage. Where the package is missing the tests that need it are skipped
 * with one line saying so, and `npm test` then fails (it counts a skip as a failure): CI installs
 * the package (scripts/setup), so there a missing package cannot pass unnoticed.
 */

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';
export const HAS_PROMETHEUS = existsSync(PROMETHEUS) && existsSync(PROMTOOL);
export const MISSING_PROMETHEUS = "Debian's prometheus package is not installed (apt-get install prometheus): the Prometheus tests are skipped";

export const ROOT = join(import.meta.dirname, '..', '..', '..');
export const RULES_FILE = join(ROOT, 'build', 'monitoring', 'fleetdeck-rules.yml');
export const DASHBOARD_FILE = join(ROOT, 'build', 'monitoring', 'fleetdeck-dashboard.json');

/** Runs promtool; its exit status and output. */
export function promtool(args: readonly string[], input?: string): { status: number | null; output: string } {
  const r = spawnSync(PROMTOOL, args, { input, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A free loopback port (Prometheus's web listener takes no port 0 it could tell us). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface PrometheusServer {
  url: string;
  /** What the server logged, for a failing test's message. */
  log(): string;
  /** A PromQL instant query's result vector. */
  query(expr: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  /** The query API's answer as it is (status and error for an expression it refuses). */
  queryRaw(expr: string): Promise<{ status: string; error?: string }>;
  alerts(): Promise<Array<{ labels: Record<string, string>; state: string }>>;
  targets(): Promise<Array<{ labels: Record<string, string>; health: string; lastError: string }>>;
  /** When each rule group was last evaluated, by group name (ms since the epoch). */
  lastEvaluations(): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

/** Starts `prometheus` with `configFile`, storage in `dir`; resolves once it is ready. */
export async function startPrometheus(configFile: string, dir: string): Promise<PrometheusServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(PROMETHEUS, [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const api = async <T>(path: string): Promise<T> => {
    const r = await fetch(`${url}${path}`);
    return (await r.json()) as T;
  };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}): ${log}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`prometheus not ready after 30 s: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    log: () => log,
    queryRaw: (expr) => api(`/api/v1/query?query=${encodeURIComponent(expr)}`),
    query: async (expr) => {
      const r = await api<{ status: string; error?: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }>(`/api/v1/query?query=${encodeURIComponent(expr)}`);
      if (r.status !== 'success') throw new Error(`query ${expr}: ${r.error ?? r.status}`);
      return r.data.result;
    },
    alerts: async () => (await api<{ data: { alerts: Array<{ labels: Record<string, string>; state: string }> } }>('/api/v1/alerts')).data.alerts,
    targets: async () => (await api<{ data: { activeTargets: Array<{ labels: Record<string, string>; health: string; lastError: string }> } }>('/api/v1/targets')).data.activeTargets,
    lastEvaluations: async () => new Map((await api<{ data: { groups: Array<{ name: string; lastEvaluation: string }> } }>('/api/v1/rules')).data.groups.map((g) => [g.name, Date.parse(g.lastEvaluation)])),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Waits until `check` answers something other than undefined, polling every 200 ms up to `ms`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`${what}: not seen within ${ms / 1000} s${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every metric name a PromQL expression reads: identifiers starting `fleetdeck_`, outside label matchers and strings. */
export function metricNames(expr: string): string[] {
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""').replace(/\{[^}]*\}/g, '{}');
  return [...new Set(bare.match(/\bfleetdeck_[a-zA-Z0-9_:]*/g) ?? [])];
}

/** The rules file's rules. */
export function readRules(file = RULES_FILE): Array<{ alert: string; expr: string; labels: Record<string, string> }> {
  const doc = parseYaml(readFileSync(file, 'utf8')) as { groups: Array<{ rules: Array<{ alert: string; expr: string; labels: Record<string, string> }> }> };
  return doc.groups.flatMap((g) => g.rules);
}

/** Every PromQL expression of the dashboard's panels, with Grafana's variables given values Prometheus accepts. */
export function dashboardExprs(file = DASHBOARD_FILE): string[] {
  const d = JSON.parse(readFileSync(file, 'utf8')) as { panels: Array<{ targets?: Array<{ expr: string }>; panels?: unknown[] }>; templating: { list: Array<{ query?: unknown }> } };
  const exprs: string[] = [];
  const walk = (panels: typeof d.panels): void => {
    for (const p of panels) {
      for (const t of p.targets ?? []) exprs.push(t.expr);
      if (p.panels) walk(p.panels as typeof d.panels);
    }
  };
  walk(d.panels);
  for (const v of d.templating.list) {
    const q = typeof v.query === 'string' ? v.query : (v.query as { query?: string } | undefined)?.query;
    const m = q ? /^label_values\((.*),\s*\w+\)$/.exec(q) : null;
    if (m) exprs.push(m[1] as string);
  }
  return exprs.map((e) => e.replace(/\$__rate_interval|\$__interval|\$__range/g, '5m').replace(/\$\{?(site|system)\}?/g, '.*'));
}
