/**
 * What a poll writes to the cache's file, alone: N systems of 8 answers each are stored once, then
 * polled R times as a poll ends (2 answers changed, 6 the same, read times a minute apart per round
 * on a fake clock): the answers through `OfflineCache.putRows` and the system's outcome through
 * `SystemOutcomes.put`, in one transaction when the checkout's `putRows` takes the outcome along
 * (else the outcome's own commit after it), with no automatic WAL checkpoint. Prints, per build,
 * the process CPU of those writes per round of the fleet, and per system poll the commits and the
 * WAL frames and bytes (read from the WAL file). Builds run interleaved
 * in one process (`--a DIR` another checkout's stores, this one's as `b`); asserts nothing. On a
 * shared machine the CPU figures vary by 5-10 % from run to run: compare the pairs of one run.
 *
 *   npx tsx test/bench/poll-writes.ts [--a DIR] [--systems 1000] [--rounds 12] [--pairs 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { SystemStatus } from '../../app/domain/site.js';
import { DATABASE_FILE, openDatabase } from '../../main/store/open.js';
import { OfflineCache, type CacheRow } from '../../main/store/offline-cache.js';
import { SystemOutcomes } from '../../main/store/system-outcomes.js';
import { walFrames, type WalFrames } from '../support/wal-frames.js';

const { values: flags } = parseArgs({ options: { a: { type: 'string' }, systems: { type: 'string' }, rounds: { type: 'string' }, pairs: { type: 'string' } } });
const SYSTEMS = Number(flags.systems ?? 1000);
const ROUNDS = Number(flags.rounds ?? 12);
const PAIRS = Number(flags.pairs ?? 3);
const KEYS = 8;
const CHANGING = 2;

type Db = ReturnType<typeof openDatabase>;
interface Cache {
  putRows(siteId: string, system: string, rows: readonly CacheRow[], alongside?: () => void): void;
  rowOf(key: string, value: unknown, at: Date | string, keepValue: boolean): CacheRow;
}
interface Build {
  name: string;
  openDatabase: (dir: string) => Db;
  Cache: new (o: { db: Db; clock: () => Date }) => Cache;
  Outcomes: new (db: Db) => Pick<SystemOutcomes, 'put'>;
}

/** An answer of about 1.5 kB; the first `CHANGING` keys of a system change at every round. */
function answer(system: number, key: number, round: number): unknown {
  return { Data: Array.from({ length: 20 }, (_, i) => ({ Name: `obj-${system}-${key}-${i}`, Size: i * 1000, State: 'Normal', Used: key < CHANGING ? round : i })) };
}

function run(b: Build): { cpuMs: number; wal: WalFrames; together: boolean } {
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-poll-writes-'));
  const db = b.openDatabase(dir);
  try {
    let now = Date.parse('2025-01-01T00:00:00Z');
    const cache = new b.Cache({ db, clock: () => new Date(now) });
    const outcomes = new b.Outcomes(db);
    // A checkout whose putRows takes a fourth parameter writes the outcome in its transaction.
    const together = cache.putRows.length >= 4;
    const write = (s: number, round: number): void => {
      const at = new Date(now);
      const rows = Array.from({ length: KEYS }, (_, k) => cache.rowOf(`GET /k${k}`, answer(s, k, round), at, true));
      const status: SystemStatus = { siteId: 'site', system: `sys${s}`, state: 'ok', lastSuccessAt: at.toISOString(), clockOffsetMs: 1200, clockSource: 'node-time' };
      if (together) cache.putRows('site', `sys${s}`, rows, () => outcomes.put(status));
      else {
        cache.putRows('site', `sys${s}`, rows);
        outcomes.put(status);
      }
    };
    for (let s = 0; s < SYSTEMS; s++) write(s, 0);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.prepare('PRAGMA wal_autocheckpoint = 0').get();
    let cpu = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      for (let s = 0; s < SYSTEMS; s++) {
        // The systems' polls spread over the minute.
        now += 60_000 / SYSTEMS;
        const c0 = process.cpuUsage();
        write(s, round);
        const c = process.cpuUsage(c0);
        cpu += (c.user + c.system) / 1000;
      }
    }
    return { cpuMs: cpu / ROUNDS, wal: walFrames(join(dir, `${DATABASE_FILE}-wal`)), together };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function buildOf(name: string, root: string | undefined): Promise<Build> {
  if (root === undefined) return { name, openDatabase, Cache: OfflineCache, Outcomes: SystemOutcomes };
  const open = (await import(join(root, 'main/store/open.ts'))) as { openDatabase: Build['openDatabase'] };
  const cache = (await import(join(root, 'main/store/offline-cache.ts'))) as { OfflineCache: Build['Cache'] };
  const outcomes = (await import(join(root, 'main/store/system-outcomes.ts'))) as { SystemOutcomes: Build['Outcomes'] };
  return { name, openDatabase: open.openDatabase, Cache: cache.OfflineCache, Outcomes: outcomes.SystemOutcomes };
}

const builds: Build[] = [];
if (flags.a) builds.push(await buildOf(`a (${flags.a})`, flags.a));
builds.push(await buildOf(flags.a ? 'b (this checkout)' : 'this checkout', undefined));
process.stdout.write(`${SYSTEMS} systems × ${KEYS} answers (${CHANGING} changing) and an outcome, ${ROUNDS} polls each\n`);
for (let p = 0; p < PAIRS; p++) {
  for (const b of builds) {
    const r = run(b);
    const per = (n: number): number => n / ROUNDS / SYSTEMS;
    process.stdout.write(
      `${b.name}: ${r.cpuMs.toFixed(0)} ms CPU per poll of the fleet; per system poll ${per(r.wal.commits).toFixed(2)} commits, ${per(r.wal.frames).toFixed(1)} WAL frames, ${(per(r.wal.bytes) / 1024).toFixed(1)} KiB (outcome ${r.together ? "in the answers' transaction" : 'in its own'})\n`,
    );
  }
}
