import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/main.js';
import { openRuntime } from '../../main/runtime.js';
import { NO_OUTCOME_MESSAGE } from '../../main/store/action-log.js';
import { cacheKey } from '../../main/store/offline-cache.js';
import { startSimulator, type SimulatorHandle } from '../../simulator/index.js';
import { tempDir, until } from './support.js';

/**
 * End-to-end crash safety: a process running the real runtime (Fleet, offline cache, action log)
 * writes through `fleet.call` against the simulator while a refresh loop fills the cache, and is
 * killed with SIGKILL mid-run, twice. After each kill the data directory must open, the action log
 * must verify, and nothing the process acknowledged (printed after the call returned) may be lost.
 * The store-level version of this lives in test/unit/main/store/crash-safety.test.ts.
 */

const repo = fileURLToPath(new URL('../../', import.meta.url));
const runtimeModule = pathToFileURL(join(repo, 'main/runtime.ts')).href;

/** The worker: prints `opened`, then `write NAME` / `read NAME` after each call returned, `refreshed` after each refresh. */
const WORKER = `
import { openRuntime } from ${JSON.stringify(runtimeModule)};
const [dataDir, baseUrl, password, round] = process.argv.slice(2);
const rt = await openRuntime({ dataDir, memorySecrets: true, timeoutMs: 5000 });
const verify = rt.actionLog.verify();
process.stdout.write('opened ' + verify.count + ' ' + verify.ok + '\\n');
let site = rt.sites.get('crash-site');
if (site) await rt.fleet.login(site.id, { password });
else site = await rt.fleet.addSite({ name: 'crash-site', baseUrl, username: 'admin', password });
await rt.fleet.refresh({ force: true });
const system = rt.fleet.systemsOf(site.id)[0];
process.stdout.write('system ' + system + '\\n');
void (async () => {
  for (;;) {
    await rt.fleet.refresh({ force: true });
    process.stdout.write('refreshed\\n');
  }
})();
for (let i = 0; ; i++) {
  const name = 'r' + round + '-h' + i;
  await rt.fleet.call(site.id, system, 'POST /hosts/create', { body: { Name: name, Iqn: 'iqn.2026-01.io.fleetdeck:' + name } });
  process.stdout.write('write ' + name + '\\n');
  await rt.fleet.call(site.id, system, 'GET /hosts/list', { query: { name } });
  process.stdout.write('read ' + name + '\\n');
}
`;

/** Adds the site, refreshes, then makes one write that the system will never answer. */
const HANG_WORKER = `
import { openRuntime } from ${JSON.stringify(runtimeModule)};
const [dataDir, baseUrl, password] = process.argv.slice(2);
const rt = await openRuntime({ dataDir, memorySecrets: true, timeoutMs: 60000 });
const site = await rt.fleet.addSite({ name: 'hang-site', baseUrl, username: 'admin', password });
await rt.fleet.refresh({ force: true });
const system = rt.fleet.systemsOf(site.id)[0];
process.stdout.write('system ' + system + '\\n');
await rt.fleet.call(site.id, system, 'POST /hosts/create', { body: { Name: 'held-1', Iqn: 'iqn.2026-01.io.fleetdeck:held-1' } });
process.stdout.write('write held-1\\n');
`;

interface Worker {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
}

const children: ChildProcess[] = [];

function startWorker(script: string, args: readonly string[]): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLEETDECK_KEYCHAIN: 'memory' } });
  children.push(child);
  const w: Worker = { child, lines: [], stderr: [] };
  let buffered = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    w.lines.push(...parts);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => w.stderr.push(chunk));
  return w;
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  child.kill('SIGKILL');
  await exited;
  expect(child.signalCode).toBe('SIGKILL');
}

const acked = (w: Worker, kind: 'write' | 'read'): string[] => w.lines.filter((l) => l.startsWith(`${kind} `)).map((l) => l.slice(kind.length + 1));

describe('crash safety of the runtime (SIGKILL during cache writes and action-log appends)', () => {
  let sim: SimulatorHandle;
  const data = tempDir('fd-crash-');
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  beforeAll(async () => {
    sim = await startSimulator({ sites: 1, systems: 2, seed: 'reliability-crash', controlServer: false });
  });
  afterAll(async () => {
    await sim.close();
    data.remove();
  });

  it('keeps every acknowledged write and read, with a valid chain, across two kills and restarts', async () => {
    const script = join(data.dir, 'worker.mjs');
    writeFileSync(script, WORKER);
    const dataDir = join(data.dir, 'data');
    const site = sim.manifest.sites[0]!;
    const rounds: Worker[] = [];
    for (const round of [1, 2]) {
      const w = startWorker(script, [dataDir, site.baseUrl, site.password, String(round)]);
      rounds.push(w);
      // Killed while both loops run: cache puts from the refresh and appends from the writes interleave.
      await until(
        () => acked(w, 'write').length >= 40 && w.lines.filter((l) => l === 'refreshed').length >= 2,
        () => `round ${round}: ${acked(w, 'write').length} writes, ${w.lines.filter((l) => l === 'refreshed').length} refreshes; ${w.stderr.join('')}`,
        80_000,
      );
      await kill9(w.child);
    }
    // The restarted process opened the data directory and found a valid chain holding round 1's writes.
    const reopened = rounds[1]!.lines.find((l) => l.startsWith('opened '))?.split(' ');
    expect(reopened?.[2]).toBe('true');
    expect(Number(reopened?.[1])).toBeGreaterThanOrEqual(acked(rounds[0]!, 'write').length);

    const rt = await openRuntime({ dataDir, memorySecrets: true });
    try {
      expect(rt.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const verify = rt.actionLog.verify();
      expect(verify.problems).toEqual([]);
      const siteId = rt.sites.get('crash-site')!.id;
      const system = rounds[0]!.lines.find((l) => l.startsWith('system '))!.slice('system '.length);
      const logged = new Set(
        rt.actionLog
          .list({ siteId })
          .filter((r) => r.operation === 'POST /hosts/create' && r.result === 'ok')
          .map((r) => (r.params as { body?: { Name?: string } }).body?.Name),
      );
      const writes = rounds.flatMap((w) => acked(w, 'write'));
      const reads = rounds.flatMap((w) => acked(w, 'read'));
      expect(writes.length).toBeGreaterThanOrEqual(80);
      for (const name of writes) expect(logged.has(name), `acknowledged write ${name} is in the action log`).toBe(true);
      // Every write that reached the system, acknowledged or not (the last one of each round was
      // killed in flight), was recorded before it was sent.
      const intended = new Set(
        rt.actionLog
          .list({ siteId })
          .filter((r) => r.operation === 'POST /hosts/create')
          .map((r) => (r.params as { body?: { Name?: string } }).body?.Name),
      );
      const reached = sim.fleet.sites[0]!.systems.flatMap((s) => s.hosts.map((h) => h.name)).filter((n) => /^r\d-h\d+$/.test(n));
      expect(reached.length).toBeGreaterThanOrEqual(writes.length);
      for (const name of reached) expect(intended.has(name), `write ${name} reached the system and is in the action log`).toBe(true);
      for (const name of reads) {
        const hit = rt.cache.get(siteId, system, cacheKey('GET /hosts/list', { name }));
        expect((hit?.value as { Data?: Array<{ Name?: string }> } | undefined)?.Data?.[0]?.Name, `acknowledged read ${name} is cached`).toBe(name);
      }
      // The refresh loop's cache writes survived too: the system's full refresh is readable offline.
      expect(rt.fleet.cached(siteId, system, 'GET /Version')).toBeDefined();
    } finally {
      await rt.close();
    }
  }, 200_000);

  it('records a write before it is sent: killed while the system holds its answer, the write is listed as "outcome unknown"', async () => {
    const script = join(data.dir, 'hang-worker.mjs');
    writeFileSync(script, HANG_WORKER);
    const dataDir = join(data.dir, 'hang-data');
    const site = sim.manifest.sites[0]!;
    // The system applies the create but never answers it: the write is in flight for as long as we like.
    sim.control.setFaults(0, { hangPaths: ['/hosts/create'] });
    try {
      const w = startWorker(script, [dataDir, site.baseUrl, site.password]);
      const applied = (): boolean => sim.fleet.sites[0]!.systems.some((s) => s.hosts.some((h) => h.name === 'held-1'));
      await until(applied, () => `held-1 not on the system yet; ${w.lines.join(' | ')} ${w.stderr.join('')}`, 40_000);
      await kill9(w.child);
      expect(w.lines).not.toContain('write held-1');
    } finally {
      sim.control.setFaults(0, { hangPaths: [] });
    }
    const rt = await openRuntime({ dataDir, memorySecrets: true });
    try {
      const held = rt.actionLog.list().filter((r) => (r.params as { body?: { Name?: string } }).body?.Name === 'held-1');
      expect(held).toEqual([expect.objectContaining({ operation: 'POST /hosts/create', result: 'unknown', message: NO_OUTCOME_MESSAGE })]);
      expect(rt.actionLog.verify()).toMatchObject({ ok: true, problems: [] });
    } finally {
      await rt.close();
    }
    // The CLI and the IPC answer the UI reads say the same.
    const out: string[] = [];
    const code = await runCli(['log', '--data-dir', dataDir], { stdout: (t) => out.push(t), stderr: () => undefined, readStdin: async () => '', env: { FLEETDECK_KEYCHAIN: 'memory' } });
    expect(code).toBe(0);
    expect(out.join('').split('\n').find((l) => l.includes('POST /hosts/create'))).toMatch(/\toutcome unknown\tno outcome was recorded/);
    const ui = await openRuntime({ dataDir, memorySecrets: true });
    try {
      const listed = (await ui.handlers['log:list']({})) as Array<{ result: string; message: string }>;
      expect(listed.at(-1)).toMatchObject({ result: 'unknown', message: NO_OUTCOME_MESSAGE });
    } finally {
      await ui.close();
    }
  }, 90_000);
});
