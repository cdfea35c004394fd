/**
 * The offline cache's writes of a first full refresh, alone: the answers one real refresh of a few
 * simulated systems hands to `OfflineCache.putRows` are captured once, then replayed as N systems
 * (one `putRows` per system, as a refresh does) into a fresh data dir, once per variant of the
 * cache's settings, each in its own process. Prints per variant the process CPU inside `putRows`
 * plus one last checkpoint of what the WAL still holds (so a variant that checkpoints less often is
 * not credited with work it only put off), the file's size and the WAL's largest; with `--strace`,
 * the write and sync syscalls of a second run under `strace -c -f`; with `--split`, the CPU per
 * statement (COMMIT, the upsert...; the timing itself adds some). Asserts nothing. On a shared
 * machine CPU figures vary by 5-20 % from run to run: repeat variants interleaved in one run.
 *
 *   npx tsx test/bench/cache-writes.ts [--systems 1000] [--variants base,ckpt4000,base,ckpt4000]
 *     [--strace] [--split] [--rows FILE]
 *
 * `--rows FILE`: the captured answers are kept in FILE and read from it when it exists (no refresh).
 *
 * Variants: `base` (as `openDatabase` leaves the file), `pageN` (a new file created with page size
 * N kB), `ckptN` (`wal_autocheckpoint = N` pages; `ckpt0`: none before the last), `cacheN`
 * (`cache_size = -N` KiB), `tempmem` (`temp_store = MEMORY`); joined with `+`: `page8k+ckpt500`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openRuntime } from '../../main/runtime.js';
import { connect, type Database, type Statement } from '../../main/store/driver.js';
import { CACHE_DATABASE, DATABASE_FILE, openDatabase } from '../../main/store/open.js';
import { OfflineCache, type CacheRow } from '../../main/store/offline-cache.js';
import { ROOT, startChildSimulator } from './support.js';

const { values: flags } = parseArgs({
  options: {
    systems: { type: 'string' },
    variants: { type: 'string' },
    strace: { type: 'boolean' },
    split: { type: 'boolean' },
    rows: { type: 'string' },
    // Internal: one variant's run in a child process.
    replay: { type: 'string' },
    variant: { type: 'string' },
    dir: { type: 'string' },
  },
});
const SYSTEMS = Number(flags.systems ?? 1000);
/** Systems per site, as in the monitor bench (100 sites × 10 systems). */
const PER_SITE = 10;

interface Captured {
  key: string;
  json: string;
  bytes: number;
}

if (flags.replay) await replay(flags.replay, flags.variant ?? 'base', flags.dir as string);
else await main();

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'fleetdeck-cache-writes-'));
  try {
    const file = flags.rows ?? join(work, 'rows.json');
    const templates = flags.rows && existsSync(flags.rows) ? (JSON.parse(readFileSync(flags.rows, 'utf8')) as Captured[][]) : await capture();
    if (!existsSync(file)) writeFileSync(file, JSON.stringify(templates));
    const rows = templates.reduce((n, t) => n + t.length, 0);
    const bytes = templates.reduce((n, t) => n + t.reduce((m, r) => m + r.bytes, 0), 0);
    process.stdout.write(`captured ${templates.length} systems' answers: ${(rows / templates.length).toFixed(0)} rows and ${(bytes / templates.length / 1024).toFixed(0)} kB per system; replaying ${SYSTEMS} systems\n`);
    const variants = (flags.variants ?? 'base,page8k,page16k,ckpt4000,page16k+ckpt1000,cache8000,tempmem').split(',');
    for (const v of variants) {
      const dir = join(work, v);
      const args = ['--import', 'tsx', join(ROOT, 'test/bench/cache-writes.ts'), '--replay', file, '--variant', v, ...(flags.split ? ['--split'] : []), '--dir', dir, '--systems', String(SYSTEMS)];
      const out = execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
      rmSync(dir, { recursive: true, force: true });
      let calls = '';
      if (flags.strace) {
        const trace = join(work, `${v}.strace`);
        const r = spawnSync('strace', ['-f', '-c', '-o', trace, process.execPath, ...args.slice(0, -4), '--dir', `${dir}-s`, '--systems', String(SYSTEMS)], { cwd: ROOT, encoding: 'utf8' });
        if (r.error || r.status !== 0) throw new Error(`strace run of ${v} failed (apt-get install -y strace?): ${r.error?.message ?? r.stderr}`);
        rmSync(`${dir}-s`, { recursive: true, force: true });
        calls = `; ${syscalls(readFileSync(trace, 'utf8'))}`;
      }
      process.stdout.write(`${v.padEnd(20)} ${out.trim()}${calls}\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Counts of the write and sync calls in `strace -c` output. */
function syscalls(summary: string): string {
  const counts = new Map<string, number>();
  for (const line of summary.split('\n')) {
    const f = line.trim().split(/\s+/);
    const name = f[f.length - 1];
    if (name && /^(pwrite64|pread64|fdatasync|fsync|write|read|fcntl|ftruncate)$/.test(name)) counts.set(name, Number(f[3]));
  }
  return [...counts].map(([n, c]) => `${n} ${c}`).join(', ');
}

/** One real full refresh of 2 sites × 3 systems: each system's rows as `putRows` received them. */
async function capture(): Promise<Captured[][]> {
  const sim = await startChildSimulator({ sites: 2, systems: 3, seed: 'bench-monitor' });
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-cache-capture-'));
  const bySystem = new Map<string, Captured[]>();
  const original = OfflineCache.prototype.putRows;
  OfflineCache.prototype.putRows = function (this: OfflineCache, siteId: string, system: string, rows: readonly CacheRow[]): void {
    const list = bySystem.get(`${siteId}/${system}`) ?? [];
    for (const r of rows) if (r.json !== undefined) list.push({ key: r.key, json: r.json, bytes: r.bytes });
    bySystem.set(`${siteId}/${system}`, list);
    original.call(this, siteId, system, rows);
  };
  try {
    const rt = await openRuntime({ dataDir: dir, memorySecrets: true, timeoutMs: 30_000 });
    for (const s of sim.sites) await rt.fleet.addSite({ name: s.name, baseUrl: s.baseUrl, username: s.username, password: s.password });
    await rt.fleet.refresh({ force: true });
    await rt.close();
  } finally {
    OfflineCache.prototype.putRows = original;
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return [...bySystem.values()].filter((rows) => rows.length > 0);
}

/** Creates the cache file as `createDatabaseFile` does, with the given page size first. */
function createWithPageSize(file: string, pageSize: number): void {
  const db = connect(file);
  db.pragma(`page_size = ${pageSize}`);
  db.transaction(() => {
    for (const m of CACHE_DATABASE.migrations) db.exec(m);
    db.pragma(`user_version = ${CACHE_DATABASE.migrations.length}`);
  })();
  db.close();
}

async function replay(file: string, variant: string, dir: string): Promise<void> {
  const templates = JSON.parse(readFileSync(file, 'utf8')) as Captured[][];
  const parts = variant.split('+');
  const page = parts.find((p) => p.startsWith('page'));
  if (page) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    createWithPageSize(join(dir, DATABASE_FILE), Number(page.slice(4, -1)) * 1024);
  }
  const db = openDatabase(dir);
  for (const p of parts) {
    if (p.startsWith('ckpt')) db.pragma(`wal_autocheckpoint = ${Number(p.slice(4))}`);
    else if (p.startsWith('cache')) db.pragma(`cache_size = -${Number(p.slice(5))}`);
    else if (p === 'tempmem') db.pragma('temp_store = MEMORY');
    else if (p !== 'base' && !p.startsWith('page')) throw new Error(`unknown variant part ${p}`);
  }
  const split = flags.split ? timeStatements(db) : undefined;
  const cache = new OfflineCache({ db, file: join(dir, DATABASE_FILE) });
  const wal = join(dir, `${DATABASE_FILE}-wal`);
  const at = new Date().toISOString();
  let cpu = 0;
  let sys = 0;
  let wall = 0;
  let walMax = 0;
  for (let i = 0; i < SYSTEMS; i++) {
    const t = templates[i % templates.length] as Captured[];
    const rows: CacheRow[] = t.map((r) => ({ key: r.key, json: r.json, bytes: r.bytes, at }));
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    cache.putRows(`site-${Math.floor(i / PER_SITE)}`, `system-${i % PER_SITE}`, rows);
    wall += performance.now() - w0;
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1000;
    sys += c.system / 1000;
    if (existsSync(wal)) walMax = Math.max(walMax, statSync(wal).size);
  }
  // What is still in the WAL is checkpointed by a later commit or at close: counted here, so a
  // variant that checkpoints less often is not credited with work it only put off.
  const c0 = process.cpuUsage();
  db.pragma('wal_checkpoint(PASSIVE)');
  const c = process.cpuUsage(c0);
  const last = (c.user + c.system) / 1000;
  cpu += last;
  sys += c.system / 1000;
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const fileBytes = statSync(join(dir, DATABASE_FILE)).size;
  db.close();
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const perStatement = split ? `; by statement: ${[...split].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', ')}` : '';
  process.stdout.write(`putRows + last checkpoint CPU ${cpu.toFixed(0)} ms (${(cpu / SYSTEMS).toFixed(2)} ms/system; system ${sys.toFixed(0)} ms, last checkpoint ${last.toFixed(0)} ms), wall ${wall.toFixed(0)} ms; page ${pageSize}; file ${mb(fileBytes)}, WAL max ${mb(walMax)}; RSS ${mb(process.memoryUsage().rss)}${perStatement}`);
}

/** Process CPU (ms) in each statement run on `db` from now on, by its first words. */
function timeStatements(db: Database): Map<string, number> {
  const spent = new Map<string, number>();
  const cpuNow = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const timed = <A extends unknown[], R>(name: string, f: (...a: A) => R) => (...a: A): R => {
    const t = cpuNow();
    try {
      return f(...a);
    } finally {
      spent.set(name, (spent.get(name) ?? 0) + cpuNow() - t);
    }
  };
  const exec = db.exec.bind(db);
  db.exec = (sql: string): void => timed(sql.split(' ')[0] ?? sql, exec)(sql);
  const prepare = db.prepare.bind(db);
  db.prepare = (<P extends unknown[], R>(sql: string): Statement<P, R> => {
    const stmt = prepare<P, R>(sql);
    const name = sql.trim().replace(/\s+/g, ' ').slice(0, 32);
    return { run: timed(name, stmt.run.bind(stmt)), get: timed(name, stmt.get.bind(stmt)), all: timed(name, stmt.all.bind(stmt)), iterate: stmt.iterate.bind(stmt) };
  }) as Database['prepare'];
  return spent;
}
