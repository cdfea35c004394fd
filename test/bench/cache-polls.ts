/**
 * The offline cache's writes while a monitor only polls, alone: N systems of 8 answers each are
 * stored once, then polled R times (one `putRows` per system, as a poll writes: 2 answers changed,
 * 6 the same, read times a minute apart per round on a fake clock), with no automatic WAL
 * checkpoint. Prints, per build, the process CPU inside `putRows` per round of the fleet and the
 * WAL bytes per system poll. Builds are run interleaved in one process (`--a DIR` another
 * checkout's `OfflineCache`, this one's as `b`); asserts nothing. On a shared machine the CPU
 * figures vary by 5-10 % from run to run: compare the pairs of one run.
 *
 *   npx tsx test/bench/cache-polls.ts [--a DIR] [--systems 1000] [--rounds 12] [--pairs 3]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DATABASE_FILE, openDatabase } from '../../main/store/open.js';
import { OfflineCache } from '../../main/store/offline-cache.js';

const { values: flags } = parseArgs({ options: { a: { type: 'string' }, systems: { type: 'string' }, rounds: { type: 'string' }, pairs: { type: 'string' } } });
const SYSTEMS = Number(flags.systems ?? 1000);
const ROUNDS = Number(flags.rounds ?? 12);
const PAIRS = Number(flags.pairs ?? 3);
const KEYS = 8;
const CHANGING = 2;

type Cache = Pick<OfflineCache, 'putRows' | 'rowOf'>;
type CacheClass = new (o: { db: ReturnType<typeof openDatabase>; clock: () => Date }) => Cache;

/** An answer of about 1.5 kB; the first `CHANGING` keys of a system change at every round. */
function answer(system: number, key: number, round: number): unknown {
  return { Data: Array.from({ length: 20 }, (_, i) => ({ Name: `obj-${system}-${key}-${i}`, Size: i * 1000, State: 'Normal', Used: key < CHANGING ? round : i })) };
}

function run(Cache: CacheClass): { cpuMs: number; walBytes: number } {
  const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-cache-polls-'));
  const db = openDatabase(dir);
  try {
    let now = Date.parse('2025-01-01T00:00:00Z');
    const cache = new Cache({ db, clock: () => new Date(now) });
    const write = (s: number, round: number): void => cache.putRows('site', `sys${s}`, Array.from({ length: KEYS }, (_, k) => cache.rowOf(`GET /k${k}`, answer(s, k, round), new Date(now), true)));
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
    return { cpuMs: cpu / ROUNDS, walBytes: statSync(join(dir, `${DATABASE_FILE}-wal`)).size / ROUNDS / SYSTEMS };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const builds: Array<[string, CacheClass]> = [];
if (flags.a) builds.push([`a (${flags.a})`, ((await import(join(flags.a, 'main/store/offline-cache.ts'))) as { OfflineCache: CacheClass }).OfflineCache]);
builds.push([flags.a ? 'b (this checkout)' : 'this checkout', OfflineCache]);
process.stdout.write(`${SYSTEMS} systems × ${KEYS} answers (${CHANGING} changing), ${ROUNDS} polls each\n`);
for (let p = 0; p < PAIRS; p++) {
  for (const [name, Cache] of builds) {
    const r = run(Cache);
    process.stdout.write(`${name}: putRows ${r.cpuMs.toFixed(0)} ms CPU per poll of the fleet; WAL ${(r.walBytes / 1024).toFixed(1)} KiB per system poll\n`);
  }
}
