import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ManifestSite {
  name: string;
  baseUrl: string;
  username: string;
  password: string;
  systems: string[];
}

/** Per-site counters of the simulator's control API. */
export interface SiteLoad {
  index: number;
  requests: number;
  inFlight: number;
  peakInFlight: number;
}

/** A simulator in its own process (its own event loop and core, as a real fleet would be), driven through its control server. */
export interface ChildSimulator {
  sites: ManifestSite[];
  status(): Promise<SiteLoad[]>;
  setFaults(site: number, faults: { latencyMs?: number; jitterMs?: number; errorRate?: number }): Promise<void>;
  /** Moves the simulated time of every site on by `seconds`: what its answers show of the time moves with it. */
  advanceClock(seconds: number): Promise<void>;
  /** The simulator process's CPU time so far (user + system), in ms; NaN where /proc is not there. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Clock ticks per second of /proc/PID/stat's times (Linux's USER_HZ, 100 on every build that matters here). */
const USER_HZ = 100;

/** A process's resident set in bytes from /proc/PID/status, NaN where it cannot be read. */
export function processRssBytes(pid: number | undefined): number {
  return statusKb(pid, 'VmRSS');
}

/** The largest RSS of a process since it started (`VmHWM`), in bytes; NaN where /proc has none. */
export function processPeakRssBytes(pid: number | undefined): number {
  return statusKb(pid, 'VmHWM');
}

function statusKb(pid: number | undefined, field: string): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** A process's CPU time (user + system) in ms from /proc/PID/stat, NaN where it cannot be read. */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15, the 12th and 13th after the name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return Number.NaN;
  }
}

export async function startChildSimulator(args: { sites: number; systems: number; seed: string; nodeArgs?: readonly string[] }): Promise<ChildSimulator> {
  const dir = await mkdtemp(join(tmpdir(), 'fleetdeck-bench-sim-'));
  const manifestPath = join(dir, 'manifest.json');
  const child: ChildProcess = spawn(
    process.execPath,
    [...(args.nodeArgs ?? []), '--import', 'tsx', 'simulator/cli.ts', '--sites', String(args.sites), '--systems', String(args.systems), '--seed', args.seed, '--manifest', manifestPath],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`simulator exited ${code}`)));
  });
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { sites: ManifestSite[]; control: string };
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(new URL(path, manifest.control), { method, ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
    if (!res.ok) throw new Error(`control ${method} ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  };
  return {
    sites: manifest.sites,
    status: async () => (await control('GET', '/status')) as SiteLoad[],
    setFaults: async (site, faults) => void (await control('POST', `/sites/${site}/faults`, faults)),
    advanceClock: async (seconds) => void (await control('POST', '/clock/advance', { seconds })),
    cpuMs: () => processCpuMs(child.pid),
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One function call site of a V8 CPU profile (`--cpu-prof`, or CDP's Profiler.stop). */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** A V8 CPU profile: `samples[i]` is the node on top of the stack `timeDeltas[i]` µs after the previous sample. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** One printed figure: name, value with unit, its baseline, and the goal. */
export interface Figure {
  name: string;
  value: string;
  baseline?: string;
  goal?: string;
  verdict?: 'meets goal' | 'MISSES goal' | 'no goal';
}

export function verdict(ok: boolean): 'meets goal' | 'MISSES goal' {
  return ok ? 'meets goal' : 'MISSES goal';
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const ms = (value: number): string => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;

/**
 * Lower bound of a refresh's wall time from the requests each site actually received (see
 * BENCHMARKS.md): each request takes at least the injected latency L; a site serves at most `cap`
 * at once; its discovery login and system list come first, alone (2 L); then each system's chain
 * login → select → reads → SMART is 4 deep; the fleet's requests in flight at once
 * ({@link fleetRequestCap}) bound all requests together; and main, one thread, cannot finish before
 * it has used the CPU time it used (`appCpuMs`, measured over the refresh).
 */
export function criticalPath(requestsPerSite: readonly number[], cap: number, globalCap: number, latency: number, appCpuMs = 0): { bound: number; perSite: number; global: number; cpu: number } {
  const perSite = Math.max(...requestsPerSite.map((r) => 2 * latency + Math.max(4 * latency, Math.ceil((r - 2) / cap) * latency)));
  const total = requestsPerSite.reduce((a, b) => a + b, 0);
  const global = Math.ceil(total / globalCap) * latency;
  return { bound: Math.max(perSite, global, appCpuMs), perSite, global, cpu: appCpuMs };
}

/**
 * The most requests the fleet has in flight at once with every site at `cap`: the fleet-wide request
 * cap, or the system refreshes running at once times what each keeps in flight (each site runs
 * half its cap of systems, which share its cap), whichever is lower.
 */
export function fleetRequestCap(cap: number, limits: { globalMaxInFlight: number; systemsAtOnce: number }): number {
  const systemsPerSite = Math.max(1, Math.ceil(cap / 2));
  return Math.min(limits.globalMaxInFlight, Math.floor(limits.systemsAtOnce / systemsPerSite) * cap);
}


/** What test/bench/rss-child.mjs prints: the main process's memory before, at the peak of and after refreshing every system. */
export interface RssChildResult {
  systems: number;
  ok: number;
  refreshMs: number;
  cacheBytes: number;
  before: { rss: number; heapUsed: number };
  peakRss: number;
  quickRss: number;
  after: { rss: number; heapUsed: number; heapTotal: number; external: number };
}

/** Runs test/bench/rss-child.mjs (a process of its own, so its RSS is the runtime's alone) on these sites. */
export async function runRssChild(sites: readonly ManifestSite[]): Promise<RssChildResult> {
  const dir = await mkdtemp(join(tmpdir(), 'fleetdeck-bench-rss-manifest-'));
  try {
    const manifest = join(dir, 'manifest.json');
    await writeFile(manifest, JSON.stringify({ sites }));
    const child = spawn(process.execPath, ['--expose-gc', 'test/bench/rss-child.mjs', manifest], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c));
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return JSON.parse(out.trim()) as RssChildResult;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
