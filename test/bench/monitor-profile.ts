/**
 * Where `fleetdeck monitor` spends its CPU while it only polls: the `monitor` part's setup (1,000
 * systems, 100 sites × 10, 60 s interval, 25 ms latency), the monitor started with `--cpu-prof`,
 * and the profile's samples taken after its first full refresh (plus `--skip` seconds) summed by
 * function (self time) and by the outermost project frame. Prints, asserts nothing.
 * `--first` takes the samples of the first full refresh instead (from the "started" line to its end).
 *
 *   npx tsx test/bench/monitor-profile.ts [--first] [--minutes N] [--skip SECONDS] [--top N] [--keep DIR] [--root DIR]
 *
 * `--root` runs the `fleetdeck` of another checkout (built), to compare two builds under the same load.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ms, processCpuMs, ROOT, type CpuProfile, type ProfileNode } from './support.js';
import { addMonitorSites, spawnMonitor, startMonitorSimulator, writeSecretsFile } from './monitor-fleet.js';

const { values: flags } = parseArgs({ options: { minutes: { type: 'string' }, skip: { type: 'string' }, top: { type: 'string' }, keep: { type: 'string' }, root: { type: 'string' }, first: { type: 'boolean' } } });
const MINUTES = Number(flags.minutes ?? 2);
const SKIP_S = Number(flags.skip ?? 0);
const TOP = Number(flags.top ?? 40);

const monoUs = (): number => Number(process.hrtime.bigint() / 1000n);

const sim = await startMonitorSimulator();
const dir = flags.keep ?? mkdtempSync(join(tmpdir(), 'fleetdeck-monitor-profile-'));
mkdirSync(dir, { recursive: true });
const dataDir = join(dir, 'data');
const profDir = join(dir, 'prof');
try {
  await addMonitorSites(sim, dataDir);
  const secretsFile = join(dir, 'secrets.json');
  writeSecretsFile(sim, secretsFile);
  const child = spawnMonitor(flags.root ?? ROOT, dataDir, secretsFile, ['--cpu-prof', '--cpu-prof-dir', profDir]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const seen = (text: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const look = (): void => void (stderr.includes(text) && resolve());
      child.stderr.on('data', look);
      child.once('exit', (code) => reject(new Error(`monitor exited ${code}: ${stderr.slice(-2000)}`)));
      look();
    });
  let fromUs: number;
  let cpu0: number;
  if (flags.first) {
    await seen(' started: ');
    fromUs = monoUs();
    cpu0 = processCpuMs(child.pid);
    await seen('first refresh done');
  } else {
    await seen('first refresh done');
    process.stderr.write(`first refresh done; steady state for ${MINUTES} min\n`);
    await new Promise((r) => setTimeout(r, SKIP_S * 1000));
    fromUs = monoUs();
    cpu0 = processCpuMs(child.pid);
    await new Promise((r) => setTimeout(r, MINUTES * 60_000));
  }
  const cpuMs = processCpuMs(child.pid) - cpu0;
  const toUs = monoUs();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
  const wall = (toUs - fromUs) / 1000;
  process.stdout.write(`${flags.first ? 'first refresh' : 'steady state'}: ${cpuMs.toFixed(0)} ms CPU over ${ms(wall)} = ${((cpuMs / wall) * 100).toFixed(2)} % of a core; ${(stderr.match(/ → /g) ?? []).length} state changes logged\n`);

  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const p = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode): string => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\/out\/bundle\//, '').replace(/^.*node_modules\//, 'nm/')}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let t = p.startTime;
  let counted = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (t < fromUs || t > toUs) continue;
    const dt = p.timeDeltas[i + 1] ?? 0;
    const node = byId.get(p.samples[i] as number);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    counted += dt;
    self.set(name(node), (self.get(name(node)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const nm = name(byId.get(id) as ProfileNode);
      if (seen.has(nm)) continue;
      seen.add(nm);
      total.set(nm, (total.get(nm) ?? 0) + dt);
    }
  }
  const show = (title: string, m: Map<string, number>): void => {
    process.stdout.write(`\n${title} (ms of ${(counted / 1000).toFixed(0)} ms sampled, not idle)\n`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) process.stdout.write(`${(v / 1000).toFixed(0).padStart(8)}  ${k}\n`);
  };
  show('self', self);
  show('total (inclusive)', total);
} finally {
  await sim.stop();
  if (!flags.keep) rmSync(dir, { recursive: true, force: true });
}
