/**
 * Simulator throughput: authenticated list requests over keep-alive connections.
 * Starts the simulator as a child process (its own event loop, as in real use), then fires a bounded
 * number of requests with N concurrent connections and prints requests/second. No assertions.
 *
 *   npx tsx test/bench/simulator-bench.ts [--connections 16] [--requests 20000]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

interface ManifestSite {
  baseUrl: string;
  username: string;
  password: string;
}

const { values } = parseArgs({ options: { connections: { type: 'string' }, requests: { type: 'string' } } });
const CONNECTIONS = Number(values.connections ?? 16);
const REQUESTS = Number(values.requests ?? 20_000);
const ROOT = new URL('../../', import.meta.url).pathname;

async function startChild(dir: string): Promise<{ site: ManifestSite; stop: () => void }> {
  const manifestPath = join(dir, 'manifest.json');
  const child = spawn(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', '--sites', '1', '--systems', '3', '--manifest', manifestPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`simulator exited ${code}`)));
  });
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { sites: ManifestSite[] };
  return { site: manifest.sites[0] as ManifestSite, stop: () => child.kill('SIGTERM') };
}

async function run(pool: Pool, token: string, paths: readonly string[], total: number): Promise<{ rps: number; errors: number; p99: number }> {
  let next = 0;
  let errors = 0;
  const latencies: number[] = [];
  const worker = async (): Promise<void> => {
    while (next < total) {
      const path = paths[next++ % paths.length] as string;
      const t = performance.now();
      const res = await pool.request({ path, method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      await res.body.arrayBuffer();
      latencies.push(performance.now() - t);
      if (res.statusCode !== 200) errors++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: total / seconds, errors, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'fleetdeck-bench-'));
  const { site, stop } = await startChild(dir);
  const pool = new Pool(site.baseUrl, { connections: CONNECTIONS, pipelining: 1 });
  try {
    const login = await pool.request({
      path: '/login',
      method: 'POST',
      headers: { 'content-type': 'application/json-patch+json' },
      body: JSON.stringify({ Username: site.username, Password: site.password, InactivityTimeoutInMinutes: 1440 }),
    });
    const token = ((await login.body.json()) as { SessionToken: string }).SessionToken;
    await run(pool, token, ['/hosts/list'], 2000); // warm-up (JIT, connections)
    const suites: Array<[string, string[]]> = [
      ['GET /Version (baseline)', ['/Version']],
      ['GET /hosts/list', ['/hosts/list']],
      ['mix of lists', ['/hosts/list', '/applications/list', '/nodes/list', '/users/list', '/templates/list', '/floatingips/list', '/notifications/query?top=50', '/systems/list', '/hosts/mappings/list', '/notifications/targets/list']],
    ];
    let baseline = 0;
    process.stdout.write(`simulator bench: ${CONNECTIONS} keep-alive connections, ${REQUESTS} requests per run\n`);
    for (const [name, paths] of suites) {
      const r = await run(pool, token, paths, REQUESTS);
      if (baseline === 0) baseline = r.rps;
      process.stdout.write(`${name.padEnd(26)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${r.p99.toFixed(1)} ms  errors ${r.errors}  (${((r.rps / baseline) * 100).toFixed(0)}% of baseline)\n`);
    }
  } finally {
    await pool.close();
    stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
